"""mk_tool is the inverse of get_schema: a round trip over fncall's own schemas, hand-written tool schemas,
and the tools real MCP servers list: one built with the SDK's MCPServer (formerly FastMCP), and fncall's own
(`mcp_server`, with the python tool sandboxed and in-process). `tests/test_mcp.py` checks the tools the
`fncall serve` subprocess lists too, with no normalisation at all."""
import datetime as dt, enum, json
from typing import Annotated, Any, Literal, Union
import anyio, pytest
from fastcore.test import test_eq as eq, test_fail as fail  # aliased: pytest would collect test_* names
from fastcore.utils import dict2obj
from pydantic import BaseModel, Field
from fncall.schema import get_schema
from fncall.call import call_func, _py_nm
from fncall.mktool import mk_tool, _py_type, _meta, _inline, _unmark, _nm_map, _max_nodes
from schema_corpus import CORPUS

def disp(name, /, **kw): return name, kw

# What the round trip does not carry, as the notebook ("The inverse of get_schema") lists it, and nothing else.
def _added(got, orig):
    "`got` without what get_schema adds to a property the original left bare: `description: ''` and `default: None`"
    if isinstance(got, list) and isinstance(orig, list): return [_added(g, o) for g,o in zip(got, orig)]
    if not (isinstance(got, dict) and isinstance(orig, dict)): return got
    res = {k: _added(v, orig.get(k)) for k,v in got.items()}
    for k in ('properties', '$defs'):
        if isinstance(res.get(k), dict) and isinstance(orig.get(k), dict):
            res[k] = {n: _bare(p, orig[k].get(n, {})) for n,p in res[k].items()}
    return res

def _bare(p, o):
    if not isinstance(p, dict): return p
    p = dict(p)
    if p.get('description') == '' and 'description' not in o: del p['description']
    if 'default' in p and p['default'] is None and 'default' not in o: del p['default']
    return p

def _spelled(s, defs=None, root=True):
    "Original schema `s` in get_schema's spelling: equivalent forms rewritten, the root's unkeepable keywords dropped"
    if isinstance(s, list): return [_spelled(o, defs, False) for o in s]
    if not isinstance(s, dict): return s
    defs = s.get('$defs', {}) | s.get('definitions', {}) if defs is None else defs
    if isinstance(ref := s.get('$ref'), str) and 'enum' in defs.get(ref.split('/')[-1], {}):  # an enum in $defs comes back inline
        d = {k: v for k,v in defs[ref.split('/')[-1]].items() if k != 'title'}
        return _spelled(d | {k: v for k,v in s.items() if k != '$ref'}, defs, False)
    if isinstance(t := s.get('type'), list) and 'enum' not in s: s = {k: v for k,v in s.items() if k != 'type'} | {'anyOf': [{'type': o} for o in t]}
    if len(s.get('allOf', ())) == 1: s = {k: v for k,v in s.items() if k != 'allOf'} | s['allOf'][0]
    res = {('$defs' if k == 'definitions' else k): (v.replace('#/definitions/', '#/$defs/') if k == '$ref' else _spelled(v, defs, False))
           for k,v in s.items()}
    if '$defs' in res: res['$defs'] = {k: {'title': k} | v for k,v in res['$defs'].items() if 'enum' not in v}  # a definition is titled by its name
    if not res.get('$defs'): res.pop('$defs', None)
    if root:
        if 'required' in res: res['required'] = sorted(res['required'])  # required parameters come first in the signature: same set, maybe another order
        for k in ('$schema', 'title'): res.pop(k, None)
        if res.get('additionalProperties') is False: del res['additionalProperties']
    return res

def _got(s):
    "Schema `s` with the root's `required` sorted, as `_spelled` does"
    s = dict(s)
    if 'required' in s: s['required'] = sorted(s['required'])
    return s

SEED_TOOL = {'name': 'searchGitHub', 'description': 'Find real-…', 'inputSchema': {
    '$schema': 'http://json-schema.org/draft-07/schema#', 'additionalProperties': False, 'properties': {
        'language': {'description': 'Filter by …', 'items': {'type': 'string'}, 'type': 'array'},
        'matchCase': {'default': False, 'description': 'Whether th…', 'type': 'boolean'},
        'path': {'description': 'Filter by …', 'type': 'string'},
        'query': {'description': 'The litera…', 'type': 'string'},
        'useRegexp': {'default': False, 'description': 'Whether to…', 'type': 'boolean'}},
    'required': ['query'], 'type': 'object'}}

