"Attacks on the host from inside a `Sandbox`, in both modes where they apply (tests/test_python.py attacks its limits). Each ends within timeout + 2 s"
import ast, json, os, secrets, shutil, signal, socket, subprocess, sys, tempfile, threading, time, pytest
from pathlib import Path
from fncall.python import Sandbox, _alive, _bwrap_ok, _cgroup, _cgroup_base, _held, _join, _tree
from timing import ends_by, eventually

T = 2 # sandbox timeout in seconds
ROOT = os.geteuid() == 0
root = pytest.mark.skipif(not ROOT, reason='a uid of its own for each worker needs root')
MODES = ['namespace', 'process']
HERE = str(Path(__file__).parent.parent)

def mk(mode, **kw):
    if mode == 'namespace' and not _bwrap_ok(ROOT): pytest.skip('bubblewrap is not installed or cannot make namespaces here')
    return Sandbox(**dict(dict(timeout=T, isolation=mode), **kw))

@pytest.fixture(params=MODES)
def mode(request): return request.param

@pytest.fixture
def sb(mode):
    s = mk(mode)
    yield s
    s.close()

def timed(f, limit=T+1):
    "`f()`, which a timeout (with its grace) or a kill must end within `limit` seconds"
    with ends_by(limit): return f()

def works(sb): assert sb.python('1+1') == '2'

def last(r): return r.error.strip().splitlines()[-1]

# Reading, connecting, looking: what the namespace hides
def test_secret_file(sb):
    d = tempfile.mkdtemp(prefix='fncall-test-'); os.chmod(d, 0o755)
    try:
        for mode_, name in ((0o644, 'shared'), (0o600, 'secret')):
            p = Path(d, name); p.write_text('hunter2'); p.chmod(mode_)
        got = {n: sb.run(f'open({str(Path(d, n))!r}).read()') for n in ('shared', 'secret')}
        if sb.isolation == 'namespace': assert all(last(r).startswith('FileNotFoundError') for r in got.values()), got
        else:
            assert got['shared'].result == "'hunter2'" # the process mode hides nothing others may read (documented)
            if ROOT: assert last(got['secret']).startswith('PermissionError')
    finally: shutil.rmtree(d)
    works(sb)

@pytest.fixture
def server():
    s = socket.socket(); s.bind(('127.0.0.1', 0)); s.listen(8); s.settimeout(0.2)
    stop = threading.Event()
    def serve():
        while not stop.is_set():
            try: c, _ = s.accept(); c.sendall(b'hello'); c.close()
            except OSError: pass
    t = threading.Thread(target=serve, daemon=True); t.start()
    yield s.getsockname()[1]
    stop.set(); t.join(); s.close()

CONNECT = 'import socket\nc = socket.create_connection(("127.0.0.1", {port}), timeout=1)\nc.recv(5)'

def test_loopback_server(sb, server):
    r = timed(lambda: sb.run(CONNECT.format(port=server)))
    if sb.isolation == 'namespace': assert last(r).startswith('ConnectionRefusedError'), str(r) # its own loopback, where nothing listens
    else: assert r.result == "b'hello'" # the process mode shares the host's network (documented)
    works(sb)

def test_network_when_asked(server):
    with mk('namespace', network=True) as s: assert s.run(CONNECT.format(port=server)).result == "b'hello'"

def test_host_environment(sb, monkeypatch):
    "The host's environment, and its command line (issue 31: a server's --token was read there): out of sight in namespaces, and outside them as root (a /proc of its own showing its uid's processes only); without root, in reach (documented)"
    for f in ('environ', 'cmdline'):
        r = sb.run(f'open("/proc/{os.getpid()}/{f}", "rb").read()')
        if sb.isolation == 'namespace' or ROOT: assert last(r).startswith('FileNotFoundError'), str(r)
    assert (sb.limits['processes'] is None) == (sb.isolation == 'process' and not ROOT)
    assert set(eval(sb.python('import os; sorted(os.environ)'))) <= {'PATH', 'HOME', 'TMPDIR', 'LANG', 'PYTHONIOENCODING', 'PWD'} # bubblewrap sets PWD
    works(sb)

def test_signal_host(sb):
    for sig in (0, signal.SIGTERM):
        r = sb.run(f'import os; os.kill({os.getpid()}, {int(sig)})')
        want = 'ProcessLookupError' if sb.isolation == 'namespace' else 'PermissionError' if ROOT else None
        if want: assert last(r).startswith(want), str(r)
    works(sb)

def test_ro_rw():
    "Paths the worker's uid can reach (as root: a uid of its own), bound read-only or read-write"
    d = Path(tempfile.mkdtemp(prefix='fncall-test-')); ro, rw = d/'ro', d/'rw'
    ro.mkdir(); rw.mkdir(); (ro/'in.txt').write_text('data'); os.chmod(d, 0o755); os.chmod(rw, 0o777)
    with mk('namespace', ro=[ro], rw=[str(rw)]) as s:
        assert s.python(f'open({str(ro/"in.txt")!r}).read()') == "'data'"
        assert s.python(f'open({str(ro/"new")!r}, "w")').splitlines()[-1].startswith('OSError: [Errno 30] Read-only file system')
        assert s.python(f'open({str(rw/"out.txt")!r}, "w").write("ok")') == '2'
    assert (rw/'out.txt').read_text() == 'ok'
    shutil.rmtree(d)

