"""Attacks on calling (issue 15): each test holds one, numbered as in the issue. Real threads and time bounds where a
regression could hang, so it fails instead."""
import ast, asyncio, datetime as dt, enum, json, math, os, shutil, sys, threading, time, typing, uuid, pytest
from dataclasses import dataclass
from decimal import Decimal
from functools import partial
from pathlib import Path
from typing import Annotated, Any, Literal, Optional
import anyio
from hypothesis import given, settings, HealthCheck, strategies as st
from pydantic import BaseModel, Field
from typing_extensions import TypedDict
from timing import SLACK, cheap
import fncall.call
from fncall.schema import get_schema
from fncall.call import call_func, call_func_async, call_funcs, call_funcs_async, coerce_inputs, resolve_nm
from fncall.mktool import mk_tool
from fncall.tools import FunctionRegistry, _read

def bounded(fn, secs):
    "`fn()` run in a daemon thread: its result, or a failure if it takes over `secs` and a busy machine's slack (a regression fails, it doesn't hang the run)"
    out = {}
    def work():
        try: out['res'] = fn()
        except BaseException as e: out['exc'] = e
    t = threading.Thread(target=work, daemon=True)
    t.start(); t.join(secs+SLACK)
    assert not t.is_alive(), f"still running after {secs} s (and {SLACK} s for a busy machine)"
    if 'exc' in out: raise out['exc']
    return out['res']

