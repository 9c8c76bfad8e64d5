"""A validated sync call against its floor, and against the peers' own sync paths, on the same three tools (bench_peers.TOOLS).
The floor is a bare pydantic-core validator of the tool's parameters (a TypedDict of them, as pydantic builds it) and `f(**v)`:
no name lookup, no check that the tool was not edited, no null meaning "the default", no repairs. fncall's rows are
`call_func(name, args, ns=[f])` (a dict, or the JSON text a model sends); openai-agents' is `function_schema`'s model built from
the JSON text, MCP's `fn_metadata.validate_arguments` from the dict (as bench_peers times them). All run in interleaved rounds
(A, B, C, A, B, C...), best of each; the ratios come from the same run.
Then the async call of a sync tool, which runs in a worker thread: `call_func_async` against the hop's floor (one persistent
worker thread taking jobs from a queue and handing each result back with `loop.call_soon_threadsafe`, the call validated by the
floor's validator) and against `asyncio.to_thread` of the same.
Done when (issue 29): fncall / floor <= 2 on every tool; openai-agents and MCP / fncall >= 1 on every tool.
Run: python bench/bench_call.py [--quick]"""
import asyncio, json, os, queue, sys, threading, warnings
from pydantic import TypeAdapter
from typing_extensions import NotRequired, TypedDict
sys.path.insert(0, os.path.dirname(__file__))
from bench_peers import TOOLS, agents_lib, mcp_lib, fncall_lib, interleaved
from bench_python import best
from fncall.schema import call_params
warnings.filterwarnings('ignore')

def floor(f):
    "`f` called on a bare pydantic-core validator's output: the cheapest validated call"
    ps = call_params(f).params
    td = TypedDict(f.__name__, {n: NotRequired[a] if opt else a for n,(a,opt) in ps.items()})
    v = TypeAdapter(td).validator.validate_python
    return lambda a: f(**v(a))

def candidates(f, args):
    "Name -> a call of `f` on a fresh copy of the model's `args` (a dict, or its JSON text made outside the timing), each checked once"
    s, fl = json.dumps(args), floor(f)
    ours = fncall_lib()['call'](f)[0]
    agents, mcp = agents_lib()['call'](f)[0], mcp_lib()['call'](f)[0]
    fns = {'floor': lambda: fl(dict(args)), 'fncall': lambda: ours(dict(args)), 'fncall json': lambda: ours(s),
           'agents json': lambda: agents(s), 'mcp': lambda: mcp(dict(args))}
    want = fns['floor']()
    for k,fn in fns.items(): assert fn() == want, (f.__name__, k, fn(), want)
    return fns

class Hop:
    "One persistent worker thread: `await hop(fn, *args)` runs `fn(*args)` there, its result handed back to the loop as it comes"
    def __init__(self):
        self.q = queue.SimpleQueue()
        threading.Thread(target=self.work, daemon=True).start()
    def work(self):
        while True:
            loop, fut, fn, args = self.q.get()
            try: loop.call_soon_threadsafe(fut.set_result, fn(*args))
            except Exception as e: loop.call_soon_threadsafe(fut.set_exception, e)
    def __call__(self, fn, *args):
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        self.q.put((loop, fut, fn, args))
        return fut

def async_candidates(f, args):
    from fncall import call_func_async
    fl, hop, ns = floor(f), Hop(), [f]
    return {'floor': lambda: hop(fl, dict(args)), 'fncall': lambda: call_func_async(f.__name__, dict(args), ns=ns),
            'to_thread': lambda: asyncio.to_thread(fl, dict(args))}

if __name__ == '__main__':
    quick = '--quick' in sys.argv
    print(f"{'tool':<10}{'floor us':>9}{'fncall us':>10}{'/floor':>8}{'json us':>9}{'/floor':>8}{'agents/fncall':>15}{'mcp/fncall':>12}")
    for f, args in TOOLS:
        r = best(candidates(f, args), 500 if quick else 2000, 5 if quick else 9)
        us = lambda k: r[k]*1e6
        print(f"{f.__name__:<10}{us('floor'):>9.2f}{us('fncall'):>10.2f}{r['fncall']/r['floor']:>7.2f}x{us('fncall json'):>9.2f}"
              f"{r['fncall json']/r['floor']:>7.2f}x{r['agents json']/r['fncall json']:>14.2f}x{r['mcp']/r['fncall']:>11.2f}x")
    print("/floor: fncall time / the floor's (target <= 2x); agents/fncall, mcp/fncall: the peer's time / fncall's (target >= 1x;"
          " openai-agents takes only JSON text, so it is against fncall given the same text). Best of interleaved rounds.")
    print(f"\n{'async, sync tool':<18}{'floor us':>9}{'fncall us':>10}{'/floor':>8}{'to_thread us':>14}{'/fncall':>9}")
    for f, args in TOOLS:
        r = interleaved(async_candidates(f, args), 200 if quick else 500, 5 if quick else 9, aio=True)
        print(f"{f.__name__:<18}{r['floor']*1e6:>9.1f}{r['fncall']*1e6:>10.1f}{r['fncall']/r['floor']:>7.2f}x{r['to_thread']*1e6:>14.1f}{r['to_thread']/r['fncall']:>8.2f}x")
    print("floor: the call validated as above, run in one persistent worker thread, its result handed to the loop with call_soon_threadsafe;"
          " to_thread: the same call through asyncio.to_thread (to_thread / fncall above 1: fncall faster). Best of interleaved rounds.")
