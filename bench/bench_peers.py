"""fncall against the libraries people pick instead, timed in one process on the same three tools.
Each peer goes through its own documented path: openai-agents (`function_schema`/`function_tool`), pydantic-ai
(`Tool`), langchain-core (`convert_to_openai_tool`, `StructuredTool`), the MCP SDK (`MCPServer` tools, `ToolManager`)
and fastcore.funccall. Cells are peer time / fncall time: above 1, fncall is faster.
Rows: schema `cold` (a new function object each time: nothing cached for it, its classes already seen), `warm`
(the same function again: peers rebuild, fncall caches), `openai` (the tool in OpenAI's format, warm), `sync`
and `async` (a validated call from a model's arguments: fncall's by name through `call_func`, with its repairs of what models
send; a peer's through its own validator, or its async invoke, on a tool object built beforehand). Like with like: each gets
the arguments as its API takes them (openai-agents only takes the JSON string, so its column is against fncall given
that same string, made outside the timing), and no one's result is converted for sending (MCP's `ToolManager.call_tool`
as `MCPServer.call_tool` runs it, less the `CallToolResult` conversion). Every row runs its candidates in interleaved
rounds (A, B, C, A, B, C..., best of each): load hits every library alike. Ends with `import fncall` against
`import fastcore.funccall` (fncall loads each module on first use: `from fncall import call_func` and `from fncall import *` are timed too), interleaved.
Two cells are not peers but references, and say so: pydantic-ai's `sync` cell is the floor (pydantic-ai has no sync call;
its tools run through an agent, async: the cell is its validator alone on the tool's prebuilt schema, and `f(*args)`, which
is what a validated call can't go below; bench_call.py sets fncall against it); fastcore's `async` cell runs a sync tool on
the event loop, blocking it and every other call, where fncall hops to a worker thread: the `fastcore+thread` column is
fastcore with the same hop (`asyncio.to_thread`).
This machine may be shared: rerun before reading much into one ratio below 2x either way.
Install: pip install -e ".[bench]"; run: python bench/bench_peers.py [--quick]"""
import asyncio, enum, json, os, re, statistics, subprocess, sys, time, types, warnings
from dataclasses import dataclass
from typing import Literal, Optional
from pydantic import BaseModel, Field
warnings.filterwarnings('ignore')

def add3(
    a:int, # The first number
    b:int, # The second number
    c:int, # The third number
)->int:
    "Add three integers."
    return a + b + c

class Color(enum.Enum):
    RED = 'red'
    GREEN = 'green'

@dataclass
class Point:
    "A point on the plane"
    x:float # Horizontal position
    y:float=0. # Vertical position

def plot10(
    name:str, # Who asks
    count:int, # How many
    ratio:float=0.5, # Share to keep
    tags:Optional[list[str]]=None, # Labels
    mode:Literal['fast', 'slow']='fast', # Speed
    color:Color=Color.RED, # Colour of the result
    where:Optional[Point]=None, # Where to put it
    flag:bool=False, # Whether to flag it
    limit:Optional[int]=None, # Most results
    notes:str='', # Free text
)->str:
    "Ten parameters of mixed kinds."
    return f'{name}{count}'

class Address(BaseModel):
    "A postal address"
    street:str = Field(description='Street and number')
    city:str = Field(description='City')
    zip:Optional[str] = Field(None, description='Postal code, if known')  # a nullable default: a null sent means "the default"

class Person(BaseModel):
    "Someone to register"
    name:str = Field(description='Full name')
    age:int = Field(ge=0, description='Age in years')
    address:Address = Field(description='Where they live')
    tags:list[str] = Field(default_factory=list, description='Labels')

def register(
    person:Person, # Who to register
    notify:bool=False, # Send a confirmation?
)->str:
    "Register a person."
    return person.address.city

TOOLS = [(add3, {'a': 1, 'b': 2, 'c': 3}),
         (plot10, {'name': 'x', 'count': '3', 'tags': ['a'], 'mode': 'slow', 'color': 'green', 'where': {'x': 1, 'y': 2}, 'limit': 5}),
         (register, {'person': {'name': 'Ann', 'age': 30, 'address': {'street': '1 Main St', 'city': 'Oslo'}, 'tags': ['a']}, 'notify': True})]

