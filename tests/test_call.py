"A model cannot leave the namespace: escape attempts against call_func and call_func_async"
import asyncio, inspect, os, subprocess, sys, threading, time, pytest
from types import SimpleNamespace
from pydantic import BaseModel
from fncall.call import call_func, call_func_async, call_funcs, call_funcs_async, resolve_nm, mk_ns
from fncall.parse import ToolCall
from timing import ends_by

class Obj:
    "An object with a public method and private state"
    secret = 'hidden'
    def __init__(self): self._key = 'k'
    def f(self, a:int): "public"; return a
    def _g(self): "private"; return 'private'

class Shady:
    "Forwards unknown attributes to `os`; has a property, a module and a builtin as attributes"
    ran = []
    mod = os
    def __init__(self): self.run = os.system
    def __getattr__(self, s): return getattr(os, s)
    @property
    def p(self): Shady.ran.append('p'); return os.system

def sums(a:int, b:int): "sums"; return a + b
obj = Obj()
NS = {'sums': sums, 'obj': obj, 'os': os, 'subprocess': subprocess, 'sh': Shady(), 'Shady': Shady,
      'cfg': {'k': 1}, 'lst': [1, 2], 'Obj': Obj}

ESCAPES = [
    'sums.__globals__', 'sums.__class__', 'sums.__code__', 'sums.__class__.__base__.__subclasses__',
    'obj.__class__.__init__.__globals__', 'obj._g', 'obj._key', 'obj.__dict__', 'obj.__init__',
    '__builtins__', '__import__', 'eval', 'exec', 'getattr', 'open', 'os.system', 'os.popen', 'subprocess.run',
    'os.path.join', 'obj.f.__func__', 'obj.f.__self__', 'obj.secret', '', '.', 'sums.', '.sums', 'sums..f',
    'sums()', 'sums; import os', 'obj-_g', 'obj-__class__', 'sums-__globals__', '_private', 'sums/../os',
    # through `__getattr__`, properties, modules and builtins held as attributes, builtin methods, metaclass attributes
    'sh.system', 'sh.popen', 'sh.p', 'sh.mod', 'sh.mod.system', 'sh-mod-system', 'sh.run', 'Shady.mod.system',
    'cfg.clear', 'cfg.pop', 'cfg.update', 'lst.pop', 'lst.append', 'cfg.keys', 'Shady.mro', 'Obj.mro', 'obj.f.register',
]

@pytest.mark.parametrize('nm', ESCAPES)
def test_escape_sync(nm):
    with pytest.raises(NameError): call_func(nm, {}, ns=NS)
    r = call_func(nm, {}, ns=NS, raise_on_err=False)
    assert r.startswith('Error: Tool') and 'Traceback' not in r

@pytest.mark.parametrize('nm', ESCAPES)
def test_escape_async(nm):
    with pytest.raises(NameError): asyncio.run(call_func_async(nm, {}, ns=NS))
    r = asyncio.run(call_func_async(nm, {}, ns=NS, raise_on_err=False))
    assert r.startswith('Error: Tool') and 'Traceback' not in r and '\n' not in r

def test_no_getter_runs():
    "Resolving names runs no property getter (nor `__getattr__`, which would find os.system)"
    for nm in ('sh.p', 'sh.system'): call_func(nm, {}, ns=NS, raise_on_err=False)
    assert Shady.ran == []

def test_refusal_messages():
    msg = lambda nm: call_func(nm, {}, ns=NS, raise_on_err=False)
    assert msg('cfg.clear') == "Error: Tool 'cfg.clear' is not allowed: 'clear' is a built-in"
    assert msg('lst.pop') == "Error: Tool 'lst.pop' is not allowed: 'pop' is a built-in"
    assert msg('sh.run') == "Error: Tool 'sh.run' is not allowed: 'run' is a built-in"
    assert msg('sh.p') == "Error: Tool 'sh.p' is not allowed: 'p' is a property"
    assert msg('sh.mod') == "Error: Tool 'sh.mod' is not allowed: 'mod' is a module"
    assert msg('sh.system') == "Error: Tool 'sh.system' is not in the namespace"
    assert msg('os.system') == "Error: Tool 'os.system' is not allowed: it reaches into module 'os'"

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

