__version__ = "0.0.1"

from .schema import *
from .call import *
from .python import *
from .mktool import *
from .providers import *
from .pycall import *
from .parse import *
from .tools import *
from .mcp import *
from .loop import *