HAND = [SEED_TOOL,
    {'name': 'searchGitHub', 'description': 'Find code', 'inputSchema': {'type': 'object', 'properties': {
        'language': {'description': 'Filter', 'items': {'type': 'string'}, 'type': 'array'},
        'matchCase': {'default': False, 'description': 'Case', 'type': 'boolean'},
        'query': {'description': 'The query', 'type': 'string'}}, 'required': ['query']}},
    {'name': 'run', 'description': 'Run', 'inputSchema': {'type': 'object', 'properties': {
        'cmd': {'type': 'string'}, 'approval-policy': {'type': 'string', 'default': 'never', 'enum': ['never', 'always']}}, 'required': ['cmd']}},
    {'name': 'kw', 'description': 'Keywords', 'inputSchema': {'type': 'object', 'properties': {
        'class': {'type': 'integer', 'minimum': 0}, 'from': {'type': 'string', 'format': 'email'}, '2d': {'type': 'boolean'}}, 'required': ['class']}},
    {'name': 'unions', 'description': 'Unions', 'inputSchema': {'type': 'object', 'properties': {
        'a': {'anyOf': [{'type': 'string'}, {'type': 'array', 'items': {'type': 'string'}}]},
        'b': {'anyOf': [{'type': 'integer'}, {'type': 'null'}], 'default': None}}, 'required': ['a']}},
    {'name': 'nested', 'description': 'Nested', 'inputSchema': {'type': 'object', 'properties': {
        'p': {'$ref': '#/$defs/P', 'description': 'A p'}}, 'required': ['p'],
        '$defs': {'P': {'type': 'object', 'properties': {'x': {'type': 'number', 'description': 'X'}, 'y': {'type': 'number', 'default': 0}},
                        'title': 'P', 'required': ['x'], 'description': 'A point'}}}},
    {'name': 'draft7', 'description': 'draft-07 definitions, type lists, a one-member allOf', 'inputSchema': {
        '$schema': 'http://json-schema.org/draft-07/schema#', 'type': 'object', 'required': ['p', 'v'], 'properties': {
        'p': {'$ref': '#/definitions/P'}, 'q': {'allOf': [{'$ref': '#/definitions/P'}], 'description': 'Another P'},
        'v': {'type': ['string', 'null'], 'description': 'Maybe a string'}},
        'definitions': {'P': {'type': 'object', 'properties': {'x': {'type': 'integer', 'title': 'X'}}, 'required': ['x']}}}},
    {'name': 'names', 'description': 'Parameters called name and self', 'inputSchema': {'type': 'object', 'properties': {
        'name': {'type': 'string', 'title': 'Name'}, 'self': {'type': 'integer', 'default': 3}}, 'required': ['name']}},
]

# A real MCP server, built with the SDK's MCPServer (FastMCP in mcp 1.x): typed parameters, enums, optional ones, nested models
from mcp import Client
from mcp.server.mcpserver import MCPServer

srv = MCPServer('corpus')
class Color(str, enum.Enum): red='red'; green='green'
class Address(BaseModel):
    "A postal address"
    street:str = Field(description='Street and number')
    city:str
    zip:str|None = None
class Person(BaseModel):
    name:str
    age:int = Field(ge=0, description='Age in years')
    address:Address
    tags:list[str] = []

@srv.tool()
def add(a:int, b:int=1)->int:
    "Add two numbers"
    return a + b

@srv.tool()
def paint(color:Color, shade:Literal['light', 'dark']='light', opacity:Annotated[float, Field(ge=0, le=1, description='0..1')]=1.0)->str:
    "Paint something"
    return f'{color.value} {shade} {opacity}'

@srv.tool()
def register(person:Person, note:str|None=None, scores:dict[str, float]|None=None)->str:
    "Register a person"
    return person.name

@srv.tool(name='search-files')
def search(query:str, max_results:int=10, name:str|None=None)->list[str]:
    "Search files"
    return [query]

@srv.tool()
def schedule(when:dt.datetime, people:list[Person], priority:Literal[1, 2, 3]=2, tags:set[str]|None=None)->str:
    "Schedule a meeting"
    return f'{len(people)} at {when:%H:%M}'