def fresh(f):
    "A new function object with `f`'s code, name, defaults and docs: a function no library has seen"
    g = types.FunctionType(f.__code__, f.__globals__, f.__name__, f.__defaults__, f.__closure__)
    g.__kwdefaults__, g.__annotations__, g.__doc__, g.__qualname__, g.__module__ = f.__kwdefaults__, dict(f.__annotations__), f.__doc__, f.__qualname__, f.__module__
    return g

# ---- each library's documented path: schema(f) -> dict; call_maker(f) -> (sync(args), async(args)) ----
def fncall_lib():
    from fncall import get_schema, tool_schema, call_func, call_func_async
    def mk(f):
        ns, nm = [f], f.__name__  # the name as the model sends it
        return (lambda a: call_func(nm, a, ns=ns)), (lambda a: call_func_async(nm, a, ns=ns))
    return dict(schema=lambda f: get_schema(f)['input_schema'], openai=lambda f: tool_schema(f, 'openai'), call=mk)

def fastcore_lib():
    from fastcore.funccall import get_schema, call_func, call_func_async
    def mk(f):
        ns, nm = {f.__name__: f}, f.__name__
        return (lambda a: call_func(nm, a, ns=ns)), (lambda a: call_func_async(nm, a, ns=ns))
    return dict(schema=lambda f: get_schema(f)['input_schema'], openai=lambda f: get_schema(f, pname='parameters'), call=mk)

def fastcore_thread_lib():
    "fastcore's sync call, hopping to a worker thread as fncall does for a sync tool in async code (its async call runs it on the loop)"
    from fastcore.funccall import call_func
    def mk(f):
        ns, nm = {f.__name__: f}, f.__name__
        return None, (lambda a: asyncio.to_thread(call_func, nm, a, ns=ns))
    return dict(call=mk)

def agents_lib():
    from agents import function_tool
    from agents.function_schema import function_schema
    from agents.tool_context import ToolContext
    def mk(f):
        fs, t = function_schema(f), function_tool(f)
        def sync(s):  # what `function_tool`'s invoke does before it hands the call to a thread
            args, kw = fs.to_call_args(fs.params_pydantic_model(**json.loads(s)))
            return f(*args, **kw)
        def run(s): return t.on_invoke_tool(ToolContext(None, tool_name=t.name, tool_call_id='1', tool_arguments=s), s)
        return sync, run
    return dict(schema=lambda f: function_schema(f).params_json_schema, openai=lambda f: function_tool(f).params_json_schema, call=mk, json=True)

def pydantic_ai_lib():
    from pydantic_ai import Tool
    def mk(f):
        fs = Tool(f, takes_ctx=False).function_schema
        def sync(a):
            args, kw = fs._call_args(fs.validator.validate_python(a), None)
            return f(*args, **kw)
        async def run(a): return await fs.call(fs.validator.validate_python(a), None)
        return sync, run
    return dict(schema=lambda f: Tool(f, takes_ctx=False).tool_def.parameters_json_schema,
                openai=lambda f: Tool(f, takes_ctx=False).tool_def.parameters_json_schema, call=mk)

def langchain_lib():
    from langchain_core.tools import StructuredTool
    from langchain_core.utils.function_calling import convert_to_openai_tool
    def mk(f):
        t = StructuredTool.from_function(f)
        return t.invoke, t.ainvoke
    return dict(schema=lambda f: StructuredTool.from_function(f).tool_call_schema.model_json_schema(),
                openai=convert_to_openai_tool, call=mk)

def mcp_lib():
    from mcp.server import MCPServer
    from mcp.server.mcpserver import Context
    from mcp.server.mcpserver.tools import Tool, ToolManager
    def mk(f):
        t, ctx = Tool.from_function(f), Context(mcp_server=MCPServer('bench'))
        tm = ToolManager(tools=[t])
        def sync(a): return f(**t.fn_metadata.validate_arguments(a))
        return sync, (lambda a: tm.call_tool(f.__name__, a, ctx))
    return dict(schema=lambda f: Tool.from_function(f).parameters, openai=lambda f: Tool.from_function(f).parameters, call=mk)