# What the code starts: nothing of the sandbox outlives close() or a reset
SURVIVOR = '''import os, signal, sys, time
kind = sys.argv[1]
signal.signal(signal.SIGTERM, signal.SIG_IGN)
if kind == 'double':
    if os.fork(): os._exit(0)
    os.setsid()
    if os.fork(): os._exit(0)
if kind == 'stopper': # stops every other process of its uid it finds, as a kill helper would be
    time.sleep(0.5)
    while True:
        for p in os.listdir('/proc'):
            if p.isdigit() and int(p) != os.getpid():
                try:
                    if os.stat('/proc/' + p).st_uid == os.getuid(): os.kill(int(p), signal.SIGSTOP)
                except OSError: pass
        time.sleep(0.005)
time.sleep(1000)'''

def spawn(kinds, marker):
    return (f'import subprocess, sys\nfor k in {kinds!r}: subprocess.Popen([sys.executable, "-c", {SURVIVOR!r}, k, {marker!r}], start_new_session=True, '
            'stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)')

def marked(marker):
    "Live processes (not zombies) whose command line holds `marker`"
    out = set()
    for d in os.listdir('/proc'):
        if not d.isdigit(): continue
        try:
            if marker.encode() in open(f'/proc/{d}/cmdline', 'rb').read() and open(f'/proc/{d}/stat').read().rsplit(')', 1)[1].split()[0] != 'Z': out.add(int(d))
        except OSError: pass
    return out

def gone(marker, wait=2):
    assert eventually(lambda: not marked(marker), wait), 'processes of the sandbox survived'

KINDS = ['sleep', 'double', 'setsid-stopper']

def started(marker, n, wait=2): eventually(lambda: len(marked(marker)) >= n, wait)

@pytest.mark.parametrize('kinds', [['sleep', 'double'], ['stopper']])
def test_survivors_after_close(mode, kinds):
    s, marker = mk(mode), 'fncall-mark-' + secrets.token_hex(4)
    uid, d = s.uid, s.dir
    assert s.run(spawn(kinds, marker)).status == 'ok'
    started(marker, len(kinds)); time.sleep(0.7) # the stopper is at work
    timed(s.close)
    gone(marker)
    assert not os.path.exists(d)
    if uid is not None: assert not _alive(uid)

@pytest.mark.parametrize('kinds', [['sleep', 'double'], ['stopper']])
def test_survivors_after_reset(mode, kinds):
    with mk(mode) as s:
        marker, uid = 'fncall-mark-' + secrets.token_hex(4), s.uid
        assert s.run(spawn(kinds, marker)).status == 'ok'
        started(marker, len(kinds)); time.sleep(0.7)
        r = timed(lambda: s.run('import signal\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\nwhile True:\n    try: pass\n    except BaseException: pass'))
        assert (r.status, r.reset) == ('timeout', True), str(r)
        gone(marker)
        if uid is not None: assert not _alive(uid)
        works(s)

# Memory the address-space limit does not count
def test_memfd_and_sysv(sb):
    r = sb.run('import os\nfds = [os.memfd_create("x") for _ in range(10)]')
    assert last(r).startswith('PermissionError'), str(r)
    r = sb.run('import ctypes\nlibc = ctypes.CDLL(None, use_errno=True)\nlibc.shmget(0, 2**28, 0o1600), ctypes.get_errno()')
    assert r.result == '(-1, 1)', str(r) # EPERM
    works(sb)

@root
def test_world_writable_dirs():
    "Files the process mode's uid leaves in the world-writable directories (/run/lock, not only /tmp and /dev/shm) are deleted at close"
    with mk('process') as s:
        uid, tag, dirs = s.uid, secrets.token_hex(4), [d for d in ('/tmp', '/var/tmp', '/dev/shm', '/run/lock') if os.path.isdir(d)]
        r = s.run(f'for d in {dirs!r}: open(d + "/fncall-{tag}", "w").write("x")')
        assert r.status == 'ok', str(r)
        assert all(os.path.exists(f'{d}/fncall-{tag}') for d in dirs)
    assert not [d for d in dirs if os.path.exists(f'{d}/fncall-{tag}')]

USERNS = """import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
got = dict(unshare=libc.unshare(0x10000000|0x20000)) # CLONE_NEWUSER|CLONE_NEWNS
if got['unshare'] == 0:
    for f, t in (('uid_map', '0 %d 1' % os.getuid()), ('setgroups', 'deny'), ('gid_map', '0 %d 1' % os.getgid())): open('/proc/self/' + f, 'w').write(t)
os.makedirs('m', exist_ok=True) # in its own directory
got['mount'] = libc.mount(b'none', b'm', b'tmpfs', 0, b'size=1g')
got['clone'] = libc.syscall(56 if os.uname().machine == 'x86_64' else 220, 0x10000000|17, 0, 0, 0, 0) # clone(CLONE_NEWUSER|SIGCHLD)
if got['clone'] == 0: os._exit(0)
n = 0
try: # only where the mount worked (before the fix: host memory grew by 360 MB)
    for i in range(6 if got['mount'] == 0 else 0): open('m/f%d' % i, 'wb').write(b'x' * 60 * 2**20); n += 60
except OSError: pass
got['mb'] = n
got"""

def test_nested_userns(mode):
    "A user namespace of its own would let the code mount a tmpfs whose memory no limit counts: refused (seccomp; bubblewrap's --disable-userns)"
    with mk(mode, memory_mb=256) as s:
        r = timed(lambda: s.run(USERNS))
        assert r.status == 'ok', str(r)
        got = eval(r.result)
        assert (got['unshare'], got['mount'], got['clone']) == (-1, -1, -1), str(r)
        works(s)