def ant(*calls): return {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': f'c{i}', 'name': n, 'input': a} for i,(n,a) in enumerate(calls)]}
def results(msgs): return [(b['content'], b['is_error']) for b in msgs[0]['content']]

# 1. A partial in the namespace exposes what it wraps
ran = []
def query(q:str, user_id:int=0): "Query as a user"; ran.append(user_id); return user_id

class Partial(partial): "A partial subclass"

@pytest.mark.parametrize('nm', ['sh.func', 'sh.args', 'sh.keywords', 'q.func', 'q.keywords', 'sub.func'])
def test_1_partial_keeps_what_it_wraps(nm, tmp_path):
    ran.clear()
    ns = {'sh': partial(os.system, f'touch {tmp_path}/ran'), 'q': partial(query, user_id=42), 'sub': Partial(query, user_id=42)}
    with pytest.raises(NameError, match="is not allowed: '\\w+' is a built-in"): resolve_nm(nm, ns)
    assert call_func(nm, {'command': f'touch {tmp_path}/X', 'q': 'x', 'user_id': 7}, ns=ns, raise_on_err=False).startswith('Error: Tool')
    assert not list(tmp_path.iterdir()) and ran == []
    assert call_func('q', {'q': 'x'}, ns=ns) == 42 and ran == [42]  # the partial itself is the tool

# 2. A `__slots__` attribute is checked like any other
class Held:
    __slots__ = ('fn', 'ok')
    def __init__(self, fn): self.fn, self.ok = fn, query

@dataclass(slots=True)
class DHeld:
    fn: object

def test_2_slots_are_checked():
    ns = {'h': Held(os.system), 'd': DHeld(os.system), 'm': Held(os)}
    for nm in ('h.fn', 'd.fn'):
        with pytest.raises(NameError, match="'fn' is a built-in"): resolve_nm(nm, ns)
    with pytest.raises(NameError, match="'fn' is a module"): resolve_nm('m.fn', ns)
    assert resolve_nm('h.ok', ns) is query and call_func('d.fn', {'q': 'x'}, ns={'d': DHeld(query)}) == 0
    with pytest.raises(NameError, match='not allowed'): resolve_nm('Held.ok', {'Held': Held})  # the slot's descriptor, from the class

# 3. A partial's bound arguments can't be overridden
def read_file(path:str, base_dir:str='/srv', mode:str='r'): "Read a file"; return os.path.join(base_dir, path)

def test_3_pinned_arguments():
    p = partial(read_file, base_dir='/srv/safe')
    for k in ('base_dir', 'base-dir'):
        r = call_func(p, {'path': 'x', k: '/'}, raise_on_err=False)
        assert f"{k}: fixed by the tool, can't be given" in r and '(parameters: path, mode)' in r and '/srv/safe' not in r, r
        with pytest.raises(ValueError, match='fixed by the tool'): call_func(p, {'path': 'x', k: '/'})
    assert asyncio.run(call_func_async(p, {'path': 'x', 'base_dir': '/'}, raise_on_err=False)).startswith('Error: invalid arguments')
    assert call_funcs([('rf', {'path': 'x', 'base_dir': '/'})], {'rf': p})[0].startswith('Error: invalid arguments')
    assert call_func(p, {'path': 'x'}) == '/srv/safe/x'
    assert 'path: fixed by the tool' in call_func(partial(read_file, 'etc/passwd'), {'path': 'x'}, raise_on_err=False)  # bound by position
    def kw(**opts): "Options"; return opts
    assert 'user: fixed by the tool' in call_func(partial(kw, user='me'), {'user': 'root'}, raise_on_err=False)  # even into **kwargs
    assert call_func(partial(kw, user='me'), {'x': 1}) == {'user': 'me', 'x': 1}
    reg = FunctionRegistry(); reg.add(p, name='read_file')
    assert results(reg.run(ant(('read_file', {'path': 'x', 'base_dir': '/'}))))[0][1] is True

# 3b. Nor through the tool's `**kwargs` (a parameter of its own in the schema), which would also skip a parameter's checks
def rf(path:str, *rest, base_dir:str='/srv', **more): "Read"; return path, rest, base_dir, more
def fkw(n:int=0, **kw): "Count"; return n, kw

def test_3_pinned_through_kwargs():
    def kw(**opts): "Options"; return opts
    p = partial(kw, user='pinned-me')
    for opts in ({'user': 'root'}, '{"user": "root"}', [{'key': 'user', 'value': 'root'}]):
        r = call_func(p, {'opts': opts}, raise_on_err=False)
        assert r.startswith("Error: invalid arguments") and "opts.user: fixed by the tool, can't be given" in r and 'pinned-me' not in r, r
    assert 'more.base_dir: fixed by the tool' in call_func(partial(rf, base_dir='/safe'), {'path': 'x', 'more': {'base_dir': '/'}}, raise_on_err=False)
    assert 'more.path: a parameter' in call_func(rf, {'path': 'x', 'more': {'path': '/'}}, raise_on_err=False)
    assert 'kw.n: a parameter' in call_func(fkw, {'kw': {'n': 'abc'}}, raise_on_err=False)  # not passed around `n: int`
    assert 'opts.x: given twice' in call_func(p, {'x': 1, 'opts': {'x': 2}}, raise_on_err=False)
    with pytest.raises(ValueError, match='fixed by the tool'): call_func(p, {'opts': {'user': 'root'}})
    assert asyncio.run(call_func_async(p, {'opts': {'user': 'root'}}, raise_on_err=False)).startswith('Error: invalid arguments')
    ns = {'kw': p}
    assert 'fixed by the tool' in call_funcs([('kw', {'opts': {'user': 'root'}})], ns)[0]
    assert 'fixed by the tool' in asyncio.run(call_funcs_async([('kw', {'opts': {'user': 'root'}})], ns))[0]
    reg = FunctionRegistry(); reg.add(p, name='kw')
    (r, err), = results(reg.run(ant(('kw', {'opts': {'user': 'root'}}))))
    assert err is True and 'fixed by the tool' in r and 'root' not in r.split('\n')[0], r
    (r, err), = results(asyncio.run(reg.arun(ant(('kw', {'opts': {'user': 'root'}})))))
    assert err is True and 'fixed by the tool' in r, r
    with pytest.raises(ValueError, match='fixed by the tool'): reg.tools['kw'](opts={'user': 'root'})
    assert 'fixed by the tool' in reg.tools['kw'].run({'opts': {'user': 'root'}})
    assert call_func(p, {'opts': {'x': 1, 'opts': 2}}) == {'user': 'pinned-me', 'x': 1, 'opts': 2}  # other keys still go through
    assert call_func(rf, {'path': 'x', 'rest': [1], 'more': {'rest': 2}}) == ('x', (1,), '/srv', {'rest': 2})

def test_3_wrapper_of_partial_pins():
    import functools
    p = partial(read_file, base_dir='/srv/safe')
    @functools.wraps(p)
    def w(*a, **k): return p(*a, **k)
    from fncall.schema import get_schema
    assert list(get_schema(w)['input_schema']['properties']) == ['path', 'mode'] and '/srv/safe' not in json.dumps(get_schema(w))
    assert 'base_dir: fixed by the tool' in call_func(w, {'path': 'x', 'base_dir': '/'}, raise_on_err=False)
    assert call_func(w, {'path': 'x'}) == '/srv/safe/x'

# 4. Looking a name up runs none of the object's code
seen = []
class Spy:
    "Records every attribute lookup, and fakes its class"
    def __getattribute__(self, s): seen.append(s); return object.__getattribute__(self, s)
    def __getattr__(self, s): seen.append(s); raise AttributeError(s)
    @property
    def __class__(self): seen.append('__class__'); return Spy
    def f(self, x:int): "A method"; return x
    def __call__(self, x:int): "Called"; return x

class Meta(type):
    "A metaclass recording every attribute lookup on its classes"
    def __getattribute__(cls, s): seen.append(('meta', s)); return type.__getattribute__(cls, s)

class MSpy(metaclass=Meta):
    def m(self, x:int): "A method"; return x

def test_4_resolving_runs_no_user_code():
    s = Spy()
    seen.clear()  # pytest's collection looked at `MSpy`
    ns = {'s': s, 'h': Held(s)}
    assert resolve_nm('s.f', ns) == s.f and seen.pop(-1) == 'f' and seen == []  # `s.f` above looked it up, resolve_nm didn't
    assert call_func('s.f', {'x': '1'}, ns) == 1 and call_func('s', {'x': 2}, ns) == 2 and call_func('h.fn', {'x': 3}, ns) == 3
    assert call_funcs([('s', {'x': 4}), ('s.f', {'x': 5})], ns) == [4, 5]
    assert asyncio.run(call_funcs_async([('s', {'x': 6})], ns)) == [6]
    assert call_func('s.nope', {}, ns, raise_on_err=False) == "Error: Tool 's.nope' is not in the namespace"
    assert seen == []
    m, want = MSpy(), MSpy.m
    m.own = query; seen.clear()
    assert resolve_nm('m.m', {'m': m}).__func__ is want and resolve_nm('m.own', {'m': m}) is query and seen == []  # no metaclass code either

# 7. An untrusted schema that expands without bound is refused before anything is made
def boom_tool(levels):
    defs = {f'L{i}': {'type': 'array', 'prefixItems': [{'$ref': f'#/$defs/L{i+1}'}]*10} for i in range(levels)}
    defs[f'L{levels}'] = {'type': 'integer'}
    return {'name': 'boom', 'inputSchema': {'type': 'object', 'properties': {'x': {'$ref': '#/$defs/L0'}}, '$defs': defs}}

@pytest.mark.parametrize('levels', [4, 6, 7, 40])
def test_7_schema_blowup_refused(levels):
    with pytest.raises(ValueError, match="Tool 'boom': its schema expands to over 10000 schemas"):  # before anything is made (it took 41 s and 1.4 GB)
        cheap(lambda: mk_tool(lambda nm, /, **kw: kw, boom_tool(levels)), 10)

def test_7_shared_classes_still_fine():
    "Object definitions become one class each, however often they are used: 30 levels each using the next twice are fine"
    defs = {f'D{i}': {'type': 'object', 'properties': {'a': {'$ref': f'#/$defs/D{i+1}'}, 'b': {'$ref': f'#/$defs/D{i+1}'}}} for i in range(30)}
    defs['D30'] = {'type': 'object', 'properties': {'v': {'type': 'integer'}}}
    f = mk_tool(lambda nm, /, **kw: kw, {'name': 'dag', 'inputSchema': {'type': 'object', 'properties': {'r': {'$ref': '#/$defs/D0'}}, '$defs': defs}})
    assert call_func(f, {'r': {'a': {'b': {}}}}) == {'r': {'a': {'b': {}}}}

def test_7_deep_schema():
    s = {'type': 'integer'}
    for _ in range(5000): s = {'type': 'array', 'items': s}
    with pytest.raises(ValueError, match="Tool 'deep': its schema (nests too deeply|expands to over)"):
        mk_tool(lambda nm, /, **kw: kw, {'name': 'deep', 'inputSchema': {'type': 'object', 'properties': {'x': s}}})

# 8. A regex pydantic's engine can't compile is checked with Python's `re`
def test_8_lookahead_pattern():
    def pick(user:Annotated[str, Field(pattern=r'^(?!admin)\w+$')]): "Pick a user"; return user
    assert call_func(pick, {'user': 'bob'}) == 'bob'
    assert "user: string should match pattern" in call_func(pick, {'user': 'admin'}, raise_on_err=False)
    f = mk_tool(lambda nm, /, **kw: kw, {'name': 'pick', 'inputSchema': {'type': 'object', 'properties': {'u': {'type': 'string', 'pattern': r'^(\w)\1$'}}}})
    assert call_func(f, {'u': 'aa'}) == {'u': 'aa'} and call_func(f, {'u': 'ab'}) == {'u': 'ab'}  # an untrusted backtracking pattern is the server's to check (issue 31)
    def broken(u:Annotated[str, Field(pattern=r'(')]): "Broken"
    assert call_func(broken, {'u': 'x'}, raise_on_err=False).startswith("Error: tool 'broken' can't be called: its parameters can't be read")

# 9. The timeout covers formatting a tool's error
class SlowError(Exception):
    def __str__(self): time.sleep(30); return 'slow'

def slow_fail(): "Fails, slowly said"; raise SlowError()

def test_9_timeout_covers_formatting():
    want = "Error: tool 'slow_fail' timed out after 1 s"
    res = bounded(lambda: call_funcs([('slow_fail', {})], [slow_fail], timeout=1), 1)  # formatting alone takes 30 s
    assert res == [want]
    res = bounded(lambda: asyncio.run(call_funcs_async([('slow_fail', {})], [slow_fail], timeout=1)), 1)
    assert res == [want]
    reg = FunctionRegistry(); reg.add(slow_fail)
    res = bounded(lambda: reg.run(ant(('slow_fail', {})), timeout=1), 1)
    assert results(res) == [(want, True)]

# 10. A result that can't be written out is that call's error; the others are kept
def deep_result():
    "Too deep to write"
    o = []
    for _ in range(100_000): o = [o]
    return o

class Unprintable:
    def __str__(self): raise RuntimeError('no str')
    def __repr__(self): raise RuntimeError('no repr')

def unprintable(): "Can't be printed"; return Unprintable()
done = []
def side_effect(): "Does something"; done.append(1); return {'ok': True}

@pytest.mark.parametrize('bad', ['deep_result', 'unprintable'])
def test_10_unsendable_result_is_its_error(bad):
    reg = FunctionRegistry()
    for f in (deep_result, unprintable, side_effect): reg.add(f)
    (r0, e0), (r1, e1) = results(cheap(lambda: reg.run(ant((bad, {}), ("side_effect", {}))), 10))
    assert e0 and r0.startswith(f"Error: the result of tool '{bad}' can't be sent:") and len(r0) < 400, r0
    assert (r1, e1) == ('{"ok": true}', False)
    gem = {'candidates': [{'content': {'parts': [{'function_call': {'name': bad, 'args': {}}}, {'function_call': {'name': 'side_effect', 'args': {}}}]}}]}
    parts = reg.run(gem)[0]['parts']
    assert 'error' in parts[0]['function_response']['response'] and parts[1]['function_response']['response'] == {'result': {'ok': True}}

def test_10_over_mcp():
    from mcp import Client
    from fncall.mcp import mcp_server
    async def main():
        async with Client(mcp_server([deep_result, unprintable, side_effect])) as c:
            return [await c.call_tool(n, {}) for n in ('deep_result', 'unprintable', 'side_effect')]
    rs = cheap(lambda: anyio.run(main), 20)
    assert [r.is_error for r in rs] == [True, True, False]
    assert "can't be sent: RecursionError" in rs[0].content[0].text and "can't be sent: RuntimeError: no str" in rs[1].content[0].text

# 11. Deep arguments: a short error naming the parameter
@dataclass
class Node:
    kid: 'Node|None' = None

def walk(n:Node, tag:str=''): "Walk a chain"; return tag
def take(x:list, d:dict|None=None): "Take"; return len(x)

def nest(n, mk):
    o = {}
    for _ in range(n): o = mk(o)
    return o

@pytest.mark.parametrize('f,args,param', [
    (take, {'x': '[' * 100_000}, 'x'), (take, {'x': [], 'd': '{"a":' * 100_000}, 'd'), (walk, {'n': nest(3000, lambda o: {'kid': o})}, 'n'),
    (take, {'x': [], 'd': nest(100_000, lambda o: [o])}, 'd'), (take, '{"x":' * 100_000, 'arguments')])
def test_11_deep_arguments(f, args, param):
    r = call_func(f, args, raise_on_err=False)
    assert r.startswith(f"Error: invalid arguments for tool '{f.__name__}':\n{param}") and ('nested too deeply' in r or 'expected object' in r), r
    assert len(r) < 400 and 'Traceback' not in r, r
    with pytest.raises(ValueError): call_func(f, args)

def test_11_deep_but_fine():
    assert call_func(walk, {'n': nest(50, lambda o: {'kid': o}), 'tag': 't'}) == 't'

# 12. Error text is bounded
def g(a:int): "g"; return a

def test_12_bounded_errors():
    big = 'x' * 100_000
    for r in (call_func(big, {}, [g], raise_on_err=False), call_func(g, {'a': 1, big: 1}, raise_on_err=False),
              call_func(g, {'a': big}, raise_on_err=False), call_func(g, {'a': 1, **{f'k{i}': 1 for i in range(20_000)}}, raise_on_err=False),
              call_func(f'g.{big}', {}, [g], raise_on_err=False), call_funcs([big], [g])[0], call_funcs([(big, {})], [g], timeout=1)[0]):
        assert r.startswith('Error') and len(r) < 600, (len(r), r[:200])
    r = call_func(g, {'a': 1, **{f'k{i}': 1 for i in range(20_000)}}, raise_on_err=False)
    assert r.count('unknown argument\n') == 5 and '(and 19995 more unknown arguments)' in r, r
    def many(xs:list[int]): "Ints"
    r = call_func(many, {'xs': ['a'] * 20_000}, raise_on_err=False)
    assert len(r) < 1500 and r.count('expected integer') == 9 and '(and 19991 more problems)' in r, r  # the first few errors shown, the rest counted
    reg = FunctionRegistry(); reg.add(g)
    assert len(results(reg.run(ant((big, {}))))[0][0]) < 300
    f = mk_tool(lambda nm, /, **kw: kw, {'name': 't', 'inputSchema': {'type': 'object', 'properties': {  # an MCP server's long enum and pattern
        'e': {'enum': [f'v{i}' for i in range(5000)]}, 'p': {'type': 'string', 'pattern': 'a' * 5000}}}})
    assert len(call_func(f, {'e': 'x', 'p': 'b'}, raise_on_err=False)) < 600
    with pytest.raises(ValueError) as e: mk_tool(lambda nm, /, **kw: kw, {'name': big, 'inputSchema': boom_tool(7)['inputSchema']})
    assert len(str(e.value)) < 300

# 13. Malformed provider responses are ValueErrors saying what was wrong
GOOD = {
    'openai': {'choices': [{'message': {'role': 'assistant', 'content': None, 'tool_calls': [
        {'id': 'c1', 'type': 'function', 'function': {'name': 'g', 'arguments': '{"a": 1}'}}]}}]},
    'responses': {'output': [{'type': 'function_call', 'call_id': 'c1', 'name': 'g', 'arguments': '{"a": 1}'}]},
    'anthropic': {'role': 'assistant', 'content': [{'type': 'text', 'text': 'hi'}, {'type': 'tool_use', 'id': 'c1', 'name': 'g', 'input': {'a': 1}}]},
    'gemini': {'candidates': [{'content': {'role': 'model', 'parts': [{'function_call': {'id': 'c1', 'name': 'g', 'args': {'a': 1}}}]}}]},
    'gemini-rest': {'candidates': [{'content': {'parts': [{'functionCall': {'name': 'g', 'args': {'a': 1}}}]}}]},
}

def paths(o, p=()):
    yield p
    if isinstance(o, dict):
        for k,v in o.items(): yield from paths(v, p + (k,))
    elif isinstance(o, list):
        for i,v in enumerate(o): yield from paths(v, p + (i,))

def replaced(o, p, v):
    if not p: return v
    o = json.loads(json.dumps(o))
    t = o
    for k in p[:-1]: t = t[k]
    t[p[-1]] = v
    return o

WRONG = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(allow_nan=True), st.text(max_size=5), st.just([]), st.just({}),
                  st.lists(st.integers(), min_size=1, max_size=2), st.dictionaries(st.text(max_size=3), st.integers(), min_size=1, max_size=2))
