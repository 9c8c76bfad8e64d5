"Every tool_schema output over the corpus builds the providers' own SDK types, passes check_schema, and strict mode round-trips through call_func"
import enum, functools, inspect, json, random, re, sys
from dataclasses import dataclass, field
from decimal import Decimal
from pathlib import Path
from types import UnionType
from typing import Annotated, Any, Literal, Optional, Union, get_args, get_origin, get_type_hints, is_typeddict
import pytest
from fastcore.test import test_eq as eq, test_fail as fail  # aliased: pytest would collect test_* names
from jsonschema import Draft202012Validator
from pydantic import BaseModel, Field, TypeAdapter
from anthropic.types import ToolParam
from openai.types.chat import ChatCompletionFunctionToolParam
from openai.types.responses import FunctionToolParam
from google.genai import types as gt
import mcp.types as mt
from fncall.schema import get_schema
from fncall.call import call_func
from fncall.providers import tool_schema, strict_schema, check_schema
from fncall.providers import _kids, _map_kids, _types, _is_any, _is_free, _not_schemas, _jsonable, _read, _move, _kv, _gemini, _unroll, _gem_names, _depth
from fncall.mktool import mk_tool
from schema_corpus import CORPUS, Tools

_ids = lambda f: getattr(f, '__name__', type(f).__name__)
_adapters = dict(anthropic=TypeAdapter(ToolParam), openai=TypeAdapter(ChatCompletionFunctionToolParam),
                 responses=TypeAdapter(FunctionToolParam))
_modes = [('anthropic', False), ('anthropic', True), ('openai', False), ('openai', True),
          ('responses', False), ('responses', True), ('gemini', False), ('mcp', False)]

def _params(tool, provider):
    if provider == 'openai': return tool['function'].get('parameters')
    return tool.get(dict(anthropic='input_schema', mcp='inputSchema').get(provider, 'parameters'))

def _sdk(tool, provider):
    "Build `provider`'s SDK type from `tool` (raises if the SDK rejects it)"
    if provider in _adapters: return _adapters[provider].validate_python(tool, strict=True)
    if provider == 'gemini': return gt.Tool(function_declarations=[gt.FunctionDeclaration.model_validate(tool)])
    return mt.Tool.model_validate(tool)

@pytest.mark.parametrize('provider,strict', _modes)
@pytest.mark.parametrize('f', CORPUS, ids=_ids)
def test_sdk_types(f, provider, strict):
    tool = tool_schema(f, provider, strict)
    _sdk(tool, provider)
    assert check_schema(tool, provider) == []
    json.dumps(tool, allow_nan=False)  # plain JSON: no NaN or Infinity
    ps = _params(tool, provider)
    if ps is not None and provider != 'gemini': Draft202012Validator.check_schema(ps)
    for u in _unions(ps or {}): assert len(set(map(json.dumps, u))) == len(u), u  # no branch twice (a second null)

def _unions(o):
    "Every anyOf list in `o`"
    if isinstance(o, dict):
        if isinstance(o.get('anyOf'), list): yield o['anyOf']
        for v in o.values(): yield from _unions(v)
    elif isinstance(o, list):
        for v in o: yield from _unions(v)

def test_gemini_sdk_is_looser_than_check():
    "The genai Schema takes an object without properties and an array without items; check_schema does not"
    tool = {'name': 'f', 'parameters': {'type': 'object', 'properties': {'o': {'type': 'object'}, 'a': {'type': 'array'}}}}
    gt.FunctionDeclaration.model_validate(tool)
    assert len(check_schema(tool, 'gemini')) == 2

def test_gemini_sdk_rejects_what_we_convert():
    "Raw JSON Schema is refused by the SDK, so the conversion is needed"
    from schema_corpus import f08, f17, f24
    for f in (f08, f17, f24):
        with pytest.raises(Exception): gt.FunctionDeclaration.model_validate({'name': 'f', 'parameters': get_schema(f)['input_schema']})

# Strict round trip: generate arguments as a strict model sends them (every key, nulls, key/value lists), read them
# as the Python values they stand for with the function's own annotations (not through call_func), call the function
# directly on those, and check call_func on the strict arguments calls it the same way.

_fmt_vals = {'date-time': '2024-01-02T03:04:05', 'date': '2024-01-02', 'time': '03:04:05', 'duration': 'P1D',
             'uuid': '12345678-1234-5678-1234-567812345678', 'Decimal': '1.5', 'Path': 'a/b', 'bytes': 'abc'}

