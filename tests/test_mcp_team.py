"`fncall serve --http` serving a team, driven by the mcp SDK's clients and raw HTTP: one budget of sandboxes, idle sandboxes reaped, users bound to their sessions, draining on SIGTERM, cut slow headers, proxies' hosts, stateless serving"
import json, os, re, signal, socket, subprocess, sys, time
import anyio, httpx2, pytest
from mcp.client.client import Client
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_serve import FNCALL, HERE, descendants, http_server, text

MODERN = {'Accept': 'application/json, text/event-stream', 'MCP-Protocol-Version': '2026-07-28'}

def modern(method, params, rid=1):
    "A sessionless (2026-07-28) JSON-RPC request body, as the SDK's `Client` sends it"
    return {'jsonrpc': '2.0', 'id': rid, 'method': method, 'params': {**params, '_meta': {'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': {'name': 't', 'version': '1'}, 'io.modelcontextprotocol/clientCapabilities': {}}}}

def health(url): return httpx2.get(url.replace('/mcp', '/health'), timeout=30)

async def until(cond, limit, every=0.1):
    "Wait until `cond()` holds, for at most `limit` s; whether it did"
    end = time.monotonic() + limit
    while not (ok := cond()) and time.monotonic() < end: await anyio.sleep(every)
    return ok

def test_sessionless_flood_is_bounded():
    "40 concurrent sessionless python calls (the SDK's `Client` in its default mode) against --max-sandboxes 2: at most 2 sandboxes at once, the rest refused with a 503 saying why and when to retry (it made 40 sandboxes, 82 processes, all answered 200)"
    async def go(url):
        seen, results = [], []
        async def watch():
            while True:
                seen.append(health(url).json()['sandboxes'])
                await anyio.sleep(0.05)
        async def call(i):
            async with Client(url) as c:
                try: results.append(('ok', text(await c.call_tool('python', {'code': f'import time\ntime.sleep(3)\n{i}'}))))
                except MCPError as e: results.append(('refused', str(e)))
        async with anyio.create_task_group() as tg:
            tg.start_soon(watch)
            async with anyio.create_task_group() as calls:
                for i in range(40): calls.start_soon(call, i)
            r = httpx2.post(url, json=modern('tools/call', {'name': 'python', 'arguments': {'code': '1'}}), headers=MODERN | {'Mcp-Method': 'tools/call', 'Mcp-Name': 'python'})
            tg.cancel_scope.cancel()
        return seen, results, r
    with http_server('mcp_team', '--max-sandboxes', '2') as url:
        seen, results, _ = anyio.run(go, url)
        oks, refused = [t for k,t in results if k == 'ok'], [t for k,t in results if k == 'refused']
        assert max(seen) <= 2 and len(oks) + len(refused) == 40 and oks and refused, (max(seen), len(oks), refused[:1])
        assert all(t == 'all 2 python sandboxes of this server are in use: try again in a few seconds' for t in refused), refused[:3]
        assert sorted(map(int, oks)) == sorted(set(map(int, oks)))  # each ran once
        assert anyio.run(until, lambda: health(url).json()['sandboxes'] == 0 and not descendants(url.pid), 30)  # each sessionless sandbox closed with its call
        anyio.run(_full, url)

async def _full(url):
    "With both sandboxes taken, the HTTP answer to a python call says so, and when to retry; the functions are served all along"
    call = lambda name, args, rid=1, **kw: httpx2.post(url, json=modern('tools/call', {'name': name, 'arguments': args}, rid), headers=MODERN | {'Mcp-Method': 'tools/call', 'Mcp-Name': name}, **kw)
    async with anyio.create_task_group() as tg:
        for _ in range(2): tg.start_soon(anyio.to_thread.run_sync, lambda: call('python', {'code': 'import time\ntime.sleep(4)'}, timeout=60))
        assert await until(lambda: health(url).json()['sandboxes'] == 2, 30)
        r = call('python', {'code': '1'}, rid=7)
        assert (r.status_code, r.headers['retry-after'], r.json()['id']) == (503, '5', 7), (r.status_code, r.headers, r.text)
        assert r.json()['error']['message'] == 'all 2 python sandboxes of this server are in use: try again in a few seconds'
        r = call('slow', {'s': 0})
        assert r.status_code == 200 and r.json()['result']['structuredContent'] == {'result': 0}