CASES = [(prov, p) for prov,g in GOOD.items() for p in paths(g)]
reg13 = FunctionRegistry(); reg13.add(g)

@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(CASES), WRONG)
def test_13_fuzz_provider_shapes(case, bad):
    prov, p = case
    try: out = reg13.run(replaced(GOOD[prov], p, bad))
    except ValueError as e: assert str(e) and len(str(e)) < 400
    else: assert isinstance(out, list)

WRONGS = [None, True, 1, 1.5, 'x', [], {}, [1], {'x': 1}]

def test_13_every_level():
    "Every node of each provider's response, replaced by each wrong type: a ValueError or a reply, nothing else"
    for prov,p in CASES:
        for bad in WRONGS:
            try: assert isinstance(reg13.run(replaced(GOOD[prov], p, bad)), list)
            except ValueError: pass

def test_13_messages():
    bad = lambda r, msg: pytest.raises(ValueError, match=msg)
    with bad(None, 'Malformed response: choices\\[0\\].message should be an object, got 3'): _read({'choices': [{'message': 3}]})
    with bad(None, 'tool_calls\\[0\\].function.name should be a string, got None'):
        _read({'tool_calls': [{'id': 'c', 'function': {'arguments': '{}'}}]})
    with bad(None, 'content\\[0\\].id should be a string'): _read({'content': [{'type': 'tool_use', 'name': 'g', 'input': {}}]})
    with bad(None, 'parts\\[0\\].function_call should be an object'): _read({'parts': [{'function_call': 'g'}]})
    with bad(None, "output\\[1\\] should be an object, got 'x'"): _read({'output': [{'type': 'text'}, 'x']})
    with bad(None, "Can't read tool calls from a NoneType"): _read(None)
    assert _read({'choices': [{'message': {'content': 'Done', 'tool_calls': None}}]}) == ('openai', [])