def test_dev_shm(mode):
    with mk(mode, memory_mb=256) as s:
        if s.isolation == 'namespace':
            r = timed(lambda: s.run('n = 0\ntry:\n    for i in range(20):\n        with open(f"/dev/shm/f{i}", "wb") as f:\n'
                                    '            for _ in range(8): f.write(b"x" * 2**22); n += 2**22\nexcept OSError as e: print(e)\nn // 2**20'))
            assert 'No space left on device' in r.stdout and int(r.result) <= 128, str(r) # half of memory_mb
            works(s)
            return
        if not ROOT: pytest.skip("without root the process mode can't tell the sandbox's files in /dev/shm from yours")
        uid = s.uid
        tag = secrets.token_hex(4)
        assert s.run(f'for i in range(3): open(f"/dev/shm/fncall-{tag}-{{i}}", "wb").write(b"x" * 2**20)').status == 'ok'
        assert [e for e in os.scandir('/dev/shm') if e.stat().st_uid == uid]
    assert not [e for e in os.scandir('/dev/shm') if e.stat().st_uid == uid] # deleted at close

FORKS = """import os, time
for i in range(4):
    if os.fork() == 0:
        b = bytearray(200 * 2**20) # touched: 200 MB each, under the per-process limit
        time.sleep(60)
        os._exit(0)
time.sleep(60)"""

def test_memory_across_processes(mode):
    "Forked children each under the address-space limit, over `memory_mb` together: the run ends with status memory, and the next call works"
    with mk(mode, memory_mb=256) as s:
        r = timed(lambda: s.run(FORKS))
        assert (r.status, r.reset) == ('memory', True) and 'over memory_mb=256' in r.error, str(r)
        if s.uid is not None: assert not _alive(s.uid) - s._members() # nothing of the old worker left
        works(s)

def test_held():
    "What a process holds, from its smaps_rollup: this one's heap, some MB; a zombie or a pid that is gone, nothing"
    assert 1 < _held({os.getpid()}) < 10_000
    p = subprocess.Popen(['true'])
    assert eventually(lambda: _held({p.pid}) == 0); p.wait()
    assert _held({p.pid}) == 0

def test_cgroup(tmp_path):
    "What this machine delegates is found (cgroup v2 where the memory controller is delegated to us, else v1's memory controller where we may write), and a worker's cgroup is written as each version expects (a plain directory stands in)"
    if (base := _cgroup_base()) is not None:
        d, v = base
        assert os.access(d, os.W_OK) and (os.path.exists(os.path.join(d, 'memory.limit_in_bytes')) if v == 1 else 'memory' in open(os.path.join(d, 'cgroup.subtree_control')).read().split())
    assert _cgroup(None, 256) is None
    for v, want in ((2, {'memory.max': str(256*2**20), 'memory.swap.max': '0'}), (1, {'memory.limit_in_bytes': str(256*2**20), 'memory.memsw.limit_in_bytes': str(256*2**20)})):
        (d := tmp_path/str(v)).mkdir()
        p = subprocess.Popen(['sleep', '10'])
        try: cg = _cgroup((str(d), v), 256); joined = _join(cg, p.pid)
        finally: p.kill(); p.wait()
        assert joined and {k: Path(cg, k).read_text() for k in want} == want and Path(cg, 'cgroup.procs').read_text() == str(p.pid)

# The host going away
HOST = '''import json, sys, threading, time
from fncall.python import Sandbox
s = Sandbox(timeout=30, isolation=sys.argv[1])
s.run({spawn!r})
threading.Thread(target=s.run, args=('import time; time.sleep(30)',), daemon=True).start()
print(json.dumps(dict(dir=s.dir)), flush=True)
time.sleep(60)'''

HOSTS = {'main': HOST,
         'thread': HOST.replace('s = Sandbox(timeout=30, isolation=sys.argv[1])', # made off the main thread: no handler can be installed
                                'box = []\nt = threading.Thread(target=lambda: box.append(Sandbox(timeout=30, isolation=sys.argv[1]))); t.start(); t.join(); s = box[0]'),
         'handler': HOST.replace('from fncall.python import Sandbox', # the host's own handler, which exits without running finalizers
                                 'import os, signal\nsignal.signal(signal.SIGTERM, lambda *a: os._exit(3))\nfrom fncall.python import Sandbox')}

@pytest.mark.parametrize('how', list(HOSTS))
def test_host_sigterm(mode, how):
    "SIGTERM of the host: what the sandbox started and its directory are gone (by our handler, or by the janitor where none runs)"
    if mode == 'namespace' and not _bwrap_ok(ROOT): pytest.skip('bubblewrap is not installed or cannot make namespaces here')
    marker = 'fncall-mark-' + secrets.token_hex(4)
    p = subprocess.Popen([sys.executable, '-c', HOSTS[how].format(spawn=spawn(['sleep', 'double'], marker)), mode], stdout=subprocess.PIPE, text=True, cwd=HERE)
    try:
        d = json.loads(p.stdout.readline())['dir']
        started(marker, 2); time.sleep(0.3)
        p.send_signal(signal.SIGTERM)
        assert timed(lambda: p.wait(timeout=60)) == (3 if how == 'handler' else -signal.SIGTERM)
        gone(marker)
        assert eventually(lambda: not os.path.exists(d))
    finally: p.kill(); p.wait()

def _rpc(p, msg):
    p.stdin.write(json.dumps(msg) + '\n'); p.stdin.flush()

