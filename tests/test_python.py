"Real attacks on `Sandbox` (in both modes: namespaces and a plain process) and the timeout of the in-process `python` tool (timeouts of 2 s keep the file short)"
import io, json, os, signal, sys, threading, time, pytest
from fncall.python import python, python_tool, Sandbox, _tree, _alive, _bwrap_ok
from fncall.tools import FunctionRegistry
from timing import ends_by, eventually

T = 2 # sandbox timeout in seconds; each attack must end within T+2 s
root = pytest.mark.skipif(os.geteuid() != 0, reason='a uid of its own for each worker needs root')

def _close(s):
    "Close `s` and check nothing it started is left alive"
    uid, tree = s.uid, _tree({s._proc.pid}) if s._proc else set()
    s.close()
    if uid is not None: assert not _alive(uid), 'processes of the sandbox uid survived'
    else: _gone(tree)

def mk(mode, **kw):
    if mode == 'namespace' and not _bwrap_ok(os.geteuid() == 0): pytest.skip('bubblewrap is not installed or cannot make namespaces here')
    return Sandbox(**dict(dict(timeout=T, isolation=mode), **kw))

@pytest.fixture(params=['namespace', 'process'])
def mode(request): return request.param

@pytest.fixture
def sb(mode):
    s = mk(mode, memory_mb=512, nproc=64)
    yield s
    _close(s)

def _base(s): return {s._proc.pid, s._worker_pid()} # the worker (and bubblewrap, in namespaces)

def _left(s):
    "What is alive in the sandbox's tree beyond its base, with each one's state and command line (for a failure's message)"
    def desc(p):
        try: return open(f'/proc/{p}/stat').read().rsplit(')', 1)[1].split()[0], open(f'/proc/{p}/cmdline', 'rb').read()[:80]
        except OSError: return 'gone'
    return {p: desc(p) for p in _live(_tree({s._proc.pid})) - _base(s)}, _base(s)

def _gone(pids, wait=2):
    "Assert `pids` die within `wait` s (and a busy machine's slack)"
    assert eventually(lambda: not _live(pids), wait), 'processes survived'

def _live(pids):
    "Those of `pids` that still exist and are not zombies"
    out = set()
    for p in pids:
        try: st = open(f'/proc/{p}/stat').read().rsplit(')', 1)[1].split()[0]
        except OSError: continue
        if st != 'Z': out.add(p)
    return out

def attack(sb, code, statuses, reset=None, patience=None):
    "Run `code`; check it ends in time with one of `statuses`, and that the next call works. With `patience`, the run's timeout, for a limit other than the clock to end it first on a busy machine"
    t, sb.timeout = sb.timeout, patience or sb.timeout
    try:
        with ends_by(sb.timeout+1): r = sb.run(code)
    finally: sb.timeout = t
    assert r.status in statuses, (r.status, str(r))
    if reset is not None: assert r.reset == reset
    if r.reset: assert 'state was reset' in r.error
    assert sb.python('1+1') == '2'
    return r

def test_infinite_loop(sb):
    sb.run('keep = 1')
    r = attack(sb, 'while True: pass', {'timeout'}, reset=False)
    assert r.error.rstrip().endswith('TimeoutError')
    assert sb.python('keep') == '1' # the worker's own timeout keeps state

def test_c_level_loop(sb): attack(sb, 'sum(range(10**12))', {'timeout'}, reset=True)

def test_huge_allocation(sb):
    r = attack(sb, "'a' * 10**11", {'memory'}, reset=False)
    assert 'MemoryError' in r.error

def test_fork_bomb(sb):
    "The process limit stops the bomb at once: fork raises in the worker, its children exit, and nothing is left"
    r = attack(sb, 'import os\nwhile True: os.fork()', {'error'}, reset=False, patience=30)
    assert 'BlockingIOError' in r.error
    assert eventually(lambda: sb.python('1') and _live(_tree({sb._proc.pid})) == _base(sb)), _left(sb) # no children left behind (the worker reaps them before and after each run)
    assert sb.python('import subprocess; subprocess.run(["true"]).returncode') == '0' # the process limit is free again

def test_fork_bomb_caught(sb):
    "Forks that catch the error and keep trying until the worker's own timeout kills what the run started"
    attack(sb, 'import os\nwhile True:\n    try: os.fork()\n    except OSError: pass', {'timeout'}, reset=False)
    assert eventually(lambda: sb.python('1') and _live(_tree({sb._proc.pid})) == _base(sb)), _left(sb)

def test_grandchild_new_session(sb):
    pid = int(sb.python('import subprocess, os\np = subprocess.Popen(["sleep", "1000"], start_new_session=True)\np.pid'))
    if sb.isolation == 'namespace': pid = _host_pid(sb, pid)
    attack(sb, 'p.wait()', {'timeout'})
    _gone({pid})