# 14. Non-finite floats are refused
@dataclass
class Pt:
    x: float

def scale(f:float, xs:list[float]|None=None, p:Pt|None=None, d:Decimal|None=None): "Scale"; return f

@pytest.mark.parametrize('args', [{'f': 'nan'}, {'f': 'inf'}, {'f': '-inf'}, {'f': '1e309'}, {'f': float('nan')}, {'f': 1, 'xs': [1, 'inf']},
                                  {'f': 1, 'p': {'x': 'nan'}}, {'f': 1, 'd': 'NaN'}, '{"f": NaN}', '{"f": 1e999}'])
def test_14_non_finite_floats(args):
    r = call_func(scale, args, raise_on_err=False)
    assert r.startswith("Error: invalid arguments for tool 'scale'") and 'finite' in r, r

def test_14_gemini_nan():
    reg = FunctionRegistry(); reg.add(scale)
    gem = {'candidates': [{'content': {'parts': [{'function_call': {'name': 'scale', 'args': {'f': float('nan')}}}]}}]}
    res = reg.run(gem)[0]['parts'][0]['function_response']['response']
    assert 'finite' in res['error'], res

def test_14_no_nan_in_replies():
    "A tool's non-finite result goes back as text, never as a bare NaN in a structured (Gemini) result"
    def ratio(a:float, b:float): "Ratio"; return [a / b if b else float('nan'), float('inf')]
    reg = FunctionRegistry(); reg.add(ratio)
    gem = {'candidates': [{'content': {'parts': [{'function_call': {'name': 'ratio', 'args': {'a': 1, 'b': 0}}}]}}]}
    out = reg.run(gem)
    assert out[0]['parts'][0]['function_response']['response'] == {'result': '[NaN, Infinity]'}
    json.dumps(out, allow_nan=False)

