"""`python('1+1')` in-process against a bare `exec`, and a `Sandbox`'s start time and warm round trip in each isolation mode
against the persistent-pipe floor: a child Python that reads one JSON request a line from a pipe, evaluates it and writes one
JSON answer a line back (no limits, no checks, no output capture), which a round trip can't go below. The floor runs in the
same mode as the sandbox it is set against (under bubblewrap for 'namespace'); the two are timed in interleaved rounds.
Done when (issue 29): Sandbox warm round trip / floor <= 2 in both modes.
With --no-cgroup the sandboxes run as a user who may not make a cgroup does (memory bounded by polling instead).
Run: python bench/bench_python.py [--quick] [--no-cgroup]"""
import json, os, subprocess, sys, time
from concurrent.futures import ThreadPoolExecutor
import fncall.python
from fncall.python import python, Sandbox, _bwrap, _bwrap_ok

FLOOR = ("import json, os, sys\n"
         "for l in sys.stdin.buffer:\n"
         "    r = json.loads(l); os.write(1, json.dumps(dict(id=r['id'], result=repr(eval(r['code'])))).encode()+b'\\n')\n")

class Floor:
    "A persistent child answering over a pipe: the cheapest warm round trip"
    def __init__(self, mode):
        cmd = [sys.executable, '-I', '-c', FLOOR]
        self.dir = os.path.realpath('/tmp')
        if mode == 'namespace': cmd = _bwrap(sys.executable, self.dir, 512, [], [], False) + cmd
        self.p, self.id = subprocess.Popen(cmd, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0), 0
    def run(self, code):
        self.id += 1
        os.write(self.p.stdin.fileno(), json.dumps(dict(id=self.id, code=code)).encode()+b'\n')
        buf = b''
        while not buf.endswith(b'\n'): buf += os.read(self.p.stdout.fileno(), 65536)
        return json.loads(buf)['result']
    def close(self): self.p.kill(); self.p.wait()

def best(fns, n, rounds):
    "Best per-call seconds of each of `fns` (name -> function), in interleaved rounds"
    res = dict.fromkeys(fns, float('inf'))
    for _ in range(rounds):
        for k,fn in fns.items():
            t = time.perf_counter()
            for _ in range(n): fn()
            res[k] = min(res[k], (time.perf_counter()-t)/n)
    return res

def start(mode):
    "Seconds from `Sandbox()` to the first answer (best of 5)"
    best = float('inf')
    for _ in range(5):
        t = time.perf_counter()
        with Sandbox(timeout=30, isolation=mode) as sb:
            sb.run('1+1'); best = min(best, time.perf_counter()-t)
    return best

if __name__ == '__main__':
    quick = '--quick' in sys.argv
    if '--no-cgroup' in sys.argv: fncall.python._cgroup_base = lambda: None  # as where no cgroup can be made
    us, ms = (lambda s: f'{s*1e6:8.1f} us'), (lambda s: f'{s*1e3:8.1f} ms')
    g = {}
    r = best({'bare': lambda: exec('1+1', g), 'armed': lambda: python('1+1', glb=g), 'none': lambda: python('1+1', glb=g, timeout=None)}, 20_000, 5)
    with ThreadPoolExecutor(1) as ex: threaded = ex.submit(best, {'t': lambda: python('1+1', glb=g)}, 2_000, 5).result()['t']
    print(f"bare exec('1+1')                      {us(r['bare'])}")
    print(f"python('1+1') (timeout armed)         {us(r['armed'])}  ({r['armed']/r['bare']:.1f}x bare exec)")
    print(f"python('1+1', timeout=None)           {us(r['none'])}  ({r['none']/r['bare']:.1f}x bare exec)")
    print(f"python('1+1') off the main thread     {us(threaded)}  ({threaded/r['bare']:.1f}x bare exec)")
    for mode in ('namespace', 'process'):
        if mode == 'namespace' and not _bwrap_ok(os.geteuid() == 0): print('namespace mode: bubblewrap cannot run here'); continue
        print(f"Sandbox({mode!r}) start to first answer {ms(start(mode))}  (target < 300 ms)")
        with Sandbox(timeout=30, isolation=mode) as sb:
            fl = Floor(mode)
            try:
                assert sb.run('1+1').result == fl.run('1+1') == '2'
                r = best({'sandbox': lambda: sb.run('1+1'), 'floor': lambda: fl.run('1+1')}, 100 if quick else 300, 5 if quick else 9)
            finally: fl.close()
        print(f"Sandbox({mode!r}) warm round trip       {us(r['sandbox'])}  ({r['sandbox']/r['floor']:.2f}x the persistent-pipe floor, {us(r['floor'])}; target <= 2x)")