def test_serve_sigterm_mid_call():
    "`fncall serve` stopped by its client (SIGTERM) while a python call runs: the sandbox and what it started are gone"
    pytest.importorskip('mcp')
    marker = 'fncall-mark-' + secrets.token_hex(4)
    p = subprocess.Popen([sys.executable, '-c', 'from fncall.mcp import main; main()', 'serve', '--timeout', '30'], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=HERE)
    try:
        _rpc(p, dict(jsonrpc='2.0', id=1, method='initialize', params=dict(protocolVersion='2025-06-18', capabilities={}, clientInfo=dict(name='t', version='0'))))
        assert json.loads(p.stdout.readline())['id'] == 1
        _rpc(p, dict(jsonrpc='2.0', method='notifications/initialized'))
        code = spawn(['sleep', 'double'], marker) + '\nimport os, time\nprint(os.getcwd(), flush=True)\ntime.sleep(30)'
        _rpc(p, dict(jsonrpc='2.0', id=2, method='tools/call', params=dict(name='python', arguments=dict(code=code))))
        started(marker, 2); time.sleep(0.3)
        d = os.readlink(f'/proc/{min(marked(marker))}/cwd')
        assert os.path.basename(d).startswith('fncall-sandbox-')
        p.send_signal(signal.SIGTERM)
        assert timed(lambda: p.wait(timeout=60)) == -signal.SIGTERM
        gone(marker)
        assert not os.path.exists(d)
    finally: p.kill(); p.wait()

def test_serve_warns_without_namespaces():
    "One line on stderr when the model-facing python tool runs without namespaces, saying how to get them"
    pytest.importorskip('mcp')
    run = 'import sys, fncall.python\nsys.modules["fncall.python"]._bwrap_ok = lambda own: False\nfrom fncall.mcp import main; main()'
    p = subprocess.run([sys.executable, '-c', run, 'serve'], input='',
                       capture_output=True, text=True, cwd=HERE, timeout=30)
    assert p.stderr.count('without namespaces') == 1 and 'apt-get install bubblewrap' in p.stderr, p.stderr
    p = subprocess.run([sys.executable, '-c', 'from fncall.mcp import main; main()', 'serve', '--in-process'], input='', capture_output=True, text=True, cwd=HERE, timeout=30)
    assert p.stderr.count('without namespaces') == 1, p.stderr

# Exhausting threads; idle death; cancel
THREADS = ('import threading, time\nev, n = threading.Event(), 0\ntry:\n    while True: threading.Thread(target=ev.wait, daemon=True).start(); n += 1\n'
           'except RuntimeError as e: print("stopped:", e)\nev.set()\nn > 0')

def test_thread_exhaustion(sb):
    sb.run('keep = 7')
    r = timed(lambda: sb.run(THREADS))
    assert (r.status, r.reset, r.result) == ('ok', False, 'True') and 'stopped' in r.stdout, str(r)
    assert sb.python('keep') == '7' # the worker and its state survive
    works(sb)

INPROC = '''import resource, sys, threading, time
from concurrent.futures import ThreadPoolExecutor
from fncall.python import python
code = {code!r}
def go(): return python(code, {{}}, timeout=2)
r1 = go() # on the main thread
while threading.active_count() > 1: time.sleep(0.05) # its threads end
with ThreadPoolExecutor(1) as ex: r2 = ex.submit(go).result() # and off it
assert python('1+1', {{}}) == 2
print(r1.splitlines()[-1], '|', r2.splitlines()[-1])'''

def test_thread_exhaustion_in_process():
    "In-process python(): a failed Thread.start() (here: out of address space) used to leave it spinning forever"
    lim = 'import resource; resource.setrlimit(resource.RLIMIT_AS, (2**30, 2**30))\n'
    r = subprocess.run([sys.executable, '-c', lim + INPROC.format(code=THREADS)], capture_output=True, text=True, timeout=30, cwd=HERE)
    assert r.returncode == 0 and r.stdout.startswith('True | True'), (r.stdout, r.stderr[-2000:])

def test_blocking_call_off_main_thread():
    "Off the main thread a blocking C call overran the timeout (30 s for 0.5 s): the caller now gets its answer at the deadline"
    from concurrent.futures import ThreadPoolExecutor
    from fncall.python import python
    with ends_by(0.5), ThreadPoolExecutor(1) as ex: r = ex.submit(python, 'import time\nprint("before")\ntime.sleep(30)', {}, None, 0.5).result()
    assert r.startswith('before') and r.splitlines()[-1].startswith('TimeoutError'), r
    with ThreadPoolExecutor(1) as ex: assert ex.submit(python, '1+1', {}, None, 5).result() == 2

def test_killed_while_idle(sb):
    "After the worker dies between runs, the next run runs its code in a fresh worker (and says state was reset)"
    sb.run('x = 1')
    pid = sb._worker_pid()
    os.kill(pid, signal.SIGKILL); sb._proc.wait(timeout=5)
    r = timed(lambda: sb.run('6*7'))
    assert (r.status, r.result, r.reset) == ('ok', '42', True) and 'state was reset' in r.note, str(r)
    assert str(r).startswith('[the worker') and str(r).endswith('42')
    assert 'NameError' in sb.run('x').error

def test_cancel(sb):
    sb.run('keep = 1')
    threading.Timer(0.3, sb.cancel).start()
    r = timed(lambda: sb.run('import time\ntime.sleep(30)'), 1.5)
    assert (r.status, r.reset) == ('cancelled', False) and 'cancelled' in r.error, str(r)
    assert timed(lambda: sb.python('keep'), 0.5) == '1' # the next run answers at once
    threading.Timer(0.3, sb.cancel).start() # code that ignores the cancel is killed
    r = timed(lambda: sb.run('import signal\nsignal.signal(signal.SIGUSR1, signal.SIG_IGN)\nsum(range(10**12))'), 1.5)
    assert (r.status, r.reset) == ('cancelled', True), str(r)
    assert timed(lambda: sb.python('1+1'), 0.5) == '2'

def test_cancel_from_threads(sb):
    "cancel() from many threads at once, with runs in between, never disturbs a later run"
    ts = [threading.Thread(target=sb.cancel) for _ in range(20)]
    for t in ts: t.start()
    assert [sb.python(f'{i}*2') for i in range(5)] == [str(i*2) for i in range(5)]
    for t in ts: t.join()