# 16. call.py imports no private names of schema.py
def test_16_schema_interface():
    tree = ast.parse(Path(fncall.call.__file__).read_text())
    names = [a.name for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module and n.module.endswith('schema') for a in n.names]
    assert names and not [n for n in names if n.startswith('_')], names

# call_func's arguments, fuzzed over the annotation types fncall supports: only the documented errors
class Color(enum.Enum):
    RED = 'red'
    BLUE = 'blue'

class Item(BaseModel):
    name: str
    qty: int = 1

class Movie(TypedDict):
    title: str
    year: int

def every(i:int=0, f:float=0., s:str='', b:bool=False, li:list[int]|None=None, ds:dict[str, float]|None=None, tu:tuple[int, str]|None=None,
          se:set[str]|None=None, lit:Literal['a', 'b']='a', col:Color=Color.RED, opt:Optional[int]=None, pt:Pt|None=None, it:Item|None=None,
          mv:Movie|None=None, pa:Path|None=None, uu:uuid.UUID|None=None, de:Decimal|None=None, when:dt.datetime|None=None, by:bytes|None=None,
          un:int|str|None=None, an:Any=None, ob:object=None, items:list[Item]|None=None):
    "Takes one of everything"
    return 'ran'

PARAMS = list(typing.get_type_hints(every)) + ['nope', '', '_i', 'i-j', '1', 'x' * 100]
JSON = st.recursive(st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), st.text(max_size=20),
                              st.sampled_from(['nan', 'inf', '1e309', '[1, 2]', '{"a": 1}', 'red', '2024-01-02T03:04:05', '1.5', '{"name": "x"}'])),
                    lambda kids: st.one_of(st.lists(kids, max_size=4), st.dictionaries(st.one_of(st.sampled_from(['x', 'name', 'qty', 'title', 'year', 'key', 'value']), st.text(max_size=5)), kids, max_size=4)),
                    max_leaves=12)

