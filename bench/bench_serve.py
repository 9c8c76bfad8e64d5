"""`fncall serve` against the MCP SDK's own server (`MCPServer`) serving the same `add(a, b)`, side by side: over Streamable HTTP
(a session per client, protocol 2025-11-25; sessionless, protocol 2026-07-28; and `--stateless` against the SDK's `stateless_http`)
and over stdio, with 1, 10 and 50 clients calling as fast as they can. The clients speak raw HTTP/1.1 (or raw JSON lines over stdio)
from this process, pinned to another core than the servers, so the figures are the servers'; one row drives each server with the
SDK's own `Client` in its default mode. Each cell is the best of ROUNDS rounds, fncall's and the SDK's rounds interleaved; beside calls/s,
each server's CPU time a call (from /proc), which other processes on the machine move far less than calls/s.
Over stdio a server has one client: there "clients" are calls in flight on its one pipe.
Run from the repository root: `python bench/bench_serve.py [--seconds S] [--rounds R] [--only http|stdio]`."""
import argparse, asyncio, contextlib, json, os, socket, statistics, subprocess, sys, time
from pathlib import Path

TESTS = Path(__file__).resolve().parent.parent/'tests'
sys.path.insert(0, str(TESTS))
FNCALL = str(Path(sys.executable).parent/'fncall')
CLIENTS = (1, 10, 50)
MODERN, LEGACY = '2026-07-28', '2025-11-25'
PIN = len(os.sched_getaffinity(0)) >= 2  # servers on the first core, the clients on the second

def sdk_server(transport, stateless='', port=None):
    "The SDK's `MCPServer` serving `add`"
    from mcp.server.mcpserver import MCPServer
    from mcp_typed import add
    srv = MCPServer('sdk')
    srv.settings.log_level = 'WARNING'  # as quiet as fncall's uvicorn
    srv.tool()(add)
    if transport == 'stdio': srv.run('stdio')
    else: srv.run('streamable-http', host='127.0.0.1', port=int(port), max_sessions=None, stateless_http=stateless == 'stateless')

def _pin(cpu):
    return (lambda: os.sched_setaffinity(0, {cpu})) if PIN else None