async def _listed(server):
    async with Client(server) as c: return (await c.list_tools()).tools

def _fncall_listed(in_process):
    "The tools of fncall's own MCP server, as `fncall serve mcp_demo [--in-process]` builds it (the python tool sandboxed or not)"
    from fncall.mcp import mcp_server, _load, _python_tool
    made, mk = [], _python_tool(in_process, 10, 512)
    try: return anyio.run(_listed, mcp_server(_load('mcp_demo'), python=lambda: made.append(mk()) or made[-1]))
    finally:
        for r in made + [mk()]: getattr(r, 'close', lambda: None)()  # each sandbox's worker process (the one made at start too)

MCP_LISTED = anyio.run(_listed, srv) + _fncall_listed(False) + _fncall_listed(True)

def _refs(o):
    if isinstance(o, dict):
        if '$ref' in o: yield o['$ref'].split('/')[-1]
        for v in o.values(): yield from _refs(v)
    elif isinstance(o, list):
        for v in o: yield from _refs(v)

def _recursive(js):
    "Does schema `js` contain a `$ref` cycle? (mk_tool types the recurring part as a plain dict)"
    defs = js.get('$defs', {})
    def reach(nm, seen):
        return any(r == '#' or r in seen or (r in defs and reach(r, seen | {r})) for r in _refs(defs.get(nm, {})))
    return '#' in _refs(js) or any(reach(nm, {nm}) for nm in defs)

SCHEMAS = [get_schema(f) for f in CORPUS]
RECURSIVE = [s for s in SCHEMAS if _recursive(s['input_schema'])]
CASES = ([s for s in SCHEMAS if s not in RECURSIVE] + [{'name': t['name'], 'description': t['description'], 'input_schema': t['inputSchema']} for t in HAND]
         + [{'name': t.name, 'description': t.description, 'input_schema': t.input_schema} for t in MCP_LISTED])

def test_corpus_size():
    assert len(CASES) >= 20 and len(MCP_LISTED) == 5 + 2*6
    assert [t.name for t in MCP_LISTED].count('python') == 2

@pytest.mark.parametrize('orig', CASES, ids=lambda s: s['name'])
def test_round_trip(orig):
    fn = mk_tool(disp, orig)
    got = get_schema(fn)
    assert got['name'] == orig['name'] and got['description'] == orig['description']
    assert '_site' not in json.dumps(got, default=str)
    assert _got(_added(got['input_schema'], _spelled(orig['input_schema']))) == _spelled(orig['input_schema'])

def test_seed_tool_exactly():
    "The seed's tool comes back with exactly the documented differences"
    got = get_schema(mk_tool(disp, SEED_TOOL), pname='inputSchema')['inputSchema']
    exp = {k: v for k,v in SEED_TOOL['inputSchema'].items() if k not in ('$schema', 'additionalProperties')}
    exp['properties'] = {**exp['properties'], 'language': {'default': None, **exp['properties']['language']},
                         'path': {'default': None, **exp['properties']['path']}}
    assert got == exp

def test_mcp_server_tools_work():
    "The MCPServer's tools, pulled back as functions, validate and call through the real server"
    from fncall.call import call_func_async
    from fncall.mcp import mcp_tools
    async def main():
        async with Client(srv) as c:
            fs = {f.__name__: f for f in await mcp_tools(c)}
            assert await fs['search-files']('x', name='y') == ['x']  # a bare value comes back unwrapped from the SDK's {'result': ...}
            r = await call_func_async('schedule', {'when': '2025-01-02T10:30:00', 'people': [{'name': 'A', 'age': '3', 'address': {'street': 's', 'city': 'c'}}]}, ns=fs)
            assert r == '1 at 10:30'
            err = await call_func_async('paint', {'color': 'blue'}, ns=fs, raise_on_err=False)
            assert err.startswith("Error: invalid arguments for tool 'paint':\ncolor: expected one of 'red' or 'green'"), err
    anyio.run(main)

def test_recursive_becomes_dict():
    "Where a definition recurs, mk_tool types it as a plain dict: the schema is the same down to that point"
    assert len(RECURSIVE) >= 3
    for orig in RECURSIVE:
        fn = mk_tool(disp, orig)
        got = get_schema(fn)['input_schema']
        assert set(got['properties']) == set(orig['input_schema']['properties'])
        assert '#' not in _refs(got) and '_site' not in json.dumps(got)