@settings(max_examples=300, deadline=None, suppress_health_check=list(HealthCheck))
@given(st.one_of(st.dictionaries(st.sampled_from(PARAMS), JSON, max_size=6), JSON))
def test_fuzz_call_func_arguments(args):
    try: assert call_func(every, args) == 'ran'
    except ValueError as e: assert type(e).__name__ == '_InputError' and len(str(e)) < 2000, repr(e)
    r = call_func(every, args, raise_on_err=False)
    assert r == 'ran' or r.startswith("Error: invalid arguments for tool 'every':\n") and 'Traceback' not in r, r

def test_3_partial_of_partial_pins_both():
    "A partial of a partial (as the tool loop makes for hidden parameters) pins the keywords of each"
    def who(q:str, user:str='x', role:str='viewer')->str: "Who"; return f"{user} {role}"
    f = partial(partial(who, role='viewer'), user='guest')
    assert "role: fixed by the tool" in call_func(f, {'q': 'x', 'role': 'admin'}, raise_on_err=False)
    assert "user: fixed by the tool" in call_func(f, {'q': 'x', 'user': 'root'}, raise_on_err=False)
    assert call_func(f, {'q': 'x'}) == 'guest viewer'
    assert list(get_schema(f)['input_schema']['properties']) == ['q']

# Issue 31: what a name reaches through the namespace is judged by what calling it runs, however it is wrapped
import functools, logging, subprocess, types
@functools.wraps(os.system)
def _sys_wrapper(command:str): return os.system(command)

class _Calls:
    def __init__(self, f): self.f = f
    def __call__(self, command:str): return 'mine'

class _CallsSystem: __call__ = os.system
class _CallsPopen: __call__ = staticmethod(os.popen)
class _Popen(subprocess.Popen): "A class of mine whose constructor is the standard library's"
class _Meta(type): __call__ = partial(os.system)
class _Made(metaclass=_Meta): pass

def _tools():
    "An object holding, as public attributes, a built-in or a standard function in every wrapper a namespace can hold, and tools of its own"
    class Tools:
        sh, run = partial(os.system), partial(subprocess.run) # the issue's repro
        nested, kw = partial(partial(os.system)), partial(subprocess.run, shell=True)
        st, cm, st_partial = staticmethod(os.popen), classmethod(os.system), staticmethod(partial(os.system))
        wrapped, wrapped_st = _sys_wrapper, staticmethod(_sys_wrapper)
        inst, inst_st, inst_partial = _CallsSystem(), _CallsPopen(), partial(_CallsSystem())
        Popen, P2, Made, rm = subprocess.Popen, _Popen, _Made, shutil.rmtree
        def __init__(self):
            self.bound = types.MethodType(os.system, self)
            self.popen, self.log = os.popen, logging.getLogger('fncall-test')
            self.cached = functools.lru_cache(os.system)
            self.thread = threading.Thread(target=print)
            self.deep = partial(os.system)
            for _ in range(200): self.deep = partial(self.deep)
        def mine(self, command:str): return 'mine'
        mine_partial, mine_st = partial(lambda command: 'mine'), staticmethod(lambda command: 'mine')
        mine_inst = _Calls(os.system) # a wrapper of mine: its `__call__` is my code
    return Tools()

REFUSED = ['sh', 'run', 'nested', 'kw', 'st', 'cm', 'st_partial', 'wrapped', 'wrapped_st', 'inst', 'inst_st', 'inst_partial',
           'Popen', 'P2', 'Made', 'rm', 'bound', 'popen', 'log.info', 'cached', 'thread.start', 'deep']

@pytest.mark.parametrize('nm', REFUSED)
def test_31_wrapped_builtins_refused(nm, tmp_path):
    ns = {'tools': _tools()}
    with pytest.raises(NameError, match=f"Tool 'tools.{nm}' is not allowed: '\\w+' (is|calls|wraps) "): resolve_nm(f'tools.{nm}', ns)
    args = {'command': f'touch {tmp_path}/pwned', 'cmd': f'touch {tmp_path}/pwned', 'args': f'touch {tmp_path}/pwned', 'msg': 'x'}
    assert call_func(f'tools.{nm}', args, ns=ns, raise_on_err=False).startswith(f"Error: Tool 'tools.{nm}' is not allowed")
    assert asyncio.run(call_func_async(f'tools-{nm.replace(".", "-")}', args, ns=ns, raise_on_err=False)).startswith('Error: Tool')
    assert not list(tmp_path.iterdir())