def test_idle_connected_client_is_reaped():
    "A client that stays connected (its GET stream open) but makes no python call for --idle-timeout 2 s loses its sandbox (it was alive at 15 s with --idle-timeout 6); the session goes on, and its next call says the namespace was cleared"
    async def go(url):
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(60)) as hc, streamable_http_client(url, http_client=hc) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            desc = {t.name: t for t in (await s.list_tools()).tools}['python'].description
            assert 'persist between calls of this session until it goes 2 s without a python call' in desc, desc
            assert text(await s.call_tool('python', {'code': 'x = 41\nx'})) == '41'
            assert text(await s.call_tool('python', {'code': 'x + 1'})) == '42'
            assert descendants(url.pid)
            assert await until(lambda: not descendants(url.pid), 2*3 + 10)  # reaped, the client still connected
            assert (await s.call_tool('slow', {'s': 0})).structured_content == {'result': 0}
            r = await s.call_tool('python', {'code': 'x'})
            assert r.is_error and text(r).startswith('Note: this session went 2 s without a python call, so its namespace was cleared') and "NameError: name 'x'" in text(r), text(r)
            assert text(await s.call_tool('python', {'code': 'y = 1\ny'})) == '1'
    with http_server('mcp_team', '--idle-timeout', '2') as url: anyio.run(go, url)

def _token_file(tmp_path, **users):
    p = tmp_path/'tokens'
    p.write_text('# user token\n' + ''.join(f'{u} {t}\n' for u,t in users.items()))
    p.chmod(0o600)
    return str(p)

@pytest.fixture(scope='module')
def team(tmp_path_factory):
    "A server for alice and bob, their tokens in a file"
    with http_server('mcp_team', '--token-file', _token_file(tmp_path_factory.mktemp('t'), alice='tok-alice', bob='tok-bob')) as url: yield url

def test_user_b_cannot_use_user_a_session(team):
    "With tokens per user (a token file), a session is its user's: bob holding alice's Mcp-Session-Id gets 404, never her python variables"
    async def go(url):
        a_ids = []
        async def hook(r): a_ids.append(r.headers.get('mcp-session-id'))
        async with httpx2.AsyncClient(headers={'Authorization': 'Bearer tok-alice'}, timeout=httpx2.Timeout(60), event_hooks={'response': [hook]}) as hc, \
                   streamable_http_client(url, http_client=hc) as (r, w), ClientSession(r, w) as a:
            await a.initialize()
            assert text(await a.call_tool('python', {'code': 'secret = 41\nsecret'})) == '41'
            sid = next(i for i in a_ids if i)
            h = {'Accept': 'application/json, text/event-stream', 'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25'}
            call = {'jsonrpc': '2.0', 'id': 9, 'method': 'tools/call', 'params': {'name': 'python', 'arguments': {'code': 'secret'}}}
            async with httpx2.AsyncClient(timeout=60) as raw:
                r = await raw.post(url, json=call, headers=h | {'Authorization': 'Bearer tok-bob'})
                assert r.status_code == 404 and 'secret' not in r.text and '41' not in r.text, (r.status_code, r.text)
                r = await raw.post(url, json=call, headers=h | {'Authorization': 'Bearer tok-alice'})
                assert r.status_code == 200 and '"text":"41"' in r.text.replace(' ', ''), r.text  # the same request as alice: her variable
                r = await raw.post(url, json=call, headers=h)
                assert r.status_code == 401
            async with httpx2.AsyncClient(headers={'Authorization': 'Bearer tok-bob'}, timeout=httpx2.Timeout(60)) as hb, \
                       streamable_http_client(url, http_client=hb) as (r, w), ClientSession(r, w) as b:
                await b.initialize()
                r = await b.call_tool('python', {'code': 'secret'})
                assert r.is_error and "NameError: name 'secret'" in text(r)
            assert text(await a.call_tool('python', {'code': 'secret + 1'})) == '42'
    anyio.run(go, team)
    assert any(' alice "POST /mcp tools/call python" 200 ' in l for l in team.log) and any(' bob "POST /mcp" 404 ' in l for l in team.log), team.log[-5:]