# The sandbox itself
def test_limits_validated():
    for k in ('memory_mb', 'cpu_s', 'nproc', 'fsize_mb', 'nofile', 'max_output'):
        for v in (-1, 0, 1.5, True):
            with pytest.raises(ValueError, match=k): Sandbox(**{k: v})
    before = set(os.listdir(tempfile.gettempdir()))
    with pytest.raises(TypeError, match='env'): Sandbox(env={'A': 1})
    with pytest.raises(ValueError, match='isolation'): Sandbox(isolation='container')
    assert set(os.listdir(tempfile.gettempdir())) - before == set() # nothing left behind

def test_env_overrides(mode):
    "Sandbox(env={'PATH': ...}) raised TypeError and left its directory"
    with mk(mode, env={'PATH': '/usr/bin', 'X': 'y'}) as s: assert s.python('import os; os.environ["PATH"], os.environ["X"]') == "('/usr/bin', 'y')"

def test_runner_is_standard_library_only():
    "The worker runs fncall/runner.py alone: it may import only the standard library"
    src = Path(HERE, 'fncall', 'runner.py').read_text()
    mods = set()
    for n in ast.walk(ast.parse(src)):
        if isinstance(n, ast.Import): mods |= {a.name.split('.')[0] for a in n.names}
        elif isinstance(n, ast.ImportFrom): mods.add('.' if n.level else n.module.split('.')[0])
    assert mods and mods <= set(sys.stdlib_module_names), mods - set(sys.stdlib_module_names)
    r = subprocess.run([sys.executable, '-I', '-S', '-c', 'import sys; exec(compile(sys.stdin.read(), "runner", "exec"), {"__name__": "x"})'],
                       input=src, capture_output=True, text=True, timeout=30, cwd='/')
    assert r.returncode == 0, r.stderr

@root
def test_without_root(mode):
    "As an ordinary user (nobody, through setpriv) each mode runs and contains: the namespace hides the host's processes"
    py = shutil.which('python3', path=os.defpath)
    site = next((p for p in sys.path if p.endswith('site-packages') and os.path.isdir(os.path.join(p, 'pydantic'))), None)
    if not (shutil.which('setpriv') and py and site): pytest.skip('needs setpriv, a system python3 and site-packages nobody can read')
    ver = subprocess.run([py, '-c', 'import sys; print(sys.version_info[:2])'], capture_output=True, text=True).stdout.strip()
    if ver != str(sys.version_info[:2]): pytest.skip(f'the system python3 is {ver}, not this one')
    code = (f'import os\nfrom fncall.python import Sandbox, _bwrap_ok\nif {mode!r} == "namespace" and not _bwrap_ok(False): print("no namespaces")\n'
            f'else:\n    with Sandbox(timeout=2, isolation={mode!r}) as s:\n'
            '        print(s.isolation, s.uid, s.python("import os; os.getuid(), os.getpid() == 1, os.path.exists(\'/proc/%d\')" % os.getpid()))')
    r = subprocess.run(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', py, '-c', code], capture_output=True, text=True, timeout=60,
                       env=dict(PATH=os.defpath, PYTHONPATH=f'{HERE}:{site}'), cwd='/')
    if r.stdout.strip() == 'no namespaces': pytest.skip('bubblewrap is not installed or cannot make namespaces for an ordinary user here')
    want = {'namespace': 'namespace None (65534, True, False)', 'process': 'process None (65534, False, True)'}[mode]
    assert r.stdout.strip() == want, (r.stdout, r.stderr[-2000:])

UNUSABLE = '''import os
from fncall.python import Sandbox
with Sandbox(timeout=2) as s: print(s.isolation, s.python('1+1'))
try: Sandbox(isolation='namespace')
except RuntimeError as e: print(e)'''

def _unusable(cmd, **kw):
    r = subprocess.run(cmd + [sys.executable, '-c', UNUSABLE], capture_output=True, text=True, timeout=60, cwd='/', **kw)
    assert r.stdout.splitlines() == ['process 2', "isolation='namespace' needs bubblewrap able to make namespaces: install it "
                                     "(Debian/Ubuntu: apt-get install bubblewrap; Fedora: dnf install bubblewrap)"], (r.stdout, r.stderr[-2000:])

def test_bubblewrap_that_fails(tmp_path):
    "A bubblewrap that can't make namespaces (a stand-in failing as bwrap does where user namespaces are off): 'auto' runs in process mode, 'namespace' says what is missing"
    fake = tmp_path/'bwrap'
    fake.write_text('#!/bin/sh\necho "bwrap: No permissions to create a new namespace" >&2\nexit 1\n'); fake.chmod(0o755)
    _unusable([], env=dict(os.environ, PATH=f'{tmp_path}:{os.defpath}'))

def test_bubblewrap_without_user_namespaces():
    "The real bubblewrap inside a user namespace that may not make another (as in a container), as its root with one uid mapped: process mode, the same uid"
    if not _bwrap_ok(ROOT): pytest.skip('bubblewrap is not installed or cannot make namespaces here: nothing to make unusable')
    _unusable(['bwrap', '--dev-bind', '/', '/', '--unshare-user', *(['--disable-userns'] if '--disable-userns' in subprocess.run(['bwrap', '--help'], capture_output=True, text=True).stdout else []),
               '--uid', '0', '--gid', '0', '--'])

# Issue 31: kernel memory and objects no limit saw; memory between runs; what each mode can say it enforces
P = sys.modules['fncall.python']

def no_cgroup(monkeypatch): monkeypatch.setattr(P, '_cgroup_base', lambda: None) # as on a machine that delegates none

