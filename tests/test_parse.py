"Adversarial inputs and random-chunking stream tests for fncall.parse (outcomes only, no timings)"
import json, random
import pytest
from fncall.parse import ToolCall, ToolCallParser, StreamParser

P = ToolCallParser()

FIXTURES = [
    'TOOL_CALL\n{"tool_name": "search", "parameters": {"query": "Python tutorials"}}',
    'TOOL_CALL\n\n```json\n{\n  "tool_name": "search",\n  "parameters": { "query": "Python tutorials" }\n}\n```\n',
    "I'll search.\n\nTOOL_CALL\n{'tool_name': 'search', 'parameters': {'s': 'a } b', 'q': \"it's\"}}\n\nLet me.",
    '{"tool": "search", "params": {}}',
    'TOOL_CALL {"tool_name": "write_file", "parameters": {"content": "Line 1\nLine 2"}}',
    '{"tool_name": "first"}\n{"tool_name": "second"}',
    '{"tool_name": "", "parameters": {}}',
    '{"tool_name": "get_time", "parameters": null}',
    'Just a regular response.',
    'The user is {"name": "Bob", "age": 3}.',
    '{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{\\"a\\": 1}"}}',
    '<tool_call>\n{"name": "a", "arguments": {"x": 1}}\n</tool_call>\n<tool_call>\n{"name": "b", "arguments": {}}',
    '<tool_call>{"name": "a", "arguments": {"x": 1}</tool_call> and {"name": "c", "arguments": {"k": "<tool_call>"}}',
    '[TOOL_CALLS][{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {"y": [1, {"z": 2}]}}]',
    '[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}',
    '[TOOL_CALLS]get_weather{"city": "Paris"} and [TOOL_CALLS] nothing',
    '<|python_tag|>{"name": "a", "parameters": {"x": 1}}; {"name": "b", "parameters": {}}<|eom_id|>',
    '<function_calls>\n<invoke name="get">\n<parameter name="n">3</parameter>\n<parameter name="s">hello</parameter>\n</invoke>\n</function_calls>',
    '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n3\n</parameter>\n</function>\n</tool_call>',
    'TOOL_CALLS are nice TOOL_CALL: {"tool_name": "x"} and then TOOL_CALL alone',
    'TOOL_CALL {"tool_name": "a", "parameters": {"name": "b", "arguments": {}}',
    'I will call [get_weather(city="Paris"), search(q="x", n=3)] now.',
    'prose {like this} then {"name": "f", "arguments": {"s": "\\\\", "t": "\\"}{"}}',
    '```json\n{"name": "f", "arguments": {"a": [1, 2, 3]}, "id": "x"}\n```\n{"name": "g", "arguments": {"b": "\u00e9\\u00e9"}}',
]

def stream(text, rng, parser=P, tools=None):
    "Feed `text` to a StreamParser in random chunks; return it and its events"
    sp,evs,i = StreamParser(tools=tools, parser=parser),[],0
    while i < len(text):
        n = rng.choice([1, 1, 2, 3, 5, 8, 13, 64, 1000])
        evs += sp.feed(text[i:i+n]); i += n
    return sp, evs + sp.close()

@pytest.mark.parametrize('text', FIXTURES)
def test_stream_matches_one_shot(text):
    rng = random.Random(hash(text) & 0xffff)
    for tools in (None, ['a', 'search', 'get']):
        ref = P.parse(text, tools=tools)
        for _ in range(25):
            sp,evs = stream(text, rng, tools=tools)
            ends = [e.tool_call for e in evs if e.type == 'end']
            assert ends == ref.tool_calls
            assert [c.span for c in ends] == [c.span for c in ref.tool_calls]
            assert sp.result() == ref
            deltas,names = {},{}
            for e in evs:
                if e.type == 'start': assert e.index not in deltas; deltas[e.index],names[e.index] = [],e.tool_name
                elif e.type == 'delta': deltas[e.index].append(e.text)
                elif e.type == 'end':
                    assert names[e.index] == e.tool_call.tool_name
                    assert json.loads(''.join(deltas.pop(e.index)), strict=False) == e.tool_call.parameters
            assert not deltas

def test_stream_deltas_arrive_early():
    "The start and argument text of a long call come before the call is complete"
    text = '{"name": "write", "arguments": {"content": "' + 'x'*5000 + '"}}'
    sp = StreamParser()
    evs = sp.feed(text[:2000])
    assert [e.type for e in evs][:1] == ['start'] and evs[0].tool_name == 'write'
    assert ''.join(e.text for e in evs if e.type == 'delta') == text[31:2000]
    rest = sp.feed(text[2000:]) + sp.close()
    assert rest[-1].type == 'end' and rest[-1].tool_call.parameters == {'content': 'x'*5000}

def test_stream_started_call_that_fails_ends_in_error():
    sp = StreamParser(parser=ToolCallParser(max_payload_chars=100))
    evs = sp.feed('{"name": "w", "arguments": {"s": "' + 'x'*500 + '"}}') + sp.close()
    assert [e.type for e in evs][0] == 'start' and evs[-1].type == 'error'
    assert 'max_payload_chars is 100' in evs[-1].error.reason