def test_token_verifier():
    "`serve` takes a team's own `TokenVerifier`; sessions are then bound to the users it names"
    p = subprocess.Popen([sys.executable, 'mcp_verifier.py', '0'], cwd=HERE, stderr=subprocess.PIPE, text=True)
    try:
        url = re.search(r'(http://\S+/mcp)', p.stderr.readline()).group(1)
        call = lambda token: httpx2.post(url, json=modern('tools/call', {'name': 'slow', 'arguments': {'s': 0}}), headers=MODERN | {'Mcp-Method': 'tools/call', 'Mcp-Name': 'slow', 'Authorization': f'Bearer {token}'})
        assert call('stamp-ann').json()['result']['structuredContent'] == {'result': 0} and call('nope').status_code == 401
        init = {'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {'protocolVersion': '2025-11-25', 'capabilities': {}, 'clientInfo': {'name': 't', 'version': '1'}}}
        h = {'Accept': 'application/json, text/event-stream'}
        sid = httpx2.post(url, json=init, headers=h | {'Authorization': 'Bearer stamp-ann'}).headers['mcp-session-id']
        ping = {'jsonrpc': '2.0', 'id': 2, 'method': 'ping'}
        h |= {'Mcp-Session-Id': sid, 'MCP-Protocol-Version': '2025-11-25'}
        assert [httpx2.post(url, json=ping, headers=h | {'Authorization': f'Bearer stamp-{u}'}).status_code for u in ('ann', 'bo')] == [200, 404]
    finally: p.terminate(); p.wait(30)

def test_first_calls_at_once_take_one_sandbox(team):
    "Python calls that open a session's sandbox at once take one sandbox of the budget, and give it back when the session ends"
    async def go(url):
        async with httpx2.AsyncClient(headers={'Authorization': 'Bearer tok-alice'}, timeout=httpx2.Timeout(60)) as hc, \
                   streamable_http_client(url, http_client=hc) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            async with anyio.create_task_group() as tg:
                for i in range(4): tg.start_soon(s.call_tool, 'python', {'code': f'{i}'})
            assert await until(lambda: health(url).json()['sandboxes'] == 1, 30)  # (another test's sandbox may still be closing)
        assert await until(lambda: health(url).json()['sandboxes'] == 0, 30)
    anyio.run(go, team)

def test_lowercase_bearer(team):
    "RFC 7235: the scheme is case-insensitive, so `Authorization: bearer T` works (it got 401), with the SDK's own client too"
    r = httpx2.post(team, json=modern('tools/call', {'name': 'slow', 'arguments': {'s': 0}}), headers=MODERN | {'Mcp-Method': 'tools/call', 'Mcp-Name': 'slow', 'Authorization': 'bearer tok-bob'})
    assert r.status_code == 200 and r.json()['result']['structuredContent'] == {'result': 0}, r.text
    async def go(url):
        async with httpx2.AsyncClient(headers={'Authorization': 'BEARER tok-alice'}) as hc, Client(streamable_http_client(url, http_client=hc)) as c:
            return (await c.call_tool('slow', {'s': 0})).structured_content
    assert anyio.run(go, team) == {'result': 0}
    for h in ({}, {'Authorization': 'Bearer tok-carol'}, {'Authorization': 'tok-bob'}, {'Authorization': 'Basic tok-bob'}):
        assert httpx2.post(team, json=modern('ping', {}), headers=MODERN | {'Mcp-Method': 'ping'} | h).status_code == 401, h

def test_sigterm_drains(tmp_path):
    "SIGTERM with 10 calls in flight (5 in a session, 5 sessionless): each finishes and is answered, once; new requests are refused (503) and the health check fails meanwhile; then the server exits (it cut them, and a retrying client ran them twice)"
    log = tmp_path/'calls'
    async def go(url):
        res = {}
        async def one(c, key): res[key] = (await c.call_tool('record', {'key': key, 's': 4})).structured_content
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(60)) as hc, streamable_http_client(url, http_client=hc) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            await s.list_tools()  # the client checks a result against its tool's output schema: listed now, not while the server drains
            async with anyio.create_task_group() as tg:
                clients = [await tg.start(_client, url) for _ in range(5)]
                async with anyio.create_task_group() as calls:
                    for i in range(5): calls.start_soon(one, s, f's{i}')
                    for i,c in enumerate(clients): calls.start_soon(one, c, f'm{i}')
                    assert await until(lambda: health(url).json()['in_flight'] == 10, 30)
                    url.proc.send_signal(signal.SIGTERM)
                    assert await until(lambda: _refused(url), 10)
                    h = health(url)
                    assert (h.status_code, h.json()['status']) == (503, 'draining')
                    r = httpx2.post(url, json=modern('tools/call', {'name': 'slow', 'arguments': {'s': 0}}), headers=MODERN | {'Mcp-Method': 'tools/call', 'Mcp-Name': 'slow'})
                    assert r.status_code == 503 and 'shutting down' in r.text and r.headers['retry-after'] == '5' and r.headers['connection'] == 'close'
                for c in clients: c.done.set()
        return res
    with http_server('mcp_team', '--drain-timeout', '60', env={'FNCALL_TEST_LOG': str(log)}) as url:
        res = anyio.run(go, url)
        assert url.proc.wait(30) == 0
    assert set(res) == {f'{k}{i}' for k in 'sm' for i in range(5)} and all(v == {'result': url.pid} for v in res.values()), res
    assert sorted(l.split()[0] for l in log.read_text().splitlines()) == sorted(res)  # each ran once
    assert any('draining: 10 request(s) in flight' in l for l in url.log), url.log[-5:]

