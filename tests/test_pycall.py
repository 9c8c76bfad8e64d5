"Round trips and fuzzing for fncall.pycall: JSON-like arguments survive a trip through Python call text (also with prose around it), and random text only ever raises ValueError (or SyntaxError from parse_function_call). At the end, the tests that left the notebook: private helpers and longer lists of cases."
import ast, json, keyword, random, string
import pytest
from hypothesis import given, settings, strategies as st, HealthCheck
from pydantic import BaseModel, ConfigDict
from work import step_ratio, time_ratio
from fncall.pycall import (parse_function_call, parse_function_calls, map_positional_args, nest_arguments_by_schema, PYCALL_MAX_CHARS,
                           _start_re, _spanned_calls, _scan, _lit, _MAX_INT)

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

SCAN = {  # text of about n chars built to make a call finder rescan (unclosed strings and brackets, many candidates)
    "f(' repeated": lambda n: "f('" * (n//3), 'f(" repeated': lambda n: 'f("' * (n//3), "(f(' repeated": lambda n: "(f(' " * (n//5),
    '[f( then quotes': lambda n: "[f(" + "'" * n, 'triple quotes': lambda n: 'x f(""" ' * (n//8), 'escaped quotes': lambda n: "x f(\\'" * (n//6),
    'escaped triple quotes': lambda n: "x f(\\'''" * (n//9), 'f( repeated': lambda n: 'f(' * (n//2), '[f( repeated': lambda n: '[f(' * (n//3),
    'prose with calls': lambda n: "It's f(x) and g(y), isn't it? " * (n//30), 'calls and commas': lambda n: 'f(1),' * (n//5),
    'comment quotes': lambda n: "f(#'\n" * (n//5), 'dotted name': lambda n: 'a.' * (n//2) + 'b(', 'brackets': lambda n: '[ ' * (n//2) + 'f(',
    'strings then quotes': lambda n: "f(') " * (n//10) + "'" * (n//2), 'spaces': lambda n: '\n' + ' ' * n + 'x', 'comments': lambda n: ' # f(' * (n//5),
    'hashes': lambda n: '#' * n, 'comment lines': lambda n: '\n#' * (n//2) + 'f(1)',
    'keywords and paths': lambda n: 'send(from="C:\\users", to=1)\n' * (n//29)}

@pytest.mark.parametrize('name', SCAN)
def test_scan_linear(name):
    "Each is read in one pass: 8x the text takes about 8x the steps (counted, the same on any machine), and 16x the text under 64x the time of a run on the smaller one (a rescan: 256x)"
    assert step_ratio(SCAN[name], check, 1_000) < 12
    assert time_ratio(SCAN[name], check, 1_000, most=PYCALL_MAX_CHARS//16) < 64

def test_json_safe_ints():
    "Integers in any base are capped as decimal ones are, so every result can be written as JSON"
    for lit in ['0x' + 'f' * 3600, '0b' + '1' * 14_285, '0o' + '7' * 4800]:
        with pytest.raises(ValueError, match='more than 4,300 digits'): parse_function_call(f'f(x={lit})')
    assert json.dumps(parse_function_call('f(x=0x' + 'f' * 3500 + ')'))


# Moved from nbs/05_pycall.ipynb: the tests of private helpers, and the longer lists of cases for the public functions
# (the page keeps a few one-line tests for each behaviour).

def fails(f, *args, contains='', exc=Exception):
    "`f(*args)` raises `exc` with `contains` in its message"
    with pytest.raises(exc) as e: f(*args)
    assert contains in str(e.value), str(e.value)

def lit(s, ctx=None): return _lit(ast.parse(s, mode='eval').body, s, ctx, 'argument x')

def test_lit():
    "_lit reads JSON-like literals and names from context, and says what it refused and where"
    assert lit('{"debug": true, "tags": ("a", -1.5), "none": null}') == {'debug': True, 'tags': ['a', -1.5], 'none': None}
    assert lit('[1, -2, +3.5, "s", None, False]') == [1, -2, 3.5, 's', None, False]
    assert lit(r'"\ud83d\ude00 \ud800"') == '\U0001f600 \ud800'
    assert lit('n', {'n': 3}) == 3
    for s in ['f()', '10**10**10', '[i for i in x]', 'f"{x}"', '{1, 2}', 'b"x"', '1j', '...', '1e999', 'a.b', '--1', 'not 1']:
        fails(lit, s, contains='Invalid function call syntax')
    fails(lit, 'g(1)', contains="a call `g(1)` in argument x")
    fails(lit, '{"a": 1, "a": 2}', contains="duplicate key 'a'")
    fails(lit, '{1: 2}', contains="dict key `1` in argument x is not a string")
    fails(lit, '[[1, user]]', contains="unknown variable 'user' in argument x[0][1]")
    fails(lit, '{"a": {**b}}', contains="**-unpacking")
    fails(lit, '0x' + 'f' * 5000, contains='has more than 4,300 digits')
    fails(lit, '[-0b1' + '0' * 15000 + ']', contains='the integer `0b10000')
    assert lit(hex(_MAX_INT - 1)) == _MAX_INT - 1

def test_call_examples():
    "A few calls as models write them"
    assert parse_function_call('add(1, 2, 3)') == {'tool': 'add', 'arguments': {'_pos_0': 1, '_pos_1': 2, '_pos_2': 3}}
    assert parse_function_call('client.search(query="test")') == {'tool': 'search', 'arguments': {'query': 'test'}}
    assert parse_function_call('config(settings={"debug": true, "timeout": 30})') == \
        {'tool': 'config', 'arguments': {'settings': {'debug': True, 'timeout': 30}}}

def test_call_around_text():
    "What surrounds a call is removed; Python's rules hold for the rest"
    assert parse_function_call('  \n```python\nsearch(query="AI");\n```\n ') == {'tool': 'search', 'arguments': {'query': 'AI'}}
    assert parse_function_call('\ufeffsearch(query="AI")') == {'tool': 'search', 'arguments': {'query': 'AI'}}
    assert parse_function_call('```markdown\n```python\nf(x=1)\n```\n```') == {'tool': 'f', 'arguments': {'x': 1}}
    assert parse_function_call('```python\nf(x="```")```') == {'tool': 'f', 'arguments': {'x': '```'}}
    assert parse_function_call('f(\n  a=1,\n  b=[2,\n     3],\n)')['arguments'] == {'a': 1, 'b': [2, 3]}
    fails(parse_function_call, 'f(a=1, a=2)', contains="keyword argument 'a' repeated")
    fails(parse_function_call, 'f(1, _pos_0=2)', contains="keyword argument '_pos_0' repeated")
    fails(parse_function_call, 'search(key=value', contains='unexpected EOF while parsing', exc=SyntaxError)
    fails(parse_function_call, 'f(a=1, 2)', contains='positional argument follows keyword argument', exc=SyntaxError)
    fails(parse_function_call, 'f(1); g(2)', contains='found 2 statements; use parse_function_calls')
    fails(parse_function_call, '[f(1), g(2)]', contains='use parse_function_calls')
    fails(parse_function_call, '   ', contains='the text is empty')

def test_call_caps():
    "Deep nesting, huge literals and very long input are a ValueError"
    for s in ['f(' + '['*150 + ']'*150 + ')', 'f(' + '['*5000 + ']'*5000 + ')', 'f(' + '('*250 + '1' + ')'*250 + ')',
              'f(' + '-'*50_000 + '1)', 'f(' + 'not '*20_000 + '1)', 'f(' + 'a.'*40_000 + 'b)', 'f(x=' + '9'*5000 + ')',
              'f(x="' + 'a'*PYCALL_MAX_CHARS + '")', 'f(x=0x' + 'f'*99_990 + ')', 'f(x=' + '['*101 + ']'*101 + ')']:
        fails(parse_function_call, s, contains='Invalid function call syntax')
    deep = []
    for _ in range(99): deep = [deep]
    assert parse_function_call('f(' + '['*100 + ']'*100 + ')')['arguments']['_pos_0'] == deep
    fails(parse_function_call, 'f(x=' + '['*101 + ']'*101 + ')', contains="argument 'x' nests more than PYCALL_MAX_DEPTH=100 lists and dicts")
    fails(parse_function_call, 'f(x=' + '{"a": '*101 + '1' + '}'*101 + ')', contains='PYCALL_MAX_DEPTH=100')

def test_call_errors():
    "A call cut off is a SyntaxError with Python's old message; everything else a ValueError, with these exact messages"
    def safe_parse(call_str):
        try: return parse_function_call(call_str), None
        except ValueError as e: return None, f"Invalid function call: {e}"
        except SyntaxError as e: return None, f"Syntax error: {e}"
    assert safe_parse('search(key=value')[1] == 'Syntax error: unexpected EOF while parsing'
    assert safe_parse('not a function')[1] == 'Invalid function call: Not a function call'
    assert safe_parse('search(**kwargs)')[1] == 'Invalid function call: **kwargs not supported'
    assert safe_parse('search("AI")') == ({'tool': 'search', 'arguments': {'_pos_0': 'AI'}}, None)

def test_map_examples():
    "map_positional_args names positional values, keeps keywords, and says exactly what is wrong"
    args = parse_function_call('search("AI", 10)')
    assert map_positional_args(args['arguments'], ['query', 'limit']) == {'query': 'AI', 'limit': 10}
    with pytest.raises(ValueError) as e: map_positional_args(parse_function_call('func(1, 2, 3)')['arguments'], ['a', 'b'])
    assert str(e.value) == 'Too many positional arguments (expected 2)'
    assert map_positional_args(parse_function_call('create("user", "alice_id", "Alice Smith")')['arguments'], ['entity_type', 'id', 'name']) == \
        {'entity_type': 'user', 'id': 'alice_id', 'name': 'Alice Smith'}
    assert map_positional_args(parse_function_call('search("AI research", limit=20, sort="relevance")')['arguments'], ['query']) == \
        {'query': 'AI research', 'limit': 20, 'sort': 'relevance'}
    param_map = {'search': ['query'], 'create': ['entity_type'], 'update': ['id']}
    res = [map_positional_args((p := parse_function_call(s))['arguments'], param_map[p['tool']])
           for s in ['search("AI", limit=10)', 'create("user", name="Alice")', 'update("user_123", status="active")']]
    assert res == [{'query': 'AI', 'limit': 10}, {'entity_type': 'user', 'name': 'Alice'}, {'id': 'user_123', 'status': 'active'}]

class SearchOptions(BaseModel):
    query: str
    limit: int

class SearchRequest(BaseModel):
    action: str
    options: SearchOptions

def test_nest_flat():
    "A schema without nested models leaves arguments as they are; unknown keys stay at the top; non-models change nothing"
    class FlatSchema(BaseModel):
        query: str
        limit: int
    assert nest_arguments_by_schema({'query': 'AI', 'limit': 10}, FlatSchema) == {'query': 'AI', 'limit': 10}
    assert nest_arguments_by_schema({'action': 'search', 'query': 'AI', 'unknown': 'value'}, SearchRequest) == \
        {'action': 'search', 'options': {'query': 'AI'}, 'unknown': 'value'}
    assert nest_arguments_by_schema({'a': 1}, None) == {'a': 1}
    assert nest_arguments_by_schema({'a': 1}, dict) == {'a': 1}

def test_nest_union_member():
    "Which member of a union validation picks follows from the fields given"
    class EmailConfig(BaseModel):
        email: str
        send_notifications: bool
    class PhoneConfig(BaseModel):
        phone: str
        sms_enabled: bool
    class UserRequest(BaseModel):
        action: str
        contact: EmailConfig | PhoneConfig
    nested = nest_arguments_by_schema(parse_function_call('create(email="alice@example.com", send_notifications=true)')['arguments'], UserRequest)
    assert nested == {'contact': {'email': 'alice@example.com', 'send_notifications': True}}
    assert type(UserRequest(action='create', **nested).contact) is EmailConfig
    nested = nest_arguments_by_schema(parse_function_call('create(phone="+1234567890", sms_enabled=false)')['arguments'], UserRequest)
    assert nested == {'contact': {'phone': '+1234567890', 'sms_enabled': False}}
    assert type(UserRequest(action='create', **nested).contact) is PhoneConfig

def test_nest_pitfalls():
    "Unmapped positional arguments fail validation; unknown fields are dropped by pydantic unless the model forbids them"
    class SearchAction(BaseModel):
        action: str
        options: SearchOptions
    fails(lambda: SearchAction(**parse_function_call('search("AI", 10)')['arguments']), contains='Field required')
    class WrongSchema(BaseModel):
        query: str
    class StrictSchema(BaseModel):
        model_config = ConfigDict(extra='forbid')
        query: str
    flat_args = {'query': 'AI', 'limit': 10}
    assert nest_arguments_by_schema(flat_args, WrongSchema) == {'query': 'AI', 'limit': 10}
    assert WrongSchema(**flat_args).query == 'AI'
    fails(lambda: StrictSchema(**flat_args), contains='Extra inputs are not permitted')

both = [{'tool': 'f', 'arguments': {'a': 1}}, {'tool': 'g', 'arguments': {'b': 'x'}}]

def test_calls_formats():
    "Every way models write several calls gives the same calls; text without calls gives none"
    for s in ['[f(a=1), g(b="x")]', 'f(a=1)\ng(b="x")', 'f(a=1); g(b="x")', '<|python_tag|>f(a=1); g(b="x")<|eom_id|>',
              '```tool_code\nprint(default_api.f(a=1))\nprint(default_api.g(b="x"))\n```', 'Calling:\n[f(a=1), g(b="x")]\nDone.',
              'Text ```python\nf(a=1)\n``` and ```python\ng(b="x")\n```', '[f(\n  a=1,\n), g(b="x")]', '(f(a=1), g(b="x"))',
              '```\n```python\nf(a=1)\n```\n```\ng(b="x")', '\ufeff[f(a=1), g(b="x")]']:
        assert parse_function_calls(s) == both, s
    assert parse_function_calls('get_current_weather("San Francisco, CA", unit="celsius")') == \
        [parse_function_call('get_current_weather("San Francisco, CA", unit="celsius")')]
    assert parse_function_calls('add(x, 1)', context={'x': 2}) == [{'tool': 'add', 'arguments': {'_pos_0': 2, '_pos_1': 1}}]
    assert parse_function_calls('print("hello")') == [{'tool': 'print', 'arguments': {'_pos_0': 'hello'}}]
    for s in ['', 'No tool needed (this is prose).', 'Done', '```json\n{"a": 1}\n```', '<|python_tag|>{"name": "f"}', "It's f (a=1)."]:
        assert parse_function_calls(s) == [], s
    fails(parse_function_calls, '[f(a=1), 2]', contains='found a constant `2` in `[f(a=1), 2]`')
    fails(parse_function_calls, 'Sure:\nf(a=g(1))', contains="a call `g(1)` in argument 'a'")
    fails(parse_function_calls, 'Sure:\nf(a=1, a=2)', contains="repeated")
    fails(parse_function_calls, 'f(1)\ng(user)', contains="unknown variable 'user'")

def test_calls_in_prose():
    "Prose around calls never breaks them, and calls may span lines"
    assert parse_function_calls("Here's the call:\n[f(a=1),\n g(b='x')]") == both
    assert parse_function_calls("I'll call:\nf(a=[1,\n2])") == [{'tool': 'f', 'arguments': {'a': [1, 2]}}]
    assert parse_function_calls("I'll call:\nf(a=')', b='it''s')  # it's one call\nthat's it)") == [{'tool': 'f', 'arguments': {'a': ')', 'b': 'its'}}]
    assert parse_function_calls('Answer: f(a=1)') == [{'tool': 'f', 'arguments': {'a': 1}}]
    assert parse_function_calls('Thought: it is sunny.\nAction: g(b="x") (then stop)') == both[1:]
    assert parse_function_calls('x = f(a=1)\n\n1) first, [g(b="x")]!') == both
    assert parse_function_calls("Don't wait: (f(a=1) now, it's g(b=2)") == [both[0], {'tool': 'g', 'arguments': {'b': 2}}]
    assert parse_function_calls("So f(a=1 isn't closed, but g(b=\"x\") is") == both[1:]
    assert parse_function_calls('```tool_code\nprint(default_api.f(a=1))\n```\n```tool_outputs\n{"r": 1}\n```') == both[:1]
    assert parse_function_calls('```python\ndef f(a=1): return g(b="x")\nclass f(a=1): pass\n```') == both[1:]

def test_calls_comments():
    "A call in a comment is not returned; a `#` in prose does not hide the call after it"
    sq = [{'tool': 'search', 'arguments': {'q': 'y'}}]
    for s in ["# delete_all(confirm=True)\nsearch(q='y')", "search(q='y') # delete_all()", "  #delete_all()\nsearch(q='y')", "x = 1; # delete_all()\nsearch(q='y')",
              "<|python_tag|># delete_all()\nsearch(q='y')", "search(q='y')\n#", "[search(q='y')  # delete_all()\n]"]:
        assert parse_function_calls(s) == sq, s
    for s in ["See issue #3: search(q='y')", "In C#, search(q='y')", "Tagged #tools: search(q='y')", "x=1#\nsearch(q='y')"]:
        assert parse_function_calls(s) == sq, s

def test_scan_parts():
    "_scan: an apostrophe is prose, a `)` in a string is a string, a call cut off at the end is reported with its problem"
    t = "It's [f(a=1), g(b=')')] or h(x"
    assert [(t[a:b], why, [t[x:y] for x, y, _ in parts]) for a, b, why, parts in _scan(t)] == \
        [("[f(a=1), g(b=')')]", None, ['f(a=1)', "g(b=')')"]), ('h(x', 'is never closed', [])]
    assert parse_function_calls(t) == [{'tool': 'f', 'arguments': {'a': 1}}, {'tool': 'g', 'arguments': {'b': ')'}}]

def test_spanned_calls_examples():
    "A call's span is its whole statement, and each call of a list gets its own"
    t = '\ufeffOK: [f(a=1), (g(b="é"))]\n```tool_code\n# h(0)\nprint(default_api.h(x=1))  # h(2)\n```'
    assert [(c['tool'], t[a:b]) for c, (a, b) in _spanned_calls(t)] == [('f', 'f(a=1)'), ('g', '(g(b="é"))'), ('h', 'print(default_api.h(x=1))')]
    s = 'f(1); g(x=[2])\n(k(3)) [print(m(4))]'
    assert [s[a:b] for _, (a, b) in _spanned_calls(s)] == ['f(1)', 'g(x=[2])', 'k(3)', 'print(m(4))']
