"The differences nbs/coming_from.ipynb claims, checked against fastcore.funccall and toolslm as installed"
import inspect, os, threading, enum
from functools import partial
from typing import Literal
import pytest
from pydantic import BaseModel, Field
import fncall
fc = pytest.importorskip('fastcore.funccall')

class Account:
    "A bank account"
    def __init__(self): self.password = 'hunter2'
    def balance(self)->int:
        "The balance"
        return 100

def add(a:int, # First number
        b:int=1, # Second number
       )->int:
    "Add `a` and `b`"
    return a + b

class Color(enum.Enum): red = 'red'; blue = 'blue'

def paint(mode:Literal['fast', 'slow'], # How
          color:str='red', # Which
         )->str:
    "Paint"
    return f'{mode} {color}'

def tint(color:Color, # Which
        )->str:
    "Tint"
    return color.value

class Pt(BaseModel):
    x: int = Field(ge=0)

def norm(p:Pt, # A point
        )->int:
    "Norm"
    return p.x

_same = ['get_schema', 'handle_type', 'mk_ns', 'resolve_nm', 'get_schema_nm', 'coerce_inputs', 'call_func', 'call_func_async',
         'mk_param', 'schema2sig', 'mk_tool']

@pytest.mark.parametrize('nm', _same)
def test_same_signatures(nm):
    assert list(inspect.signature(getattr(fncall, nm)).parameters) == list(inspect.signature(getattr(fc, nm)).parameters)

def test_same_schema():
    assert fncall.get_schema(add) == fc.get_schema(add)

def test_dotted_names():
    ns = {'acct': Account()}
    assert fc.call_func('acct.password.upper', {}, ns=ns) == 'HUNTER2'
    assert 'not allowed' in fncall.call_func('acct.password.upper', {}, ns=ns, raise_on_err=False)
    assert fc.call_func('acct.balance', {}, ns=ns) == fncall.call_func('acct.balance', {}, ns=ns) == 100

def test_unnamed_in_ns():
    assert fc.mk_ns([partial(os.listdir)]) == {}
    with pytest.raises(TypeError, match="can't name"): fncall.mk_ns([partial(os.listdir)])

def test_arguments():
    with pytest.raises(TypeError): fc.call_func('add', {'a': '2', 'b': 3}, ns=[add])  # '2' + 3 inside `add`
    assert fncall.call_func('add', {'a': '2', 'b': 3}, ns=[add]) == 5
    assert fc.call_func('add', {'a': 2.5}, ns=[add]) == 3.5
    assert 'valid integer' in fncall.call_func('add', {'a': 2.5}, ns=[add], raise_on_err=False)
    assert fc.call_func('paint', {'mode': 'zz', 'color': 'red'}, ns=[paint]) == 'zz red'

def test_errors():
    res = fc.call_func('add', {'a': 1, 'c': 2}, ns=[add], raise_on_err=False)
    assert res.startswith('Traceback') and 'fastcore' in res
    with pytest.raises(KeyError): fc.call_func('sub', {}, ns=[add], raise_on_err=False)
    assert fncall.call_func('sub', {}, ns=[add], raise_on_err=False) == "Error: Tool 'sub' is not in the namespace"
    assert 'c: unknown argument' in fncall.call_func('add', {'a': 1, 'c': 2}, ns=[add], raise_on_err=False)

def test_batches():
    assert not hasattr(fc, 'call_funcs') and not hasattr(fc, 'call_funcs_async')

def test_types():
    p = fc.get_schema(paint)['input_schema']['properties']
    assert 'enum' not in p['mode'] and p['mode']['type'] != 'string'
    assert fncall.get_schema(paint)['input_schema']['properties']['mode']['enum'] == ['fast', 'slow']
    with pytest.raises(TypeError): fc.get_schema(tint)
    assert fncall.get_schema(tint)['input_schema']['properties']['color']['enum'] == ['red', 'blue']
    assert list(fc.get_schema(norm)['input_schema']['$defs']['Pt']['properties']) == ['data']
    assert fncall.get_schema(norm)['input_schema']['$defs']['Pt']['properties']['x']['minimum'] == 0