@root
@pytest.mark.parametrize('death', ['os._exit(3)', 'os.kill(os.getpid(), 9)',
                                   'import resource\nresource.setrlimit(resource.RLIMIT_CPU, (1, 1))\nwhile True: pass'])
def test_grandchild_dies_with_the_worker(sb, death):
    "A grandchild in a new session is killed even when the worker dies first (its orphans go to init, out of the tree)"
    pid = int(sb.python('import subprocess\np = subprocess.Popen(["sleep", "1000"], start_new_session=True)\np.pid'))
    if sb.isolation == 'namespace':
        pid = _host_pid(sb, pid)
        if 'os.kill' in death: # the worker is the namespace's init: a signal it sends itself is ignored
            attack(sb, 'import os\n'+death, {'ok'}, reset=False); return
    uid = sb.uid
    r = attack(sb, 'import os\n'+death, {'killed'}, reset=True, patience=30) # a CPU second can take many on a busy machine
    _gone({pid})
    assert not _alive(uid) and sb.uid != uid # a fresh worker under a fresh uid

def _host_pid(sb, pid):
    "The host's pid of the process that is `pid` in the sandbox's pid namespace"
    for p in _tree({sb._proc.pid}):
        try: ns = open(f'/proc/{p}/status').read().split('NSpid:')[1].split('\n')[0].split()
        except (OSError, IndexError): continue
        if ns[-1] == str(pid): return p

def test_double_fork_daemon(sb):
    "A daemon whose parent exited is adopted by the worker (a subreaper), so it is killed too"
    code = ('import os, time\nif (first := os.fork()) == 0:\n    os.setsid()\n    if os.fork() == 0: time.sleep(1000)\n    os._exit(0)\n'
            'def ppid(p):\n    try: return open(f"/proc/{p}/stat").read().rsplit(")", 1)[1].split()[1]\n    except OSError: return None\n'
            'kids = lambda: [p for p in os.listdir("/proc") if p.isdigit() and ppid(p) == str(os.getpid())]\n'
            'end = time.monotonic() + 1.5\nwhile set(kids()) <= {str(first)} and time.monotonic() < end: time.sleep(0.01)\nprint(*kids())')
    kids = [int(o) for o in sb.run(code).stdout.split()]
    assert kids, 'the daemon was not adopted by the worker'
    if sb.isolation == 'namespace': kids = [h for k in kids if (h := _host_pid(sb, k))] # the first child, a zombie, is reaped
    attack(sb, 'while True:\n    try: time.sleep(1)\n    except BaseException: pass\n', {'timeout'})
    _gone(set(kids))

def test_print_flood(sb):
    r = attack(sb, 'print("x" * 10**8)', {'ok', 'timeout'})
    assert r.truncated and len(r.stdout) < 2*sb.max_output

def test_print_flood_loop(sb):
    r = attack(sb, 'while True: print("y" * 1000)', {'timeout'})
    assert r.truncated and len(r.stdout) < 2*sb.max_output

def test_os_exit(sb):
    r = attack(sb, 'import os\nos._exit(3)', {'killed'}, reset=True)
    assert 'code 3' in r.error

def test_alarm_and_catch_all(sb):
    attack(sb, 'import signal\nsignal.alarm(0)\nsignal.signal(signal.SIGALRM, signal.SIG_IGN)\n'
               'while True:\n    try: pass\n    except BaseException: pass', {'timeout'}, reset=True)

def test_deep_recursion(mode):
    "Python-to-Python calls use no C stack (3.11+), so a million frames fit in memory and end in RecursionError, within a timeout that leaves room for them"
    with mk(mode, timeout=10) as s:
        r = attack(s, 'import sys\nsys.setrecursionlimit(10**6)\ndef f(n): return f(n+1)\nf(0)', {'error'}, reset=False)
        assert r.error.rstrip().endswith('RecursionError: maximum recursion depth exceeded') and len(r.error) < 10_000

def test_file_size_limit(sb):
    r = attack(sb, 'open("big", "wb").write(b"x" * (100 * 2**20))', {'error'})
    assert 'File too large' in r.error

def test_cpu_limit(mode):
    "CPU seconds, soft = hard: the code cannot raise the limit, and ignoring SIGXCPU does not help (the kernel sends SIGKILL)"
    with mk(mode, timeout=10, cpu_s=1) as s:
        assert s.python('import resource; resource.getrlimit(resource.RLIMIT_CPU)') == '(1, 1)'
        assert 'not allowed to raise maximum limit' in s.python('resource.setrlimit(resource.RLIMIT_CPU, (1000, 1000))')
        r = attack(s, 'import signal\nsignal.signal(signal.SIGXCPU, signal.SIG_IGN)\nwhile True: pass', {'killed'}, reset=True)
        assert 'SIGKILL' in r.error