# The private helpers' tests and the big-schema checks, moved from nbs/03_mktool.ipynb ("How it works")

def _same_type(a, b): assert a == b, f'{a} != {b}'  # test_eq iterates over generic aliases

def test_py_type():
    _same_type(_py_type({'type': 'string'}), str)
    _same_type(_py_type({'type': 'array', 'items': {'type': 'integer'}}), list[int])
    _same_type(_py_type({'enum': ['a', 'b']}), Literal['a', 'b'])
    _same_type(_py_type({'anyOf': [{'type': 'string'}, {'type': 'null'}]}), Union[str, None])
    _same_type(_py_type({'type': ['integer', 'null']}), Union[int, None])
    _same_type(_py_type({'type': 'object', 'additionalProperties': {'type': 'number'}}), dict[str, float])
    _same_type(_py_type({'type': 'string', 'format': 'date-time'}), dt.datetime)
    _same_type(_py_type({'type': 'array', 'prefixItems': [{'type': 'integer'}, {'type': 'string'}]}), tuple[int, str])
    _same_type(_py_type({'not': {}}), Any)
    _same_type(_py_type({'allOf': [{'type': 'integer'}], 'description': 'n'}), int)
    _same_type(_py_type({'allOf': [{'type': 'integer'}, {'minimum': 0}]}), Any)
    eq(_meta({'type': 'string', 'title': 'Name', 'description': 'Who'})[1].json_schema_extra, {'title': 'Name'})

def test_inline():
    root = {'properties': {'p': {'$ref': '#/definitions/P', 'description': 'A p'}, 'q': {'$ref': '#/properties/p'}, 'r': {'$ref': '#/$defs/Nope', 'description': 'R'}},
            'definitions': {'P': {'type': 'object', 'properties': {'x': {'type': 'integer'}}}}}
    eq(_inline(root['properties'], root), {
        'p': {'title': 'P', 'type': 'object', 'properties': {'x': {'type': 'integer'}}, '_site': {'description': 'A p'}},
        'q': {'title': 'P', 'type': 'object', 'properties': {'x': {'type': 'integer'}}, '_site': {}},
        'r': {'description': 'R'}})
    eq(_inline({'$ref': '#'}, {}), {'type': 'object', '_site': {}})
    eq(_unmark({'allOf': [_inline({'$ref': '#/$defs/P', 'description': 'Q'}, {'$defs': {'P': {'type': 'integer'}}})]}),
            {'allOf': [{'title': 'P', 'type': 'integer', 'description': 'Q'}]})

def _dag(n):
    "A schema of `n` definitions, each using the next one twice: 2**n nodes written out"
    defs = {f'D{i}': {'type': 'object', 'properties': {'a': {'$ref': f'#/$defs/D{i+1}'}, 'b': {'$ref': f'#/$defs/D{i+1}'}}} for i in range(n)}
    return {'type': 'object', 'properties': {'root': {'$ref': '#/$defs/D0'}}, 'required': ['root'],
            '$defs': defs | {f'D{n}': {'type': 'object', 'properties': {'v': {'type': 'integer'}}, 'required': ['v']}}}

def test_inline_shares_definitions():
    "Written out, 40 levels that each use the next twice would be 2**40 schemas: shared, they stay under `_max_nodes` (which counts the work)"
    d0 = _inline(_dag(40)['properties'], _dag(40))['root']
    a, b = d0['properties']['a'], d0['properties']['b']
    assert a['properties'] is b['properties'] and a.defn is b.defn  # one D1, used twice
    assert _py_type(a) is _py_type(b) and _py_type(a).__name__ == 'D1'

def test_inline_cuts_cycles():
    cyc = {'$defs': {'User': {'type': 'object', 'properties': {'org': {'$ref': '#/$defs/Org'}}},
                     'Org': {'type': 'object', 'properties': {'owner': {'$ref': '#/$defs/User'}}}}}
    u, o = _inline({'u': {'$ref': '#/$defs/User'}, 'o': {'$ref': '#/$defs/Org'}}, cyc).values()
    eq(u['properties']['org']['properties']['owner'], {'type': 'object', '_site': {}})  # the cycle closes: a plain dict
    assert o.defn is u['properties']['org'].defn  # every Org is that one Org