async def _client(url, task_status):
    "A sessionless SDK client, kept open until its `done` is set"
    done = anyio.Event()
    async with Client(url) as c:
        await c.list_tools()
        c.done = done
        task_status.started(c)
        await done.wait()

def _refused(url):
    try: return health(url).status_code == 503
    except httpx2.TransportError: return False

def test_slow_headers_are_cut():
    "60 connections that send a request line and stop (and one that sends nothing) are closed after --header-timeout; a client with a token is answered meanwhile (they were never closed, and it waited 20 s); a connection idle after an answer is closed after --keep-alive"
    limit = 2
    with http_server('mcp_team', '--header-timeout', str(limit), '--keep-alive', '1', env={'FNCALL_TOKEN': 'sesame'}) as url:
        port = int(url.rsplit(':', 1)[1].split('/')[0])
        socks = [socket.create_connection(('127.0.0.1', port)) for _ in range(61)]
        for s in socks[1:]: s.sendall(b'POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\n')
        async def go():
            async with httpx2.AsyncClient(headers={'Authorization': 'Bearer sesame'}) as hc, Client(streamable_http_client(url, http_client=hc)) as c:
                return (await c.call_tool('slow', {'s': 0})).structured_content
        t0 = time.monotonic()
        assert anyio.run(go) == {'result': 0}
        for s in socks: s.settimeout(limit*3 + 10 - (time.monotonic() - t0))
        assert [s.recv(100) for s in socks] == [b''] * 61  # each closed by the server, nothing sent
        for s in socks: s.close()
        with socket.create_connection(('127.0.0.1', port)) as s:  # a request that does come in time is answered; the connection then idles out
            s.sendall(b'GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n')
            s.settimeout(1*3 + 10)
            got = b''
            while (piece := s.recv(1000)): got += piece  # to the end: the server closes it
            assert got.startswith(b'HTTP/1.1 200') and got.endswith(b'}'), got