def test_open_files_limit(sb):
    assert sb.python('import resource; resource.getrlimit(resource.RLIMIT_NOFILE)') == '(256, 256)'
    r = attack(sb, 'fs = [open("/dev/null") for _ in range(1000)]', {'error'}, reset=False)
    assert 'Too many open files' in r.error
    assert 'not allowed to raise maximum limit' in sb.python('resource.setrlimit(resource.RLIMIT_NOFILE, (4096, 4096))')

def test_no_core_dumps(sb):
    assert sb.python('import resource; resource.getrlimit(resource.RLIMIT_CORE)') == '(0, 0)'
    assert 'not allowed to raise maximum limit' in sb.python('resource.setrlimit(resource.RLIMIT_CORE, (2**30, 2**30))')
    code = 'import subprocess, sys, os\nsubprocess.run([sys.executable, "-c", "import os; os.abort()"]).returncode, os.listdir()'
    assert sb.python(code) == f'({-signal.SIGABRT}, [])' # the crash left no core file

def test_environment(sb):
    env = sb.run('import os; print(*os.environ)').stdout.split()
    assert set(env) <= {'PATH', 'HOME', 'TMPDIR', 'LANG', 'PYTHONIOENCODING', 'LC_CTYPE', 'PWD'}
    assert sb.python('import sys; sys.stdin.read()') == "''"
    assert sb.python('import os; os.getcwd()').strip("'") == sb.dir

def test_isolated_interpreter(monkeypatch, mode):
    "`python -I`: no PYTHON* variables, no user site, not even the working directory on sys.path; nothing of the parent's environment"
    monkeypatch.setenv('PYTHONPATH', '/tmp/planted'); monkeypatch.setenv('FNCALL_SECRET', 'hunter2')
    with mk(mode) as s:
        assert s.python('import sys; sys.flags.isolated, sys.flags.ignore_environment, sys.flags.no_user_site') == '(1, 1, 1)'
        assert s.python(f'"/tmp/planted" in sys.path or "" in sys.path or {s.dir!r} in sys.path') == 'False'
        assert s.python('import os; os.environ.get("FNCALL_SECRET")') == ''

def test_large_request_while_gil_is_held(sb):
    "A thread holding the GIL in C keeps the worker from reading: the parent's write is bounded by the deadline too"
    sb.run('import threading, time\ndef hog():\n    time.sleep(0.3); sum(range(10**13))\nthreading.Thread(target=hog, daemon=True).start()')
    time.sleep(0.6)
    with ends_by(T+1): r = sb.run('x = """' + 'a'*200_000 + '"""\nlen(x)')
    assert (r.status, r.reset) == ('timeout', True)
    assert sb.python('1+1') == '2'

def test_junk_on_answer_pipe(sb):
    "Code writing junk to the answer pipe changes nothing"
    r = sb.run('import os\nfor fd in range(3, 10):\n    try: os.write(fd, b"junk\\n{\\"id\\": 1")\n    except OSError: pass\n"real"')
    assert (r.status, r.result, r.reset) == ('ok', "'real'", False)
    assert sb.python('1+1') == '2'

FORGE = '''import sys, os, json, time
f = sys._getframe()
while 'req' not in f.f_locals: f = f.f_back
wfd = json.loads(sys.argv[-1])['wfd']
os.write(wfd, json.dumps(dict(id=f.f_locals['req']['id']{id_change}, status='ok', result={result}, error='', cut=False)).encode() + b'\\n')
time.sleep(0.3)
"real"'''

def test_forged_answers(sb):
    "Answers with a wrong id or a field of the wrong type are ignored; the parent never crashes or falls out of step"
    for id_change, result in (('+1', '"\'stale\'"'), ('', 5), ('-1', '"\'old\'"')):
        r = sb.run(FORGE.format(id_change=id_change, result=result))
        assert (r.status, r.result, r.reset) == ('ok', "'real'", False)
        assert [sb.python(f'{i}+{i}') for i in range(3)] == ['0', '2', '4']

def test_forged_answer_with_right_id(sb):
    "Code can lie about its own result, but the real answer arriving later is stale and dropped: later calls stay in step"
    r = sb.run(FORGE.format(id_change='', result='"\'FORGED\'"'))
    assert r.result == "'FORGED'"
    assert [sb.python(f'{i}+{i}') for i in range(3)] == ['0', '2', '4']

def test_non_ascii_result(sb):
    "Characters that JSON escapes fit the parent's bound on answers: no reset"
    sb.run('keep = 7')
    for code, status in (("'\\U0001F600' * 20000", 'ok'), ("raise ValueError('\\U0001F600' * 20000)", 'error'), ("'\\x01' * 50000", 'ok'),
                         ("raise ValueError('\\x01' * 50000)", 'error')):
        r = sb.run(code)
        assert (r.status, r.reset, r.truncated) == (status, False, True), (code, r.status, r.error[-200:])
        assert len(r.result or r.error) < sb.max_output + 100
    assert sb.python('keep') == '7'

