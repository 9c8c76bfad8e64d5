"Round trips and fuzzing for fncall.pycall: JSON-like arguments survive a trip through Python call text (also with prose around it), and random text only ever raises ValueError (or SyntaxError from parse_function_call)."
import json, keyword, random, string, time
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from fncall.pycall import parse_function_call, parse_function_calls, map_positional_args, PYCALL_MAX_CHARS, _start_re, _spanned_calls

# the parser warns about escapes like "\A" in fuzzed strings; that is Python talking, not a failure
pytestmark = pytest.mark.filterwarnings('ignore::DeprecationWarning', 'ignore::SyntaxWarning')
fast = settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow]) # keeps this file under ~15 s

idents = st.from_regex(r'[A-Za-z_][A-Za-z0-9_]{0,12}', fullmatch=True).filter(
    lambda s: not keyword.iskeyword(s) and not s.startswith('_pos_'))
scalars = st.none() | st.booleans() | st.integers(-10**30, 10**30) | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=20)
values = st.recursive(scalars, lambda kids: st.lists(kids, max_size=4) | st.dictionaries(st.text(max_size=8), kids, max_size=4),
                      max_leaves=12)
calls = st.tuples(idents, st.lists(values, max_size=3), st.dictionaries(idents, values, max_size=3))

def render(name, pos, kw, fmt=repr):
    "Python call text for a call of `name` with `pos` and `kw`, values written with `fmt`"
    return f"{name}({', '.join([fmt(v) for v in pos] + [f'{k}={fmt(v)}' for k, v in kw.items()])})"

def expected(name, pos, kw): return {'tool': name, 'arguments': {**{f'_pos_{i}': v for i, v in enumerate(pos)}, **kw}}

@fast
@given(calls)
def test_round_trip_python(call):
    "Arguments written as Python literals parse back to the same values"
    assert parse_function_call(render(*call)) == expected(*call)

@fast
@given(calls)
def test_round_trip_json(call):
    "Arguments written as JSON (true/false/null) parse back to the same values"
    assert parse_function_call(render(*call, fmt=json.dumps)) == expected(*call)

@fast
@given(calls, st.sampled_from([' {} ', '```python\n{}\n```', '{};', '\n\n{} ;\n']))
def test_round_trip_wrapped(call, wrap):
    "Whitespace, code fences and a trailing semicolon around a call do not change it"
    assert parse_function_call(wrap.format(render(*call))) == expected(*call)

@fast
@given(st.lists(calls, min_size=1, max_size=4), st.sampled_from(['[{}]', '{}', '<|python_tag|>{}<|eom_id|>', 'tool_code']))
def test_round_trip_many(cs, fmt):
    "Several calls as a pythonic list, one per line, after python_tag or in a tool_code block all come back in order"
    texts = [render(*c) for c in cs]
    if fmt == '[{}]': text = '[' + ', '.join(texts) + ']'
    elif fmt == 'tool_code': text = '```tool_code\n' + '\n'.join(f'print(default_api.{t})' for t in texts) + '\n```'
    else: text = fmt.format('\n'.join(texts))
    assert parse_function_calls(text) == [expected(*c) for c in cs]

prose = st.text(alphabet=" .,!?'\"()[]{}:;-#`\nabcxyz", max_size=60).filter(
    lambda p: not _start_re.search(p) and not p.rstrip().endswith(('[', '(')))

@fast
@given(prose, st.lists(calls, min_size=1, max_size=3), st.sampled_from(['[{}]', '{}', '```python\n{}\n```']), prose)
def test_round_trip_in_prose(before, cs, fmt, after):
    "Calls on their own lines come back whatever prose (apostrophes, stray brackets, quotes) surrounds them"
    texts = [render(*c) for c in cs]
    body = '[' + ',\n '.join(texts) + ']' if fmt == '[{}]' else fmt.format('\n'.join(texts))
    assert parse_function_calls(f'{before}\n{body}\n{after}') == [expected(*c) for c in cs]

@fast
@given(prose, st.lists(calls, min_size=1, max_size=3), st.sampled_from(['[{}]', '{}', 'tool_code', '<|python_tag|>{}']), prose)
def test_spans(before, cs, fmt, after):
    "Each call's span holds that call and nothing else: read alone, it gives the same call"
    texts = [render(*c) for c in cs]
    if fmt == '[{}]': body = '[' + ',\n '.join(texts) + ']'
    elif fmt == 'tool_code': body = '```tool_code\n' + '\n'.join(f'print(default_api.{t})' for t in texts) + '\n```'
    else: body = fmt.format('\n'.join(texts))
    text = f'{before}\n{body}\n{after}'
    res = _spanned_calls(text)
    assert [c for c, _ in res] == [expected(*c) for c in cs]
    assert all(parse_function_calls(text[a:b]) == [c] for c, (a, b) in res)

@fast
@given(calls, calls, st.sampled_from(['# {}\n{}', '{1}  # {0}', '```tool_code\n# {0}\n{1}\n```', '{1}; # {0}', '  #{0}\n{1}', '{1}\n\t# {0}']))
def test_comments(c1, c2, fmt):
    "A call in a comment is never returned"
    assert parse_function_calls(fmt.format(render(*c1), render(*c2))) == [expected(*c2)]

@fast
@given(calls, st.lists(idents, min_size=3, max_size=3, unique=True))
def test_map_round_trip(call, names):
    "map_positional_args names positional values in order and keeps keywords"
    name, pos, kw = call
    kw = {k: v for k, v in kw.items() if k not in names}
    res = map_positional_args(parse_function_call(render(name, pos, kw))['arguments'], names)
    assert res == {**dict(zip(names, pos)), **kw}