def test_hosts_and_origins(team):
    "Behind a proxy the Host is the proxy's name: refused (421) unless --allow-host names it; --allow-origin lets that site's pages call"
    ping = modern('tools/list', {})
    hs = MODERN | {'Mcp-Method': 'tools/list'}
    assert httpx2.post(team, json=ping, headers=hs | {'Host': 'mcp.example.com', 'Authorization': 'Bearer tok-bob'}).status_code == 421
    with http_server('mcp_team', '--no-python', '--allow-host', 'mcp.example.com', '--allow-origin', 'https://app.example.com') as url:
        for h, want in [({'Host': 'mcp.example.com'}, 200), ({'Host': 'mcp.example.com:443'}, 200), ({}, 200), ({'Host': 'evil.example.com'}, 421),
                        ({'Origin': 'https://app.example.com'}, 200), ({'Origin': 'https://evil.example.com'}, 403)]:
            assert httpx2.post(url, json=ping, headers=hs | h).status_code == want, h

def test_stateless():
    "--stateless: no session (any replica answers any request); the python tool says nothing persists, and nothing does"
    async def go(url):
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(60)) as hc, streamable_http_client(url, http_client=hc) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            desc = {t.name: t for t in (await s.list_tools()).tools}['python'].description
            assert 'nothing persists between calls' in desc, desc
            assert text(await s.call_tool('python', {'code': 'x = 1\nx'})) == '1'
            r = await s.call_tool('python', {'code': 'x'})
            assert r.is_error and "NameError: name 'x'" in text(r)
            return (await s.call_tool('slow', {'s': 0})).structured_content
    with http_server('mcp_team', '--stateless') as url:
        assert anyio.run(go, url) == {'result': 0}
        r = httpx2.post(url, json={'jsonrpc': '2.0', 'id': 1, 'method': 'initialize', 'params': {'protocolVersion': '2025-11-25', 'capabilities': {}, 'clientInfo': {'name': 't', 'version': '1'}}},
                        headers={'Accept': 'application/json, text/event-stream'})
        assert r.status_code == 200 and 'mcp-session-id' not in r.headers

def test_health_and_access_log(team):
    "GET /health answers without a token; each request is one line on stderr: client, user, method, tool, status, milliseconds"
    h = health(team)
    assert h.status_code == 200 and h.json()['status'] == 'ok' and set(h.json()) == {'status', 'in_flight', 'sandboxes', 'max_sandboxes'}
    r = httpx2.get(team.replace('/mcp', '/mcp/tools'))
    assert r.status_code == 404 and r.json() == {'error': 'not found: MCP is served at /mcp'}
    r = httpx2.post(team, json=modern('tools/call', {'name': 'slow', 'arguments': {'s': 0.01}}), headers=MODERN | {'Mcp-Method': 'tools/call', 'Mcp-Name': 'slow', 'Authorization': 'Bearer tok-alice'})
    assert r.status_code == 200
    assert anyio.run(until, lambda: any(re.fullmatch(r'fncall: 127\.0\.0\.1:\d+ alice "POST /mcp tools/call slow" 200 \d+\.\d ms\n', l) for l in team.log), 10), team.log[-3:]
    with http_server('mcp_team', '--no-access-log') as url:
        assert health(url).status_code == 200
        httpx2.post(url, json=modern('ping', {}), headers=MODERN | {'Mcp-Method': 'ping'})
        time.sleep(0.5)
        assert not any('POST /mcp' in l for l in url.log), url.log

@pytest.mark.parametrize('args,env,msg', [
    (['--token', 'sesame'], {}, '--token would show the token to every user of this machine (ps)'),
    (['--token-file', '/no/such/file'], {}, "token file '/no/such/file': No such file or directory"),
    ([], {'FNCALL_TOKEN_FILE': '@bad'}, "expected 'USER TOKEN', got 3 words"),
    ([], {'FNCALL_TOKEN_FILE': '@dup'}, "'bob' has the token of 'alice'"),
    (['--max-memory-mb', '100'], {}, '--max-memory-mb 100 leaves no room for one sandbox of --memory-mb 1024')])