def test_result_truncated(sb):
    r = sb.run("'x' * 100_000")
    assert r.truncated and len(r.result) < sb.max_output + 100 and 'characters truncated' in r.result
    assert not sb.run("'x' * 100").truncated

def test_repr_within_timeout(sb):
    "A `__repr__` that never returns hits the worker's own timeout, which keeps state"
    sb.run('keep = 1')
    r = attack(sb, 'class Loop:\n    def __repr__(self):\n        while True: pass\nLoop()', {'timeout'}, reset=False)
    assert sb.python('keep') == '1'

def test_stdout_replaced(sb):
    "The code may set sys.stdout to None or close it: the worker survives and shows none of its own frames"
    for code in ('import sys; sys.stdout = None', 'import sys; sys.__stdout__.close()', 'import sys; sys.stderr = None'):
        r = sb.run(code)
        assert (r.status, r.reset) == ('ok', False), str(r)
        assert sb.python('1+1') == '2'
    assert 'fncall' not in sb.run('import sys; sys.stdout = None\n1/0').error

def test_closed(sb):
    tree = _tree({sb._proc.pid})
    sb.close()
    _gone(tree)

@root
def test_sandboxes_are_isolated(mode):
    "Each worker has a uid of its own (and, in namespaces, sees nothing of the other): one sandbox cannot read another's files or memory, signal it, or use up its process budget"
    with mk(mode, nproc=8) as a, mk(mode, nproc=8) as b:
        assert a.uid != b.uid and a.uid != os.getuid()
        b.run('secret = "hunter2"\nopen("notes.txt", "w").write("private")')
        pid = b._proc.pid
        for code in (f'open({b.dir!r} + "/notes.txt").read()', f'open("/proc/{pid}/mem", "rb")', f'open("/proc/{pid}/environ", "rb").read()',
                     f'import os; os.kill({pid}, 9)', f'open("/proc/{os.getpid()}/mem", "rb")'):
            assert a.run(code).error.splitlines()[-1].startswith(('PermissionError', 'FileNotFoundError', 'ProcessLookupError')), code
        assert a.python('import subprocess\nps = [subprocess.Popen(["sleep", "100"]) for _ in range(7)]') == ''
        assert 'BlockingIOError' in a.python('subprocess.Popen(["true"])') # a's budget is spent...
        assert b.python('import subprocess; subprocess.run(["true"]).returncode') == '0' # ...not b's
        assert b.python('secret') == "'hunter2'"

def test_fallback_without_root(monkeypatch):
    "Without root the worker runs as the caller and the process tree is killed instead (see the notebook for what that misses)"
    monkeypatch.setattr(os, 'geteuid', lambda: 1000)
    s = Sandbox(timeout=T, isolation='process')
    monkeypatch.undo()
    try:
        assert s.uid is None
        pid = int(s.python('import subprocess\np = subprocess.Popen(["sleep", "1000"], start_new_session=True)\np.pid'))
        attack(s, 'while True: pass', {'timeout'}, reset=False)
        _gone({pid})
        pid = int(s.python('p = subprocess.Popen(["sleep", "1000"], start_new_session=True)\np.pid'))
    finally: _close(s)
    _gone({pid})

# The in-process tool: signals can only be set on the main thread, which pytest runs tests on
def test_restores_previous_alarm():
    assert threading.current_thread() is threading.main_thread()
    def prev(*args): pass
    old = signal.signal(signal.SIGALRM, prev)
    try:
        signal.setitimer(signal.ITIMER_REAL, 100)
        assert python('1', timeout=0.5) == 1
        assert signal.getsignal(signal.SIGALRM) is prev
        assert 99 < signal.getitimer(signal.ITIMER_REAL)[0] <= 100
        assert python('while True: pass', timeout=0.2).rstrip().endswith('TimeoutError')
        assert signal.getsignal(signal.SIGALRM) is prev and signal.getitimer(signal.ITIMER_REAL)[0] > 98
    finally: signal.setitimer(signal.ITIMER_REAL, 0); signal.signal(signal.SIGALRM, old)

def test_timeout_interrupts_sleep_on_main_thread():
    with ends_by(0.3): r = python('import time\nwhile True:\n    try: time.sleep(5)\n    except BaseException: pass', glb={}, timeout=0.3)
    assert r.rstrip().endswith('TimeoutError')

def test_slow_repr_in_process():
    with ends_by(0.3): r = python('import time\nclass Slow:\n    def __repr__(self): time.sleep(30); return "slow"\nprint("made"); Slow()', glb={}, timeout=0.3)
    assert r.splitlines()[0] == 'made' and r.rstrip().endswith('TimeoutError')