ADVERSARIAL = {
    'curly': '{' * 100_000,
    'square': '[' * 100_000,
    'marker': 'TOOL_CALL {' * 1000,
    'hermes': '<tool_call>' * 50_000,
    'unclosed_string': '{"a": "' + 'x' * 1_000_000,
    'unclosed_marked_string': 'TOOL_CALL {"tool_name": "x", "parameters": {"a": "' + 'x' * 1_000_000,
    'deep_valid': 'TOOL_CALL {"tool_name": "x", "parameters": {"a": ' + '[' * 2000 + ']' * 2000 + '}}',
    'deep_objects': '{"a": ' * 2000 + '1' + '}' * 2000,
    'quotes': '{"' * 50_000,
    'single_quotes': "{'" * 50_000,
    'backslashes': '{"a": "' + '\\' * 100_001,
    'tags_in_json': '{"a": ' + '<' * 100_000,
    'xml': '<function_calls><invoke name="f"><parameter name="p">' * 5_000,
    'qwen': '<function=f><parameter=p>' * 5_000,
    'mistral': '[TOOL_CALLS]' * 50_000,
    'pythonic': '[f(' * 30_000,
    'fences': '```json\n{"name": ' * 5_000,
    'many_small_calls': '{"name": "f", "arguments": {}}' * 5_000,
}

@pytest.mark.parametrize('name', ADVERSARIAL)
def test_adversarial(name):
    "Each finishes (quickly: the scan is linear, caps apply before parsing) with a sane outcome"
    r = P.parse(ADVERSARIAL[name])
    n = {'many_small_calls': 5_000, 'xml': 5_000, 'qwen': 1}.get(name, 0)  # unclosed XML calls still count
    assert len(r.tool_calls) == n
    if name in ('unclosed_marked_string',): assert 'max_payload_chars' in r.errors[0].reason
    if name == 'deep_valid': assert 'max_depth' in r.errors[0].reason

@pytest.mark.parametrize('name', ['curly', 'hermes', 'unclosed_marked_string', 'xml', 'many_small_calls'])
def test_adversarial_streamed(name):
    text = ADVERSARIAL[name]
    sp = StreamParser()
    for i in range(0, len(text), 4096): sp.feed(text[i:i+4096])
    sp.close()
    assert sp.result() == P.parse(text)

def test_deep_valid_within_limits():
    "Valid nesting under max_depth parses"
    t = 'TOOL_CALL {"tool_name": "x", "parameters": {"a": ' + '[' * 90 + ']' * 90 + '}}'
    assert P.parse(t).tool_call.tool_name == 'x'

def test_repair_surprises():
    "A repair that gives another type or an empty string is not a call"
    r = P.parse('TOOL_CALL {{{{ }')
    assert r.tool_calls == [] and r.errors
    assert P.parse('<tool_call>{"name": "a", "arguments": [1, 2]}</tool_call>').errors[0].reason == 'a: arguments must be a JSON object, got list'
    assert P.parse('<tool_call>{"name": "a", "arguments": "not json"}</tool_call>').errors

def test_marker_split_everywhere():
    text = 'xx TOOL_CALL {"tool_name": "s", "parameters": {"q": 1}} [TOOL_CALLS]g[ARGS]{"a": 2}'
    ref = P.parse(text)
    assert [c.tool_name for c in ref.tool_calls] == ['s', 'g']
    for k in range(1, len(text)):
        sp = StreamParser()
        evs = sp.feed(text[:k]) + sp.feed(text[k:]) + sp.close()
        assert [e.tool_call for e in evs if e.type == 'end'] == ref.tool_calls

def test_random_text_never_raises():
    rng = random.Random(7)
    alphabet = '{}[]"\'\\:,<>/= \nabTOOL_CALSnme`|'
    for _ in range(300):
        t = ''.join(rng.choice(alphabet) for _ in range(rng.randint(0, 200)))
        ref = P.parse(t)
        sp,_ = stream(t, rng)
        assert sp.result() == ref

def test_fast_path_matches_scan():
    "`parse` decodes valid JSON with json's C decoder first; the result, spans included, is what the scan alone gives"
    rng = random.Random(11)
    snips = FIXTURES + ['[{"name": "f", "arguments": {}} , {"name": "g"}]', '[]', '[1,]', '[[[[[]]]]]', '[ {"name": "f"}\x0b]',
                        '{"name": "f", "arguments": {"a": [[[[1]]]]}}', '"', "'", '\\', '<tool_call>', '```', 'TOOL_CALL', '{', ']', ',']
    for _ in range(400):
        t = ''.join(rng.choice(snips) for _ in range(rng.randint(1, 5)))
        for _ in range(rng.choice([0, 0, 1, 3])):
            k = rng.randrange(len(t)+1); t = t[:k] + rng.choice('{}[]"\'\\,: \x0b\n<`0') + t[k:]
        p = ToolCallParser(max_payload_chars=rng.choice([8000, 30, 60]))
        p.max_depth = rng.choice([100, 2, 3])
        tools = rng.choice([None, ['a', 'f', 'search']])
        sp = StreamParser(tools=tools, parser=p)
        sp.feed(t); sp.close()
        r = p.parse(t, tools=tools)
        assert r == sp.result()
        assert [c.span for c in r.tool_calls] == [c.span for c in sp.result().tool_calls]
    for c in ('{"name": "f", "arguments": {"a": []}}', '[{"name": "f", "arguments": {"a": []}}]'):  # at the caps
        depth = 3 + c.startswith('[')
        for cap,d,n in ((len(c), depth, 1), (len(c)-1, depth, 0), (len(c), depth-1, 0)):
            p = ToolCallParser(max_payload_chars=cap); p.max_depth = d
            assert len(p.parse(c).tool_calls) == n