def test_reachable():
    "What a model may reach: public methods (bound), static and class methods, slots and instance attributes, nested objects"
    class Tools:
        __slots__ = ('helper',)
        def __init__(self): self.helper = obj
        def m(self, x:int): return x + 1
        @staticmethod
        def st(x:int): return x * 2
        @classmethod
        def cm(cls): return cls.__name__
    t = Tools()
    ns = {'t': t, 'Tools': Tools, 'n': SimpleNamespace(f=sums)}
    assert call_func('t.m', {'x': '1'}, ns=ns) == 2
    assert call_func('t.st', {'x': 2}, ns=ns) == 4
    assert call_func('t.cm', {}, ns=ns) == call_func('Tools.cm', {}, ns=ns) == 'Tools'
    assert call_func('t.helper.f', {'a': 5}, ns=ns) == 5
    assert call_func('n.f', {'a': 1, 'b': 2}, ns=ns) == 3
    assert call_func('dir', {}, ns={'dir': dir}, raise_on_err=False).startswith("Error: tool 'dir' can't be called")
    assert call_func('pop', {}, ns={'pop': [1].pop}) == 1  # a builtin placed in the namespace by name is the user's choice

def test_mk_ns_rejects_unnamed():
    with pytest.raises(TypeError, match="can't name 3"): mk_ns([sums, 3])
    with pytest.raises(TypeError, match="can't name <function .*<lambda>"): mk_ns([lambda: 1, lambda: 2])
    with pytest.raises(TypeError, match="can't name functools.partial"):
        import functools; mk_ns([functools.partial(sums, 1)])

def _twin():
    def sums(a, b): return a - b
    return sums

def test_mk_ns_rejects_duplicates():
    with pytest.raises(ValueError, match="two different tools named 'sums'"): mk_ns([sums, _twin()])
    with pytest.raises(ValueError, match="two different tools named 'sums'"): mk_ns([{'sums': sums}, {'sums': print}])
    assert mk_ns([sums, sums, {'sums': sums}]) == {'sums': sums}
    twin = _twin()
    assert mk_ns({'sums': sums, 'minus': twin}) == {'sums': sums, 'minus': twin}  # a mapping's keys are the user's choice

def test_call_funcs_script_and_running_loop():
    "call_funcs works from plain code and from inside a running event loop (as in a notebook), with async tools too"
    from fncall.call import call_funcs, call_funcs_async
    async def aadd(a:int, b:int): "add later"; await asyncio.sleep(0.01); return a + b
    calls = [('sums', {'a': 1, 'b': 2}), ('aadd', {'a': '3', 'b': 4}), ('nope', {})]
    want = [3, 7, "Error: Tool 'nope' is not in the namespace"]
    assert call_funcs(calls, [sums, aadd]) == want
    async def inside(): return call_funcs(calls, [sums, aadd]), await call_funcs_async(calls, [sums, aadd])
    assert asyncio.run(inside()) == (want, want)

def nap(s:float): "Sleep"; time.sleep(s); return s

def meeting(n):
    "A tool that returns only once `n` calls of it are running at once (a serial or queued run breaks the barrier: BrokenBarrierError)"
    b = threading.Barrier(n, timeout=30)
    def meet(i:int): "Wait for the others"; b.wait(); return i
    return meet

def test_gather_three_sync():
    "Three sync tools under asyncio.gather run at once: each waits for the other two"
    meet = meeting(3)
    async def main(): return await asyncio.gather(*[call_func_async('meet', {'i': i}, [meet]) for i in range(3)])
    assert asyncio.run(main()) == [0, 1, 2]

def test_many_sync_do_not_wait_for_each_other():
    "Twelve sync tools (more than asyncio's default pool has workers) all run at once: none waits, none times out"
    meet, calls = meeting(12), [('meet', {'i': i}) for i in range(12)]
    async def main():
        return (await asyncio.gather(*[call_func_async(*c, [meet]) for c in calls]), await call_funcs_async(calls, [meet], timeout=20))
    assert asyncio.run(main()) == (list(range(12)),)*2
    assert call_funcs(calls, [meet], timeout=20) == list(range(12))