def test_system_exit():
    assert python('import sys; sys.exit(1)', glb={}).splitlines()[-1] == 'SystemExit: 1'
    assert python('exit()', glb={}).splitlines()[-1] == 'SystemExit: None'
    with pytest.raises(KeyboardInterrupt): python('raise KeyboardInterrupt', glb={})

def test_default_namespace_is_callers():
    python('from_test = 1')
    assert globals()['from_test'] == 1

def test_concurrent_calls_keep_their_output():
    "Calls in call_funcs threads each get what they printed, and sys.stdout is the real one afterwards"
    from fncall.call import call_funcs
    real = sys.stdout
    res = call_funcs([('python', {'code': 'import time\nprint("A1")\ntime.sleep(0.2)\nprint("A2")'}),
                      ('python', {'code': 'import time\ntime.sleep(0.1)\nprint("B1")\ntime.sleep(0.3)\nprint("B2")'})], ns=[python])
    assert res == ['A1\nA2', 'B1\nB2'] and sys.stdout is real

def test_stdout_restored_after_the_code_replaces_it():
    "What the code puts in sys.stdout does not outlive the call: the host's stream is put back"
    real = sys.stdout
    assert python('import sys, io; sys.stdout = io.StringIO(); print("lost")', glb={}) == ''
    assert sys.stdout is real

def test_redirect_made_meanwhile():
    "A redirect another thread makes while a call runs is undone when the call ends (the host's stream wins); the router it puts back is skipped next time"
    import contextlib
    real = sys.stdout = io.StringIO()
    try:
        res, f, running, go = {}, io.StringIO(), threading.Event(), threading.Event()
        t = threading.Thread(target=lambda: res.setdefault('b', python('running.set()\nif go.wait(30): pass', {'running': running, 'go': go})))
        t.start(); running.wait(30)
        with contextlib.redirect_stdout(f):
            go.set()
            t.join()
            print('meanwhile')
        print('after')
        assert python('print("next")', {}) == 'next'
        assert (res['b'], f.getvalue(), real.getvalue(), sys.stdout) == ('', '', 'meanwhile\nafter\n', real)
    finally: sys.stdout = sys.__stdout__ if real is sys.stdout else sys.stdout

def test_threads_get_user_namespace():
    "call_funcs runs each call in a thread with no user frame: the namespace is that of call_funcs' caller, not fncall's"
    from fncall.call import call_funcs
    import fncall.call
    call_funcs([('python', {'code': 'leak_check = 1'})], ns=[python])
    assert 'leak_check' not in vars(fncall.call)
    assert globals().pop('leak_check') == 1

def test_registry_gets_user_namespace():
    "FunctionRegistry.run dispatches through an event loop and a thread; the code still runs in the caller's module"
    from fncall.tools import FunctionRegistry
    import fncall.tools
    reg = FunctionRegistry(); reg.add(python)
    reg.run('TOOL_CALL {"name": "python", "arguments": {"code": "via_registry = 1"}}')
    assert 'via_registry' not in vars(fncall.tools)
    assert globals().pop('via_registry') == 1

def test_async_dispatch_gets_user_namespace():
    "call_func_async, call_funcs_async and a registry's arun hand the call to a thread or task; the code still runs in the caller's module"
    import asyncio, fncall.call, fncall.tools
    from fncall.call import call_func_async, call_funcs_async
    reg = FunctionRegistry(); reg.add(python)
    async def main():
        await call_func_async('python', {'code': 'via_async = 1'}, ns=[python])
        await call_funcs_async([('python', {'code': 'via_batch = 2'}), ('python', {'code': 'via_batch2 = 3'})], ns=[python])
        await reg.arun('TOOL_CALL {"name": "python", "arguments": {"code": "via_arun = 4"}}')
    asyncio.run(main())
    names = ('via_async', 'via_batch', 'via_batch2', 'via_arun')
    assert not any(n in vars(m) for n in names for m in (fncall.call, fncall.tools, fncall.python))
    assert [globals().pop(n) for n in names] == [1, 2, 3, 4]
    assert fncall.call._caller.get() == ()  # nothing left behind

def test_python_tool_through_registry():
    "python_tool fixes the namespace when it is made, whichever thread runs it"
    from fncall.tools import FunctionRegistry
    ns = {}
    reg = FunctionRegistry(); reg.add(python_tool(ns, timeout=5))
    out = reg.run('TOOL_CALL {"name": "python", "arguments": {"code": "y = 6*7\\ny"}}')
    assert ns['y'] == 42 and '42' in json.dumps(out)

def test_threads_started_by_the_code_print_into_the_call():
    "A thread the code starts inherits no context: while only its call runs, its output goes to that call"
    code = "import threading\nt = threading.Thread(target=print, args=('from a thread',)); t.start(); t.join()"
    assert python(code, {}) == 'from a thread'
    from concurrent.futures import ThreadPoolExecutor
    with ThreadPoolExecutor(1) as ex: assert ex.submit(python, code, {}).result() == 'from a thread'

