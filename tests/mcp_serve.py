"Helpers for the tests that drive `fncall serve` over stdio and Streamable HTTP with the mcp SDK's clients"
import contextlib, os, re, subprocess, sys, threading, time
from pathlib import Path
import anyio, httpx2
from mcp.client.stdio import stdio_client, StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.client.session import ClientSession

HERE = Path(__file__).parent
FNCALL = str(Path(sys.executable).parent/'fncall')

class URL(str):
    "A server's URL, its process (`proc`, `pid`), and the lines it has written on stderr so far (`log`)"
    def __new__(cls, url, proc, log): (o := super().__new__(cls, url)).proc, o.pid, o.log = proc, proc.pid, log; return o

def descendants(pid):
    "Process ids of the live (not zombie) descendants of process `pid`, but for the Sandbox janitor"
    kids = {}
    for d in os.listdir('/proc'):
        if not d.isdigit(): continue
        try: st = open(f'/proc/{d}/stat').read().rsplit(')', 1)[1].split()
        except OSError: continue
        if st[0] != 'Z': kids.setdefault(int(st[1]), []).append(int(d))
    res, todo = [], [pid]
    while todo: res += (ks := kids.get(todo.pop(), [])); todo += ks
    return [p for p in res if not _janitor(p)]

def _janitor(pid):
    "Is `pid` the Sandbox janitor, the one helper process a host keeps for as long as it lives (not a session's)?"
    try: return b'_janitor' in open(f'/proc/{pid}/cmdline', 'rb').read()
    except OSError: return False

@contextlib.contextmanager
def http_server(*args, env=None, timeout=30):
    "Run `fncall serve --http 0 *args`; yield its URL (read from the line it prints); stop it after"
    p = subprocess.Popen([FNCALL, 'serve', '--http', '0', *args], cwd=HERE, stderr=subprocess.PIPE, stdout=subprocess.DEVNULL, text=True,
                         env={**os.environ, **(env or {})})
    try:
        line, end = '', time.monotonic() + timeout
        while time.monotonic() < end and not (m := re.search(r'(http://\S+/mcp)', line)):
            if not (line := p.stderr.readline()) and p.poll() is not None: raise RuntimeError(f'fncall serve --http exited: {p.returncode}')
        if not m: raise TimeoutError('fncall serve --http printed no URL')
        log = [line]
        threading.Thread(target=lambda: log.extend(p.stderr), daemon=True).start()  # read on, so its access log never fills the pipe
        yield URL(m.group(1), p, log)
    finally:
        p.terminate()
        try: p.wait(10)
        except subprocess.TimeoutExpired: p.kill(); p.wait()

@contextlib.asynccontextmanager
async def http_session(url, token=None):
    "A client session (the MCP handshake: one HTTP session) with the server at `url`"
    headers = {'Authorization': f'Bearer {token}'} if token else {}
    async with httpx2.AsyncClient(headers=headers, timeout=httpx2.Timeout(60)) as hc, streamable_http_client(url, http_client=hc) as (r, w), ClientSession(r, w) as s:
        await s.initialize()
        yield s

@contextlib.asynccontextmanager
async def stdio_session(*args, cwd=HERE):
    "A client session with `fncall serve *args` run over stdio"
    params = StdioServerParameters(command=FNCALL, args=['serve', *args], cwd=str(cwd), env=dict(os.environ))  # the SDK passes on only a few variables: keep PYTHONPATH
    with open(os.devnull, 'w') as errlog:
        async with stdio_client(params, errlog=errlog) as (r, w), ClientSession(r, w) as s:
            await s.initialize()
            yield s

def text(res): return '\n'.join(c.text for c in res.content)