def test_timeout_is_per_call_in_both():
    "A hung tool times out alone: the calls beside it answer, and the batch returns without waiting for it"
    release = threading.Event()
    def nap(s:float): "Sleep, or hang until released"; release.wait(60) if s < 0 else time.sleep(s); return s
    calls = [('nap', {'s': 0.01}), ('nap', {'s': -1}), ('nap', {'s': 0.01})]
    want = [0.01, "Error: tool 'nap' timed out after 1 s", 0.01]
    try:
        with ends_by(1): assert call_funcs(calls, [nap], timeout=1) == want
        with ends_by(1): assert asyncio.run(call_funcs_async(calls, [nap], timeout=1)) == want
        with pytest.raises(TimeoutError): call_funcs(calls[1:], [nap], raise_on_err=True, timeout=0.3)
    finally: release.set()

def test_malformed_entries_are_their_own_errors():
    calls = ['nap', ('nap',), None, ('nap', {'s': 0}), {'name': 'nap', 'arguments': '{"s": 0}'}]
    res = call_funcs(calls, [nap])
    assert res[0] == ("Error: can't read tool call 0 of the batch from 'nap': a call is a (name, inputs) pair, "
                      "a dict with 'name' (or 'tool') and 'arguments', or an object with tool_name and parameters")
    assert res[1].startswith("Error: can't read tool call 1 of the batch from ('nap',)")
    assert res[2].startswith("Error: can't read tool call 2 of the batch from None")
    assert res[3:] == [0, 0]
    assert asyncio.run(call_funcs_async(calls, [nap])) == res
    with pytest.raises(TypeError, match='tool call 0'): call_funcs(calls, [nap], raise_on_err=True)
    with pytest.raises(TypeError, match='tool call 0'): asyncio.run(call_funcs_async(calls, [nap], raise_on_err=True))

def test_toolcall_objects():
    "Parsed ToolCalls, and anything else with tool_name and parameters, are calls"
    calls = [ToolCall('sums', {'a': '1', 'b': 2}, id='c1'), SimpleNamespace(tool_name='nap', parameters={'s': 0}),
             {'tool_name': 'sums', 'parameters': {'a': 2, 'b': 2}}]
    assert call_funcs(calls, [sums, nap]) == [3, 0, 4]
    assert asyncio.run(call_funcs_async(calls, [sums, nap])) == [3, 0, 4]

class Item(BaseModel):
    name:str
    qty:int=1

def order(items:list[Item], gift:Item|None=None): "Place an order"; return items, gift

def test_pydantic_models_from_dicts():
    items, gift = call_func('order', {'items': [{'name': 'tea', 'qty': '2'}, '{"name": "cake"}'], 'gift': {'name': 'pen'}}, ns=[order])
    assert items == [Item(name='tea', qty=2), Item(name='cake')] and gift == Item(name='pen')
    r = call_func('order', {'items': [{'name': 'tea', 'qty': 'lots'}]}, ns=[order], raise_on_err=False)
    assert r.startswith("Error: invalid arguments for tool 'order':\nitems.0: qty: expected integer, got 'lots'"), r
    assert asyncio.run(call_funcs_async([('order', {'items': [{'name': 'x'}]})], [order])) == [([Item(name='x')], None)]

def bye(code:int=3): "Exit"; sys.exit(code)
def interrupt(): "Ctrl-C"; raise KeyboardInterrupt
async def abye(): "Exit, async"; sys.exit(4)