HOST_PRINTS = """import json, os, sys, threading, time
from concurrent.futures import ThreadPoolExecutor
from fncall.python import python
out = {}
code = "import threading, time\\ntime.sleep(0.6)\\nt = threading.Thread(target=print, args=('from its thread',)); t.start(); t.join()"
with ThreadPoolExecutor(1) as ex:
    f = ex.submit(python, code, {}, None, 5)
    time.sleep(0.2); print('host during the call', flush=True)
    out['call'] = f.result()
    # a call left behind after its timeout (in a blocking C call): the host's output is its own
    f = ex.submit(python, 'import os\\nr, w = os.pipe()\\nos.read(r, 1)', {}, None, 0.3)
    out['late'] = f.result()
    print('host after the timeout', flush=True)
sys.stderr.write(json.dumps(out) + '\\n')
os._exit(0)"""

def test_host_prints_stay_the_hosts():
    "Only the call's thread and the threads its code makes print into the call: the host's main thread does not, while a call runs off the main thread or after one is left behind by its timeout"
    import subprocess
    p = subprocess.run([sys.executable, '-c', HOST_PRINTS], capture_output=True, text=True, timeout=30, cwd=os.path.dirname(os.path.dirname(__file__)))
    out = json.loads(p.stderr.strip().splitlines()[-1])
    assert out['call'] == 'from its thread', out
    assert 'TimeoutError' in out['late'] and 'host' not in out['late'], out
    assert p.stdout.splitlines() == ['host during the call', 'host after the timeout'], p.stdout

def _stray_check(code, timeout, secs=3, n=3):
    "Run `code` in `n` threads again and again for `secs` s; return results other than a timeout and exceptions raised outside `python`"
    bad, stray = [], []
    def work():
        end = time.monotonic()+secs
        while time.monotonic() < end:
            try:
                r = python(code, {}, timeout=timeout)
                if not r.rstrip().endswith('TimeoutError'): bad.append(r)
                for _ in range(3): time.sleep(0.005) # outside python(): nothing may land here
            except BaseException as e: stray.append(repr(e))
    ts = [threading.Thread(target=work) for _ in range(n)]
    for t in ts: t.start()
    for t in ts: t.join()
    return bad, stray

def test_timeout_never_lands_outside_the_call():
    "Review t6b: the watchdog's exception once landed in Thread.start() before the call's try, or after the call ended, and then forever"
    base = threading.active_count()
    assert _stray_check('while 1: pass', 0.03) == ([], [])
    assert _stray_check('while 1: pass', 0.001) == ([], [])
    _threads_back_to(base)

def _threads_back_to(n, wait=3):
    assert eventually(lambda: threading.active_count() <= n, wait), threading.enumerate()

def test_watchdogs_end_with_their_calls():
    "Each threaded call's watchdog ends when the call does, not at its deadline (an hour by default)"
    base = threading.active_count()
    t = threading.Thread(target=lambda: [python('1+1', {}, timeout=3600) for _ in range(50)])
    t.start(); t.join()
    _threads_back_to(base)

def test_traced_calls_after_threaded_calls():
    "Taking back a pending timeout by injecting NULL left CPython 3.11's async-exception flag set, and then every traced function call hung"
    code = ('import sys\nfrom concurrent.futures import ThreadPoolExecutor\nfrom fncall.python import python\n'
            'with ThreadPoolExecutor(1) as ex: assert ex.submit(python, "1", {}, None, 5).result() == 1\n'
            'assert python("while True: pass", {}, timeout=0.1).rstrip().endswith("TimeoutError")\n'
            'sys.settrace(lambda *a: None)\ndef g(): return 2\nassert g() == 2\nsys.settrace(None)\nprint("ok")')
    import subprocess
    r = subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, timeout=30)
    assert r.stdout == 'ok\n', r.stderr

@pytest.mark.parametrize('threaded', [False, True])
def test_nested_call_keeps_outer_timeout(threaded):
    "A python() inside timed code leaves the outer timeout armed, and the outer deadline cuts an inner call short (review t1)"
    from concurrent.futures import ThreadPoolExecutor
    def run(code, timeout):
        if not threaded: return python(code, {'python': python}, timeout=timeout)
        with ThreadPoolExecutor(1) as ex: return ex.submit(python, code, {'python': python}, None, timeout).result()
    for inner in ("python('1', {}, timeout=5)\nwhile True: pass", "python('while True: pass', {}, timeout=5)\nwhile True: pass",
                  "python('while True: pass', {}, timeout=None)\nwhile True: pass"):
        with ends_by(0.5): r = run(inner, 0.5)
        assert r.rstrip().endswith('TimeoutError'), (inner, r)

