"Where a timeout firing is the point of a test: it fired, and about when, with a margin a loaded 2-core machine keeps. No other test times anything: linear time and concurrency are checked by counting work or by events"
import contextlib, time

SLACK = 5.0 # seconds a busy machine may add to a wait (scheduling, a slow fork, a cold import)

@contextlib.contextmanager
def ends_by(limit):
    "The block ends within `limit` seconds (what the code under test promises) and `SLACK`"
    t = time.monotonic()
    yield
    assert (took := time.monotonic()-t) < limit+SLACK, f'took {took:.1f} s: the limit is {limit} s (and {SLACK} s for a busy machine)'

def eventually(check, wait=2, every=0.02):
    "Poll `check()` until it is true, for at most `wait` seconds and `SLACK`; its last value (a test asserts it)"
    end = time.monotonic()+wait+SLACK
    while not (ok := check()) and time.monotonic() < end: time.sleep(every)
    return ok

def cheap(fn, cpu):
    "`fn()`'s result, checked to have cost under `cpu` seconds of this process's CPU time (all its threads), which load does not stretch as it stretches the clock. It runs in a daemon thread, so a regression fails after a generous wait instead of hanging the run"
    import threading
    out, c = {}, time.process_time()
    def work():
        try: out['res'] = fn()
        except BaseException as e: out['exc'] = e
    t = threading.Thread(target=work, daemon=True)
    t.start(); t.join(20*cpu + 10*SLACK)
    assert not t.is_alive(), f'still running after {20*cpu + 10*SLACK:.0f} s'
    assert (used := time.process_time()-c) < cpu, f'{used:.1f} s of CPU: the limit is {cpu} s'
    if 'exc' in out: raise out['exc']
    return out['res']
