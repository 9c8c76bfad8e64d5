"""Latency and throughput of `fncall serve` against the SDK's own `MCPServer` serving the same functions, over stdio and
Streamable HTTP, both driven by the SDK's client in the same run: sequential calls (latency) and 200 concurrent calls (throughput).
Run from the repository root: `python bench/bench_mcp.py` (`--sdk-server stdio|http` is how it starts the SDK's server)."""
import contextlib, os, socket, statistics, subprocess, sys, time
from pathlib import Path
import anyio

TESTS = Path(__file__).resolve().parent.parent/'tests'
sys.path.insert(0, str(TESTS))
FNCALL = str(Path(sys.executable).parent/'fncall')
N_SEQ, N_CONC, ROUNDS = 200, 200, 5

def sdk_server(transport, port=None):
    "The SDK's `MCPServer` with mcp_typed's functions"
    from mcp.server.mcpserver import MCPServer
    import mcp_typed
    srv = MCPServer('sdk')
    for nm in mcp_typed.__all__: srv.tool()(getattr(mcp_typed, nm))
    if transport == 'stdio': srv.run('stdio')
    else:
        srv.settings.log_level = 'WARNING'  # as quiet as fncall's
        srv.run('streamable-http', host='127.0.0.1', port=int(port))

async def one_round(s):
    "(median seconds per sequential call, calls per second of N_CONC concurrent ones) of session `s`"
    ts = []
    for i in range(N_SEQ):
        t = time.perf_counter(); r = await s.call_tool('add', {'a': i}); ts.append(time.perf_counter() - t)
        assert r.structured_content == {'result': i + 1}
    res = [None] * N_CONC
    async def one(i): res[i] = (await s.call_tool('add', {'a': i})).structured_content
    t = time.perf_counter()
    async with anyio.create_task_group() as tg:
        for i in range(N_CONC): tg.start_soon(one, i)
    thr = N_CONC / (time.perf_counter() - t)
    assert res == [{'result': i + 1} for i in range(N_CONC)]
    return statistics.median(ts), thr

@contextlib.asynccontextmanager
async def over_stdio(cmd):
    from mcp.client.stdio import stdio_client, StdioServerParameters
    from mcp.client.session import ClientSession
    p = StdioServerParameters(command=cmd[0], args=cmd[1:], cwd=str(TESTS), env=dict(os.environ))
    with open(os.devnull, 'w') as log:
        async with stdio_client(p, errlog=log) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            yield s

def free_port():
    with socket.socket() as s: s.bind(('127.0.0.1', 0)); return s.getsockname()[1]

@contextlib.asynccontextmanager
async def over_http(cmd):
    from mcp_serve import http_session
    port = free_port()
    p = subprocess.Popen([*cmd, str(port)], cwd=TESTS, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        for _ in range(600):
            try:
                with socket.create_connection(('127.0.0.1', port), 0.1): break
            except OSError: await anyio.sleep(0.05)
        async with http_session(f'http://127.0.0.1:{port}/mcp') as s: yield s
    finally: p.terminate(); p.wait(10)

async def compare(connect, ours, theirs):
    "Best of ROUNDS rounds each, the two servers' rounds interleaved (the machine's load hits both alike)"
    async with connect(ours) as a, connect(theirs) as b:
        for s in (a, b):
            for _ in range(50): await s.call_tool('add', {'a': 1})
        rs = {'ours': [], 'theirs': []}
        for _ in range(ROUNDS):
            rs['ours'].append(await one_round(a)); rs['theirs'].append(await one_round(b))
    return [(min(l for l,_ in r), max(t for _,t in r)) for r in rs.values()]

def main():
    me = [sys.executable, __file__, '--sdk-server']
    print(f"{'transport':10} {'fncall latency':>15} {'SDK latency':>12} {'ratio':>6}   {'fncall calls/s':>14} {'SDK calls/s':>12} {'ratio':>6}")
    for transport, connect in (('stdio', over_stdio), ('http', over_http)):
        ours = [FNCALL, 'serve', 'mcp_typed', '--no-python'] + (['--http'] if transport == 'http' else [])
        (fl, ft), (sl, st) = anyio.run(compare, connect, ours, me + [transport])
        print(f"{transport:10} {fl*1e3:12.2f} ms {sl*1e3:9.2f} ms {fl/sl:6.2f}   {ft:14.0f} {st:12.0f} {ft/st:6.2f}")
    print(f"(latency: median of {N_SEQ} sequential `add` calls; calls/s: {N_CONC} concurrent calls; best of {ROUNDS} interleaved rounds; ratio fncall/SDK)")

if __name__ == '__main__':
    if sys.argv[1:2] == ['--sdk-server']: sdk_server(*sys.argv[2:])
    else: main()
