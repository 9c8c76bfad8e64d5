"Per-call overhead of `python('1+1')` in-process and of a warm `Sandbox.run('1+1')`, against a bare `exec` of the same code"
import time
from fncall.python import python, Sandbox

def per_call(f, n):
    "Best of 5 rounds of `n` calls, in seconds per call"
    best = float('inf')
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(n): f()
        best = min(best, (time.perf_counter()-t)/n)
    return best

if __name__ == '__main__':
    g = {}
    bare = per_call(lambda: exec('1+1', g), 20_000)
    inproc = per_call(lambda: python('1+1', glb=g), 20_000)
    inproc_nt = per_call(lambda: python('1+1', glb=g, timeout=None), 20_000)
    with Sandbox(timeout=30) as sb:
        sb.run('1+1')
        sand = per_call(lambda: sb.run('1+1'), 200)
    us = lambda s: f'{s*1e6:8.1f} us'
    print(f"bare exec('1+1')                    {us(bare)}")
    print(f"python('1+1') (timeout armed)       {us(inproc)}  overhead {us(inproc-bare)}  ({inproc/bare:.1f}x bare exec)")
    print(f"python('1+1', timeout=None)         {us(inproc_nt)}  overhead {us(inproc_nt-bare)}  ({inproc_nt/bare:.1f}x bare exec)")
    print(f"Sandbox.run('1+1') warm round trip  {us(sand)}  overhead {us(sand-bare)}  ({sand/bare:.0f}x bare exec)")