class _Gen:
    "Random instances of a strict schema"
    def __init__(self, root, seed): self.root, self.rng, self.n = root, random.Random(seed), 0
    def __call__(self, s, depth=0):
        rng = self.rng
        if '$ref' in s:
            r = s['$ref']
            return self(self.root if r == '#' else self.root['$defs'][r.split('/')[-1]], depth + 1)
        if 'anyOf' in s:
            ms = s['anyOf']
            if depth > 3: ms = [m for m in ms if m.get('type') == 'null'] or ms
            return self(rng.choice(ms), depth)
        if 'enum' in s: return rng.choice(s['enum'])
        if 'const' in s: return s['const']
        ts = s['type'] if isinstance(s['type'], list) else [s['type']]
        t = 'null' if depth > 3 and 'null' in ts else rng.choice(ts)
        if t == 'null': return None
        if t == 'boolean': return rng.random() < .5
        if t in ('integer', 'number'):
            v = rng.randint(int(s.get('minimum', 0)), int(s.get('maximum', 9)))
            return v if t == 'integer' else v + .5
        if t == 'string':
            f = s.get('format') or (m.group(1) if (m := re.search(r'format: (\w[\w-]*)', s.get('description', ''))) else None)
            if f in _fmt_vals: return _fmt_vals[f]
            if 'pattern' in s: return next(c for c in ('12345', 'abc') if re.search(s['pattern'], c))
            self.n += 1
            return f's{self.n}'
        if t == 'array':
            if (m := re.search(r'in order: ([^;)]+)', s.get('description', ''))):  # a tuple: follow its description, as a model would
                defs = self.root.get('$defs', {})
                return [self({'$ref': f'#/$defs/{t}'} if t in defs else {'type': t.split('|')}, depth + 1) for t in m.group(1).split(', ')]
            lo, hi = s.get('minItems', 0), s.get('maxItems', 2)
            n = lo if depth > 3 else rng.randint(lo, max(lo, min(hi, 2)))
            items = [self(s['items'], depth + 1) for _ in range(n)]
            if s['items'].get('properties', {}).keys() == {'key', 'value'}:
                for i,o in enumerate(items): o['key'] = f'k{i}'
            return items
        return {k: self(v, depth + 1) for k,v in s['properties'].items()}

_here = {'schema_corpus', __name__}

def _fields(t):
    "name -> (annotation, has a default?) of the parameters of function `t`, or the fields of record class `t`"
    if is_typeddict(t): return {k: (a, k not in t.__required_keys__) for k,a in get_type_hints(t).items()}
    plain = isinstance(t, type) and t.__module__ in _here and not (hasattr(t, '__dataclass_fields__') or issubclass(t, (tuple, BaseModel)))
    hints = get_type_hints(t.__init__ if plain else t, include_extras=True)
    def anno(n, p):  # `*args` is a list of its annotation, `**kwargs` a dict of it
        a = hints.get(n, Any)
        return list[a] if p.kind is p.VAR_POSITIONAL else dict[str, a] if p.kind is p.VAR_KEYWORD else a
    return {n: (anno(n, p), p.default is not p.empty or p.kind in (p.VAR_POSITIONAL, p.VAR_KEYWORD)) for n,p in inspect.signature(t).parameters.items()}