@pytest.fixture(params=['cgroup', 'none'])
def cgroup(request, monkeypatch):
    "Each memory test with the cgroup this machine offers, and as if it offered none"
    if request.param == 'none': no_cgroup(monkeypatch)
    elif _cgroup_base() is None: pytest.skip('no cgroup memory controller we may use here')
    return request.param == 'cgroup'

IPC = '''import ctypes, os
libc = ctypes.CDLL(None, use_errno=True)
got = {}
for name, call in (("msgget", lambda: libc.msgget(0, 0o1600)), ("semget", lambda: libc.semget(0, 4, 0o1600)),
                   ("mq_open", lambda: libc.mq_open(b"/fncall-ipc", os.O_CREAT | os.O_RDWR, ctypes.c_int(0o600), None))):
    got[name] = (call(), ctypes.get_errno())
got'''

def test_ipc_objects(sb):
    "SysV message queues and semaphore sets and POSIX message queues outlived a process-mode sandbox (up to 32000 x 16 KB of kernel memory): refused in both modes, as shmget is"
    r = sb.run(IPC)
    assert eval(r.result) == {'msgget': (-1, 1), 'semget': (-1, 1), 'mq_open': (-1, 1)}, str(r) # EPERM
    assert not os.path.exists('/dev/mqueue/fncall-ipc')
    works(sb)

SOCKETS = '''import socket
pairs, total, refused = [], 0, 0
for i in range(40):
    a, b = socket.socketpair()
    try: a.setsockopt(socket.SOL_SOCKET, socket.SO_SNDBUF, 4 * 2**20); b.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4 * 2**20)
    except PermissionError: refused += 1
    a.setblocking(False)
    try:
        while True: total += a.send(b"x" * 65536)
    except BlockingIOError: pass
    pairs.append((a, b))
    print(total // 2**20, flush=True)
import time; time.sleep(0.5) # held while the parent checks
refused, total // 2**20'''

def test_socket_buffers(mode, cgroup):
    "40 socketpairs with 4 MB buffers, filled: 600 MB of kernel memory with memory_mb=128, status ok. A cgroup counts it (status memory); without one, growing a buffer is refused"
    with mk(mode, memory_mb=128) as s:
        assert bool(s._cg) == cgroup
        r = timed(lambda: s.run(SOCKETS))
        if cgroup: assert (r.status, r.reset) == ('memory', True) and max(map(int, r.stdout.split() or [0])) < 128, str(r)
        else: assert r.status == 'ok' and eval(r.result)[0] == 40 and eval(r.result)[1] < 128, str(r)
        works(s)

TCP = '''import socket
srv = socket.socket(); srv.bind(("127.0.0.1", 0)); srv.listen(128)
conns, total = [], 0
for i in range(100):
    c = socket.create_connection(srv.getsockname()); d, _ = srv.accept(); c.setblocking(False)
    try:
        while True: total += c.send(b"x" * 65536)
    except BlockingIOError: pass
    conns.append((c, d)); print(total // 2**20, flush=True)
import time; time.sleep(0.5)
total // 2**20'''

def test_tcp_buffers(mode, cgroup):
    "TCP buffers grow by themselves (about 4 MB a connection here): without a cgroup the bytes queued in the sandbox's sockets count in its memory"
    with mk(mode, memory_mb=128) as s:
        r = timed(lambda: s.run(TCP))
        got = max(map(int, r.stdout.split() or [0]))
        if r.status == 'ok': assert int(r.result) < 140, str(r) # a cgroup v1 bounds TCP buffers apart (memory_mb): sends wait
        else: assert (r.status, r.reset) == ('memory', True), str(r)
        if not cgroup: assert r.status == 'memory' and got < 400, str(r)
        works(s)

LATE = '''import os, time
for i in range(3):
    if os.fork() == 0:
        time.sleep(0.3); b = bytearray(150 * 2**20); time.sleep(60); os._exit(0)
"forked"'''

def test_memory_after_the_run(mode, cgroup):
    "Three children allocating 150 MB each after the run returned (memory_mb=200): 460 MB held, and the next run answered ok. Bounded between runs too: by the cgroup, or by the parent's check"
    with mk(mode, memory_mb=200) as s:
        assert s.run(LATE).result == "'forked'"
        time.sleep(1) # they allocate
        assert eventually(lambda: _held(s._members()) < 200, 3), _held(s._members())
        r = s.run('1')
        assert r.result == '1', str(r)
        if not cgroup: assert r.reset and r.note.startswith("[the sandbox's processes held") and 'between runs, over memory_mb=200' in r.note, str(r)

def test_limits_say_what_enforces(mode, monkeypatch):
    "Sandbox.limits says what enforces each limit here, and None for what this machine can't give: here a seccomp filter for an unknown architecture, and no cgroup"
    with mk(mode) as s:
        assert set(s.limits) == {'timeout', 'memory_mb', 'kernel_memory', 'cpu_s', 'nproc', 'fsize_mb', 'nofile', 'max_output', 'refused', 'processes'}
        assert s.limits['refused'].endswith(': seccomp') and s.limits['kernel_memory'] and 'RLIMIT_AS' in s.limits['memory_mb']
        assert ('cgroup v' in s.limits['memory_mb']) == bool(_cgroup_base())
    no_cgroup(monkeypatch)
    src = P._source().replace('_SECCOMP = {', '_SECCOMP = {} and {', 1)
    monkeypatch.setattr(P, '_source', lambda: src)
    with mk(mode) as s:
        assert (s.limits['refused'], s.limits['kernel_memory']) == (None, None) and 'checked every 0.1 s of a run' in s.limits['memory_mb'], s.limits
        assert s.run('import os; os.memfd_create("x")').status == 'ok' # not promised, and indeed not refused

