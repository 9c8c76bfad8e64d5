"""get_schema speed: fastcore.funccall.get_schema time / fncall time, measured in one run on the same functions.
Cold is the first call for a function (fncall's cache cleared before each call); warm is a repeated call.
Run: python bench/bench_schema.py"""
import timeit
from fastcore.funccall import get_schema as fc_get_schema
from fncall.schema import get_schema

def silly_sum(
    a:int, # First thing to sum
    b:int=1, # Second thing to sum
    c:list[int]=None, # A pointless argument
) -> int: # The sum of the inputs
    "Adds a + b."
    return a + b

class Turn:
    "Turn between two speakers"
    def __init__(self,
                 speaker_a:str, # First speaker's message
                 speaker_b:str): # Second speaker's message
        self.speaker_a,self.speaker_b = speaker_a,speaker_b

def converse(
    turns:list[Turn], # The turns so far
    topic:str|None=None, # What it is about
    tags:dict[str,list[str]]=None, # Labels
    pair:tuple[int,str]=(1,'a'), # A pair
)->str: # The reply
    "Continue a conversation"

def wide(a:int, b:str, c:float, d:bool, e:list[int], f:dict[str,int], g:set[str], h:int|None=None,
         i:str='x', j:list[str]=None, k:tuple[int,...]=(), l:float=0.): "Twelve parameters"

def best(*fs, n, rounds=7):
    "Best per-call time of each of `fs`, measured in interleaved rounds so machine noise hits them alike"
    res = [float('inf')]*len(fs)
    for _ in range(rounds):
        for i,f in enumerate(fs): res[i] = min(res[i], timeit.timeit(f, number=n) / n)
    return res

def cold(f):
    def run():
        get_schema.cache_clear()
        get_schema(f)
    return run

if __name__ == '__main__':
    print(f"{'function':<12}{'fastcore us':>13}{'cold us':>10}{'warm us':>10}{'cold ratio':>12}{'warm ratio':>12}")
    for f in silly_sum, converse, wide:
        assert get_schema(f)['input_schema']['properties'].keys() == fc_get_schema(f)['input_schema']['properties'].keys()
        fc, c = best(lambda: fc_get_schema(f), cold(f), n=100)
        w, = best(lambda: get_schema(f), n=5000)
        print(f"{f.__name__:<12}{fc*1e6:>13.1f}{c*1e6:>10.1f}{w*1e6:>10.2f}{fc/c:>11.2f}x{fc/w:>11.1f}x")
    print("ratio = fastcore time / fncall time (higher is faster); targets: warm >= 20x, cold >= 1x")