@pytest.mark.parametrize('nm', ['mine', 'mine_partial', 'mine_st', 'mine_inst'])
def test_31_own_code_still_called(nm):
    ns = {'tools': _tools()}
    assert call_func(f'tools.{nm}', {'command': 'x'}, ns=ns) == 'mine'

def test_31_what_you_put_in_the_namespace_is_yours():
    "A built-in placed in the namespace under a name of its own is still callable: that is the namespace owner's choice"
    assert call_func('sq', {'x': 4}, ns={'sq': partial(math.sqrt)}) == 2

# Issue 31: a Decimal is bounded as an int is (a tool calling int() on Decimal('1e999999999') ran for hours)
def to_int(d:Decimal, more:list[Decimal]|None=None)->int: "As a whole number"; return int(d) + sum(map(int, more or []))

@pytest.mark.parametrize('args', [{'d': '1e999999999'}, {'d': '-1E+999999999'}, {'d': 1, 'more': ['1e5000']}, {'d': '1e-999999999'}, '{"d": "1e999999999"}'])
def test_31_huge_decimal_refused(args):
    r = cheap(lambda: call_func(to_int, args, raise_on_err=False), 5)
    assert r.startswith("Error: invalid arguments for tool 'to_int'") and 'no more than 4300 digits' in r, r
    assert bounded(lambda: asyncio.run(call_funcs_async([('to_int', args)], [to_int], timeout=5)), 5)[0].startswith('Error: invalid arguments')

def test_31_decimals_within_bounds():
    assert call_func(to_int, {'d': '1e4299', 'more': ['12.5']}) == 10**4299 + 12

# Issue 31: a remote schema's pattern can't block the event loop (Python's `re` took 15 s for 29 characters)
REDOS = {'name': 'f', 'inputSchema': {'type': 'object', 'properties': {'s': {'type': 'string', 'pattern': '^(?=.)(a+)+$'},
                                                                        't': {'type': 'string', 'pattern': '^(a+)+$'}}}}

def test_31_redos_pattern():
    async def send(nm, /, **kw): return kw
    f = mk_tool(send, REDOS)
    r = cheap(lambda: asyncio.run(call_func_async(f, {'s': 'a' * 40 + '!', 't': 'a' * 40 + '!'}, raise_on_err=False)), 5)  # 2**12 times the 15 s before
    assert r.startswith("Error: invalid arguments") and "t: string should match pattern '^(a+)+$'" in r and '\ns:' not in r, r
    assert cheap(lambda: asyncio.run(call_func_async(f, {'s': 'a' * 40 + '!'})), 5) == {'s': 'a' * 40 + '!'}  # left to the server
    assert get_schema(f, pname='inputSchema')['inputSchema']['properties']['s']['pattern'] == '^(?=.)(a+)+$'

# Red team after issue 31, 6: a partial's subclass calls its own `__call__`, not the function it holds
class _Hooked(partial): __call__ = os.system
class _HookedSt(staticmethod): __call__ = os.system
class _MyHook(partial):
    def __call__(self, *a, **kw): return 'mine'
def echo(command:str)->str: "Echo"; return command

def test_rt6_wrapper_subclass_call(tmp_path):
    class Svc:
        echo, hook = _Hooked(echo), _MyHook(echo)
        def __init__(self): self.st = _HookedSt(echo)
    for nm in ('echo', 'st'):
        r = call_func(f'svc.{nm}', {'command': f'touch {tmp_path}/pwned'}, ns={'svc': Svc()}, raise_on_err=False)
        assert r == f"Error: Tool 'svc.{nm}' is not allowed: '{nm}' calls a built-in (system)", r
    assert not list(tmp_path.iterdir())
    assert call_func('svc.hook', {'command': 'x'}, ns={'svc': Svc()}) == 'mine'  # a subclass's own Python `__call__` is yours

# 7: values a model chose to share one hash made building a set or a dict quadratic (50,000 ints: 12 s, on the event loop)
M = 2**61 - 1
def tag(ids:set[int])->int: "Tag"; return len(ids)
def frozen(ids:frozenset[int])->str: "Frozen"; return type(ids).__name__
def score(weights:dict[int, float])->int: "Score"; return len(weights)
def configure(options:dict)->int: "Set"; return len(options)
def pairs(ps:set[tuple[int, int]])->int: "Pairs"; return len(ps)
def ids(us:set[uuid.UUID])->int: "Ids"; return len(us)

BAD = [k*M for k in range(100_000)]
@pytest.mark.parametrize('f,args', [(tag, {'ids': BAD}), (tag, json.dumps({'ids': BAD})), (frozen, {'ids': BAD}), (score, {'weights': {str(k): 1.0 for k in BAD}}),
                                    (configure, {'options': [{'key': k, 'value': 0} for k in BAD]}), (ids, {'us': [str(uuid.UUID(int=k)) for k in BAD]}),
                                    (tag, {'ids': [-1, -2] * 50_000 + BAD[:9]})])
