"mk_tool is the inverse of get_schema: a round trip over fncall's own schemas and hand-written tool schemas"
import pytest
from fncall.schema import get_schema
from fncall.mktool import mk_tool
from schema_corpus import CORPUS

def _norm(s, orig=None):
    "Schema without what the round trip documents it cannot carry: empty descriptions, `default: None` added to optional parameters"
    if isinstance(s, list): return [_norm(o) for o in s]
    if not isinstance(s, dict): return s
    res = {k: _norm(v) for k,v in s.items() if not (k == 'description' and v == '')}
    if orig is not None:  # at the root: a class described as a tool becomes a function; a function takes no other arguments anyway
        for k in ('title', '$schema', 'additionalProperties'): res.pop(k, None)
    if 'required' in res: res['required'] = sorted(res['required'])
    return res

def _drop_none_defaults(got, orig):
    "Remove `default: None` from properties of `got` whose original had no default"
    for k,p in got.get('properties', {}).items():
        if p.get('default', 0) is None and 'default' not in orig.get('properties', {}).get(k, {}): del p['default']
    return got

def disp(name, **kw): return name, kw

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
]

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
CASES = [s for s in SCHEMAS if s not in RECURSIVE] + [{'name': t['name'], 'description': t['description'], 'input_schema': t['inputSchema']} for t in HAND]

def test_corpus_size(): assert len(CASES) >= 20

@pytest.mark.parametrize('orig', CASES, ids=lambda s: s['name'])
def test_round_trip(orig):
    fn = mk_tool(disp, orig)
    got = get_schema(fn)
    _drop_none_defaults(got['input_schema'], orig['input_schema'])
    assert got['name'] == orig['name']
    assert got['description'] == orig['description']
    assert _norm(got['input_schema'], orig) == _norm(orig['input_schema'], orig)

def test_recursive_becomes_dict():
    "Where a definition recurs, mk_tool types it as a plain dict: the schema is the same down to that point"
    assert len(RECURSIVE) >= 3
    for orig in RECURSIVE:
        fn = mk_tool(disp, orig)
        got = get_schema(fn)['input_schema']
        assert set(got['properties']) == set(orig['input_schema']['properties'])
        assert '#' not in _refs(got)