# Red-team round 3 (issue 31)
FORGED = r'''import os, sys
os.write(sys.modules['__main__'].cfg['wfd'], b'\n{"id": ID, "status": "ok", "result": "\\ud800 forged", "error": "\\udfff", "cut": false}\n')
"real"'''

def test_rt5_forged_answer_unencodable(sb):
    "A forged answer whose text holds a lone surrogate (JSON's \\ud800) made a RunResult that can't be encoded as UTF-8 (fncall serve died sending it): ignored, and the worker's own answer read"
    r = sb.run(FORGED.replace('ID', str(sb._id + 1)))
    assert (r.status, r.result) == ('ok', "'real'"), str(r)
    assert str(r).encode()

REFUSED = '''import ctypes
libc = ctypes.CDLL(None, use_errno=True)
def tried(f, *a): r = f(*a); return r if r >= 0 else -ctypes.get_errno()
'''

def test_rt1_nondumpable_refused(sb):
    "A process that made itself non-dumpable (PR_SET_DUMPABLE 0) hid its memory and its buffers from a parent without root: 831 MB held with memory_mb=128, status ok. Refused (seccomp); asking is still allowed"
    r = sb.run(REFUSED + 'tried(libc.prctl, 4, 0, 0, 0, 0), tried(libc.prctl, 3, 0, 0, 0, 0)') # PR_SET_DUMPABLE, PR_GET_DUMPABLE
    assert r.result == '(-1, 1)', str(r)

HIDDEN = '''import os, shutil, subprocess, time
shutil.copy('/bin/sleep', 'sleep'); os.chmod('sleep', 0o111) # a file it may run but not read: the process running it is not dumpable
p = subprocess.Popen(['./sleep', '30'])
time.sleep(1)
"ran"'''

@root
def test_rt1_hidden_memory_is_over(mode):
    "Without root (nobody, through setpriv), a process of the sandbox whose memory the parent may not read counts as over memory_mb, never as 0 (process mode); in namespaces the parent may read it"
    r = as_nobody(mode, f'with Sandbox(timeout=5, isolation={mode!r}, memory_mb=128) as s:\n    r = s.run({REFUSED + "tried(libc.prctl, 4, 0, 0, 0, 0)"!r}); print(r.result)\n'
                        f'    r = s.run({HIDDEN!r}); print(r.status, r.error)')
    first, second = r.stdout.splitlines()[:2]
    assert first == '-1', r.stdout
    if mode == 'process': assert second.startswith("memory MemoryError: the sandbox's processes hid what they held"), r.stdout
    else: assert second.startswith('ok'), r.stdout

def as_nobody(mode, code):
    "Run `code` (with Sandbox imported) as nobody, through setpriv; skip where that can't be done"
    py = shutil.which('python3', path=os.defpath)
    site = next((p for p in sys.path if p.endswith('site-packages') and os.path.isdir(os.path.join(p, 'pydantic'))), None)
    if not (shutil.which('setpriv') and py and site): pytest.skip('needs setpriv, a system python3 and site-packages nobody can read')
    ver = subprocess.run([py, '-c', 'import sys; print(sys.version_info[:2])'], capture_output=True, text=True).stdout.strip()
    if ver != str(sys.version_info[:2]): pytest.skip(f'the system python3 is {ver}, not this one')
    pre = f'from fncall.python import Sandbox, _bwrap_ok\nif {mode!r} == "namespace" and not _bwrap_ok(False): print("no namespaces"); raise SystemExit\n'
    r = subprocess.run(['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', py, '-c', pre + code], capture_output=True, text=True, timeout=60,
                       env=dict(PATH=os.defpath, PYTHONPATH=f'{HERE}:{site}', HOME='/tmp'), cwd='/')
    if r.stdout.strip() == 'no namespaces': pytest.skip('bubblewrap is not installed or cannot make namespaces for an ordinary user here')
    assert r.returncode == 0, (r.stdout, r.stderr[-2000:])
    return r

def test_rt4_keyrings_refused(sb):
    "Keys added to the worker uid's keyring outlived close() in process mode (300 runs: 300 uids' keyrings, +24 MB of kernel memory): refused in both modes"
    r = sb.run(REFUSED + 'tried(libc.syscall, {add_key}, b"user", b"k", b"x" * 80, 80, -4), tried(libc.syscall, {keyctl}, 0, -4, 0)'.format(
        **dict(zip(('add_key', 'keyctl'), (248, 250) if os.uname().machine == 'x86_64' else (217, 219)))))
    assert r.result == '(-1, -1)', str(r)
    works(sb)

def test_rt3_inotify_refused(sb):
    "Without root the sandbox shares your uid's 128 inotify instances, and could take them all (your own inotify_init1 then failed, EMFILE): refused, fanotify too"
    r = sb.run(REFUSED + 'tried(libc.inotify_init1, 0), tried(libc.fanotify_init, 0, 0)')
    assert r.result == '(-1, -1)', str(r)
    works(sb)

OOM = 'import os, time\nfor i in range(4):\n    if os.fork() == 0: b = bytearray(100 * 2**20); time.sleep(30)\ntime.sleep(5)'

def test_rt10_oom_message(mode):
    "After the cgroup's OOM killer ended a run the error said 'held more than MB together' (no number)"
    with mk(mode, memory_mb=128, timeout=10) as s:
        if not s._cg: pytest.skip('no cgroup here: the parent, not the kernel, stops it')
        r = timed(lambda: s.run(OOM), 11)
        assert r.status == 'memory' and r.error.startswith("MemoryError: the sandbox's processes held "), str(r)
        assert 'than MB' not in r.error and ('held too much together, over memory_mb=128: the kernel killed one' in r.error or ' MB together, over memory_mb=128' in r.error), str(r)