def test_system_exit_is_an_error_result():
    for r in (call_func('bye', {}, [bye], raise_on_err=False), asyncio.run(call_func_async('bye', {}, [bye], raise_on_err=False)),
              *call_funcs([('bye', {})], [bye]), *asyncio.run(call_funcs_async([('bye', {})], [bye]))):
        assert r.startswith('Traceback') and 'in bye' in r and r.endswith('SystemExit: 3\n') and 'call_func' not in r, r
    assert call_funcs([('abye', {}), ('sums', {'a': 1, 'b': 1})], [abye, sums])[0].endswith('SystemExit: 4\n')
    assert asyncio.run(call_funcs_async([('abye', {}), ('sums', {'a': 1, 'b': 1})], [abye, sums]))[1] == 2
    with pytest.raises(SystemExit): call_func('bye', {}, [bye])
    with pytest.raises(SystemExit): asyncio.run(call_func_async('bye', {}, [bye]))

def test_keyboard_interrupt_propagates():
    with pytest.raises(KeyboardInterrupt): call_func('interrupt', {}, [interrupt], raise_on_err=False)
    with pytest.raises(KeyboardInterrupt): call_funcs([('interrupt', {}), ('sums', {'a': 1, 'b': 1})], [interrupt, sums])
    with pytest.raises(KeyboardInterrupt): asyncio.run(call_funcs_async([('interrupt', {})], [interrupt]))

def test_async_tools_and_the_callers_loop():
    "call_funcs_async runs async tools on the caller's loop; call_funcs (documented) on a loop of their own"
    async def loop_id(): "Which loop"; return id(asyncio.get_running_loop())
    async def main():
        here = id(asyncio.get_running_loop())
        return here, await call_funcs_async([('loop_id', {})], [loop_id]), call_funcs([('loop_id', {})], [loop_id])
    here, inside, apart = asyncio.run(main())
    assert inside == [here] and apart != [here] and isinstance(apart[0], int)

# review 1
def test_positional_only_defaults_filled():
    "A positional-only parameter left out before one given keeps its default: the given one is not shifted into its place"
    def f(a:int=1, b:int=2, /, c:int=3): "Show"; return (a, b, c)
    assert call_func(f, {'b': 5}) == (1, 5, 3)
    assert call_func(f, {}) == (1, 2, 3)
    assert call_func(f, {'a': 7, 'c': 0}) == (7, 2, 0)
    assert asyncio.run(call_func_async(f, {'b': '5'})) == (1, 5, 3)
    assert call_funcs([(f, {'b': 5})]) == [(1, 5, 3)]
    def g(a:int, b:int=2, /): "Needs a"; return (a, b)
    assert 'a: missing required argument' in call_func(g, {'b': 1}, raise_on_err=False)
    assert call_func(divmod, {'x': 7, 'y': 2}) == (3, 1)  # a built-in's positional-only parameters
    assert 'x: missing required argument' in call_func(divmod, {'y': 2}, raise_on_err=False)

def test_annotations_resolved_like_the_schema():
    "String annotations call_func can't get from typing.get_type_hints are resolved as get_schema resolves them"
    from dataclasses import dataclass
    from fncall.schema import get_schema
    @dataclass
    class Node:
        "A node"
        val:int
        kids:'list[Node]'
    def walk(n:Node): "Walk"; return [(type(k).__name__, k.val) for k in n.kids]
    assert get_schema(walk)['input_schema']['$defs']['Node']['properties']['kids']['items'] == {'$ref': '#/$defs/Node'}
    assert call_func(walk, {'n': {'val': 1, 'kids': [{'val': '2', 'kids': []}]}}) == [('Node', 2)]
    r = call_func(walk, {'n': {'val': 1, 'kids': [{'val': 'x', 'kids': []}]}}, raise_on_err=False)
    assert "val: expected integer, got 'x'" in r, r
    def lost(x:'Nowhere'): "Lost"
    with pytest.raises(TypeError, match="Parameter 'x': Can't resolve the annotation 'Nowhere'"): get_schema(lost)
    assert call_func(lost, {'x': 1}, raise_on_err=False) == ("Error: tool 'lost' can't be called: its parameters can't be read "
        "(Parameter 'x': Can't resolve the annotation 'Nowhere': name 'Nowhere' is not defined)")
    class Local:
        def __init__(self, n:'int', nxt:'Local|None'=None): self.n, self.nxt = n, nxt
    def chain(c:Local): "Chain"; return (c.n, type(c.nxt).__name__, c.nxt.n)
    assert call_func(chain, {'c': {'n': '1', 'nxt': {'n': 2}}}) == (1, 'Local', 2)

