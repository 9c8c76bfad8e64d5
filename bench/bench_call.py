"""call_func speed: fastcore.funccall.call_func time / fncall time, measured in one run on the same calls.
fncall validates every argument with pydantic (fastcore only coerces a few container cases).
Run: python bench/bench_call.py"""
import timeit
from dataclasses import dataclass
from pydantic import BaseModel
from fastcore.funccall import call_func as fc_call
from fncall.call import call_func

def add(a:int, b:int=1): "Add"; return a + b

@dataclass
class Point:
    x:float
    y:float=0.

def norm(p:Point): "Length"; return (p.x**2 + p.y**2) ** .5

class Item(BaseModel):
    name:str
    qty:int=1

def total(items:list[Item]): "Total quantity"; return sum(i.qty for i in items)

CASES = [('simple ints', 'add', {'a': 1, 'b': 2}, [add]),
         ('dataclass', 'norm', {'p': {'x': 3., 'y': 4.}}, [norm]),
         ('list of models', 'total', {'items': [{'name': 'a', 'qty': 2}, {'name': 'b'}]}, [total])]

def best(*fs, n=2000, rounds=7):
    "Best per-call time of each of `fs`, measured in interleaved rounds so machine noise hits them alike"
    res = [float('inf')]*len(fs)
    for _ in range(rounds):
        for i,f in enumerate(fs): res[i] = min(res[i], timeit.timeit(f, number=n) / n)
    return res

if __name__ == '__main__':
    print(f"{'case':<16}{'fastcore us':>13}{'fncall us':>11}{'ratio':>9}")
    for nm, tool, args, ns in CASES:
        fc_ns = {f.__name__: f for f in ns}
        try: ref = fc_call(tool, dict(args), ns=fc_ns)
        except Exception as e: ref = e
        assert call_func(tool, dict(args), ns=ns) == ref or isinstance(ref, Exception), (nm, ref)
        ours = lambda: call_func(tool, dict(args), ns=ns)
        if isinstance(ref, Exception):
            us, = best(ours)
            print(f"{nm:<16}{'fails':>13}{us*1e6:>11.2f}{'-':>9}   (fastcore: {type(ref).__name__}: {ref})"); continue
        fc, us = best(lambda: fc_call(tool, dict(args), ns=fc_ns), ours)
        print(f"{nm:<16}{fc*1e6:>13.2f}{us*1e6:>11.2f}{fc/us:>8.2f}x")
    print("ratio = fastcore time / fncall time (higher is faster); target: simple ints >= 4x")
