"`import fncall` loads none of its modules; each name loads its own on first use, and `from fncall import *` still gives the whole API. Each check runs in a fresh interpreter"
import importlib, json, subprocess, sys
import fncall

def run(code):
    "What `code` prints (JSON), run in a fresh interpreter"
    return json.loads(subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, check=True).stdout)

MODS = "sorted(m for m in sys.modules if m.startswith('fncall'))"

def test_import_loads_nothing_more():
    assert run(f"import json, sys, fncall; print(json.dumps({MODS}))") == ['fncall']

def test_a_name_loads_its_module():
    assert run(f"import json, sys; from fncall import get_schema; print(json.dumps({MODS}))") == ['fncall', 'fncall.schema']
    assert 'fncall.python' not in run(f"import json, sys; from fncall import call_func; print(json.dumps({MODS}))")

def test_star_gives_every_module_all():
    want = [n for m in fncall._modules for n in importlib.import_module(f'fncall.{m}').__all__]
    assert run("import json; ns = {}; exec('from fncall import *', ns); print(json.dumps(sorted(k for k in ns if not k.startswith('__'))))") == sorted(want)
    assert fncall.__all__ == want and set(want) <= set(dir(fncall))

def test_names_read_from_source_match_the_modules():
    for m in fncall._modules: assert fncall._exports(m) == importlib.import_module(f'fncall.{m}').__all__, m

def test_python_stays_the_function():
    "Loading module fncall.python, however it happens, leaves `fncall.python` the function"
    for first in ('import fncall.python', 'from fncall.python import Sandbox', 'from fncall import FunctionRegistry', 'from fncall import *'):
        code = f"import json, fncall; {first}; from fncall import python; print(json.dumps([callable(fncall.python), python is fncall.python, type(python).__name__]))"
        assert run(code) == [True, True, 'function'], first

def test_modules_and_unknown_names():
    assert run("import json, fncall; print(json.dumps([fncall.schema.__name__, fncall.runner.__name__]))") == ['fncall.schema', 'fncall.runner']
    assert run("import json, fncall\ntry: fncall.nope\nexcept AttributeError as e: print(json.dumps(str(e)))") == "module 'fncall' has no attribute 'nope'"

def test_methods_added_by_another_module_are_there():
    "FunctionRegistry.loop comes from fncall.loop, which loads with fncall.tools however that loads"
    for first in ('from fncall import FunctionRegistry', 'from fncall.tools import FunctionRegistry', 'import fncall.tools as t; FunctionRegistry = t.FunctionRegistry'):
        assert run(f"import json; {first}; print(json.dumps([callable(FunctionRegistry.loop), callable(FunctionRegistry.astream)]))") == [True, True], first