PEERS = {'agents': agents_lib, 'pydantic_ai': pydantic_ai_lib, 'langchain': langchain_lib, 'mcp': mcp_lib, 'fastcore': fastcore_lib, 'fastcore+thread': fastcore_thread_lib}
REFERENCE = {('sync', 'pydantic_ai'): 'floor', ('async', 'fastcore'): 'on loop'}  # cells that are references, not peers (see above)

# ---- timing ----
def interleaved(fns, n, rounds, aio=False):
    "Best per-call seconds of each of `fns` (name -> function, or coroutine function if `aio`), measured in interleaved rounds so machine noise hits them alike"
    res = dict.fromkeys(fns, float('inf'))
    async def main():
        for _ in range(rounds):
            for k,fn in fns.items():
                t = time.perf_counter()
                if aio:
                    for _ in range(n): await fn()
                else:
                    for _ in range(n): fn()
                res[k] = min(res[k], (time.perf_counter() - t) / n)
    asyncio.run(main())
    return res

def attempt(fn, aio=False):
    "`fn` if one call of it works (awaited if `aio`), else the error string saying why not"
    try:
        asyncio.run(fn()) if aio else fn()
        return fn
    except Exception as e: return f'{type(e).__name__}: {str(e)[:60]}'

def calls(lib, f, args, as_json=False):
    "{'sync': fn, 'async': coroutine fn} calling `f` through `lib` with a model's arguments (the JSON string if `as_json`), each run once; an error string where the library can't; no entry for a call it doesn't offer"
    try: sync, run = lib['call'](f)
    except Exception as e: sync = run = e
    arg = (lambda s=json.dumps(args): s) if as_json else (lambda: dict(args))
    wrap = lambda g, mk: f'{type(g).__name__}: {str(g)[:60]}' if isinstance(g, Exception) else attempt(mk(g), g is run)
    return {r: wrap(g, lambda g: lambda: g(arg())) for r,g in (('sync', sync), ('async', run)) if g is not None}

def schema_fns(lib, f, k):
    "{'cold', 'warm', 'openai'}: a function making `f`'s schema through `lib` (cold: of a new copy of `f` each time), or the error string"
    if 'schema' not in lib: return {}
    it = iter([fresh(f) for _ in range(20*5*k+1)])  # one for each call of the `cold` row: nothing cached for any
    return {'cold': attempt(lambda: lib['schema'](next(it))), 'warm': attempt(lambda: lib['schema'](f)), 'openai': attempt(lambda: lib['openai'](f))}

ROWS = (('cold', 20, False), ('warm', 50, False), ('openai', 50, False), ('sync', 200, False), ('async', 100, True))

def measure(libs, f, args, k):
    "{library: {row: seconds, or the error string}}: each row's candidates interleaved"
    fns = {nm: schema_fns(lib, f, k) | calls(lib, f, args, lib.get('json', False)) for nm,lib in libs.items()}
    fns['fncall_json'] = calls(libs['fncall'], f, args, True)  # for the peers that only take JSON
    res = {nm: {r: v for r,v in c.items() if isinstance(v, str)} for nm,c in fns.items()}
    for row, n, aio in ROWS:
        ok = {nm: c[row] for nm,c in fns.items() if callable(c.get(row))}
        for nm,v in interleaved(ok, n, 5*k, aio).items(): res[nm][row] = v
    return res

