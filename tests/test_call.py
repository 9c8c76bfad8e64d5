"A model cannot leave the namespace: escape attempts against call_func and call_func_async"
import asyncio, os, subprocess, pytest
from fncall.call import call_func, call_func_async, resolve_nm, mk_ns

class Obj:
    "An object with a public method and private state"
    secret = 'hidden'
    def __init__(self): self._key = 'k'
    def f(self, a:int): "public"; return a
    def _g(self): "private"; return 'private'

def sums(a:int, b:int): "sums"; return a + b
obj = Obj()
NS = {'sums': sums, 'obj': obj, 'os': os, 'subprocess': subprocess}

ESCAPES = [
    'sums.__globals__', 'sums.__class__', 'sums.__code__', 'sums.__class__.__base__.__subclasses__',
    'obj.__class__.__init__.__globals__', 'obj._g', 'obj._key', 'obj.__dict__', 'obj.__init__',
    '__builtins__', '__import__', 'eval', 'exec', 'getattr', 'open', 'os.system', 'os.popen', 'subprocess.run',
    'os.path.join', 'obj.f.__func__', 'obj.f.__self__', 'obj.secret', '', '.', 'sums.', '.sums', 'sums..f',
    'sums()', 'sums; import os', 'obj-_g', 'obj-__class__', 'sums-__globals__', '_private', 'sums/../os',
]

@pytest.mark.parametrize('nm', ESCAPES)
def test_escape_sync(nm):
    with pytest.raises(NameError): call_func(nm, {}, ns=NS)
    r = call_func(nm, {}, ns=NS, raise_on_err=False)
    assert r.startswith('Error: Tool') and 'Traceback' not in r

@pytest.mark.parametrize('nm', ESCAPES)
def test_escape_async(nm):
    with pytest.raises(NameError): asyncio.run(call_func_async(nm, {}, ns=NS))
    assert asyncio.run(call_func_async(nm, {}, ns=NS, raise_on_err=False)).startswith('Error: Tool')

def test_escapes_count(): assert len(ESCAPES) >= 15

def test_globals_namespace():
    "Even with globals() as the namespace, only its own callables are reachable"
    g = {'os': os, 'sums': sums, '__builtins__': __builtins__}
    assert call_func('sums', {'a': 1, 'b': 2}, ns=g) == 3
    for nm in ('os.system', '__builtins__.eval', 'os.environ.copy'):
        with pytest.raises(NameError): call_func(nm, {}, ns=g)

def test_allowed():
    assert call_func('obj.f', {'a': '3'}, ns=NS) == 3
    assert call_func('obj-f', {'a': 3}, ns=NS) == 3
    assert asyncio.run(call_func_async('obj.f', {'a': 3}, ns=NS)) == 3

def test_not_callable():
    with pytest.raises(NameError, match='not callable'): call_func('obj.secret', {}, ns={'obj': obj})
    assert call_func('x', {}, ns={'x': 3}, raise_on_err=False) == "Error: Tool 'x' is not callable"

def test_mk_ns_rejects_unnamed():
    with pytest.raises(TypeError): mk_ns([lambda: 1, 3])

def test_call_funcs_script_and_running_loop():
    "call_funcs works from plain code and from inside a running event loop (as in a notebook), with async tools too"
    from fncall.call import call_funcs, call_funcs_async
    async def aadd(a:int, b:int): "add later"; await asyncio.sleep(0.01); return a + b
    calls = [('sums', {'a': 1, 'b': 2}), ('aadd', {'a': '3', 'b': 4}), ('nope', {})]
    want = [3, 7, "Error: Tool 'nope' is not in the namespace"]
    assert call_funcs(calls, [sums, aadd]) == want
    async def inside(): return call_funcs(calls, [sums, aadd]), await call_funcs_async(calls, [sums, aadd])
    assert asyncio.run(inside()) == (want, want)
