"Every tool_schema output over the corpus builds the providers' own SDK types, passes check_schema, and strict mode round-trips through call_func"
import functools, inspect, random, re, sys
import pytest
from jsonschema import Draft202012Validator
from pydantic import TypeAdapter
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
    ps = _params(tool, provider)
    if ps is not None and provider != 'gemini': Draft202012Validator.check_schema(ps)

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

# Strict round trip: generate arguments as a strict model sends them (every key, nulls, key/value lists),
# map them to what a lax model would send using the *original* schema, and check both calls agree.

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

def _lax(v, s, val):
    "What a lax model sends for strict value `v` of original schema `s` (`val`: a validator on the original root)"
    if '$ref' in s:
        r = s['$ref']
        s = {**(val.schema if r == '#' else val.schema['$defs'][r.split('/')[-1]]), **{k: x for k,x in s.items() if k != '$ref'}}
    if v is None: return None
    for k in ('anyOf', 'oneOf'):
        if k in s:
            for b in s[k]:
                try: res = _lax(v, b, val)
                except Exception: continue
                if val.evolve(schema=b).is_valid(res): return res
            raise ValueError(f'no branch of {s} takes {v!r}')
    ts = s.get('type', []) if isinstance(s.get('type', []), list) else [s['type']]
    if 'object' in ts and not s.get('properties') and isinstance(v, list):
        vs = s.get('additionalProperties') if isinstance(s.get('additionalProperties'), dict) else {}
        return {o['key']: _lax(o['value'], vs, val) for o in v}
    if isinstance(v, list): return [_lax(o, s.get('items', {}), val) for o in v]
    if isinstance(v, dict):
        ps, req = s.get('properties', {}), s.get('required', [])
        return {k: _lax(x, ps.get(k, {}), val) for k,x in v.items() if not (x is None and k not in req)}
    return v

def _capture(f):
    "`f`'s signature, returning the arguments it was called with"
    if isinstance(f, type): return f
    g = f.__call__ if not inspect.isroutine(f) else f
    @functools.wraps(g)
    def inner(*args, **kw): return args, kw
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
    orig = get_schema(f)['input_schema']
    ss = tool_schema(f, 'openai', strict=True)['function']['parameters']
    assert ss == strict_schema(orig)
    sv, ov = Draft202012Validator(ss), Draft202012Validator(orig)
    g = _capture(f)
    for seed in range(8):
        args = _Gen(ss, seed)(ss)
        sv.validate(args)
        lax = _lax(args, orig, ov)
        ov.validate(lax)
        assert _norm(call_func(g, args)) == _norm(call_func(g, lax)), (args, lax)

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