@pytest.mark.parametrize('threaded', [False, True])
def test_exception_text_within_timeout(threaded):
    "The text of an exception runs the code's __str__: it is made within the time limit (review t1). Off the main thread a blocking C call (sleep) cannot be interrupted, so only the loop is tried there"
    from concurrent.futures import ThreadPoolExecutor
    for body in ('while True: pass',) + (() if threaded else ('time.sleep(30); return "e"',)):
        code = f'import time\nclass E(Exception):\n    def __str__(self):\n        {body}\nraise E()'
        with ends_by(0.3):
            if threaded:
                with ThreadPoolExecutor(1) as ex: r = ex.submit(python, code, {}, None, 0.3).result()
            else: r = python(code, {}, timeout=0.3)
        assert r.rstrip().endswith('TimeoutError'), (body, r)

def test_no_stale_timeout_after_timed_out_call():
    "An unlimited call after one that timed out still closes its async generators (it used to read the old call's flag)"
    assert python('while True: pass', {}, timeout=0.1).rstrip().endswith('TimeoutError')
    code = ('import asyncio\nasync def gen():\n    try: yield 1\n    finally: print("closed")\n'
            'g = gen()\nawait g.__anext__();')
    assert python(code, {}, timeout=None) == 'closed'

def test_sandbox_runs_from_threads_take_turns():
    "Two threads running one sandbox (as fncall's parallel dispatch does) each get their own result; each run is timed from its own start (review t5)"
    with Sandbox(timeout=1) as s:
        out = {}
        def go(i): out[i] = s.run(f'import time; time.sleep(0.6); print("run{i}"); {i}')
        ts = [threading.Thread(target=go, args=(i,)) for i in range(3)]
        for t in ts: t.start()
        for t in ts: t.join()
        assert {i: (r.status, r.stdout, r.result, r.reset) for i,r in out.items()} == {i: ('ok', f'run{i}\n', str(i), False) for i in range(3)}

EXIT_SCRIPT = """import json, sys, threading
from fncall.python import Sandbox
keep = []
def make(): keep.append(Sandbox(timeout=5, isolation=sys.argv[1])) # a function: a module-level cycle, so the list outlives the builtins at exit
t = threading.Thread(target=make); t.start(); t.join() # the thread that made it ends: the worker must not die with it
keep[0].python('import subprocess, sys\\np = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(1000)", "fncall-exit-mark"], start_new_session=True)')
assert keep[0].python('1+1') == '2'
print(json.dumps(dict(uid=keep[0].uid, dir=keep[0].dir, worker=keep[0]._proc.pid)))
"""

def _marked(marker):
    out = set()
    for d in filter(str.isdigit, os.listdir('/proc')):
        try:
            if marker in open(f'/proc/{d}/cmdline', 'rb').read() and open(f'/proc/{d}/stat').read().rsplit(')', 1)[1].split()[0] != 'Z': out.add(int(d))
        except OSError: pass
    return out

def test_sandbox_cleaned_up_at_exit(mode):
    "A sandbox never closed, referenced from a list at interpreter exit: its worker, what it started and its directory are gone (review t9)"
    import subprocess
    if mode == 'namespace' and not _bwrap_ok(os.geteuid() == 0): pytest.skip('bubblewrap is not installed or cannot make namespaces here')
    r = subprocess.run([sys.executable, '-c', EXIT_SCRIPT, mode], capture_output=True, text=True, timeout=60)
    info = json.loads(r.stdout)
    assert not r.stderr and not os.path.exists(info['dir'])
    _gone({info['worker']})
    assert eventually(lambda: not _marked(b'fncall-exit-mark'))
    if info['uid'] is not None: assert not _alive(info['uid'])

def test_sandbox_cleaned_up_when_collected():
    import gc
    s = Sandbox(timeout=T)
    d, tree = s.dir, _tree({s._proc.pid})
    del s; gc.collect()
    assert not os.path.exists(d)
    _gone(tree)

def test_timeout_holds_beside_a_leftover():
    "Issue 31: a call off the main thread timed out leaving its code blocked in C; the next main-thread call's timeout waited for that code (9.4 s for 0.5 s): the pending injection kept CPython 3.11's flag set, and a traced thread spun at each function call"
    from concurrent.futures import ThreadPoolExecutor
    release = threading.Event()
    try:
        with ThreadPoolExecutor(1) as ex: r = ex.submit(python, 'release.wait(60)\nwhile True: pass', {'release': release}, None, 0.3).result()
        assert 'left to end in the background' in r, r
        with ends_by(0.5): r = python('import time; time.sleep(30)', {}, timeout=0.5)
        assert r.rstrip().endswith('TimeoutError'), r
        with ends_by(0.5): r = python('while True:\n    try: pass\n    except BaseException: pass', {}, timeout=0.5)
        assert r.rstrip().endswith('TimeoutError'), r
    finally: release.set()
    assert eventually(lambda: not [t for t in threading.enumerate() if t.name == 'fncall-python']) # and the leftover is stopped once its C call returns