def _direct(f, g, kw):
    "`g` called on keyword arguments `kw` as a hand-written call of `f` would pass them: `*args` and `**kwargs` spread out, what comes before `*args` by position"
    ps = inspect.signature(f if inspect.isroutine(f) or isinstance(f, type) else f.__call__).parameters.values()
    var = next((p.name for p in ps if p.kind is p.VAR_POSITIONAL), None)
    if not var: return g(**kw | kw.pop(next((p.name for p in ps if p.kind is p.VAR_KEYWORD), None), {}))
    pos = [kw.pop(p.name, p.default) for p in ps if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    return g(*pos, *kw.pop(var, ()), **kw | kw.pop(next((p.name for p in ps if p.kind is p.VAR_KEYWORD), None), {}))

def _is_record(t):
    return isinstance(t, type) and (is_typeddict(t) or (t.__module__ in _here and not issubclass(t, enum.Enum)))

def _kwargs(fs, v):
    "Keyword arguments for fields `fs` from strict JSON object `v`: null for a field with a default means leave it out"
    assert isinstance(v, dict) and set(v) <= set(fs), (list(fs), v)
    return {n: _py(fs[n][0], x) for n,x in v.items() if not (x is None and fs[n][1])}

def _py(t, v):
    "The Python value strict JSON value `v` stands for as type `t`, read with the annotation alone"
    o, args = get_origin(t), get_args(t)
    if o is Annotated: return _py(args[0], v)
    if v is None: return None
    if o in (Union, UnionType):
        for a in args:
            if a is type(None): continue
            try: return _py(a, v)
            except (AssertionError, TypeError, ValueError): pass
        raise ValueError(f'no branch of {t} takes {v!r}')
    if o is Literal: assert v in args, (t, v); return v
    if t is Any: return v
    if t in (object, dict) or o is dict:  # a key/value list
        assert isinstance(v, list) and all(set(e) == {'key', 'value'} for e in v), v
        return {e['key']: _py(args[1] if args else Any, e['value']) for e in v}
    if t in (list, set, frozenset) or o in (list, set, frozenset):
        assert isinstance(v, list), v
        return (o or t)(_py(args[0] if args else Any, x) for x in v)
    if t is tuple or o is tuple:
        assert isinstance(v, list), v
        if args and args[-1] is not Ellipsis: assert len(v) == len(args); return tuple(map(_py, args, v))
        return tuple(_py(args[0] if args else Any, x) for x in v)
    if _is_record(t):
        kw = _kwargs(_fields(t), v)
        return kw if is_typeddict(t) else t(**kw)
    if isinstance(t, type) and issubclass(t, enum.Enum): return t(v)
    if t in (int, float, str, bool):
        if not (type(v) is t or (t is float and type(v) is int)): raise TypeError(f'{v!r} is not {t.__name__}')
        return t(v)
    return TypeAdapter(t).validate_python(v)  # dates, Decimal, UUID, Path, bytes: from their JSON strings

def _capture(f):
    "`f`'s signature, returning the arguments it was called with (defaults filled in); a class stays itself"
    if isinstance(f, type): return f
    g = f.__call__ if not inspect.isroutine(f) else f
    sig = inspect.signature(g)
    @functools.wraps(g)
    def inner(*args, **kw):
        b = sig.bind(*args, **kw); b.apply_defaults()
        return dict(b.arguments)
    return inner

def _norm(o):
    "Compare objects by their type and fields"
    if isinstance(o, (list, tuple, set, frozenset)): return type(o).__name__, [_norm(x) for x in (sorted(o, key=repr) if isinstance(o, (set, frozenset)) else o)]
    if isinstance(o, dict): return {k: _norm(v) for k,v in o.items()}
    if hasattr(o, '__dict__') and not isinstance(o, type): return type(o).__name__, _norm(vars(o))
    return o

_round = [f for f in CORPUS if f is not Tools.am]  # Tools.am is unbound: `self` can't come from a model

@pytest.mark.parametrize('f', _round, ids=_ids)
def test_strict_round_trip(f):
    "call_func on a strict model's arguments == calling the function directly on the Python values they stand for"
    orig = get_schema(f)['input_schema']
    ss = tool_schema(f, 'openai', strict=True)['function']['parameters']
    assert ss == strict_schema(orig)
    sv, g = Draft202012Validator(ss), _capture(f)
    fs = _fields(f if inspect.isroutine(f) or isinstance(f, type) else f.__call__)
    for seed in range(8):
        args = _Gen(ss, seed)(ss)
        sv.validate(args)
        assert _norm(call_func(g, args)) == _norm(_direct(f, g, _kwargs(fs, args))), args

def test_strict_call_equals_direct():
    "A strict model's arguments call the function exactly as a hand-written call would"
    from schema_corpus import f07, f41, Shape, Point
    @functools.wraps(f07)
    def g07(**kw): return kw
    assert call_func(g07, {'d': [{'key': 'a', 'value': [1.5]}]}) == {'d': {'a': [1.5]}}
    @functools.wraps(f41)
    def g41(m=None): return m
    assert call_func(g41, {'m': None}) is None
    assert call_func(g41, {'m': [{'key': 'x', 'value': 'y'}]}) == {'x': 'y'}
    assert call_func(Shape, {'points': [{'x': 1.0, 'y': None}], 'color': None, 'tags': None}) == Shape([Point(1.0)])

# The limits check_schema states (OpenAI's Structured Outputs guide; Gemini's FunctionDeclaration reference), at and over each one

def _oai(ps, strict=False):
    return check_schema({'type': 'function', 'function': {'name': 'f', 'parameters': ps} | ({'strict': True} if strict else {})}, 'openai')

def _obj(props): return {'type': 'object', 'properties': props}

def test_limit_properties():
    at = _obj({f'p{i}': {'type': 'integer'} for i in range(5000)})
    assert _oai(at) == []
    assert _oai(_obj(at['properties'] | {'one_more': {'type': 'integer'}})) == ['5001 properties, over the limit of 5000']

def test_limit_enum_values():
    enum_of = lambda n, w=1: {'type': 'string', 'enum': [f'{i:0{w}d}' for i in range(n)]}
    assert _oai(_obj({'a': enum_of(600), 'b': enum_of(400)})) == []
    assert _oai(_obj({'a': enum_of(600), 'b': enum_of(401)})) == ['1001 enum values, over the limit of 1000']
    # one enum of more than 250 values: at most 15,000 characters over its values
    assert _oai(_obj({'a': enum_of(300, 50)})) == []  # 15,000 characters
    big = {'type': 'string', 'enum': [f'{i:050d}' for i in range(299)] + ['x' * 51]}
    assert _oai(_obj({'a': big})) == ['an enum of 300 values has 15001 characters, over the limit of 15000']
    assert _oai(_obj({'a': {'type': 'string', 'enum': ['x' * 100] * 250}})) == []  # 250 values: no such limit

def test_limit_characters():
    "120,000 characters of property names, definition names, enum and const values"
    names = lambda n, w: {f'{i:0{w}d}': {'type': 'integer'} for i in range(n)}
    assert _oai(_obj(names(1000, 120))) == []
    assert _oai(_obj(names(999, 120) | {'x' * 121: {'type': 'integer'}})) == ['120001 characters of names and values, over the limit of 120000']

def test_limit_nesting():
    deep = lambda n: _obj({'a': deep(n - 1)}) if n > 1 else _obj({'v': {'type': 'integer'}})
    assert _oai(deep(10)) == []
    assert _oai(deep(11)) == ['objects are nested 11 levels deep, over the limit of 10']
    # tool_schema refuses to build such a tool
    assert tool_schema({'name': 'f', 'parameters': deep(10)}, 'openai')
    with pytest.raises(ValueError, match='nested 11 levels deep'): tool_schema({'name': 'f', 'parameters': deep(11)}, 'openai')

@pytest.mark.parametrize('nm,ok', [('get_weather', True), ('_x', True), ('ns.tool:v1-2', True), ('x' * 64, True),
                                   ('x' * 65, False), ('1tool', False), ('-tool', False), ('get weather', False), ('wetter_für', False), ('', False)])
def test_gemini_tool_names(nm, ok):
    probs = check_schema({'name': nm, 'parameters': _obj({'a': {'type': 'string'}})}, 'gemini')
    assert probs == ([] if ok else [f"name {nm!r} is not allowed: gemini tool names match [a-zA-Z_][a-zA-Z0-9_.:-]{{0,63}}"])

@pytest.mark.parametrize('nm,ok', [('a', True), ('_a1', True), ('x' * 64, True), ('x' * 65, False), ('1a', False), ('a-b', False), ('a.b', False)])
def test_gemini_parameter_names(nm, ok):
    assert bool(check_schema({'name': 'f', 'parameters': _obj({nm: {'type': 'string'}})}, 'gemini')) is not ok

# Gemini unrolling leaves nothing half-written

def _nodes(s):
    "`s` and every schema in it (Gemini's subset: properties, anyOf, items)"
    yield s
    for o in [*s.get('properties', {}).values(), *s.get('anyOf', [])]: yield from _nodes(o)
    if isinstance(s.get('items'), dict): yield from _nodes(s['items'])

@pytest.mark.parametrize('f', CORPUS, ids=_ids)
def test_gemini_every_node_typed(f):
    "Every schema in a Gemini tool has a type or a non-empty anyOf (the cut of an optional recursion used to leave `anyOf: []`)"
    ps = tool_schema(f, 'gemini').get('parameters')
    if ps is None: return
    for s in _nodes(ps):
        assert s.get('type') or s.get('anyOf'), s
        assert s.get('anyOf', [1]) != []

def test_gemini_unroll_cuts_optional_recursion():
    from schema_corpus import User, f27, f28
    for f, path in [(User, ()), (f27, ('u',)), (f28, ('u',))]:
        s = tool_schema(f, 'gemini')['parameters']
        for p in path: s = s['properties'][p]
        levels = 1
        while 'boss' in s['properties']: s, levels = s['properties']['boss'], levels + 1
        assert levels == 3 and s['type'] == 'object' and s['nullable'] is True, s
        assert set(s['properties']) == {'name', 'addrs'} and 'boss left out: nesting stops here' in s['description']

# Defaults JSON can't hold, names Gemini can't take, and bad input

def test_defaults_not_json():
    def f(b:bytes=b'\xff', x:float=float('nan')): "f"
    for p,st in _modes:
        t = tool_schema(f, p, st)
        json.dumps(t, allow_nan=False)
    assert not {'default'} & (tool_schema(f)['input_schema']['properties']['b'].keys() | tool_schema(f)['input_schema']['properties']['x'].keys())
    bad = {'name': 'f', 'input_schema': {'type': 'object', 'properties': {'b': {'default': b'\xff'}, 'x': {'default': float('nan')}}}}
    assert tool_schema(bad)['input_schema']['properties'] == {'b': {'default': '\\xff'}, 'x': {'default': 'nan'}}

def test_gemini_renames_parameters():
    def f(approval_policy:Annotated[str, Field(alias='approval-policy')]='ask', n:int=1): "f"
    t = tool_schema(f, 'gemini')
    assert list(t['parameters']['properties']) == ['approval_policy', 'n']
    assert list(tool_schema(f, 'mcp')['inputSchema']['properties']) == ['approval-policy', 'n']
    with pytest.raises(ValueError, match="parameter name 'a-b' is not allowed"):
        tool_schema({'name': 'f', 'parameters': _obj({'a-b': {'type': 'string'}, 'a_b': {'type': 'string'}})}, 'gemini')

def test_gemini_renamed_parameter_reaches_function():
    def f(approval_policy:Annotated[str, Field(alias='approval-policy')]='ask'): "f"; return approval_policy
    assert call_func(f, {'approval_policy': 'never'}) == 'never'

def test_bad_input():
    assert check_schema({'name': 'f', 'parameters': 'x'}, 'gemini') == ['parameters: must be a JSON schema object, not str']
    assert check_schema(['f'], 'anthropic') == ['the tool must be a JSON object, not list']
    assert check_schema({'name': 'f', 'inputSchema': {'type': 'object', 'properties': {'a': None}}}, 'mcp') == [
        'parameters.properties.a: a schema must be a JSON object, not None']
    with pytest.raises(ValueError, match="A tool schema needs a 'name'"): tool_schema({'parameters': _obj({})})
    with pytest.raises(ValueError, match="parameters.properties.a: a schema must be a JSON object"): tool_schema({'name': 'f', 'parameters': _obj({'a': 1})}, 'openai', True)

# The private helpers' tests and the edge cases, moved from nbs/04_providers.ipynb ("How it works")

def test_walking():
    s = {'type':'object', 'properties': {'a': {'type':'array', 'items': {'type':'integer'}}}}
    eq(list(_kids(s)), [('properties.a', {'type': 'array', 'items': {'type': 'integer'}})])
    eq(_map_kids(s, lambda o: {**o, 'description': 'seen'})['properties']['a'], {'type': 'array', 'items': {'type': 'integer'}, 'description': 'seen'})
    eq(_types({'type': ['integer', 'null']}), ['integer', 'null'])
    assert _is_any({'description': 'anything'}) and not _is_any({'type': 'string'})
    assert _is_free({'type': 'object', 'additionalProperties': {'type': 'integer'}}) and _is_free({'type': 'object'}) and not _is_free(s)
    assert not _is_free({'type': 'object', 'properties': {}})  # a record without fields (or a tool without parameters) is not a dict
    eq(_not_schemas({'type': 'object', 'properties': {'a': 'x'}}), ["parameters.properties.a: a schema must be a JSON object, not 'x'"])

@dataclass
class Range: lo:float=0.; hi:float=float('inf')

def test_jsonable():
    eq(_jsonable({'default': [float('inf'), -float('inf'), b'\xff', b'ok', Path('a'), {1: Decimal('1.5')}, {2}]}),
       {'default': ['inf', '-inf', '\\xff', 'ok', 'a', {'1': '1.5'}, [2]]})
    eq(_jsonable(Range()), {'lo': 0., 'hi': 'inf'})
    def scale(x:float=0.): "Scale"; return x
    fail(lambda: call_func(scale, {'x': _jsonable(float('-inf'))}), contains="x: input should be a finite number, got '-inf'")

def test_read():
    eq(_read({'properties': {'a': {'type': 'integer'}}}), {'properties': {'a': {'type': 'integer'}}, 'type': 'object'})
    eq(_read({}), {'type': 'object'})
    eq(_read({'type': 'object', 'properties': {'b': {}}, 'allOf': [{'properties': {'a': {}}, 'required': ['a']}]}),
       {'properties': {'a': {}, 'b': {}}, 'required': ['a'], 'type': 'object'})
    eq(_read({'$ref': '#/definitions/A', 'definitions': {'A': {'type': 'object', 'properties': {'a': {}}}}}),
       {'$defs': {'A': {'type': 'object', 'properties': {'a': {}}}}, 'type': 'object', 'properties': {'a': {}}})
    deep = {'type': 'string'}
    for _ in range(1000): deep = {'type': 'object', 'properties': {'x': deep}}
    fail(lambda: _read(deep), exc=ValueError, contains='nests over 200 levels')

def test_move():
    eq(_move({'type': 'string', 'minLength': 1, 'format': 'Decimal', 'default': '1', 'title': 'X'}, {'type', 'format'}, {'date'}),
       {'type': 'string', 'description': 'at least 1 characters; format: Decimal; default: "1"'})
    eq(_move({'type': 'string', 'format': 'UUID'}, {'type', 'format'}, {'uuid'}), {'type': 'string', 'format': 'uuid'})
    eq(_move({'type': 'array', 'description': 'Tags', 'uniqueItems': True}, {'type', 'description'}, set())['description'], 'Tags (no duplicates)')

def test_kv():
    eq(_kv({'description': 'Stock', 'type': 'object', 'additionalProperties': {'type': 'integer'}}),
       {'description': 'Stock (a list of key/value pairs)', 'type': 'array', 'items': {'type': 'object', 'required': ['key', 'value'],
        'properties': {'key': {'type': 'string'}, 'value': {'type': 'integer'}}}})

@dataclass
class Tree:
    "A tree"
    value:int # Value
    kids:list['Tree']=field(default_factory=list) # Subtrees

def grow(t:Tree, mode:Literal[1, 2, None]=None, tags:dict[str, int]=None): "Grow a tree"

def test_gemini_unrolls_tree():
    gs = _gemini(get_schema(grow)['input_schema'], 'grow')
    leaf = {'type': 'object', 'properties': {'value': {'description': 'Value', 'type': 'integer'}}, 'required': ['value'],
            'description': 'A tree (kids left out: nesting stops here)'}
    kids = lambda o: {'description': 'Subtrees', 'default': [], 'type': 'array', 'items': o}
    tree = lambda k: {'type': 'object', 'properties': {'value': {'description': 'Value', 'type': 'integer'}, 'kids': k},
                      'required': ['value'], 'description': 'A tree'}
    eq(gs['properties']['t'], tree(kids(tree(kids(leaf)))))
    eq(gs['properties']['mode'], {'description': 'one of 1, 2', 'default': None, 'type': 'integer', 'nullable': True})
    eq(gs['properties']['tags']['items']['properties']['value'], {'type': 'integer'})
    eq(gs['required'], ['t'])
    eq(gs, tool_schema(grow, 'gemini')['parameters'])

class Boss(BaseModel):
    "A person"
    name:str
    boss:Optional['Boss']=None

@dataclass
class Link:
    "A link that may lead on"
    next:Optional['Link']=None

def promote(p:Boss): "Promote someone"
def hop(x:Link=None): "Follow links"

def test_gemini_cut_leaves_nothing_half_written():
    "An optional recursive field is left out where the unrolling stops, a type with nothing but recursive fields one level up, and a tool left with no parameters has none"
    b3 = _gemini(get_schema(promote)['input_schema'], 'promote')['properties']['p']['properties']['boss']['properties']['boss']
    eq(b3, {'type': 'object', 'properties': {'name': {'type': 'string'}}, 'required': ['name'], 'default': None, 'nullable': True,
            'description': 'A person (boss left out: nesting stops here)'})
    eq(_gemini(get_schema(hop)['input_schema'], 'hop'), None)
    eq(_unroll(get_schema(hop)['input_schema'], 'hop'), {'type': 'object', 'properties': {}, 'description': 'x left out: nesting stops here'})
    params = lambda t: t['function']['parameters'] if 'function' in t else t.get('parameters', t.get('input_schema'))
    eq(params(tool_schema(hop, 'anthropic', strict=True)), {'type': 'object', 'properties': {}, 'description': 'x left out: nesting stops here',
                                                            'additionalProperties': False})
    assert 'parameters' not in tool_schema(hop, 'gemini')

class Member(BaseModel):
    name:str
    org:Optional['Team']=None
    projects:list['Project']=[]
class Team(BaseModel):
    name:str
    owner:Optional[Member]=None
    parent:Optional['Team']=None
class Project(BaseModel):
    name:str
    lead:Optional[Member]=None
    team:Optional[Team]=None
Member.model_rebuild(); Team.model_rebuild()
def assign(member:Member, project:Project): "Assign a member to a project"

def _levels(s): return ('properties' in s) + max([0, *map(_levels, s.get('properties', {}).values()), *([_levels(s['items'])] if 'items' in s else [])])

def _dag(n):
    "A schema of `n` definitions, each using the next one twice: 2**n schemas written out"
    defs = {f'D{i}': {'type': 'object', 'properties': {'a': {'$ref': f'#/$defs/D{i+1}'}, 'b': {'$ref': f'#/$defs/D{i+1}'}}} for i in range(n)}
    return {'type': 'object', 'properties': {'root': {'$ref': '#/$defs/D0'}}, 'required': ['root'],
            '$defs': defs | {f'D{n}': {'type': 'object', 'properties': {'v': {'type': 'integer'}}, 'required': ['v']}}}

def _mesh(n):
    "`n` types, each with a name and a field of each other type"
    defs = {f'D{i}': {'type': 'object', 'properties': {'name': {'type': 'string'}} | {f'p{j}': {'$ref': f'#/$defs/D{j}'} for j in range(n) if j != i}} for i in range(n)}
    return {'type': 'object', 'properties': {'root': {'$ref': '#/$defs/D0'}}, '$defs': defs}

def test_gemini_unroll_size():
    "Three models that all refer to each other unroll to a few levels in all; five unroll fewer levels; a schema whose types, used twice at each level, would write out to millions of schemas is refused, naming the tool, straight away (the 5000-schema count bounds the work)"
    ga = _gemini(get_schema(assign)['input_schema'], 'assign')
    eq(_levels(ga['properties']['member']), 5)  # at most: a member, its org, the org's owner (a repeat), the owner's project, its lead (a second)
    assert len(json.dumps(ga)) < 50_000 and len(json.dumps(_unroll(get_schema(assign)['input_schema'], 'assign'))) < 50_000
    eq(_levels(_gemini(_mesh(4), 'mesh')['properties']['root']), 6)  # 4 types, 2 repeats
    eq(_levels(_gemini(_mesh(5), 'mesh')['properties']['root']), 6)  # 5 types, 1 repeat
    eq(_levels(_gemini(_mesh(6), 'mesh')['properties']['root']), 6)  # 6 types, no repeat
    fail(lambda: _gemini(_mesh(7), 'mesh'), contains="Tool 'mesh': its $refs written out make over 5000 schemas")
    fail(lambda: _gemini(_dag(30), 'wide'), contains="Tool 'wide': its $refs written out make over 5000 schemas: too many to send without $ref")
    eq(len(strict_schema(_dag(30))['$defs']), 31)  # OpenAI's strict mode keeps the $refs

_long = 'a-' + 'b'*70

def test_gem_names():
    eq(_gem_names({'type': 'object', 'properties': {'approval-policy': {'type': 'string'}, '2d': {'type': 'string'}, 'ok_1': {'type': 'string'}},
                   'required': ['approval-policy']}),
       {'type': 'object', 'properties': {'approval_policy': {'type': 'string'}, '_2d': {'type': 'string'}, 'ok_1': {'type': 'string'}},
        'required': ['approval_policy']})
    eq(list(_gem_names({'type': 'object', 'properties': {'a-b': {}, 'a.b': {}}})['properties']), ['a_b', 'a.b'])  # never two of one name
    eq(list(_gem_names({'type': 'object', 'properties': {'café-x': {}, _long: {}}})['properties']), ['café-x', _long])  # no name Gemini takes reaches these

def test_gemini_renamed_names_reach_parameters():
    "Each renamed parameter reaches its parameter through `call_func`, here of a tool `mk_tool` made from an MCP-style schema; a name that can't is refused"
    mcp_names = {'name': 'names', 'input_schema': {'type': 'object', 'properties': {n: {'type': 'integer'} for n in ('approval-policy', '2d', 'a.b', 'x y', 'class')}}}
    fn = mk_tool(lambda name, /, **kw: kw, mcp_names)
    gem = list(tool_schema(fn, 'gemini')['parameters']['properties'])
    eq(gem, ['approval_policy', '_2d', 'a_b', 'x_y', 'class'])
    eq(call_func(fn, {n: 1 for n in gem}), {n: 1 for n in mcp_names['input_schema']['properties']})
    for n in ('café-x', _long):
        f = mk_tool(lambda name, /, **kw: kw, {'name': 'odd', 'input_schema': {'type': 'object', 'properties': {n: {'type': 'integer'}}}})
        fail(lambda: tool_schema(f, 'gemini'), contains=f"gemini would reject tool 'odd':\nparameters: parameter name {n!r} is not allowed")

def test_check_schema_nesting(monkeypatch):
    "Nesting is measured following $refs, each definition once: 40 levels that each use the next twice follow 81 $refs, not 2**41"
    import fncall.providers as prov
    follows, deref = [], prov._deref
    monkeypatch.setattr(prov, '_deref', lambda *a: follows.append(1) or deref(*a))
    deep = {'type': 'object', 'properties': {}}
    for _ in range(11): deep = {'type': 'object', 'properties': {'a': deep}}
    eq(check_schema({'name': 'f', 'parameters': deep, 'strict': False, 'type': 'function'}, 'responses'), ['objects are nested 12 levels deep, over the limit of 10'])
    oai = lambda ps, strict=False: {'type': 'function', 'function': {'name': 'f', 'parameters': ps} | ({'strict': True} if strict else {})}
    eq(check_schema(oai(_dag(40)), 'openai'), ['objects are nested 42 levels deep, over the limit of 10'])  # each definition measured once
    assert 40 < len(follows) < 200, len(follows)
    mesh = {f'D{i}': {'type': 'object', 'properties': {f'p{j}': {'$ref': f'#/$defs/D{j}'} for j in range(12) if j != i}} for i in range(12)}
    mesh = {'type': 'object', 'properties': {'m': {'$ref': '#/$defs/D0'}}, '$defs': mesh}
    eq(check_schema(oai(mesh), 'openai'), ['objects are nested 13 levels deep, over the limit of 10'])
    eq(check_schema({'name': 'f', 'strict': True, 'input_schema': mesh}, 'anthropic')[-1], 'parameters: recursive schemas are not supported in strict mode')
    eq(_depth({'properties': {'a': {'$ref': 7}}}, {}), (1, False))  # a $ref that is not a string names nothing

def test_check_schema_lines():
    "What a converter can leave behind by mistake, and what bad input looks like, gets a line rather than an exception"
    gem = lambda ps, nm='f': check_schema({'name': nm, 'parameters': {'type': 'object', 'properties': ps}}, 'gemini')
    eq(gem({'boss': {'anyOf': [], 'nullable': True}}), ['parameters.properties.boss: anyOf must be a non-empty list of schemas',
                                                        'parameters.properties.boss: schema has no type'])
    eq(gem({'v': {'enum': ['a']}}), ['parameters.properties.v: schema has no type'])
    eq(gem({'t': {'type': 'array', 'items': [{'type': 'string'}]}}), ['parameters.properties.t: items must be one schema, not list'])
    eq(gem({'approval-policy': {'type': 'string'}}), ["parameters: parameter name 'approval-policy' is not allowed: Gemini parameter names match [a-zA-Z_][a-zA-Z0-9_]{0,63}"])
    eq(gem({'o': {'type': 'object', 'properties': {'approval-policy': {'type': 'string'}}}}), [])  # only parameter names are ruled
    eq(gem({'a': {'type': 'string'}}, 'x'*64), [])
    eq(len(gem({'a': {'type': 'string'}}, 'x'*65)), 1)
    eq(len(gem({'a': {'type': 'string'}}, '1f')), 1)
    inf = check_schema({'name': 'f', 'input_schema': {'type': 'object', 'properties': {'a': {'default': float('inf')}}}}, 'anthropic')
    eq(len(inf), 1); assert inf[0].startswith('the tool is not JSON: Out of range float values'), inf

# Moved from nbs/04_providers.ipynb (the page keeps an example and a check or two a section), with the page's tools
from fncall.call import coerce_inputs

def weather(
    city:str, # City name
    unit:Literal['C', 'F']='C', # Temperature unit
    days:int=1, # Days of forecast
)->str: # The forecast
    "Get the weather forecast"
    return f'{city}: sunny'

def test_page_every_provider():
    eq(tool_schema(weather, 'mcp')['inputSchema'], get_schema(weather)['input_schema'])
    eq(tool_schema(get_schema(weather), 'responses')['strict'], False)
    eq(tool_schema(weather, 'anthropic', strict=True)['input_schema']['required'], ['city'])
    eq(tool_schema(weather, 'gemini')['parameters']['properties']['unit']['enum'], ['C', 'F'])
    fail(lambda: tool_schema(weather, 'gemini', strict=True), contains='gemini has no strict mode')
    fail(lambda: tool_schema(get_schema(weather, name='get.weather'), 'openai'), contains="name 'get.weather' is not allowed")
    fail(lambda: tool_schema({'description': 'no name'}), contains="A tool schema needs a 'name' string")
    fail(lambda: tool_schema({'name': 'f', 'parameters': {'type': 'object', 'properties': {'a': 'int'}}}, 'gemini'),
         contains="Tool 'f': parameters.properties.a: a schema must be a JSON object, not 'int'")

def test_page_no_parameters():
    def now()->str: "Current time"
    class Clock:
        "A clock"
        def __init__(self): pass
    params = lambda t: t['function']['parameters'] if 'function' in t else t.get('parameters', t.get('input_schema'))
    for f in (now, Clock):
        for p in ('anthropic', 'openai', 'responses'): eq(params(tool_schema(f, p, strict=True))['properties'], {})
        assert 'parameters' not in tool_schema(f, 'gemini')

def test_page_defaults_as_json():
    def policy(mode:Annotated[str, Field(alias='approval-policy')]='ask', limit:float=float('inf'), raw:bytes=b'\xff'): "Set the policy"
    eq(list(tool_schema(policy, 'gemini')['parameters']['properties']), ['approval_policy', 'limit', 'raw'])
    eq(list(tool_schema(policy)['input_schema']['properties']), ['approval-policy', 'limit', 'raw'])
    assert 'default' not in tool_schema(policy)['input_schema']['properties']['limit']  # get_schema leaves out defaults JSON can't hold
    eq(coerce_inputs(policy, {'approval_policy': 'never'}), {'mode': 'never'})  # the name Gemini sends reaches the parameter
    eq(tool_schema(policy, 'openai', strict=True)['function']['parameters']['properties']['raw']['description'], 'null: leave out (format: bytes)')
    for p,st in [('anthropic', False), ('anthropic', True), ('openai', True), ('gemini', False), ('mcp', False)]: json.dumps(tool_schema(policy, p, st), allow_nan=False)

@dataclass
class Item:
    "A line of an order"
    name:str # What
    qty:int=1 # How many

def test_page_strict_order():
    def order(
        items:list[Item], # What to order
        notes:dict[str, str]=None, # Notes by recipient
        slot:tuple[int, int]=(9, 0), # Delivery time: hour, minute
        rush:bool=False, # Deliver today?
    ):
        "Place an order"
        return items, notes, slot, rush
    ss = strict_schema(get_schema(order)['input_schema'])
    eq(ss['required'], ['items', 'notes', 'slot', 'rush'])
    eq(ss['additionalProperties'], False)
    eq(ss['properties']['rush'], {'description': 'Deliver today? (default: false; null: use the default)', 'type': ['boolean', 'null']})
    eq(ss['$defs']['Item']['properties']['qty']['type'], ['integer', 'null'])
    eq(ss['properties']['slot']['minItems'], 2)
    assert 'prefixItems' not in ss['properties']['slot']
    eq(ss['properties']['notes']['items']['required'], ['key', 'value'])
    eq(strict_schema({'type': 'object', 'properties': {'c': {'type': 'string', 'enum': ['a', 'b'], 'default': 'a'}}})['properties']['c']['enum'], ['a', 'b', None])
    fail(lambda: strict_schema({'type': 'object', 'properties': {'a': 'int'}}), contains="parameters.properties.a: a schema must be a JSON object, not 'int'")

def test_page_strict_optional():
    def pick(u:int|None=None): "Pick one"
    eq(strict_schema(get_schema(pick)['input_schema'])['properties']['u']['anyOf'], [{'type': 'integer'}, {'type': 'null'}])
    opt = {'type': 'object', 'properties': {'u': {'default': None, 'anyOf': [{'$ref': '#/$defs/Item'}, {'type': 'null'}]}}}
    eq(strict_schema(opt)['properties']['u']['anyOf'], [{'$ref': '#/$defs/Item'}, {'type': 'null'}])
    eq(strict_schema({'type': 'object', 'properties': {'l': {'default': None, 'enum': [1, None]}}})['properties']['l']['enum'], [1, None])

def test_page_check_schema():
    eq(check_schema({'type': 'function', 'function': {'name': 'f', 'parameters': {'type': 'object', 'properties': {}}}}, 'openai'), [])
    eq(check_schema({'type': 'function', 'function': {'name': 'f', 'strict': True, 'parameters': {'type': 'object', 'properties': {'a': {'type': 'string', 'minLength': 1}}}}}, 'openai'),
       ['parameters: objects must set additionalProperties to false', 'parameters: every property must be required, not a',
        "parameters.properties.a: 'minLength' is not supported"])
    fail(lambda: check_schema({}, 'bard'), contains="Unknown provider 'bard'")
