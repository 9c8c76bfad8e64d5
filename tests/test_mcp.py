"`fncall serve` as a real subprocess, driven by the mcp SDK's stdio client"
import os, subprocess, sys, json, anyio, pytest
from pathlib import Path
from mcp.client.stdio import stdio_client, StdioServerParameters
from mcp.client.session import ClientSession
from fncall.schema import get_schema
from fncall.providers import tool_schema
from fncall.call import call_func_async
from fncall.mcp import mcp_tools
import fncall, mcp_demo

HERE = Path(__file__).parent
FNCALL = str(Path(sys.executable).parent/'fncall')

async def _session(*args, body):
    params = StdioServerParameters(command=FNCALL, args=['serve', *args], cwd=str(HERE), env=dict(os.environ))  # the SDK passes on only a few variables: keep PYTHONPATH
    with open(os.devnull, 'w') as errlog:
        async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            return await body(s)

def run(*args, body): return anyio.run(lambda: _session(*args, body=body))

def text(res): return '\n'.join(c.text for c in res.content)

def test_list_and_call():
    async def body(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert set(tools) == {'add', 'norm', 'boom', 'leave', 'greet', 'python'}
        assert tools['add'].input_schema == get_schema(mcp_demo.add, pname='inputSchema')['inputSchema']
        assert tools['norm'].input_schema['$defs']['Point']['properties']['x']['description'] == 'Horizontal'
        assert 'code' in tools['python'].input_schema['properties'] and list(tools['python'].input_schema['properties']) == ['code']
        r = await s.call_tool('add', {'a': 2, 'b': '3'})
        assert not r.is_error and text(r) == '5'
        r = await s.call_tool('norm', {'p': {'x': 3, 'y': 4}})
        assert text(r) == '5.0'
        r = await s.call_tool('python', {'code': 'import math\nx = 6\nmath.factorial(x)'})
        assert not r.is_error and text(r) == '720', text(r)
        r = await s.call_tool('python', {'code': 'x + 1'})  # the sandbox keeps its namespace
        assert text(r) == '7', text(r)
        return True
    assert run('mcp_demo', body=body)

def test_errors():
    async def body(s):
        r = await s.call_tool('boom', {'msg': 'bad'})
        assert r.is_error and text(r).endswith('ValueError: bad\n') and 'mcp_demo.py' in text(r), text(r)
        assert str(Path(fncall.__file__).parent) not in text(r), text(r)  # the tool's own frames, none of fncall's (a clone may well sit in a folder called fncall)
        r = await s.call_tool('add', {'a': 'x'})
        assert r.is_error and "a: expected integer, got 'x'" in text(r)
        r = await s.call_tool('nope', {})
        assert r.is_error and "not in the namespace" in text(r)
        r = await s.call_tool('leave', {'code': 3})
        assert r.is_error and text(r).endswith('SystemExit: 3\n'), text(r)
        r = await s.call_tool('add', {'a': 1})  # the server lives on
        assert text(r) == '2'
        return True
    assert run('mcp_demo:add', 'mcp_demo:boom', 'mcp_demo:leave', '--no-python', body=body)

def test_in_process_python():
    async def body(s):
        r = await s.call_tool('python', {'code': 'y = 2\nprint("hi")\ny * 21'})
        assert text(r) == 'hi\n42', text(r)
        return True
    assert run('--in-process', body=body)

@pytest.mark.parametrize('mode', ['sandbox', '--in-process'])
def test_mcp_tools_round_trip(mode):
    "Every tool `fncall serve` lists, the python tool (in either mode) included, comes back as a Python function with exactly the listed schema, callable directly or through call_func"
    async def body(s):
        listed = (await s.list_tools()).tools
        fs = {f.__name__: f for f in await mcp_tools(s)}
        assert set(fs) == {'add', 'norm', 'boom', 'leave', 'greet', 'python'}
        for t in listed: assert tool_schema(get_schema(fs[t.name], pname='inputSchema'), 'mcp')['inputSchema'] == t.input_schema, t.name  # served again, it lists the same
        assert await fs['add'](40, b=2) == 42 and await fs['add'](40, 2) == 42  # a bare value comes back unwrapped; optional parameters are positional too
        assert await fs['greet']('Ann', times=2) == 'Hello Ann! Hello Ann!'  # a remote parameter called `name`
        assert await call_func_async('greet', {'name': 'Bo'}, ns=fs) == 'Hello Bo!'
        assert await call_func_async('norm', {'p': {'x': 6, 'y': 8}}, ns=fs) == 10.0
        assert await fs['python']('x = 20\nx + 1') == '21' and await fs['python']('x * 2') == '40'
        with pytest.raises(RuntimeError, match='ValueError: x'): await fs['boom']('x')
        return True
    assert run('mcp_demo', *([] if mode == 'sandbox' else [mode]), body=body)

def test_bound_method():
    "A bound method is served, and keeps its instance's state between calls"
    async def body(s):
        (t,) = (await s.list_tools()).tools
        assert t.name == 'bump' and list(t.input_schema['properties']) == ['by']
        assert text(await s.call_tool('bump', {})) == '1' and text(await s.call_tool('bump', {'by': 2})) == '3'
        return True
    assert run('mcp_demo:counter.bump', '--no-python', body=body)

def test_schema_command():
    p = subprocess.run([FNCALL, 'schema', 'mcp_demo:add', '--provider', 'openai'], cwd=HERE, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s['type'] == 'function' and s['function']['name'] == 'add' and s['function']['parameters']['required'] == ['a']

@pytest.mark.parametrize('args,msg', [(['schema', 'mcp_demo:add', '--provider', 'nope'], "Unknown provider 'nope'"),
                                      (['schema', 'mcp_demo'], 'schema takes one module:function'),(['serve', 'no_such_mod:f'], "can't import module 'no_such_mod'"),
                                      (['serve', 'mcp_demo:nope'], "has no attribute 'nope'"),
                                      (['serve', '--no-python'], 'nothing to serve'),
                                      (['serve', 'mcp_demo:Counter.bump'], "'mcp_demo:Counter.bump' names Counter.bump, a method with no instance to call it on"),
                                      (['serve', 'mcp_badall'], "module 'mcp_badall' lists 'gone' in __all__ but has no 'gone'"),
                                      (['serve', 'mcp_demo:add', 'mcp_typed.py:add'], "two tools named 'add': from 'mcp_demo:add' and 'mcp_typed.py:add'"),
                                      (['frobnicate'], 'invalid choice')])
def test_bad_arguments(args, msg):
    "One line naming what was wrong, no traceback"
    p = subprocess.run([FNCALL, *args], cwd=HERE, capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and msg in p.stderr, p.stderr
    if args[0] == 'serve': assert p.stderr.startswith('fncall: ') and p.stderr.count('\n') == 1, p.stderr

def test_without_the_mcp_extra():
    "Without the mcp SDK (its imports blocked), `fncall serve` says what to install, with no traceback; `fncall schema` still works"
    block = "import sys; sys.modules['mcp'] = sys.modules['mcp_types'] = None; from fncall.mcp import main; main(sys.argv[1:])"
    p = subprocess.run([sys.executable, '-c', block, 'serve', 'mcp_demo:add'], cwd=HERE, capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and p.stderr == 'fncall: the MCP bridge needs the mcp extra: pip install "fncall[mcp]"\n', p.stderr
    p = subprocess.run([sys.executable, '-c', block, 'schema', 'mcp_demo:add'], cwd=HERE, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0 and json.loads(p.stdout)['name'] == 'add', p.stderr

# ---- `_load` and `_servable`: what `module:attr` names ----
def test_load():
    from fncall.mcp import _load
    with pytest.raises(Exception) as e: _load('no_such_module_xyz:f')
    assert "can't import module 'no_such_module_xyz'" in str(e.value)
    with pytest.raises(Exception) as e: _load('json:nope')
    assert "module 'json' has no attribute 'nope'" in str(e.value)
    assert list(_load('json:dumps')) == ['dumps']
    assert 'dumps' in _load('json')

def test_load_a_path(tmp_path):
    "A module given by its path"
    from fncall.mcp import _load
    p = tmp_path/'mytools.py'
    p.write_text('def twice(x:int)->int: return 2*x\n')
    assert _load(f'{p}:twice')['twice'](4) == 8
    with pytest.raises(Exception) as e: _load('/no/such/tools.py')
    assert "can't import module '/no/such/tools.py'" in str(e.value)

def test_servable():
    from fncall.mcp import _servable
    with pytest.raises(Exception) as e: _servable('json:JSONEncoder.encode')
    assert "'json:JSONEncoder.encode' names JSONEncoder.encode, a method with no instance to call it on" in str(e.value)
    assert list(_servable('json:dumps')) == ['dumps']