def test_providers():
    assert not hasattr(fc, 'tool_schema')
    assert fncall.tool_schema(add, 'openai')['type'] == 'function'

def _in_thread(f):
    res = []
    t = threading.Thread(target=lambda: res.append(_try(f)), daemon=True)
    t.start(); t.join(30)
    assert res, 'no answer within 30 s'
    return res[0]

def _try(f):
    try: return f()
    except Exception as e: return e

def test_python_tool():
    minipy = pytest.importorskip('toolslm.minipy').minipy
    assert list(inspect.signature(minipy).parameters) == list(inspect.signature(fncall.python).parameters)
    g = {}
    minipy('x = 1', glb=g); assert minipy('x * 10', glb=g) == 10
    assert minipy('y = 2', glb=g) == 10  # the earlier call's value, from `_result`
    g = {}
    fncall.python('x = 1', glb=g); assert fncall.python('x * 10', glb=g) == 10
    assert fncall.python('y = 2', glb=g) == '' and '_result' not in g
    assert isinstance(_in_thread(lambda: minipy('1', glb={}, timeout=1)), ValueError)  # signal only works in main thread
    assert 'TimeoutError' in _in_thread(lambda: fncall.python('while True: pass', glb={}, timeout=0.5))

def test_same_returns_line():
    "The return's type and docments comment end the description as `Returns:`, in both"
    def sub(a:int, # First number
            b:int=1, # Second number
           )->int: # The difference
        "Subtract `b` from `a`"
        return a - b
    assert fc.get_schema(sub) == fncall.get_schema(sub)
    assert fncall.get_schema(sub)['description'].endswith('Returns:\n- The difference (type: integer)')

class Box:
    "Holds things"
    def __init__(self): self._key = 'k'
    @property
    def size(self)->int: return 3
    def _peek(self)->str: return self._key

def test_names_refused():
    "fncall refuses `_` names, modules and descriptors that fastcore follows"
    ns = {'box': Box(), 'os': os}
    assert fc.call_func('box._peek', {}, ns=ns) == 'k'
    assert 'not allowed' in fncall.call_func('box._peek', {}, ns=ns, raise_on_err=False)
    assert fc.call_func('os.getcwd', {}, ns=ns) == os.getcwd()
    assert 'reaches into module' in fncall.call_func('os.getcwd', {}, ns=ns, raise_on_err=False)
    assert 'is a property' in fncall.call_func('box.size', {}, ns=ns, raise_on_err=False)

def test_concurrent_calls():
    "call_funcs runs a batch concurrently (two calls that wait for each other both finish), each with a timeout"
    meeting = threading.Barrier(2, timeout=5)
    def meet(who:str)->str:
        "Wait for the other"
        meeting.wait(); return who
    assert fncall.call_funcs([('meet', {'who': 'Ann'}), ('meet', {'who': 'Bob'})], ns=[meet]) == ['Ann', 'Bob']
    assert 'timeout' in inspect.signature(fncall.call_funcs).parameters

def test_provider_formats():
    for p in ('anthropic', 'openai', 'gemini', 'mcp'): assert fncall.tool_schema(add, p)
    assert fncall.tool_schema(add, 'openai', strict=True)['function']['strict'] is True
    assert not hasattr(fc, 'check_schema') and callable(fncall.check_schema)

def test_beyond():
    "fncall's parsers, registry, loop and MCP bridge have no counterpart in fastcore.funccall"
    names = ('parse', 'ToolCallParser', 'FunctionRegistry', 'mcp_tools', 'mcp_server', 'Sandbox')
    assert not any(hasattr(fc, n) for n in names) and all(hasattr(fncall, n) for n in names)
    assert callable(fncall.FunctionRegistry.loop)
