"`fncall serve` driven by the mcp SDK's clients over stdio and Streamable HTTP: typed results, python failures, progress, cancellation, tool metadata, sessions, the token"
import json, os, shutil, subprocess, sys, time
import anyio, httpx2, pytest
from mcp.client.client import Client
from mcp.server.mcpserver import MCPServer
import fncall, mcp_typed
from mcp.client.streamable_http import streamable_http_client
from mcp.client.session import ClientSession
from mcp_serve import HERE, FNCALL, descendants, http_server, http_session, stdio_session, text

CALLS = dict(add={'a': 2}, ratio={'a': 1, 'b': 4}, stats={'xs': [1, 2]}, movie={'title': 'X', 'year': 1999}, flip={'x': 1, 'y': 2},
             shift={'x': 1, 'y': 2}, evens={'n': 5}, shout={'s': 'hi'}, nothing={}, untyped={'x': 1})

async def _typed(s):
    "(output schema, structured content, is_error) per tool of session `s`, and the listed tools"
    tools = {t.name: t for t in (await s.list_tools()).tools}
    res = {}
    for nm, args in CALLS.items():
        r = await s.call_tool(nm, args)
        res[nm] = (tools[nm].output_schema, r.structured_content, r.is_error)
    return res, tools

def _sdk_typed():
    "What the SDK's own `MCPServer` lists and answers for the same functions"
    srv = MCPServer('sdk')
    for nm in mcp_typed.__all__: srv.tool()(getattr(mcp_typed, nm))
    async def go():
        async with Client(srv) as c: return (await _typed(c))[0]
    return anyio.run(go)

@pytest.mark.parametrize('transport', ['stdio', 'http'])
def test_typed_results_match_the_sdk_server(transport):
    want = _sdk_typed()
    assert want['add'][0]['title'] == 'addOutput' and want['flip'][1] == {'x': 2.0, 'y': 1.0}  # the comparison compares something
    async def go(s):
        got, tools = await _typed(s)
        assert got == want
        r = await s.call_tool('flip', {'x': 1, 'y': 2})
        assert json.loads(text(r)) == {'x': 2.0, 'y': 1.0}  # JSON, not a quoted repr
        r = await s.call_tool('untyped', {'x': 1})  # no annotation: no structured content, but still JSON text
        assert json.loads(text(r)) == {'x': 1, 'y': 1} and r.structured_content is None
        assert text(await s.call_tool('shift', {'x': 1, 'y': 2})) == '{"x": 2.0, "y": 2.0}'
    _drive(transport, ['mcp_typed', '--no-python'], go)

def _drive(transport, args, body, **kw):
    async def main():
        if transport == 'stdio':
            async with stdio_session(*args) as s: return await body(s)
        with http_server(*args, **kw) as url:
            async with http_session(url) as s: return await body(s)
    return anyio.run(main)

@pytest.mark.parametrize('transport', ['stdio', 'http'])
def test_titles_annotations_version(transport):
    async def go(s):
        tools = {t.name: t for t in (await s.list_tools()).tools}
        a = tools['add']
        assert a.title == 'Add numbers' and (a.annotations.read_only_hint, a.annotations.idempotent_hint, a.annotations.open_world_hint) == (True, True, False)
        assert tools['shout'].annotations.destructive_hint is False and tools['ratio'].annotations is None
        assert tools['python'].title == 'Python' and tools['python'].annotations.read_only_hint is False
        return s.get_server_info() if hasattr(s, 'get_server_info') else s.initialize_result.server_info
    info = _drive(transport, ['mcp_typed', '--name', 'typed'], go)
    assert (info.name, info.version) == ('typed', fncall.__version__)

KILL = 'import os\nos._exit(3)'  # the worker dies mid-call (a SIGKILL to itself would not do: in a PID namespace the worker is init, which ignores it)
SAME = ['"after"', 'True', "{'a': 1}", 'print("hi")\n3', 'x = [1, 2]\nx', 'import sys\nprint("e", file=sys.stderr)', '1/0', 'undefined_name']

