"""Every dialect writes calls it reads back exactly: whole, streamed in random chunks, and cut off anywhere (a cut call is an
error, never a call with other arguments). Hypothesis writes the calls: tool and argument names (Python keywords too), values
holding commas, colons, quotes, braces, `#`, newlines, backslashes, unicode and the formats' own tokens, nested objects and lists,
several calls, an answer and reasoning around them. A value a format cannot carry must make `render` refuse it (ValueError).
FNCALL_ROUNDTRIP_EXAMPLES sets the number of examples (2,000 by default), each written by every dialect. The examples are the same
in every run (hypothesis derandomized), so a test run passes or fails on the code alone; FNCALL_ROUNDTRIP_RANDOM=1 draws new ones,
to look for the next case (with, say, 20,000 examples)."""
import json, os, random
from collections import Counter
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck, note, event
from fncall.parse import ToolCall, ToolCallParser, StreamParser, Dialect, _DIALECTS, _marker

N = int(os.environ.get('FNCALL_ROUNDTRIP_EXAMPLES', 2000))
RANDOM = os.environ.get('FNCALL_ROUNDTRIP_RANDOM') == '1'
MARKER = _marker('TOOL_CALL')
WRITERS = [d for d in (*_DIALECTS, MARKER) if type(d).write is not Dialect.write or type(d).render is not Dialect.render]
P = ToolCallParser()

def _closers(d):
    out = set()
    for t in d.starts:
        try: ends,stops = d.close(t); out.update(ends); out.update(stops)
        except Exception: pass
    return out

TOKENS = sorted({t for d in _DIALECTS for t in (*d.starts, *_closers(d))} | {
    '<|"|>', '<escape>', '<arg_key>', '</arg_key>', '<arg_value>', '</arg_value>', '<parameter=x>', '</parameter>', '<parameter name="x">',
    '</invoke>', '<invoke name="x">', '</function>', '<function=f>', '<|tool_call_argument_begin|>', '<｜tool▁sep｜>', '```', '```json',
    'TOOL_CALL', '[ARGS]', '<|message|>', '<|constrain|>', 'to=functions.f', 'to=self', '</atem:parameter>', 'call:f{', '<![CDATA[', ']]>',
    '{"name": "f", "arguments": {}}', '[f(a=1)]', 'f(x=1)', 'function call'})
SPECIALS = list(',:;"\'{}[]()#\n\r\t\\/<>|=`') + ['\\n', '\\u00e9', '\\"', 'é', '日本', '🙂', '\u2028', '\x00', ' ', '  ', 'None', 'true', 'null', '007', '1e5']

chars = st.characters(codec='utf-8', exclude_categories=['Cs'])
strings = st.lists(st.one_of(st.sampled_from(SPECIALS), st.sampled_from(TOKENS), st.text(chars, max_size=4)), max_size=5).map(''.join)
scalars = st.none() | st.booleans() | st.integers(-10**20, 10**20) | st.floats(allow_nan=False, allow_infinity=False) | strings
idents = st.text('abcdefghijklmnopqrstuvwxyz_0123456789', min_size=1, max_size=8).filter(lambda s: not s[0].isdigit())
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=3) | st.dictionaries(st.one_of(strings, idents), kids, max_size=3), max_leaves=8)
keywords = st.sampled_from(['from', 'class', 'in', 'if', 'None', 'True', 'lambda', 'import', 'return'])
odd_names = st.text(st.sampled_from('aZ_-. é9µ:<"'), min_size=1, max_size=6)
arg_names = st.one_of(idents, idents, keywords, odd_names, strings.filter(bool))
tool_names = st.one_of(idents, idents.map(str.upper), st.tuples(idents, st.sampled_from('.-'), idents).map(''.join), keywords, odd_names)
calls = st.lists(st.tuples(tool_names, st.dictionaries(arg_names, values, max_size=4)), max_size=3, unique_by=lambda c: c[0])
prose = st.text('abcdefghijklmnopqrstuvwxyz0123456789 .,!?\'-\n', max_size=40).map(str.strip)

def _type(v):
    return {type(None): 'null', bool: 'boolean', int: 'integer', float: 'number', str: 'string', list: 'array', dict: 'object'}[type(v)]

def schemas(cs): return [{'name': n, 'parameters': {'type': 'object', 'properties': {k: {'type': _type(v)} for k,v in a.items()}}} for n,a in cs]

def same(a, b):
    "Equal JSON values, each of the same type (true is not 1, 1 is not 1.0)"
    if type(a) is not type(b): return False
    if isinstance(a, dict): return a.keys() == b.keys() and all(same(a[k], b[k]) for k in a)
    if isinstance(a, list): return len(a) == len(b) and all(map(same, a, b))
    return a == b

def same_calls(got, want): return len(got) == len(want) and all(c.tool_name == n and same(c.parameters, a) for c,(n,a) in zip(got, want))

def streamed(text, rng, tools):
    sp,evs,i = StreamParser(tools=tools),[],0
    while i < len(text):
        n = rng.choice([1, 2, 3, 7, 16, 64, 1000]); evs += sp.feed(text[i:i+n]); i += n
    evs += sp.close()
    return sp.result(), evs

def key(r): return ([(c.tool_name, json.dumps(c.parameters, sort_keys=True)) for c in r.tool_calls], [str(e) for e in r.errors], r.content, r.reasoning)

def writes_reasoning(d):
    try: d.render([], '', 'x'); return True
    except ValueError: return False

def check(d, cs, content, reasoning, rng, seen):
    "`cs` written by dialect `d` read back whole, streamed, and cut off at a random point"
    reasoning = reasoning if THINKS[d.name] else ''
    try: text = d.render(cs, content, reasoning)
    except ValueError: seen[d.name, 'refused'] += 1; return
    seen[d.name, 'written'] += 1
    note(f'{d.name}: {text!r}')
    tools = schemas(cs)
    r = P.parse(text, tools=tools)
    assert same_calls(r.tool_calls, cs) and r.errors == [], (d.name, r.tool_calls, r.errors)
    assert r.content.strip() == content and r.reasoning.strip() == reasoning, (d.name, r.content, r.reasoning)
    s,evs = streamed(text, rng, tools)
    assert key(s) == key(r), d.name
    assert same_calls([e.tool_call for e in evs if e.type == 'end'], cs), d.name
    if text:  # cut off anywhere: the calls read are the first ones, whole; the rest is an error or nothing
        c = P.parse(text[:rng.randrange(len(text))], tools=tools)
        assert same_calls(c.tool_calls, cs[:len(c.tool_calls)]), (d.name, c.raw_text, c.tool_calls)

THINKS = {d.name: writes_reasoning(d) for d in WRITERS}

def test_round_trip():
    "Each example goes through every dialect that writes; each must write most of them (the rest it refuses)"
    seen = Counter()
    @settings(max_examples=N, deadline=None, suppress_health_check=list(HealthCheck), derandomize=not RANDOM)
    @given(calls, prose, prose, st.randoms(use_true_random=False))
    def every_dialect(cs, content, reasoning, rng):
        for d in WRITERS: check(d, cs, content, reasoning, rng, seen)
    every_dialect()
    few = {d.name: seen[d.name, 'written'] for d in WRITERS if seen[d.name, 'written'] < N//4}
    assert not few, f'dialects that refused most examples: {few}'