WRITE = {'dir': 'for i in range(30): open(f"f{i}", "wb").write(b"x" * 2**23)',
         'shm': 'for i in range(30): open(f"/dev/shm/fncall-{i}", "wb").write(b"x" * 2**23)',
         'unlinked': 'import os\nfs = []\nfor i in range(30):\n    fs.append(f := open(f"/dev/shm/fncall-{i}", "wb")); os.unlink(f.name); f.write(b"x" * 2**23)'}

@pytest.mark.parametrize('where', list(WRITE))
def test_rt2_files_in_memory(mode, where, monkeypatch):
    "Files on a tmpfs are memory: 1800 MB written (memory_mb=128) to the sandbox's directory where the temp dir is a tmpfs (as on Fedora), or to /dev/shm, status ok. Where no cgroup counts them, the parent does: its directory, its uid's files in /dev/shm (as root), and the files it holds open. In namespaces /dev/shm is its own, of memory_mb/2"
    no_cgroup(monkeypatch)
    monkeypatch.setattr(tempfile, 'tempdir', '/dev/shm') # the temp dir on a tmpfs
    with mk(mode, memory_mb=128) as s:
        assert 'files on a tmpfs' in s.limits['memory_mb'], s.limits
        if mode == 'process' and where == 'shm' and not ROOT: pytest.skip("without root the process mode can't tell the sandbox's files in /dev/shm from yours")
        r = timed(lambda: s.run(WRITE[where] + '\nimport time; time.sleep(0.5)'))
        if mode == 'namespace' and where != 'dir': assert r.status == 'error' and 'No space left on device' in r.error, str(r)
        else: assert (r.status, r.reset) == ('memory', True) and 'over memory_mb=128' in r.error, str(r)
        works(s)

SLOW = '''import json, os, signal, sys, threading, time
ls = lambda: print(json.dumps(os.listdir(os.environ["TMPDIR"])), flush=True)
signal.signal(signal.SIGTERM, lambda *a: (time.sleep(1), ls(), os._exit(3))) # the host's own handler, slow to exit
from fncall.python import Sandbox
s = Sandbox(timeout=30, isolation=sys.argv[1])
threading.Thread(target=s.run, args=('import time; time.sleep(30)',), daemon=True).start()
time.sleep(0.5); ls(); time.sleep(60)'''

@pytest.fixture
def tmpdir_open():
    "An empty directory any uid may enter (as a TMPDIR: pytest's tmp_path is private to us, so a namespace worker's uid can't reach into it)"
    d = Path(tempfile.mkdtemp(prefix='fncall-test-')); d.chmod(0o755)
    yield d
    shutil.rmtree(d, ignore_errors=True)

def test_rt11_no_restart_in_host_handler(mode, tmpdir_open):
    "A host whose SIGTERM handler exits: our handler killed the workers, a run on another thread restarted its worker (a new directory) before the host's handler exited, and that directory leaked (about 1 run in 3). No worker starts while the host's handler runs"
    if mode == 'namespace' and not _bwrap_ok(ROOT): pytest.skip('bubblewrap is not installed or cannot make namespaces here')
    p = subprocess.Popen([sys.executable, '-c', SLOW, mode], stdout=subprocess.PIPE, text=True, cwd=HERE, env=dict(os.environ, TMPDIR=str(tmpdir_open)))
    try:
        assert len(json.loads(p.stdout.readline())) == 1 # the worker's directory
        p.send_signal(signal.SIGTERM)
        assert json.loads(p.stdout.readline()) == [] # while the host's handler ran: no new worker
        assert timed(lambda: p.wait(timeout=60), 10) == 3
        assert eventually(lambda: not os.listdir(tmpdir_open))
    finally: p.kill(); p.wait()

def test_rt12_quick_runs_not_each_checked(mode, monkeypatch):
    "Where no cgroup bounds memory, the check before each run scanned /proc: ~2 ms, 100 times a quick run. Now at most once every _CHECK s (counted here with _CHECK an hour, then 0)"
    no_cgroup(monkeypatch)
    with mk(mode) as s:
        calls, mb = [], Sandbox._mb
        monkeypatch.setattr(Sandbox, '_mb', lambda self: calls.append(1) or mb(self))
        monkeypatch.setattr(P, '_CHECK', 3600)
        for _ in range(20): assert s.run('1+1').result == '2'
        assert len(calls) <= 1, len(calls)
        monkeypatch.setattr(P, '_CHECK', 0)
        calls.clear()
        for _ in range(20): assert s.run('1+1').result == '2'
        assert len(calls) >= 20, len(calls)

STARTING = '''import os, signal, sys
signal.signal(signal.SIGTERM, lambda *a: os._exit(3))
from fncall.python import Sandbox
P = sys.modules['fncall.python']
spawn = P._spawn
def late(fn): os.kill(os.getpid(), signal.SIGTERM); return spawn(fn) # while the worker starts: its directory made, the worker not yet running
P._spawn = late
Sandbox(isolation=sys.argv[1])'''

def test_rt11_sigterm_while_a_worker_starts(mode, tmpdir_open):
    "The host ended (its own SIGTERM handler exits) while a worker was starting, its directory made but the janitor not yet told of it: the directory leaked. The janitor is told of it at once"
    if mode == 'namespace' and not _bwrap_ok(ROOT): pytest.skip('bubblewrap is not installed or cannot make namespaces here')
    r = subprocess.run([sys.executable, '-c', STARTING, mode], cwd=HERE, env=dict(os.environ, TMPDIR=str(tmpdir_open)), timeout=60)
    assert r.returncode == 3
    assert eventually(lambda: not os.listdir(tmpdir_open)), os.listdir(tmpdir_open)