def test_one_fingerprint():
    "An annotation edited in place changes the schema and the call alike"
    from fncall.schema import get_schema
    def g(x:int): "Echo"; return x
    assert (call_func(g, {'x': '3'}), get_schema(g)['input_schema']['properties']['x']['type']) == (3, 'integer')
    g.__annotations__['x'] = str
    assert (call_func(g, {'x': '3'}), get_schema(g)['input_schema']['properties']['x']['type']) == ('3', 'string')
    g.__annotations__['y'] = int  # not a parameter: a different fingerprint, the same call
    assert call_func(g, {'x': 4}) == '4'

def test_call_knows_nothing_of_python():
    "call.py reaches no module above it: the dispatcher keeps its frame in a ContextVar, and `python` reads it"
    import fncall.call
    src = inspect.getsource(fncall.call)
    assert 'sys.modules' not in src and 'fncall.python' not in src

def test_sync_tool_timeout_error_keeps_its_traceback():
    "asyncio re-creates a TimeoutError that crosses wrap_future; call_func_async gives the model the tool's own"
    def db(q:str): "Query"; raise TimeoutError("database connection timed out (host db1)")
    out = asyncio.run(call_func_async(db, {'q': 'x'}, raise_on_err=False))
    assert 'in db' in out and out.endswith('TimeoutError: database connection timed out (host db1)\n'), out

def test_fast_path_same_as_repairs():
    "Arguments already under their names, none null, skip the renaming loop: the same results, and the loop still runs when needed"
    from dataclasses import dataclass
    from pydantic import Field
    from typing import Annotated, Optional
    @dataclass
    class P:
        x:int
        y:int=5
    def f(p:P, n:Annotated[int, Field(alias='the-n')]=2, k:Optional[int]=7, *, tags:list[str]=None): "F"; return (p, n, k, tags)
    assert call_func(f, {'p': {'x': '1'}, 'n': '3', 'k': 4, 'tags': ['a']}) == (P(1), 3, 4, ['a'])
    assert call_func(f, {'p': {'x': 1, 'y': None}, 'the-n': 3, 'k': None, 'tags': 'a'}) == (P(1), 3, 7, ['a'])  # alias, nulls for defaults, a bare string
    assert call_func(f, {'p': '{"x": 1}', 'the_n': 3}) == (P(1), 3, 7, None)
    r = call_func(f, {'p': {'x': 1, 'z': 2}, 'q': 1}, raise_on_err=False)
    assert 'q: unknown argument' in r and 'z: unknown argument' in r, r
    args = {'p': {'x': 1}}
    call_func(f, args)
    assert args == {'p': {'x': 1}}  # the caller's dict is not changed

def test_spec_cache_sees_class_edits_and_forgets():
    "A record's `__init__` or annotations replaced: the tool's validator is remade; a dead function's entry is dropped"
    import gc
    from fncall.call import _fns
    class R:
        def __init__(self, a:int): self.a = a
    def g(r:R): "G"; return r.a
    assert call_func(g, {'r': {'a': '1'}}) == 1
    def init(self, a:str): self.a = a
    R.__init__ = init
    assert call_func(g, {'r': {'a': 1}}) == '1'
    i = id(g)
    assert i in _fns
    del g; gc.collect()
    assert i not in _fns or _fns[i][0]() is not None