# ---- a raw HTTP/1.1 client of MCP's Streamable HTTP ----
class Conn:
    "One keep-alive connection to a server's /mcp; `session` after `initialize` in 2025-11-25 mode"
    def __init__(self, port, mode): self.port, self.mode, self.session, self.n = port, mode, None, 0

    async def open(self):
        self.r, self.w = await asyncio.open_connection('127.0.0.1', self.port)
        self.w.get_extra_info('socket').setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        if self.mode != 'sessionless':
            await self.request('initialize', {'protocolVersion': LEGACY, 'capabilities': {}, 'clientInfo': {'name': 'bench', 'version': '1'}})
            await self.send({'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        return self

    def headers(self, method, name=None):
        h = {'Host': f'127.0.0.1:{self.port}', 'Accept': 'application/json, text/event-stream', 'Content-Type': 'application/json'}
        if self.mode == 'sessionless': h |= {'MCP-Protocol-Version': MODERN, 'Mcp-Method': method} | ({'Mcp-Name': name} if name else {})
        elif method != 'initialize': h['MCP-Protocol-Version'] = LEGACY
        if self.session: h['Mcp-Session-Id'] = self.session
        return h

    async def send(self, msg):
        "POST `msg`: (status, headers, the JSON-RPC messages of the answer)"
        body = json.dumps(msg, separators=(',', ':')).encode()
        h = self.headers(msg['method'], (msg.get('params') or {}).get('name')) | {'Content-Length': str(len(body))}
        self.w.write(f'POST /mcp HTTP/1.1\r\n'.encode() + ''.join(f'{k}: {v}\r\n' for k,v in h.items()).encode() + b'\r\n' + body)
        head = (await self.r.readuntil(b'\r\n\r\n')).decode('latin-1').split('\r\n')
        status, hs = int(head[0].split()[1]), dict((k.lower(), v.strip()) for k,_,v in (l.partition(':') for l in head[1:] if l))
        if 'content-length' in hs: data = await self.r.readexactly(int(hs['content-length']))
        else:
            data = b''
            while (size := int((await self.r.readuntil(b'\r\n')).split(b';')[0], 16)):
                data += (await self.r.readexactly(size + 2))[:-2]
            await self.r.readuntil(b'\r\n')
        if hs.get('content-type', '').startswith('text/event-stream'):
            msgs = [json.loads(l[5:]) for l in data.decode().splitlines() if l.startswith('data:') and l[5:].strip()]
        else: msgs = [json.loads(data)] if data else []
        if 'mcp-session-id' in hs: self.session = hs['mcp-session-id']
        return status, hs, msgs

    async def request(self, method, params):
        self.n += 1
        if self.mode == 'sessionless':
            params = {**params, '_meta': {'io.modelcontextprotocol/protocolVersion': MODERN, 'io.modelcontextprotocol/clientInfo': {'name': 'bench', 'version': '1'},
                                          'io.modelcontextprotocol/clientCapabilities': {}}}
        status, _, msgs = await self.send({'jsonrpc': '2.0', 'id': self.n, 'method': method, 'params': params})
        res = next((m for m in msgs if m.get('id') == self.n), None)
        if status != 200 or res is None or 'result' not in res: raise RuntimeError(f'{method}: HTTP {status}: {msgs}')
        return res['result']

    def close(self): self.w.close()

class Pipe:
    "A server over stdio, spoken to in raw JSON lines: any number of requests in flight"
    def __init__(self, cmd): self.cmd, self.n, self.waiting = cmd, 0, {}

    async def open(self):
        self.p = await asyncio.create_subprocess_exec(*self.cmd, cwd=TESTS, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
                                                      preexec_fn=_pin(0), limit=2**24)
        self.reader = asyncio.ensure_future(self.read())
        await self.request('initialize', {'protocolVersion': LEGACY, 'capabilities': {}, 'clientInfo': {'name': 'bench', 'version': '1'}})
        self.write({'jsonrpc': '2.0', 'method': 'notifications/initialized'})
        return self

    def write(self, msg): self.p.stdin.write(json.dumps(msg, separators=(',', ':')).encode() + b'\n')

    async def read(self):
        while line := await self.p.stdout.readline():
            m = json.loads(line)
            if (f := self.waiting.pop(m.get('id'), None)): f.set_result(m)

    async def request(self, method, params):
        self.n += 1
        self.waiting[self.n] = f = asyncio.get_running_loop().create_future()
        self.write({'jsonrpc': '2.0', 'id': self.n, 'method': method, 'params': params})
        m = await f
        if 'result' not in m: raise RuntimeError(f'{method}: {m}')
        return m['result']

    async def close(self):
        self.p.stdin.close()
        with contextlib.suppress(ProcessLookupError): self.p.terminate()
        await self.p.wait()
        self.reader.cancel()

def cpu(pid):
    "CPU seconds process `pid` has used (its threads' too)"
    with open(f'/proc/{pid}/stat') as f: t = f.read().rsplit(')', 1)[1].split()
    return (int(t[11]) + int(t[12])) / os.sysconf('SC_CLK_TCK')

async def load(clients, seconds, pid):
    "(calls/s, p50 s, p99 s, server CPU s a call) of `clients` (each with `request`) calling `add` one after another for `seconds`"
    lat, end, c0 = [], time.perf_counter() + seconds, cpu(pid)
    async def one(c, i):
        while (t := time.perf_counter()) < end:
            r = await c.request('tools/call', {'name': 'add', 'arguments': {'a': i, 'b': 1}})
            lat.append(time.perf_counter() - t)
            assert r['structuredContent'] == {'result': i + 1}, r
    t0 = time.perf_counter()
    await asyncio.gather(*(one(c, i) for i,c in enumerate(clients)))
    return len(lat) / (time.perf_counter() - t0), *statistics.quantiles(lat, n=100)[49::49], (cpu(pid) - c0) / len(lat)

# ---- the servers ----
def free_port():
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

@contextlib.contextmanager
def http_server(cmd):
    port = free_port()
    p = subprocess.Popen([*cmd, str(port)], cwd=TESTS, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_pin(0))
    try:
        for _ in range(600):
            if p.poll() is not None: raise RuntimeError(f'{cmd[:4]} exited: {p.returncode}')
            try:
                with socket.create_connection(('127.0.0.1', port), 0.1): break
            except OSError: time.sleep(0.05)
        yield port, p.pid
    finally: p.terminate(); p.wait(10)

OURS = [FNCALL, 'serve', 'mcp_typed:add', '--no-python']
THEIRS = [sys.executable, __file__, '--sdk-server']

async def http_cell(server, mode, n, seconds):
    (port, pid) = server
    cs = [await Conn(port, mode).open() for _ in range(n)]
    try:
        await load(cs, min(seconds, .3), pid)  # warm: both servers' first calls (imports, caches) out of the figures
        return await load(cs, seconds, pid)
    finally:
        for c in cs: c.close()

async def sdk_client_cell(server, seconds):
    "The SDK's `Client`, its default mode, one call after another"
    from mcp.client.client import Client
    (port, pid) = server
    async with Client(f'http://127.0.0.1:{port}/mcp') as c:
        class Req:
            async def request(self, method, params): return (await c.call_tool(params['name'], params['arguments'])).model_dump(by_alias=True)
        await load([Req()], min(seconds, .3), pid)
        return await load([Req()], seconds, pid)

async def stdio_cell(cmd, n, seconds):
    p = await Pipe(cmd).open()
    try:
        await load([p] * n, min(seconds, .3), p.p.pid)
        return await load([p] * n, seconds, p.p.pid)
    finally: await p.close()

def best(rs):
    "The round with the most calls/s, with the least server CPU a call of all rounds"
    return (*max(rs, key=lambda r: r[0])[:3], min(r[3] for r in rs))

def row(label, rs):
    a, b = map(best, rs)
    print(f"{label:34} {a[0]:7.0f} {a[1]*1e3:6.2f} {a[2]*1e3:6.2f} {a[3]*1e6:5.0f}   {b[0]:7.0f} {b[1]*1e3:6.2f} {b[2]*1e3:6.2f} {b[3]*1e6:5.0f}   {a[0]/b[0]:5.2f}x {b[3]/a[3]:5.2f}x", flush=True)

def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--seconds', type=float, default=1.5, help='seconds each cell runs')
    ap.add_argument('--rounds', type=int, default=3)
    ap.add_argument('--only', choices=['http', 'stdio'])
    a = ap.parse_args()
    if PIN: os.sched_setaffinity(0, {1})
    print(f"{'':34} {'fncall serve':>28}   {'SDK MCPServer':>28}   {'ratio':>12}")
    print(f"{'transport / mode / clients':34}" + f" {'calls/s':>7} {'p50 ms':>6} {'p99 ms':>6} {'cpu us':>5}  " * 2 + f" {'calls/s':>6} {'cpu':>6}")
    if a.only != 'stdio':
        for stateless in ('', 'stateless'):
            ours = OURS + ['--max-sessions', '1000'] + (['--stateless'] if stateless else []) + ['--http']
            with contextlib.ExitStack() as servers:
                try: po, pt = servers.enter_context(http_server(ours)), servers.enter_context(http_server(THEIRS + ['http', stateless]))
                except RuntimeError as e: print(f'http  {stateless or "session"}: {e}'); continue
                modes = ('stateless',) if stateless else ('session', 'sessionless')
                for mode in modes:
                    for n in CLIENTS:
                        rs = ([], [])
                        for _ in range(a.rounds):
                            for server, r in zip((po, pt), rs): r.append(asyncio.run(http_cell(server, mode, n, a.seconds)))
                        row(f"http  {mode:11} {n:3} clients", rs)
                if not stateless:
                    rs = ([], [])
                    for _ in range(a.rounds):
                        for server, r in zip((po, pt), rs): r.append(asyncio.run(sdk_client_cell(server, a.seconds)))
                    row("http  the SDK's Client, 1 client", rs)
    if a.only != 'http':
        for n in CLIENTS:
            rs = ([], [])
            for _ in range(a.rounds):
                for cmd, r in zip((OURS, THEIRS + ['stdio']), rs): r.append(asyncio.run(stdio_cell(cmd, n, a.seconds)))
            row(f"stdio {n:3} in flight", rs)
    print(f"(best of {a.rounds} interleaved rounds of {a.seconds} s; cpu us: the server's CPU time a call; ratios: fncall's calls/s over the SDK's, "
          "the SDK server's CPU a call over fncall's (above 1: fncall does the call with less); "
          + ("servers pinned to cpu 0, clients to cpu 1)" if PIN else "not pinned: fewer than 2 cpus)"))

if __name__ == '__main__':
    if sys.argv[1:2] == ['--sdk-server']: sdk_server(*sys.argv[2:])
    else: main()
