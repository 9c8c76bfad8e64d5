"Real attacks on `Sandbox` and the timeout of the in-process `python` tool (timeouts of 2 s keep the file short)"
import os, signal, threading, time, pytest
from fncall.python import python, Sandbox, _tree

T = 2 # sandbox timeout in seconds; each attack must end within T+2 s

@pytest.fixture
def sb():
    s = Sandbox(timeout=T, memory_mb=512, nproc=64)
    yield s
    pid = s._proc.pid if s._proc else None
    tree = _tree({pid}) if pid else set()
    s.close()
    _gone(tree)
    _user_clear()

def _user_clear(wait=10):
    "Wait until no process of the sandbox user is left (zombies included): they count against the next test's process limit"
    import pwd
    try: uid = pwd.getpwnam('nobody').pw_uid
    except KeyError: return
    end = time.monotonic()+wait
    def procs(): return [p for p in os.listdir('/proc') if p.isdigit() and _uid(p) == uid]
    while procs() and time.monotonic() < end: time.sleep(0.05)

def _uid(p):
    try: return os.stat(f'/proc/{p}').st_uid
    except OSError: return None

def _gone(pids, wait=2):
    "Assert `pids` die within `wait` s, then wait for init to reap them: they count against the next test's process limit"
    end = time.monotonic()+wait
    while _alive(pids) and time.monotonic() < end: time.sleep(0.02)
    assert not _alive(pids), 'processes survived'
    while any(os.path.exists(f'/proc/{p}') for p in pids) and time.monotonic() < end: time.sleep(0.02)

def _alive(pids):
    "Those of `pids` that still exist and are not zombies"
    out = set()
    for p in pids:
        try: st = open(f'/proc/{p}/stat').read().rsplit(')', 1)[1].split()[0]
        except OSError: continue
        if st != 'Z': out.add(p)
    return out

def attack(sb, code, statuses, reset=None):
    "Run `code`; check it ends in time with one of `statuses`, and that the next call works"
    t = time.monotonic()
    r = sb.run(code)
    assert time.monotonic()-t < T+2, f'{code!r} took {time.monotonic()-t:.1f}s'
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
    attack(sb, 'import os\nwhile True: os.fork()', {'error', 'timeout', 'killed'})
    time.sleep(0.3); sb.python('1') # the worker reaps exited children before and after each run
    assert _alive(_tree({sb._proc.pid})) == {sb._proc.pid} # no children left behind
    assert sb.python('import subprocess; subprocess.run(["true"]).returncode') == '0' # the process limit is free again

def test_fork_bomb_caught(sb):
    "Forks that catch the error and keep trying until the parent kills the tree"
    pid = sb._proc.pid
    attack(sb, 'import os\nwhile True:\n    try: os.fork()\n    except OSError: pass', {'timeout'})
    time.sleep(0.3); sb.python('1')
    assert _alive(_tree({sb._proc.pid})) == {sb._proc.pid}

def test_grandchild_new_session(sb):
    pid = int(sb.python('import subprocess\np = subprocess.Popen(["sleep", "1000"], start_new_session=True)\np.pid'))
    attack(sb, 'p.wait()', {'timeout'})
    _gone({pid})

def test_double_fork_daemon(sb):
    "A daemon whose parent exited is adopted by the worker (a subreaper), so it is killed too"
    code = ('import os, time\nif os.fork() == 0:\n    os.setsid()\n    if os.fork() == 0: time.sleep(1000)\n    os._exit(0)\n'
            'time.sleep(0.2)\nprint(*[p for p in os.listdir("/proc") if p.isdigit() and open(f"/proc/{p}/stat").read().split()[3] == str(os.getpid())])')
    kids = [int(o) for o in sb.run(code).stdout.split()]
    assert kids, 'the daemon was not adopted by the worker'
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

def test_deep_recursion(sb):
    attack(sb, 'import sys\nsys.setrecursionlimit(10**6)\ndef f(n): return f(n+1)\nf(0)', {'error', 'memory', 'timeout', 'killed'})

def test_file_size_limit(sb):
    r = attack(sb, 'open("big", "wb").write(b"x" * (100 * 2**20))', {'error'})
    assert 'File too large' in r.error

def test_environment(sb):
    env = sb.run('import os; print(*os.environ)').stdout.split()
    assert set(env) <= {'PATH', 'HOME', 'TMPDIR', 'LANG', 'PYTHONIOENCODING', 'LC_CTYPE'}
    assert sb.python('import sys; sys.stdin.read()') == "''"
    assert sb.python('import os; os.getcwd()').strip("'") == sb.dir

def test_forged_answer(sb):
    "Code writing junk to the answer pipe gets a restart, not a crash of the parent"
    r = sb.run('import os\nfor fd in range(3, 10):\n    try: os.write(fd, b"junk\\n")\n    except OSError: pass')
    assert r.status in {'ok', 'killed', 'error'}
    assert sb.python('1+1') == '2'

def test_closed(sb):
    tree = _tree({sb._proc.pid})
    sb.close()
    _gone(tree)

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
    t = time.monotonic()
    r = python('import time\nwhile True:\n    try: time.sleep(5)\n    except BaseException: pass', glb={}, timeout=0.3)
    assert r.rstrip().endswith('TimeoutError') and time.monotonic()-t < 1

def test_default_namespace_is_callers():
    python('from_test = 1')
    assert globals()['from_test'] == 1

def test_threads_get_user_namespace():
    "Through call_funcs (a thread pool) there is no user frame: the code runs in __main__'s namespace, not fncall's"
    from fncall.call import call_funcs
    import fncall.call, __main__
    call_funcs([('python', {'code': 'leak_check = 1'})], ns=[python])
    assert 'leak_check' not in vars(fncall.call)
    assert vars(__main__).pop('leak_check') == 1