STR_SUB = 'class S(str):\n    def __len__(self): raise RuntimeError("no len")\nclass T:\n    def __repr__(self): return S("shown")\n'
BAD_TB = 'class E(Exception):\n    __notes__ = property(lambda self: 1/0)\nraise E()'

def test_hostile_result(sb):
    "Issue 31: a repr that is a str subclass whose __len__ raises killed the worker (status killed, state reset); a traceback that can't be made, the same"
    sb.run('keep = 1')
    r = sb.run(STR_SUB + 'print("hi"); T()')
    assert (r.status, r.result, r.stdout, r.reset) == ('ok', 'shown', 'hi\n', False), str(r)
    r = sb.run(BAD_TB)
    assert (r.status, r.reset) == ('error', False) and r.error.startswith('E: its traceback could not be made (ZeroDivisionError'), str(r)
    assert sb.python('keep') == '1'

@pytest.mark.parametrize('threaded', [False, True])
def test_hostile_result_in_process(threaded):
    "In-process the same raised from fncall's own code (or, off the main thread, from the call's)"
    from concurrent.futures import ThreadPoolExecutor
    def run(code):
        if not threaded: return python(code, {}, timeout=3)
        with ThreadPoolExecutor(1) as ex: return ex.submit(python, code, {}, None, 3).result()
    assert run(STR_SUB + 'print("hi"); T()') == 'hi\nshown'
    assert run(BAD_TB).startswith('E: its traceback could not be made (ZeroDivisionError')

def test_killed_from_outside(sb):
    "Issue 31: a worker killed by a signal from outside was said to have hit 'memory, CPU or process limit?': the signal is named (in namespaces the worker is its pid namespace's init: only SIGKILL reaches it)"
    threading.Timer(0.5, lambda: os.kill(sb._worker_pid(), signal.SIGKILL)).start()
    r = sb.run('import time; time.sleep(30)')
    assert (r.status, r.reset) == ('killed', True) and 'killed by signal SIGKILL (sent from outside the sandbox, or its CPU time ran out' in r.error, str(r)
    assert 'memory' not in r.error
    if sb.isolation == 'namespace': return
    sb.run('x = 1'); os.kill(sb._worker_pid(), signal.SIGTERM); sb._proc.wait(timeout=5)
    r = sb.run('2')
    assert r.note.startswith('[the worker was killed by signal SIGTERM (sent from outside the sandbox) since the last run') and r.result == '2', str(r)

ONE_LINERS = [('1+1', 2), ('1+1;', ''), ('"doc"', 'doc'), ('print(3)', '3'), ('(y := 4)', 4), ('x = 5', ''), ('1 # a comment;', 1),
              ('import asyncio; 6', 6), ('await __import__("asyncio").sleep(0, 7)', 7)]

@pytest.mark.parametrize('code,want', ONE_LINERS)
def test_one_line_expressions_at_once(code, want):
    "A one-line expression is compiled as one at once (no syntax tree); what a line gives is what the whole-code path gives"
    from fncall.runner import _compile
    assert python(code, glb={}) == want
    assert (_compile(code)[0] is None) == (code in ('1+1', '"doc"', 'print(3)', '(y := 4)', '1 # a comment;', 'await __import__("asyncio").sleep(0, 7)'))

@pytest.mark.parametrize('code,err', [(' 1+1', 'IndentationError'), ('(yield)', 'SyntaxError'), ('1+', 'SyntaxError'), ('nope', 'NameError')])
def test_one_line_errors_as_before(code, err):
    assert python(code, glb={}).splitlines()[-1].startswith(err)

def test_sandbox_alarm_set_again_each_run(mode):
    "Code that takes SIGALRM for itself in one run can't dodge the next run's timeout: the worker's own timeout ends it (no kill, state kept)"
    with mk(mode) as s:
        s.run('import signal; signal.signal(signal.SIGALRM, signal.SIG_IGN); kept = 1')
        with ends_by(T+1): r = s.run('while True: pass')
        assert (r.status, r.reset) == ('timeout', False) and s.python('kept') == '1', str(r)

def test_sandbox_output_read_whole(mode):
    "What a run prints, however much, is read before the run returns: each pipe is read until a read comes back short"
    with mk(mode, max_output=10**7) as s:
        for n in (0, 10, 65535, 65536, 65537, 3*65536+5):
            r = s.run(f'import sys; sys.stdout.write("x" * {n}); sys.stderr.write("y" * {n}); sys.stdout.flush(); sys.stderr.flush()')
            assert (len(r.stdout), len(r.stderr), r.truncated) == (n, n, False), (n, len(r.stdout), len(r.stderr))