@pytest.mark.parametrize('mode', ['sandbox', 'in-process'])
def test_python_failures_are_errors(mode):
    async def go(s):
        res = {}
        for code in SAME: r = await s.call_tool('python', {'code': code}); res[code] = (r.is_error, text(r))
        r = await s.call_tool('python', {'code': 'while True: pass'})
        assert r.is_error and 'TimeoutError' in text(r), text(r)
        if mode == 'sandbox':
            r = await s.call_tool('python', {'code': KILL})
            assert r.is_error and 'killed' in text(r), text(r)
        r = await s.call_tool('python', {})
        assert r.is_error and 'code' in text(r), text(r)
        assert text(await s.call_tool('python', {'code': '6*7'})) == '42'  # still serving
        return res
    res = _drive('stdio', ['--timeout', '1.5', *(['--in-process'] if mode == 'in-process' else [])], go)
    assert [e for e,_ in res.values()] == [False]*6 + [True]*2
    assert res['"after"'][1] == "'after'" and res['True'][1] == 'True' and res["{'a': 1}"][1] == "{'a': 1}" and res['print("hi")\n3'][1] == 'hi\n3'
    assert res['1/0'][1].endswith('ZeroDivisionError: division by zero') and res['undefined_name'][1].endswith("NameError: name 'undefined_name' is not defined")

def test_sandbox_and_in_process_show_the_same():
    "The two modes give the same text for the same code (the stderr line aside: in-process code's stderr is the server's own)"
    async def go(s): return {c: text(await s.call_tool('python', {'code': c})) for c in SAME if 'stderr' not in c}
    a, b = _drive('stdio', [], go), _drive('stdio', ['--in-process'], go)
    assert a == b, (a, b)

@pytest.mark.parametrize('transport', ['stdio', 'http'])
def test_progress(transport):
    async def go(s):
        got = []
        async def cb(p, total, msg): got.append((p, total, msg))
        r = await s.call_tool('python', {'code': 'import time\ntime.sleep(2.3)\n"done"'}, progress_callback=cb)
        assert text(r) == "'done'"
        return got
    got = _drive(transport, ['--timeout', '10'], go)
    assert len(got) >= 1 and got[0][1] == 10 and got[0][2].startswith('running for'), got
    assert [p for p,*_ in got] == sorted(p for p,*_ in got)

def test_http_sessions_isolated_and_concurrent():
    async def go(url):
        async with http_session(url) as a, http_session(url) as b:
            assert text(await a.call_tool('python', {'code': 'secret = 41\nsecret + 1'})) == '42'
            r = await b.call_tool('python', {'code': 'secret'})
            assert r.is_error and "NameError: name 'secret' is not defined" in text(r)
            assert text(await a.call_tool('python', {'code': 'secret'})) == '41'  # a's namespace kept
            res = [None] * 200
            async def one(i, s): res[i] = (await s.call_tool('add', {'a': i, 'b': 1})).structured_content
            async with anyio.create_task_group() as tg:
                for i in range(200): tg.start_soon(one, i, (a, b)[i % 2])
            assert res == [{'result': i + 1} for i in range(200)]
    with http_server('mcp_typed') as url: anyio.run(go, url)

def test_http_token():
    async def go(url):
        async with httpx2.AsyncClient() as c:
            body = {'jsonrpc': '2.0', 'id': 1, 'method': 'ping'}
            for h in ({}, {'Authorization': 'Bearer wrong'}, {'Authorization': 'sesame'}):
                r = await c.post(url, json=body, headers=h)
                assert r.status_code == 401 and r.headers['www-authenticate'].startswith('Bearer '), (h, r.status_code)
        async with http_session(url, token='sesame') as s:
            assert (await s.call_tool('add', {'a': 1})).structured_content == {'result': 2}
        with pytest.raises(BaseException): # the SDK's client gives up on a 401
            async with http_session(url, token='wrong') as s: pass
    with http_server('mcp_typed', '--no-python', env={'FNCALL_TOKEN': 'sesame'}) as url: anyio.run(go, url)
    with http_server('mcp_typed', '--no-python', '--http', '0.0.0.0:0', env={'FNCALL_TOKEN': 'sesame'}) as url:  # beyond loopback, with a token
        assert url.startswith('http://0.0.0.0:')
        anyio.run(go, url)

