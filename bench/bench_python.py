"Per-call overhead of `python('1+1')` in-process, and a `Sandbox`'s start time and warm round trip in each mode, against a bare `exec` of the same code"
import time
from concurrent.futures import ThreadPoolExecutor
from fncall.python import python, Sandbox, _bwrap_ok

def per_call(f, n, rounds=5):
    "Best of `rounds` rounds of `n` calls, in seconds per call"
    best = float('inf')
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(n): f()
        best = min(best, (time.perf_counter()-t)/n)
    return best

def start(mode):
    "Seconds from `Sandbox()` to the first answer (best of 5), and the warm round trip of `run('1+1')`"
    best = float('inf')
    for _ in range(5):
        t = time.perf_counter()
        with Sandbox(timeout=30, isolation=mode) as sb:
            sb.run('1+1'); best = min(best, time.perf_counter()-t)
    with Sandbox(timeout=30, isolation=mode) as sb:
        sb.run('1+1')
        return best, per_call(lambda: sb.run('1+1'), 200)

if __name__ == '__main__':
    g = {}
    bare = per_call(lambda: exec('1+1', g), 20_000)
    inproc = per_call(lambda: python('1+1', glb=g), 20_000)
    inproc_nt = per_call(lambda: python('1+1', glb=g, timeout=None), 20_000)
    with ThreadPoolExecutor(1) as ex: threaded = ex.submit(per_call, lambda: python('1+1', glb=g), 2_000).result()
    us, ms = (lambda s: f'{s*1e6:8.1f} us'), (lambda s: f'{s*1e3:8.1f} ms')
    print(f"bare exec('1+1')                      {us(bare)}")
    print(f"python('1+1') (timeout armed)         {us(inproc)}  ({inproc/bare:.1f}x bare exec)")
    print(f"python('1+1', timeout=None)           {us(inproc_nt)}  ({inproc_nt/bare:.1f}x bare exec)")
    print(f"python('1+1') off the main thread     {us(threaded)}  ({threaded/bare:.1f}x bare exec)")
    for mode in ('namespace', 'process'):
        if mode == 'namespace' and not _bwrap_ok(__import__('os').geteuid() == 0): print('namespace mode: bubblewrap cannot run here'); continue
        st, warm = start(mode)
        print(f"Sandbox({mode!r}) start to first answer {ms(st)}  (target < 300 ms)")
        print(f"Sandbox({mode!r}) warm round trip       {us(warm)}  ({warm/bare:.0f}x bare exec; target < 5 ms)")
