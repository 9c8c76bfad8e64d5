"`fncall serve` as a real subprocess, driven by the mcp SDK's stdio client"
import os, subprocess, sys, json, anyio, pytest
from pathlib import Path
from mcp.client.stdio import stdio_client, StdioServerParameters
from mcp.client.session import ClientSession
from fncall.schema import get_schema
from fncall.call import call_func_async
from fncall.mcp import mcp_tools
import mcp_demo

HERE = Path(__file__).parent
FNCALL = str(Path(sys.executable).parent/'fncall')

async def _session(*args, body):
    params = StdioServerParameters(command=FNCALL, args=['serve', *args], cwd=str(HERE))
    with open(os.devnull, 'w') as errlog:
        async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            return await body(s)

def run(*args, body): return anyio.run(lambda: _session(*args, body=body))

def text(res): return '\n'.join(c.text for c in res.content)

def test_list_and_call():
    async def body(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        assert set(tools) == {'add', 'norm', 'boom', 'python'}
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
        assert r.is_error and text(r).endswith('ValueError: bad\n') and 'fncall' not in text(r)
        r = await s.call_tool('add', {'a': 'x'})
        assert r.is_error and "a: expected integer, got 'x'" in text(r)
        r = await s.call_tool('nope', {})
        assert r.is_error and "not in the namespace" in text(r)
        return True
    assert run('mcp_demo:add', 'mcp_demo:boom', '--no-python', body=body)

def test_in_process_python():
    async def body(s):
        r = await s.call_tool('python', {'code': 'y = 2\nprint("hi")\ny * 21'})
        assert text(r) == 'hi\n42', text(r)
        return True
    assert run('--in-process', body=body)

def test_mcp_tools_round_trip():
    "Remote tools come back as Python functions with the original schemas, callable directly or through call_func"
    async def body(s):
        fs = {f.__name__: f for f in await mcp_tools(s)}
        for t in (await s.list_tools()).tools:  # every listed tool comes back with its schema
            assert get_schema(fs[t.name], pname='inputSchema')['inputSchema'] == t.input_schema, t.name
        assert await fs['add'](40, b=2) == '42'
        assert await call_func_async('norm', {'p': {'x': 6, 'y': 8}}, ns=fs) == '10.0'
        with pytest.raises(RuntimeError, match='ValueError: x'): await fs['boom']('x')
        return True
    assert run('mcp_demo', '--no-python', body=body)

def test_schema_command():
    p = subprocess.run([FNCALL, 'schema', 'mcp_demo:add', '--provider', 'openai'], cwd=HERE, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    s = json.loads(p.stdout)
    assert s['type'] == 'function' and s['function']['name'] == 'add' and s['function']['parameters']['required'] == ['a']

@pytest.mark.parametrize('args,msg', [(['schema', 'mcp_demo:add', '--provider', 'nope'], "Unknown provider 'nope'"),
                                      (['schema', 'mcp_demo'], 'schema takes one module:function'),(['serve', 'no_such_mod:f'], "can't import module 'no_such_mod'"),
                                      (['serve', 'mcp_demo:nope'], "has no attribute 'nope'"),
                                      (['serve', '--no-python'], 'nothing to serve'),
                                      (['frobnicate'], 'invalid choice')])
def test_bad_arguments(args, msg):
    p = subprocess.run([FNCALL, *args], cwd=HERE, capture_output=True, text=True, timeout=60)
    assert p.returncode != 0 and msg in p.stderr, p.stderr