@fast
@given(calls, st.dictionaries(idents.filter(lambda s: s not in ('true', 'false', 'null')), values, min_size=1, max_size=3))
def test_context_names(call, ctx):
    "Bare names take their values from context"
    name, _, _ = call
    text = f"{name}({', '.join(ctx)})"
    assert parse_function_call(text, context=ctx)['arguments'] == {f'_pos_{i}': v for i, v in enumerate(ctx.values())}

def check(text):
    "parse_function_call on `text` works or raises ValueError/SyntaxError, parse_function_calls works or raises ValueError; results are JSON"
    for f, ok in ((parse_function_call, (ValueError, SyntaxError)), (parse_function_calls, ValueError)):
        try: json.dumps(f(text))
        except ok: pass

@fast
@given(st.text(max_size=200))
def test_fuzz_text(text): check(text)

@fast
@given(st.text(alphabet='()[]{},=:;.\'"`*-+ \nabcfxy_019eTjn<|>', max_size=120))
def test_fuzz_code_like(text): check(text)

tokens = ['f(', 'g(x=', ')', ']', '[', "'", '"', "'" * 3, '"' * 3, '\\', '#', '\n', ' ', 'a', '1', ',', '<|python_tag|>', 'print(',
          'x.y(', ';', 'def ', '0x', 'true', '{"k": ', "It's "]

@fast
@given(st.lists(st.sampled_from(tokens), max_size=40).map(''.join))
def test_fuzz_tokens(text):
    "Random sequences of the pieces calls, strings, comments and prose are made of"
    check(text)

def test_fuzz_mutations():
    "Mutated valid calls (cut, characters inserted, deleted, swapped) never raise anything else"
    rnd = random.Random(0)
    seeds = ['search(query="AI", limit=5)', 'config(settings={"debug": true, "timeout": [1, 2.5, -3]})',
             '[f(a=1), g(b="x")]', '```tool_code\nprint(default_api.f(x=1))\n```', '<|python_tag|>f(x=None)<|eom_id|>']
    alphabet = string.printable + '\u00e9\u2028\x00'
    for _ in range(2000):
        s = list(rnd.choice(seeds))
        for _ in range(rnd.randint(1, 4)):
            i = rnd.randrange(len(s) + 1)
            op = rnd.random()
            if op < .4: s.insert(i, rnd.choice(alphabet))
            elif op < .7 and i < len(s): del s[i]
            elif op < .85: s = s[:i]
            elif s: j = rnd.randrange(len(s)); s[i % len(s)], s[j] = s[j], s[i % len(s)]
        check(''.join(s))

@pytest.mark.parametrize('text', [
    'f(' + '[' * 100_000, 'f(' + '[' * 30_000 + ']' * 30_000 + ')', 'f(' + '{"a":' * 20_000 + '1' + '}' * 20_000 + ')',
    'f(' + '-' * 90_000 + '1)', 'f(' + '+-~' * 30_000 + '1)', 'f(' + 'not ' * 24_000 + '1)', 'f(' + 'a.' * 45_000 + 'b)',
    'f(x=' + '9' * 90_000 + ')', 'f(x=10**10**10**10)', 'f(x="' + 'a' * PYCALL_MAX_CHARS + '")', 'f(1)\n' * 30_000,
    'f(' + 'lambda: ' * 20_000 + '1)', 'f(x=' + '(' * 150 + '1' + ',)' * 150 + ')', 'f(' + 'f(' * 10_000 + ')' * 10_000 + ')',
    'f(x=0x' + 'f' * 99_990 + ')', 'f(x=0o' + '7' * 99_990 + ')', 'f(x=' + '[' * 101 + ']' * 101 + ')'])
def test_caps(text):
    "Deep nesting, huge literals and long input are a ValueError, never RecursionError, MemoryError or a hang"
    for f in (parse_function_call, parse_function_calls):
        with pytest.raises(ValueError): f(text)

def test_many_calls_within_cap():
    "Many short calls in one text are all found"
    assert len(parse_function_calls('f(1)\n' * 10_000)) == 10_000

@pytest.mark.parametrize('text', [
    "f('" * 30_000, 'f("' * 30_000, "(f(' " * 20_000, "[f(" + "'" * 3 * 15_000, 'x f(""" ' * 12_000, "x f(\\'" * 16_000, "x f(\\'''" * 11_000,
    'f(' * 45_000, '[f(' * 30_000, "It's f(x) and g(y), isn't it? " * 3000, 'f(1),' * 20_000, "f(#'\n" * 20_000,
    'a.' * 45_000 + 'b(', '[ ' * 45_000 + 'f(', "f(') " * 20_000 + "'" * 10_000, '\n' + ' ' * 90_000 + 'x', ' # f(' * 20_000,
    '#' * 90_000, '\n#' * 45_000 + 'f(1)'])
def test_scan_linear(text):
    "Text built to make a call finder rescan (unclosed strings and brackets, many candidates) is read in one pass"
    t = time.perf_counter()
    check(text)
    assert time.perf_counter() - t < 3  # generous: these take well under a second each; a quadratic rescan takes minutes

def test_json_safe_ints():
    "Integers in any base are capped as decimal ones are, so every result can be written as JSON"
    for lit in ['0x' + 'f' * 3600, '0b' + '1' * 14_285, '0o' + '7' * 4800]:
        with pytest.raises(ValueError, match='more than 4,300 digits'): parse_function_call(f'f(x={lit})')
    assert json.dumps(parse_function_call('f(x=0x' + 'f' * 3500 + ')'))