def test_bad_team_arguments(tmp_path, args, env, msg):
    "Bad tokens and budgets give one line saying what was wrong, before anything starts"
    (tmp_path/'bad').write_text('alice tok-a\nbob tok b\n')
    (tmp_path/'dup').write_text('alice tok-a\nbob tok-a\n')
    env = {k: str(tmp_path/v[1:]) if v.startswith('@') else v for k,v in env.items()}
    p = subprocess.run([FNCALL, 'serve', 'mcp_team', '--http', '0', *args], cwd=HERE, capture_output=True, text=True, timeout=60,
                       env={k: v for k,v in os.environ.items() if not k.startswith('FNCALL_TOKEN')} | env)
    assert p.returncode != 0 and p.stderr.startswith('fncall: ') and msg in p.stderr and p.stderr.count('\n') == 1, p.stderr

def test_token_not_on_any_command_line(team):
    "The token is in no process's command line, the server's or its sandboxes' (without bubblewrap the code can read those), and $FNCALL_TOKEN is taken out of the environment code in the server's process sees"
    async def go(url, token, code):
        cmds = [open(f'/proc/{url.pid}/cmdline', 'rb').read()]
        async with httpx2.AsyncClient(headers={'Authorization': f'Bearer {token}'}) as hc, Client(streamable_http_client(url, http_client=hc)) as c, anyio.create_task_group() as tg:
            async def read():  # while the call runs, and its sandbox with it
                await until(lambda: descendants(url.pid), 30)
                cmds.extend(open(f'/proc/{p}/cmdline', 'rb').read() for p in descendants(url.pid))
            tg.start_soon(read)
            out = text(await c.call_tool('python', {'code': code}))
            tg.cancel_scope.cancel()
            return out, cmds
    _, cmds = anyio.run(go, team, 'tok-alice', 'import time\ntime.sleep(3)')
    assert len(cmds) > 1 and not any(b'tok-' in c for c in cmds)
    with http_server('mcp_team', '--in-process', env={'FNCALL_TOKEN': 'tok-bob-0123'}) as url:
        out, cmds = anyio.run(go, url, 'tok-bob-0123', 'import os\nos.environ.get("FNCALL_TOKEN")')
    assert out == '' and not any(b'tok-bob' in c for c in cmds)  # None: no repr

def test_request_reading():
    "What `_Admit` reads of a request, fit for a log line whatever a client sends"
    from fncall.mcp import _call, _shown
    assert _call(b'{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"python","arguments":{}}}') == (3, 'tools/call', 'python')
    assert _call(b'{"jsonrpc":"2.0","id":"a","method":"tools/list"}') == ('a', 'tools/list', None)
    assert _call(b'not json') == _call(b'[1]') == _call(b'[' * 100_000) == (None, None, None)
    assert _shown('add" 200 1.0 ms\nforged') == 'add? 200 1.0 ms?forged' and len(_shown('x' * 1000)) == 64 and _shown(7) == '7'

def test_pool_budget():
    "The pool counts runners against its budget, and names it when full"
    from fncall.mcp import _Pool, _Full, _span
    p = _Pool(object, most=2, idle=1800)
    assert p.reserve() and p.reserve() and not p.reserve() and p.n == 2
    assert str(p.full()) == 'all 2 python sandboxes of this server are in use: try again in a few seconds'
    assert p.persists(True) == ' until it goes 30 min without a python call' and p.persists(False) is None and _Pool(object).persists(True) == ''
    assert [_span(s) for s in (2, 90, 1800, 7200)] == ['2 s', '90 s', '30 min', '2 h']
    with pytest.raises(ValueError, match='max_sandboxes must be at least 1'): _Pool(object, most=0)

def test_token_file_readable_by_others(tmp_path, capsys):
    "A token file others may read still serves, with a warning on stderr"
    from fncall.mcp import _token_file
    (p := tmp_path/'tokens').write_text('ann tok-ann\n\n# a comment\nbo tok-bo\n')
    p.chmod(0o644)
    assert _token_file(str(p)) == {'tok-ann': 'ann', 'tok-bo': 'bo'}
    assert 'can be read by other users of this machine (chmod 600 it)' in capsys.readouterr().err
