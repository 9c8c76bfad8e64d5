"Every tool_schema output over the corpus builds the providers' own SDK types, passes check_schema, and strict mode round-trips through call_func"
import enum, functools, inspect, json, random, re, sys
from types import UnionType
from typing import Annotated, Any, Literal, Union, get_args, get_origin, get_type_hints, is_typeddict
import pytest
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
