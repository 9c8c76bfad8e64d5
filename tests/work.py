"""Work counted rather than timed, so linear-time checks hold on any machine at any load. `steps` counts the Python lines
and the calls (Python or C) a run takes; C code's own work (a regex scan, a copy) counts one step, so `time_ratio` compares
the CPU time of a run with that of one on a text 16x smaller, in the same test, best of three: a ratio, never a clock limit."""
import gc, sys, time

def steps(f):
    "The Python lines and calls (C calls too) that `f()` runs: the same on any machine, at any load"
    n = 0
    def line(frame, event, arg):
        nonlocal n
        n += 1
        return line
    def call(frame, event, arg):
        nonlocal n
        if event == 'c_call': n += 1
    sys.settrace(line); sys.setprofile(call)
    try: f()
    finally: sys.settrace(None); sys.setprofile(None)
    return n

def step_ratio(mk, run, n, k=8):
    "Steps of `run(mk(k*n))` over steps of `run(mk(n))` (after a first run, so caches are warm): linear is about `k`"
    run(mk(n))
    a,b = steps(lambda: run(mk(n))),steps(lambda: run(mk(k*n)))
    return b/a

def time_ratio(mk, run, n=2_000, k=16, rounds=3, least=0.005, most=64_000):
    "Best CPU seconds of `run(mk(k*n))` over best of `run(mk(n))`, run in turn so machine load hits both alike: linear is about `k`; `n` grows (up to `most`) until the small run takes `least` seconds"
    while n*4 <= most and _took(run, mk(n)) < least: n *= 4
    small,big,ts = mk(n),mk(k*n),([], [])
    for _ in range(rounds):
        for text,t in zip((small, big), ts): t.append(_took(run, text))
    return min(ts[1])/min(ts[0])

def _took(run, text):
    "CPU seconds `run(text)` takes (a busy machine stretches the clock, not the CPU time), with CPython's cyclic GC off (its pauses depend on the whole process, not on the run)"
    gc.collect(); gc.disable()
    try:
        t = time.process_time(); run(text)
        return time.process_time()-t
    finally: gc.enable()

class Copied(str):
    "A text that counts the chars copied out of it by slicing (a parser that copies the rest of the text at every span copies quadratically many)"
    n = 0
    def __getitem__(self, k):
        r = str.__getitem__(self, k)
        if isinstance(k, slice): Copied.n += len(r)
        return r

def copy_ratio(mk, run, n, k=8):
    "Chars `run` copies out of `mk(k*n)` over those it copies out of `mk(n)`, per char of each text, times `k`: linear is about `k`"
    def copied(text):
        Copied.n = 0; run(Copied(text))
        return max(Copied.n, 1) / len(text)
    return copied(mk(k*n)) / copied(mk(n)) * k