def test_py_names():
    eq(_py_nm(''), '_')
    eq([_py_nm(o) for o in ('class', '2d', 'a.b')], ['class_', '_2d', 'a_b'])
    eq(list(_nm_map(['self', 'x'])), ['self_', 'x'])

def dispatch(name, **kwargs): return f"Called {name} with {kwargs}"

def test_mk_tool_of_a_tool_object():
    "An MCP `Tool`-like object (attributes, not keys)"
    fn = mk_tool(dispatch, dict2obj(SEED_TOOL))
    eq(fn('hello', path='src/'), "Called searchGitHub with {'query': 'hello', 'path': 'src/'}")
    eq(fn.__name__, 'searchGitHub')
    fail(lambda: fn(), contains="missing a required argument: 'query'")

def test_big_schemas():
    "A definition used twice at each of 40 levels is one class each, a cycle of definitions that all use each other is cut where it closes; what would expand past `_max_nodes` raises, naming the tool"
    fn = mk_tool(dispatch, {'name': 'deep', 'input_schema': _dag(40)})
    eq(len(get_schema(fn)['input_schema']['$defs']), 41)
    assert "a: expected object, got 'x'" in call_func(fn, {'root': {'a': {'b': {'a': 'x'}}}}, raise_on_err=False)
    mesh = {f'D{i}': {'type': 'object', 'properties': {f'p{j}': {'$ref': f'#/$defs/D{j}'} for j in range(12) if j != i}} for i in range(12)}
    fn = mk_tool(dispatch, {'name': 'mesh', 'input_schema': {'type': 'object', 'properties': {'m': {'$ref': '#/$defs/D0'}}, '$defs': mesh}})
    eq(len(get_schema(fn)['input_schema']['$defs']), 12)
    fail(lambda: mk_tool(dispatch, {'name': 'big', 'input_schema': {'type': 'object', 'properties': {f'p{i}': {'type': 'object', 'properties': {}} for i in range(_max_nodes)}}}),
              contains="Tool 'big': its schema expands to over 10000 schemas once its $refs are written out")
    fail(lambda: mk_tool(dispatch, {'name': 'neg', 'input_schema': _dag(30) | {'properties': {'x': {'not': {'$ref': '#/$defs/D0'}}}}}),
              contains="Tool 'neg': a keyword kept as it is expands to over 10000 schemas")
    tuples = {f'L{i}': {'type': 'array', 'prefixItems': [{'$ref': f'#/$defs/L{i+1}'}]*10} for i in range(6)} | {'L6': {'type': 'integer'}}
    fail(lambda: mk_tool(dispatch, {'name': 'tuples', 'input_schema': {'type': 'object', 'properties': {'x': {'$ref': '#/$defs/L0'}}, '$defs': tuples}}),
              contains="Tool 'tuples': its schema expands to over 10000 schemas once its $refs are written out")

def test_untrusted_enum_and_required():
    "An enum of 50,000 ints sharing one hash took 30 s to make a tool of (quadratic in their number): refused. A plain one of as many is fine; a malformed enum, required or properties is a clear error, not a crash"
    from timing import cheap
    M = 2**61 - 1
    tool = lambda p, **s: {'name': 'pick', 'inputSchema': {'type': 'object', 'properties': {'x': p}, 'required': ['x']} | s}
    fail(lambda: cheap(lambda: mk_tool(disp, tool({'type': 'integer', 'enum': [k*M for k in range(100_000)]})), 5),
         contains="Tool 'pick': enum: more than 8 different values share one hash")
    fn = cheap(lambda: mk_tool(disp, tool({'type': 'integer', 'enum': list(range(100_000))})), 5)
    eq(call_func(fn, {'x': 99_999}), ('pick', {'x': 99_999}))
    for bad, why in [({'enum': 5}, 'enum must be a list, got 5'), ({'enum': 'abc'}, "enum must be a list, got 'abc'"),
                     ({'type': 'object', 'properties': {'a': {}}, 'required': [[1]]}, 'required must be a list of names, got [[1]]')]:
        fail(lambda: mk_tool(disp, tool(bad)), contains=f"Tool 'pick': {why}")
    fail(lambda: mk_tool(disp, tool({}, required=5)), contains="Tool 'pick': required must be a list of names, got 5")
    fail(lambda: mk_tool(disp, {'name': 'pick', 'inputSchema': {'type': 'object', 'properties': [1]}}), contains="Tool 'pick': its properties must be an object, got [1]")