def import_time(k=5):
    "Fresh interpreters, interleaved, bytecode cached as an installed package has it: wall ms of each import (median of `k` after a warm-up), -X importtime's cumulative ms of `import fncall` and `import fastcore.funccall` (median of `k`), and the largest of what `from fncall import *` imports directly"
    env = {k: v for k,v in os.environ.items() if k != 'PYTHONDONTWRITEBYTECODE'}  # this machine sets it: every import would compile from source
    stmts = {'import fncall': 'import fncall', 'fastcore': 'import fastcore.funccall', 'call_func': 'from fncall import call_func',
             'star': 'from fncall import *', 'pydantic': 'import pydantic.main'}
    def wall(st):
        code = f"import time; t=time.perf_counter()\n{st}\nprint((time.perf_counter()-t)*1000)"
        return float(subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env).stdout)
    def importtime(st):
        err = subprocess.run([sys.executable, '-X', 'importtime', '-c', st], capture_output=True, text=True, env=env).stderr
        return [(int(m[1]), m[2]) for l in err.splitlines() if (m := re.match(r'import time:\s+\d+ \|\s+(\d+) \| ( *\S.*)$', l))]
    for st in stmts.values(): wall(st)  # writes the bytecode
    walls, cums, tops = {nm: [] for nm in stmts}, {'fncall': [], 'fastcore.funccall': []}, []
    for _ in range(k):
        for nm,st in stmts.items(): walls[nm].append(wall(st))
        for mod in cums: cums[mod].append(dict((n.strip(),us) for us,n in importtime(f'import {mod}'))[mod]/1000)
        tops.append(importtime('from fncall import *'))
    med = lambda d: {m: statistics.median(v) for m,v in d.items()}
    rows = sorted(tops, key=lambda r: sum(us for us,n in r if not n.startswith(' ')))[k//2]
    top = [(us, nm.strip()) for us,nm in rows if nm.strip().startswith('fncall.')]  # each of fncall's modules, with what it loads first
    return med(walls), med(cums), sorted(top, reverse=True)[:6]

def cell(v, mine, ref):
    if not (isinstance(v, float) and isinstance(mine, float)): return f"{'fails' if isinstance(v, str) else '-':>16}"
    return f"{(ref + ' ' if ref else '') + f'{v/mine:.2f}x':>16}"

if __name__ == '__main__':
    quick = '--quick' in sys.argv
    k = 1 if quick else 3
    libs = {'fncall': fncall_lib()} | {nm: v() for nm,v in PEERS.items()}
    print(f"{'tool':<9}{'row':<8}{'fncall us':>10}" + ''.join(f'{p:>16}' for p in PEERS))
    worst = []
    for f, args in TOOLS:
        res = measure(libs, f, args, k)
        ours_json = res.pop('fncall_json')
        for r,*_ in ROWS:
            ours = res['fncall'].get(r)
            line = f"{f.__name__:<9}{r:<8}" + (f'{ours*1e6:>10.1f}' if isinstance(ours, float) else f"{'fails':>10}")
            for p in PEERS:
                v, mine, ref = res[p].get(r), (ours_json if libs[p].get('json') else res['fncall']).get(r, ours), REFERENCE.get((r, p))
                line += cell(v, mine, ref)
                if isinstance(v, float) and isinstance(mine, float) and not ref: worst.append((v/mine, f.__name__, r, p))
            print(line)
        for nm,out in res.items():
            for r,v in out.items():
                if isinstance(v, str) and (r, nm) != ('sync', 'fastcore+thread'): print(f'   {nm} {f.__name__} {r}: {v}')
    worst.sort()
    print("cells: peer time / fncall time (above 1: fncall faster); 'fails': the peer can't do it (reason below the tool); '-': not its row;"
          " 'floor': pydantic-ai's validator alone, 'on loop': fastcore running the sync tool on the event loop (see the docstring); every row: best of interleaved rounds")
    print("lowest ratios against peers:", ', '.join(f'{w:.2f}x {t}/{r}/{p}' for w,t,r,p in worst[:5]))
    walls, cums, heavy = import_time()
    print(f"import fncall: {walls['import fncall']:.1f} ms wall, {cums['fncall']:.1f} ms by -X importtime; import fastcore.funccall: {walls['fastcore']:.0f} ms wall,"
          f" {cums['fastcore.funccall']:.0f} ms by -X importtime (ratio {walls['import fncall']/walls['fastcore']:.2f}x wall, {cums['fncall']/cums['fastcore.funccall']:.2f}x importtime)")
    print(f"  each module loads on first use: from fncall import call_func {walls['call_func']:.0f} ms, from fncall import * {walls['star']:.0f} ms;"
          f" import pydantic.main alone {walls['pydantic']:.0f} ms (wall, medians of 5 fresh interpreters each, interleaved, after a warm-up)")
    print("  fncall's modules as from fncall import * loads them (-X importtime, cumulative us: each with what it loads first):", ', '.join(f'{n} {m}' for m,n in heavy))