@pytest.mark.parametrize('host', ['0.0.0.0', '127.0.0.2', '[::]'])
def test_http_refuses_unguarded_addresses_without_a_token(host):
    "Beyond this machine, or on a loopback address the SDK's Host/Origin check doesn't cover (a page of another site could reach it), a token is required"
    env = {k: v for k, v in os.environ.items() if k != 'FNCALL_TOKEN'}
    p = subprocess.run([FNCALL, 'serve', '--http', f'{host}:0', 'mcp_typed'], cwd=HERE, capture_output=True, text=True, timeout=60, env=env)
    assert p.returncode != 0 and 'without a token' in p.stderr, p.stderr

def test_http_max_sessions():
    async def go(url):
        async with http_session(url) as a:
            async with httpx2.AsyncClient() as c:
                r = await c.post(url, json={'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {'protocolVersion': '2025-06-18', 'capabilities': {},
                                 'clientInfo': {'name': 't', 'version': '1'}}}, headers={'Accept': 'application/json, text/event-stream'})
                assert r.status_code == 503 and r.headers['retry-after'] == '5', r.status_code
            assert (await a.call_tool('add', {'a': 1})).structured_content == {'result': 2}
    with http_server('mcp_typed', '--max-sessions', '1') as url: anyio.run(go, url)

def test_stdio_from_any_directory(tmp_path):
    "A client starts the server in a directory of its own: --cwd, or a path in the spec, still finds the tools"
    async def go(*args):
        async with stdio_session(*args, '--no-python', cwd=tmp_path) as s: return (await s.call_tool('add', {'a': 1})).structured_content
    assert anyio.run(go, '--cwd', str(HERE), 'mcp_typed:add') == {'result': 2}
    assert anyio.run(go, str(HERE/'mcp_typed.py') + ':add') == {'result': 2}

def test_terminal_hint():
    "On a terminal `fncall serve` says, on stderr, that it waits for an MCP client, and how to try it"
    pty = pytest.importorskip('pty')
    import select
    pid, fd = pty.fork()
    if pid == 0:
        os.chdir(HERE)
        os.execv(FNCALL, [FNCALL, 'serve', 'mcp_typed:add', '--no-python'])
    out, end = b'', time.monotonic() + 30
    while b'\n' not in out and time.monotonic() < end:
        if select.select([fd], [], [], 1)[0]:
            try: out += os.read(fd, 1000)
            except OSError: break
    os.kill(pid, 9); os.waitpid(pid, 0)
    assert b'waiting for an MCP client' in out and b'@modelcontextprotocol/inspector' in out, out

def _inspector(target, *args):
    "What the MCP Inspector's command line prints for `args` against `target` (skips where npx or the Inspector can't be had)"
    if not shutil.which('npx'): pytest.skip('npx is not installed')
    try: p = subprocess.run(['npx', '-y', '@modelcontextprotocol/inspector', '--cli', *target, *args], cwd=HERE, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired: pytest.skip('the Inspector could not be fetched or started within 120 s')
    if p.returncode != 0 and ('npm ERR' in p.stderr or 'npm error' in p.stderr): pytest.skip(f'npx could not fetch the Inspector: {p.stderr[-300:]}')
    assert p.returncode == 0, p.stdout + p.stderr
    return json.loads(p.stdout)

@pytest.mark.parametrize('transport', ['stdio', 'http'])
def test_inspector_cli(transport):
    "The MCP Inspector's command line (the TypeScript SDK's client) lists and calls the tools, over stdio and over HTTP"
    def check(target):
        tools = {t['name']: t for t in _inspector(target, '--method', 'tools/list')['tools']}
        assert tools['add']['title'] == 'Add numbers' and tools['add']['outputSchema']['title'] == 'addOutput'
        assert _inspector(target, '--method', 'tools/call', '--tool-name', 'add', '--tool-arg', 'a=2')['structuredContent'] == {'result': 3}
        r = _inspector(target, '--method', 'tools/call', '--tool-name', 'python', '--tool-arg', 'code=1/0')
        assert r['isError'] is True and r['content'][0]['text'].endswith('ZeroDivisionError: division by zero')
    if transport == 'stdio': return check([FNCALL, 'serve', 'mcp_typed'])
    with http_server('mcp_typed') as url: check([url, '--transport', 'http'])

def test_import_is_light():
    "`import fncall` does not import the mcp SDK (it would take most of the import time); the bridge imports it when used"
    p = subprocess.run([sys.executable, '-c', "import sys, fncall; print('mcp' in sys.modules, 'mcp_types' in sys.modules, 'anyio' in sys.modules)"],
                       capture_output=True, text=True, timeout=60)
    assert p.stdout.split() == ['False', 'False', 'False'], p.stdout + p.stderr

def test_results_that_cannot_be_sent():
    "A result that does not match its annotation, or that can't be made JSON, is that call's error result; the server goes on"
    async def go(s):
        r = await s.call_tool('liar', {})
        assert r.is_error and text(r).startswith("Error: the result of tool 'liar' can't be sent: ValidationError"), text(r)
        r = await s.call_tool('deep', {'n': 100_000})
        assert r.is_error and "the result of tool 'deep' can't be sent" in text(r) and len(text(r)) < 700, text(r)
        assert text(await s.call_tool('deep', {'n': 2})) == '[[[]]]'
        assert (await s.call_tool('add', {'a': 1})).structured_content == {'result': 2}
    _drive('stdio', ['mcp_typed', '--no-python'], go)

def test_http_idle_session_closed():
    "An HTTP session idle for --idle-timeout seconds is closed, and its python sandbox with it"
    async def go(url):
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(60)) as hc:
            async with streamable_http_client(url, http_client=hc, terminate_on_close=False) as (r, w), ClientSession(r, w) as s:  # left open, not ended
                await s.initialize()
                assert text(await s.call_tool('python', {'code': '1+1'})) == '2'
            assert descendants(url.pid)  # the session's sandbox
            end = time.monotonic() + 20
            while time.monotonic() < end and descendants(url.pid): await anyio.sleep(0.2)
            assert not descendants(url.pid)
    with http_server('--idle-timeout', '1') as url: anyio.run(go, url)