def test_rt7_shared_hashes_refused(f, args):
    r = cheap(lambda: call_func(f, args, raise_on_err=False), 5)  # before: 12 s for half as many
    assert r.startswith(f"Error: invalid arguments for tool '{f.__name__}'") and 'more than 8 different values share one hash' in r, r[:300]
    assert cheap(lambda: asyncio.run(call_func_async(f, args, raise_on_err=False)), 5).startswith('Error: invalid arguments')

def test_rt7_work_is_linear():
    "Values that share a hash are each compared with at most 8 others: the work grows with their number, not its square"
    class Same:
        eqs = 0
        def __init__(self, i): self.i = i
        def __hash__(self): return 1
        def __eq__(self, o): Same.eqs += 1; return self.i == o.i
    for n in (1000, 4000):
        Same.eqs = 0
        with pytest.raises(ValueError, match='more than 8 different values share one hash'): fncall.call._spread([Same(i) for i in range(n)])
        assert Same.eqs <= 8*n, (n, Same.eqs)
    Same.eqs = 0
    assert len(fncall.call._spread([Same(i % 8) for i in range(4000)])) == 4000 and Same.eqs <= 8*4000  # eight values, many times: fine

def test_rt7_sets_and_dicts_still_work():
    assert call_func(tag, {'ids': list(range(100_000)) + [-1, -2] * 1000}) == 100_002
    assert call_func(frozen, {'ids': [1, 2]}) == 'frozenset' and call_func(tag, {'ids': '[1, 1, "2"]'}) == 2
    assert call_func(score, {'weights': {str(k): 1 for k in BAD[:8]} | {'1': 2}}) == 9
    assert call_func(configure, {'options': [{'key': 'a', 'value': 1}, {'key': 2, 'value': 3}]}) == 2
    assert call_func(pairs, {'ps': [[1, 2], [1, 2], [3, 4]]}) == 2 and call_func(ids, {'us': [str(uuid.UUID(int=1))] * 3}) == 1
    def few(xs:Annotated[set[int], Field(max_length=2)])->int: "Few"; return len(xs)
    assert call_func(few, {'xs': [1, 1, 2]}) == 2 and 'at most 2 items' in call_func(few, {'xs': [1, 2, 3]}, raise_on_err=False)
    r = call_func(tag, {'ids': [[1], 2]}, raise_on_err=False)
    assert r.startswith("Error: invalid arguments for tool 'tag':\nids.0: expected integer"), r
    assert call_func(configure, {'options': [{'key': [1], 'value': 0}]}, raise_on_err=False).startswith("Error: invalid arguments for tool 'configure':\noptions: expected object")

seen_on = []
@dataclass
class Probe:
    x: int
    def __post_init__(self): seen_on.append(threading.current_thread())
def sync_probe(p:Probe, pad:list[str]=[])->int: "Probe"; return p.x
async def async_probe(p:Probe, pad:list[str]=[])->int: "Probe"; return p.x

@pytest.mark.parametrize('f,big,off', [(sync_probe, False, True), (sync_probe, True, True), (async_probe, False, False), (async_probe, True, True)])
def test_rt7_large_arguments_checked_off_the_loop(f, big, off):
    "A sync tool's arguments are checked in its worker thread; an async tool's on the loop, unless they are large"
    async def go(): return threading.current_thread(), await call_func_async(f, {'p': {'x': 1}, 'pad': ['x' * 100] * (1000 if big else 1)})
    seen_on.clear()
    loop_thread, r = asyncio.run(go())
    assert r == 1 and len(seen_on) == 1 and (seen_on[0] is not loop_thread) == off, seen_on

# 9: a standard-library class is never built from the model's arguments (ZipFile(file, mode='w') truncated the file while they were checked)
import zipfile, ipaddress
def count_entries(archive:zipfile.ZipFile)->int: "Count"; return len(archive.namelist())
def log_to(h:logging.FileHandler)->str: "Log"; return 'ok'
class MyZip(zipfile.ZipFile): "A class of mine whose constructor is the standard library's"
def my_zip(z:MyZip)->int: "Mine"; return 0
def addr(a:ipaddress.IPv4Address)->str: "An address"; return str(a)

@pytest.mark.parametrize('f,args', [(count_entries, lambda p: {'archive': {'file': p, 'mode': 'w'}}), (log_to, lambda p: {'h': {'filename': p, 'mode': 'w'}}),
                                    (my_zip, lambda p: {'z': {'file': p, 'mode': 'w'}})])
def test_rt9_stdlib_class_not_built(f, args, tmp_path):
    (p := tmp_path/'victim.txt').write_text('precious')
    r = call_func(f, args(str(p)), raise_on_err=False)
    assert r.startswith(f"Error: invalid arguments for tool '{f.__name__}':\n") and ': expected ' in r, r
    assert p.read_text() == 'precious'

def test_rt9_stdlib_types_pydantic_knows():
    assert call_func(addr, {'a': '10.0.0.1'}) == '10.0.0.1'
    assert call_func(addr, {'a': {'address': '10.0.0.1'}}, raise_on_err=False).startswith("Error: invalid arguments for tool 'addr'")
