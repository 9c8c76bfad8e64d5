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
as `MCPServer.call_tool` runs it, less the `CallToolResult` conversion). The call rows run in interleaved rounds (best
of): load hits every library alike. Ends with `import fncall` time.
Where fncall stays below 1, by design: `sync` against pydantic-ai, which has no sync call (its tools run through an
agent, async): its column is its validator alone, called on the tool's prebuilt schema (`_call_args` is private), where
fncall pays for the name lookup and the check that the tool was not edited since its validator was made; `async` against
fastcore, which runs a sync tool on the event loop, blocking it and every other call, where fncall pays the hop to a
worker thread.
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

def ten(
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
         (ten, {'name': 'x', 'count': '3', 'tags': ['a'], 'mode': 'slow', 'color': 'green', 'where': {'x': 1, 'y': 2}, 'limit': 5}),
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
        ns = [f]
        return (lambda a: call_func(f.__name__, a, ns=ns)), (lambda a: call_func_async(f.__name__, a, ns=ns))
    return dict(schema=lambda f: get_schema(f)['input_schema'], openai=lambda f: tool_schema(f, 'openai'), call=mk)

def fastcore_lib():
    from fastcore.funccall import get_schema, call_func, call_func_async
    def mk(f):
        ns = {f.__name__: f}
        return (lambda a: call_func(f.__name__, a, ns=ns)), (lambda a: call_func_async(f.__name__, a, ns=ns))
    return dict(schema=lambda f: get_schema(f)['input_schema'], openai=lambda f: get_schema(f, pname='parameters'), call=mk)

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

PEERS = dict(agents=agents_lib, pydantic_ai=pydantic_ai_lib, langchain=langchain_lib, mcp=mcp_lib, fastcore=fastcore_lib)

# ---- timing ----
def per_call(fn, n, rounds):
    "Median over `rounds` of the per-call time of `n` calls of `fn`"
    res = []
    for _ in range(rounds):
        t = time.perf_counter()
        for _ in range(n): fn()
        res.append((time.perf_counter() - t) / n)
    return statistics.median(res)

def interleaved(fns, n, rounds, aio=False):
    "Best per-call seconds of each of `fns` (name -> function, or coroutine function if `aio`), measured in interleaved rounds so machine noise hits them alike"
    res = {k: float('inf') for k in fns}
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

def calls(lib, f, args, as_json=False):
    "{'sync': fn, 'async': coroutine fn} calling `f` through `lib` with a model's arguments (the JSON string if `as_json`), each run once; an error string where the library can't"
    out = {}
    try: sync, run = lib['call'](f)
    except Exception as e: sync = run = e
    arg = (lambda s=json.dumps(args): s) if as_json else (lambda: dict(args))
    for row, fn, check in (('sync', sync, lambda g: g()), ('async', run, lambda g: asyncio.run(g()))):
        try:
            if isinstance(fn, Exception): raise fn
            g = lambda fn=fn: fn(arg())
            check(g)
            out[row] = g
        except Exception as e: out[row] = f'{type(e).__name__}: {str(e)[:60]}'
    return out

def measure(lib, f, quick):
    "Seconds per schema operation for each row, or an error string where the library can't do it"
    k = 1 if quick else 3
    out = {}
    def attempt(row, fn):
        try: out[row] = fn()
        except Exception as e: out[row] = f'{type(e).__name__}: {str(e)[:60]}'
    fs = [fresh(f) for _ in range(60*k)]
    it = iter(fs * 1000)
    attempt('cold', lambda: (lib['schema'](fs[0]), per_call(lambda: lib['schema'](next(it)), 20, 3*k))[1])
    attempt('warm', lambda: (lib['schema'](f), per_call(lambda: lib['schema'](f), 50*k, 5))[1])
    attempt('openai', lambda: (lib['openai'](f), per_call(lambda: lib['openai'](f), 50*k, 5))[1])
    return out

def import_time():
    "`import fncall` in fresh interpreters, bytecode cached as an installed package has it: wall ms (median of 5), the same for `import pydantic` (what fncall can't do without), `-X importtime`'s cumulative us for fncall, and the largest of what fncall imports directly"
    env = {k: v for k,v in os.environ.items() if k != 'PYTHONDONTWRITEBYTECODE'}  # this machine sets it: every import would compile from source
    def wall(mod):
        code = f"import time; t=time.perf_counter(); import {mod}; print((time.perf_counter()-t)*1000)"
        run = lambda: float(subprocess.run([sys.executable, '-c', code], capture_output=True, text=True, env=env).stdout)
        run()  # writes the bytecode
        return statistics.median(run() for _ in range(5))
    def importtime():
        err = subprocess.run([sys.executable, '-X', 'importtime', '-c', 'import fncall'], capture_output=True, text=True, env=env).stderr
        return [(int(m[1]), m[2]) for l in err.splitlines() if (m := re.match(r'import time:\s+\d+ \|\s+(\d+) \| ( *\S.*)$', l))]
    importtime()  # writes the bytecode
    runs = sorted((dict((nm,us) for us,nm in rows)['fncall'], rows) for rows in (importtime() for _ in range(5)))
    cum, rows = runs[2]  # the median run
    top = [(us, nm.strip()) for us,nm in rows if nm.startswith('  ') and not nm.startswith('   ')]  # what `fncall` imports directly
    return wall('fncall'), wall('pydantic.main'), cum, sorted(top, reverse=True)[:6]

if __name__ == '__main__':
    quick = '--quick' in sys.argv
    libs = {'fncall': fncall_lib()} | {k: v() for k,v in PEERS.items()}
    rows = ('cold', 'warm', 'openai', 'sync', 'async')
    print(f"{'tool':<9}{'row':<8}{'fncall us':>10}" + ''.join(f'{p:>13}' for p in PEERS))
    worst = []
    for f, args in TOOLS:
        res = {nm: measure(lib, f, quick) for nm,lib in libs.items()}
        fns = {nm: calls(lib, f, args, lib.get('json', False)) for nm,lib in libs.items()} | {'fncall_json': calls(libs['fncall'], f, args, True)}  # for the peers that only take JSON
        k = 1 if quick else 3
        for row, n, aio in (('sync', 200, False), ('async', 100, True)):
            ok = {nm: c[row] for nm,c in fns.items() if callable(c[row])}
            for nm,c in fns.items(): res.setdefault(nm, {})[row] = c[row]
            for nm,v in interleaved(ok, n, 5*k, aio).items(): res[nm][row] = v
        ours_json = res.pop('fncall_json')
        for r in rows:
            ours = res['fncall'][r]
            line = f"{f.__name__:<9}{r:<8}" + (f'{ours*1e6:>10.1f}' if isinstance(ours, float) else f"{'fails':>10}")
            for p in PEERS:
                v, mine = res[p][r], (ours_json if libs[p].get('json') else res['fncall']).get(r, ours)
                if isinstance(v, float) and isinstance(mine, float): line += f'{v/mine:>12.2f}x'; worst.append((v/mine, f.__name__, r, p))
                else: line += f"{'fails' if isinstance(v, str) else '-':>13}"
            print(line)
        for nm,out in res.items():
            for r,v in out.items():
                if isinstance(v, str): print(f'   {nm} {f.__name__} {r}: {v}')
    worst.sort()
    print("cells: peer time / fncall time (above 1: fncall faster); 'fails': the peer can't do it (reason below the tool); sync and async: best of interleaved rounds")
    print("lowest ratios:", ', '.join(f'{w:.2f}x {t}/{r}/{p}' for w,t,r,p in worst[:5]))
    ours, pyd, cum, heavy = import_time()
    print(f"import fncall: {cum/1000:.0f} ms by -X importtime (median of 5), {ours:.0f} ms wall (median of 5 fresh interpreters); import pydantic.main alone: {pyd:.0f} ms wall")
    print("  what fncall imports directly (-X importtime, cumulative us):", ', '.join(f'{n} {m}' for m,n in heavy))