@pytest.mark.parametrize('transport', ['stdio', 'http'])
def test_cancel_stops_the_code(transport):
    "A call the client cancels (`notifications/cancelled`) stops its code: the next call runs after it, so had the old code gone on it would see x == 2"
    async def go(s):
        assert text(await s.call_tool('python', {'code': 'x = 1'})) == ''
        with anyio.move_on_after(1): await s.call_tool('python', {'code': 'import time\ntime.sleep(20)\nx = 2'})
        return await s.call_tool('python', {'code': 'x'})
    r = _drive(transport, ['--timeout', '30'], go)
    assert not r.is_error and text(r) == "1", text(r)  # stopped as a timeout stops it: the namespace is kept

def test_address():
    "`--http [HOST:]PORT`: the host 127.0.0.1 if not given, an IPv6 host in brackets"
    from fncall.mcp import _address
    assert _address('8000') == ('127.0.0.1', 8000)
    assert _address('0.0.0.0:80') == ('0.0.0.0', 80)
    assert _address('[::1]:9') == ('::1', 9)
    with pytest.raises(ValueError, match=r'--http takes \[HOST:\]PORT'): _address('host:http')

def test_guarded():
    "The loopback names the SDK guards against DNS rebinding, as it writes them; any other address needs a token"
    from fncall.mcp import _guarded
    assert [_guarded(h) for h in ('localhost', '127.0.0.1', '0:0:0:0:0:0:0:1')] == ['localhost', '127.0.0.1', '::1']
    assert not any(map(_guarded, ('127.0.0.2', '0.0.0.0', '::', 'example.com')))

@pytest.mark.parametrize('transport', ['stdio', 'http'])
def test_surrogate_results_are_errors(transport):
    "A result holding a lone surrogate (a name os.listdir read from bytes that aren't UTF-8) is that call's error result, saying why; the server goes on (it crashed over stdio, and answered an empty 200 over HTTP)"
    async def go(s):
        for nm in ('odd_name', 'odd_names'):
            r = await s.call_tool(nm, {})
            assert r.is_error and f"the result of tool {nm!r} can't be sent" in text(r) and "holds '\\udce9' at" in text(r) and 'a lone surrogate' in text(r), text(r)
        r = await s.call_tool('fail_oddly', {})  # an error's own text is shown escaped
        assert r.is_error and text(r).endswith("FileNotFoundError: caf\\udce9\n"), text(r)
        r = await s.call_tool('python', {'code': 'print("caf\\udce9")\n"ok"'})
        assert "caf\\udce9" in text(r) and "'ok'" in text(r), text(r)
        assert (await s.call_tool('slow', {'s': 0})).structured_content == {'result': 0}  # still serving
    _drive(transport, ['mcp_team', '--in-process'], go)
