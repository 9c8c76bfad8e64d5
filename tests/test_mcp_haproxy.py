"Two replicas of `fncall serve --http` behind haproxy, configured as the MCP page shows: clients call through one replica's SIGTERM, and no call that completed is lost or run twice, and nothing hangs"
import json, re, shutil, signal, socket, subprocess, time
import anyio, httpx2, pytest
from mcp.client.client import Client
from mcp.client.session import ClientSession
from mcp.client.streamable_http import streamable_http_client
from mcp.shared.exceptions import MCPError
from mcp_serve import HERE, http_server

HAPROXY = shutil.which('haproxy') or shutil.which('haproxy', path='/usr/sbin:/usr/local/sbin')
pytestmark = pytest.mark.skipif(not HAPROXY, reason='haproxy is not installed (Debian: apt-get install haproxy)')
WORKERS, CALLS = 6, 12

def documented(ports, stateless):
    "The haproxy configuration on the MCP page, on `ports` (the front, then the replicas); without its `stick` lines for --stateless replicas"
    nb = json.loads((HERE.parent/'nbs'/'08_mcp.ipynb').read_text())
    src = next(''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'markdown' and 'backend fncall' in ''.join(c['source']))
    cfg = re.search(r"```\n(defaults\n.*?)```", src, re.S).group(1)
    for old, new in zip(('127.0.0.1:8000', '127.0.0.1:8001', '127.0.0.1:8002'), ports): cfg = cfg.replace(old, f'127.0.0.1:{new}')
    return ''.join(l for l in cfg.splitlines(keepends=True) if not (stateless and l.strip().startswith('stick')))

def free_ports(n):
    socks = [socket.socket() for _ in range(n)]
    for s in socks: s.bind(('127.0.0.1', 0))
    ports = [s.getsockname()[1] for s in socks]
    for s in socks: s.close()
    return ports

async def worker(url, w, legacy, done, refused):
    "Make CALLS calls of `record`, each with a key of its own, opening a new session when its own is gone; a call refused before it ran (503, or 404 for a session its replica took with it) is made again"
    n, statuses = 0, []
    async def hook(r):
        if r.request.method == 'POST': statuses.append(r.status_code)
    while n < CALLS:
        async with httpx2.AsyncClient(timeout=httpx2.Timeout(60), event_hooks={'response': [hook]}) as hc:
            if legacy: conn = _legacy(url, hc)
            else: conn = Client(streamable_http_client(url, http_client=hc))
            try:
                async with conn as s:
                    await s.list_tools()  # the client checks results against the output schema it lists
                    while n < CALLS:
                        key = f'w{w}-{n}'
                        try: r = await s.call_tool('record', {'key': key, 's': 0.1})
                        except MCPError as e:
                            assert statuses and statuses[-1] in (404, 503), (key, statuses[-5:], e)  # refused before it ran: anything else could have run it
                            refused.append((key, statuses[-1]))
                            if statuses[-1] == 404: break  # the session is gone: open another
                            await anyio.sleep(0.2)
                            continue
                        assert not r.is_error, r
                        done[key] = r.structured_content['result']
                        n += 1
            except MCPError as e:  # a new session refused: haproxy sent it to the draining replica before its health check saw it go
                assert statuses and statuses[-1] == 503, (w, statuses[-5:], e)
                refused.append((f'w{w}-session', 503))  # counted: before the SIGTERM none may be refused
                await anyio.sleep(0.2)

class _legacy:
    "A session of the 2025-11-25 protocol (initialize, then Mcp-Session-Id), as an async context manager"
    def __init__(self, url, hc): self.url, self.hc = url, hc
    async def __aenter__(self):
        from contextlib import AsyncExitStack
        self.stack = AsyncExitStack()
        try:
            r, w = await self.stack.enter_async_context(streamable_http_client(self.url, http_client=self.hc))
            s = await self.stack.enter_async_context(ClientSession(r, w))
            await s.initialize()
        except BaseException:  # refused: `async with` won't call __aexit__, so close what was opened here
            await self.stack.aclose(); raise
        return s
    async def __aexit__(self, *exc): await self.stack.__aexit__(*exc)

@pytest.mark.parametrize('stateless', [False, True], ids=['sessions', 'stateless'])
def test_two_replicas_behind_haproxy(tmp_path, stateless):
    "Six clients (sessions of the 2025 protocol, or --stateless; and sessionless 2026 ones) make 72 calls through haproxy; a third of the way in, one replica gets SIGTERM"
    front, pa, pb = free_ports(3)
    (cfg := tmp_path/'haproxy.cfg').write_text(documented((front, pa, pb), stateless))
    log = tmp_path/'calls'
    args = ('mcp_team', '--no-python', *(['--stateless'] if stateless else []))
    env = {'FNCALL_TEST_LOG': str(log)}
    with http_server(*args, '--http', f'127.0.0.1:{pa}', env=env) as a, http_server(*args, '--http', f'127.0.0.1:{pb}', env=env) as b:
        hap = subprocess.Popen([HAPROXY, '-db', '-f', str(cfg)], stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
        try:
            url = f'http://127.0.0.1:{front}/mcp'
            assert _until(lambda: _up(url), 30), 'haproxy did not come up'
            done, refused, before = {}, [], []
            async def run():
                with anyio.fail_after(120):  # nothing hangs
                    async with anyio.create_task_group() as tg:
                        for w in range(WORKERS): tg.start_soon(worker, url, w, w % 2 == 0, done, refused)
                        while len(done) < WORKERS*CALLS // 3: await anyio.sleep(0.05)
                        before.extend(refused)
                        a.proc.send_signal(signal.SIGTERM)
            anyio.run(run)
            assert a.proc.wait(30) == 0  # drained, then exited
            assert not before, before  # until then no call was refused: each session's requests reached the replica that holds it
        finally:
            hap.terminate(); out = hap.communicate(timeout=10)[0]
    runs = [l.split() for l in log.read_text().splitlines()]
    keys = [k for k,_ in runs]
    assert len(done) == WORKERS*CALLS and sorted(keys) == sorted(done), (len(done), len(keys), sorted(set(keys) ^ set(done))[:5], out[-2000:])  # none lost, none run twice
    assert all(int(p) == done[k] for k,p in runs)  # each answer came from the replica that ran it
    assert {int(p) for _,p in runs} == {a.pid, b.pid}  # both served
    assert b.pid in {done[f'w{w}-{CALLS-1}'] for w in range(WORKERS)}  # the survivor went on after the SIGTERM

def _up(url):
    try: return httpx2.get(url.replace('/mcp', '/health'), timeout=5).status_code == 200
    except httpx2.TransportError: return False

def _until(cond, limit):
    end = time.monotonic() + limit
    while not (ok := cond()) and time.monotonic() < end: time.sleep(0.1)
    return ok
