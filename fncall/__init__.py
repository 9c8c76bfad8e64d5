__version__ = "0.0.1"

from .schema import *
from .call import *
from .python import *
from .providers import *
from .mktool import *
from .pycall import *
from .mcp import *