def test_short_way_sees_every_edit():
    "A plain function met before is called the short way only while nothing its validator was made from has changed: code, defaults, annotations, custom types, its classes"
    from dataclasses import dataclass
    from fncall.call import _cached
    from fncall.schema import custom_types
    def g(x:int=1, *, k:int=2): "G"; return (x, k)
    assert call_func('g', {'x': '3'}, ns=[g]) == (3, 2) and _cached(g) is not None
    def h(y:int=1, *, k:int=2): "H"; return ('h', y, k)
    g.__code__ = h.__code__
    assert call_func('g', {'y': '4'}, ns=[g]) == ('h', '4', 2)  # its parameters now: y (g's annotations name none of them), k
    g.__defaults__ = None
    assert 'y: missing required argument' in call_func('g', {}, ns=[g], raise_on_err=False)
    g.__kwdefaults__ = None
    assert 'k: missing required argument' in call_func('g', {'y': 1}, ns=[g], raise_on_err=False)
    g.__annotations__ = {'y': str, 'k': int}
    assert call_func('g', {'y': '5', 'k': 1}, ns=[g]) == ('h', '5', 1)
    class Tag:
        def __init__(self, v:str): self.v = v
    def tag(t:Tag): "Tag"; return t.v
    assert 't: expected ' in call_func(tag, {'t': 'x'}, raise_on_err=False)
    custom_types.add(Tag)
    try: assert call_func(tag, {'t': 'x'}) == 'x'
    finally: custom_types.discard(Tag)
    assert 't: expected ' in call_func(tag, {'t': 'x'}, raise_on_err=False)
    @dataclass
    class P:
        x:int
    def p(v:P): "P"; return v.x
    assert call_func(p, {'v': {'x': '1'}}) == 1 and _cached(p) is not None
    P.__annotations__['y'] = int  # in place
    assert _cached(p) is None

def test_short_way_keeps_the_namespace_rules():
    "The short way finds only what `resolve_nm` would: a name in a dict or of the one function in a list, never one starting with '_'"
    def _hidden(x:int): "H"; return x
    def ok(x:int): "O"; return x
    for ns in ([_hidden], {'_hidden': _hidden}):
        for _ in range(2): assert call_func('_hidden', {'x': 1}, ns=ns, raise_on_err=False).startswith("Error: Tool '_hidden' is not allowed")
    assert call_func('other', {'x': 1}, ns={'other': ok}) == 1 and call_func('a.b', {'x': 2}, ns={'a.b': ok}) == 2
    assert call_func('nope', {'x': 1}, ns=[ok], raise_on_err=False) == "Error: Tool 'nope' is not in the namespace"
    ok.__name__ = 'not-a-name'
    with pytest.raises(TypeError, match="mk_ns can't name"): call_func('not-a-name', {'x': 1}, ns=[ok])

def test_every_parser_shape_runs():
    "What each parser gives runs as it is: parse_function_calls' {'tool', 'arguments'} dicts, ToolCallParser's ToolCalls, (name, inputs) pairs"
    from fncall.pycall import parse_function_calls
    from fncall.parse import ToolCallParser
    def get_weather(city:str, unit:str='C'): "Weather"; return f'{city}: 20{unit}'
    assert call_funcs(parse_function_calls('get_weather(city="Paris")'), [get_weather]) == ['Paris: 20C']
    tcs = ToolCallParser().parse('TOOL_CALL {"tool_name": "get_weather", "parameters": {"city": "Oslo", "unit": "F"}}').tool_calls
    assert call_funcs(tcs, [get_weather]) == ['Oslo: 20F']
    assert asyncio.run(call_funcs_async(parse_function_calls('get_weather(city="Rome")') + tcs, [get_weather])) == ['Rome: 20C', 'Oslo: 20F']
    assert call_funcs([{'tool': 'get_weather', 'input': {'city': 'Lima'}}, ('get_weather', {'city': 'Quito'})], [get_weather]) == ['Lima: 20C', 'Quito: 20C']

def test_field_default_hides_no_argument():
    "An `Annotated[T, Field(default=...)]` parameter: the value sent under its alias is used, and an unknown name is an error (both were dropped, the default filled in)"
    from typing import Annotated
    from pydantic import Field
    from fncall.call import coerce_inputs
    def lvl(level:Annotated[int, Field(default=3, alias='lvl')]=3): "Level"; return level
    def typo(level:Annotated[int, Field(default=3)]=3): "Level"; return level
    assert coerce_inputs(lvl, {'lvl': 5}) == {'level': 5} and call_func(lvl, {'lvl': '5'}) == 5
    assert call_func(lvl, {}) == 3
    assert "levl: unknown argument" in call_func(typo, {'levl': 5}, raise_on_err=False)
