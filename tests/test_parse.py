"Adversarial inputs and random-chunking stream tests for fncall.parse (outcomes, and work counted: no clock limits)"
import gc, json, random, sys, tracemalloc
import pytest
from fncall.parse import ToolCall, ToolCallParser, StreamParser, Dialect
from work import copy_ratio, step_ratio, time_ratio

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
    # arguments that need repair: the deltas are the model's text, the end event says so
    '{"name": "f", "arguments": {\'a\': 1}}',
    '<tool_call>{"name": "g", "arguments": {"b": 2}',
    '<tool_call>{"name": "g", "arguments": {"b": "unterminated',
    '{"name": "f", "arguments": {"a": 1,}}',
    '{"name": "f", "arguments": {"a": True}}',
    'TOOL_CALL {"tool_name": "f", "parameters": {"a": [1, 2}}',
    '[TOOL_CALLS]f{"a": 1',
    '[TOOL_CALLS]f{"a": 1}[TOOL_CALLS]g[ARGS]{"b": 2}',
    '{"name": "f", "arguments": {"a": 1}, "arguments": {"a": 2}}',
    '{"name": "f", "arguments": {"a": NaN}}',
    # stray closers and outer objects that are not JSON: no inner call is promoted
    '{"tool_name":"f","parameters":{"x":[1,2,}}, "inner":{"tool_name":"g","parameters":{}}}}',
    '{"tool_name": "f", "parameters": {"x": "a"}}, "y": {"tool_name": "g", "parameters": {}}}',
    'const call = { payload: {"name": "delete_all", "arguments": {}} };',
    '{x {"tool_name": "g", "parameters": {}}}',
    '{"name": "f", "arguments": {}} , {"name": "g", "arguments": {}}',
    # Python-style calls: lists, <|python_tag|>, ```tool_code
    '[f(a=g(1))] and [f(x)] and [f(a=1), 2] and [get(1)]',
    '<|python_tag|>get_weather(city="Paris"); search(q="x")<|eom_id|>',
    '<|python_tag|>f(a=1)',
    'Checking.\n```tool_code\nprint(default_api.search(q="x"))\n```\nDone.',
    '<function_calls><invoke name="f"><parameter name="a">NaN</parameter></invoke></function_calls>',
    # found in review: a repair that loses a call, `<` in XML names, an object naming two tools, comments, JSON in Python-style arguments
    'Calls: [call {"name": "f", "arguments": {"a": 1}}]',
    'ag|>f(a[{"tool_name": "f", "parameters": {"x": "a"}}, "y": {"tool_name": "g", "parameters": {}}}<tool_call>{"name": "g", "arguments": {"b": 2}',
    '<function=f><parameter=x<y>1</parameter><parameter=z>2</parameter></function> <function_calls><invoke name="a<b"></invoke></function_calls>',
    '{"name": "f", "arguments": {}, "name": "g"}',
    '<tool_call>{"name": "g", "arguments": {"b": 2}{"tool_name":"f","parameters":{"x":[1,2,}}, "inner":{"tool_name":"g","parameters":{}}}}',
    "```tool_code\n# not now: delete_all(confirm=True)\nsearch(q='y')  # delete_all()\n```",
    '[f(spec={"name": "x", "arguments": {}}), g(b=1)]',
    '[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {"y": ',
    # the dialects, with reasoning and content around them
    '<think>maybe [f(a=1)]</think>So: <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>a\n```json\n{"x": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜> ok',
    '<tool_call>get\n<arg_key>n</arg_key>\n<arg_value>3</arg_value>\n</tool_call><tool_call>{"name": "b", "arguments": {}}</tool_call>',
    'Hi<|tool_calls_section_begin|><|tool_call_begin|>functions.a:0<|tool_call_argument_begin|>{"x": 1}<|tool_call_end|><|tool_calls_section_end|>',
    '<|tool_call>call:a{x:<|"|>y<|"|>,n:[1,2]}<tool_call|>text<|tool_call>call:b{}<tool_call|>',
    '<|channel|>analysis<|message|>think<|end|><|start|>assistant<|channel|>commentary to=functions.a <|constrain|>json<|message|>{"x": 1}<|call|>',
    '<｜DSML｜function_calls><｜DSML｜invoke name="a"><｜DSML｜parameter name="x" string="false">1</｜DSML｜parameter></｜DSML｜invoke></｜DSML｜function_calls>',
    'Plan <tool_call>{"name": "a", "arguments": {}}</tool_call>\n</think>\nAnswer {"name": "b", "arguments": {}}',
    '[THINK]x[/THINK]<|START_RESPONSE|>Hi<|END_RESPONSE|><tool_calls>[{"name": "a", "arguments": {}}]</tool_calls><TOOLCALL>oops</TOOLCALL>',
    'Note.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "a", "arguments": {"x": 1}}</s>',
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
            lone = '</think>' in text and '<think>' not in text  # the stream learns only at the end tag that the text before it was reasoning
            assert ends == ref.tool_calls or lone
            assert [c.span for c in ends] == [c.span for c in ref.tool_calls] or lone
            assert sp.result() == ref
            check_deltas(text, evs)
            check_errors(sp, evs)
            check_text(sp, evs)

def check_text(sp, evs):
    "The 'text' events are the content, and the 'reasoning' events the reasoning (where no lone end of reasoning moved text there)"
    r = sp.result()
    assert ''.join(e.text for e in evs if e.type == 'text') == r.content or '</think>' in r.raw_text
    assert ''.join(e.text for e in evs if e.type == 'reasoning') == r.reasoning or '</think>' in r.raw_text

def check_errors(sp, evs):
    "Each error is in result().errors once and comes as one event, with the index of the call it ends; one ending several calls comes once per call"
    errs = [e for e in evs if e.type == 'error']
    assert list({id(e.error): e.error for e in errs}.values()) == sp.result().errors
    assert len({id(e.error) for e in errs if e.index is None}) == len([e for e in errs if e.index is None])
    assert not any(e.index is None for e in errs if any(x.error is e.error and x.index is not None for x in errs))

def check_deltas(text, evs):
    "What the events guarantee: the deltas of a call are the model's argument text (or, for formats without JSON arguments,"
    "the final JSON); they parse to the final arguments unless 'end' says `repaired`; 'end' carries the final arguments as JSON"
    deltas,names = {},{}
    for e in evs:
        if e.type == 'start': assert e.index not in deltas; deltas[e.index],names[e.index] = [],e.tool_name
        elif e.type == 'delta': deltas[e.index].append(e.text)
        elif e.type == 'end':
            raw,params = ''.join(deltas.pop(e.index)),e.tool_call.parameters
            assert names[e.index] == e.tool_call.tool_name
            assert e.text == json.dumps(params)
            assert raw in text or raw == e.text
            try: same = json.loads(raw, strict=False) == params
            except ValueError: same = False
            assert same != e.repaired
        elif e.type == 'error' and e.index is not None: deltas.pop(e.index)
    assert not deltas

def test_repaired_deltas_are_flagged():
    "The fixtures cover both sides of the guarantee"
    flags = {e.repaired for t in FIXTURES for sp in [StreamParser()] for e in sp.feed(t) + sp.close() if e.type == 'end'}
    assert flags == {True, False}

def test_stream_deltas_arrive_early():
    "The start and argument text of a long call come before the call is complete"
    text = '{"name": "write", "arguments": {"content": "' + 'x'*5000 + '"}}'
    sp = StreamParser()
    evs = sp.feed(text[:2000])
    assert [e.type for e in evs][:1] == ['start'] and evs[0].tool_name == 'write'
    assert ''.join(e.text for e in evs if e.type == 'delta') == text[31:2000]
    rest = sp.feed(text[2000:]) + sp.close()
    assert rest[-1].type == 'end' and rest[-1].tool_call.parameters == {'content': 'x'*5000}

def test_stream_hermes_call_starts_at_once():
    "`<tool_call>` then JSON can't be GLM's (a name follows its tag): the call streams from its first chars, not 210 chars later"
    text = 'Sure.\n<tool_call>\n{"name": "write", "arguments": {"content": "' + 'x'*500 + '"}}\n</tool_call>'
    sp, first = StreamParser(), None
    for i,ch in enumerate(text):
        if any(e.type == 'start' for e in sp.feed(ch)) and first is None: first = i
    assert first is not None and first < text.index('{') + 40, first
    glm = '<tool_call>get_weather\n<arg_key>city</arg_key>\n<arg_value>Paris</arg_value>\n</tool_call>'
    sp = StreamParser()
    evs = [e for ch in glm for e in sp.feed(ch)] + sp.close()
    assert [e.tool_call for e in evs if e.type == 'end'] == [ToolCall('get_weather', {'city': 'Paris'})]

@pytest.mark.parametrize('call', ['<tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>', '[TOOL_CALLS][{"name": "f", "arguments": {"a": 1}}]',
                                  '```json\n{"name": "f", "arguments": {"a": 1}}\n```', '{"name": "f", "arguments": {"a": 1}}'])
def test_stream_text_before_its_call(call):
    "The prose before a call is sent before the call starts, in any chunking: a chat UI shows them in the order written"
    prose = 'Sure, let me look that up for you now, it takes a moment.\n'
    for n in (1, 7, 64):
        sp, before, started = StreamParser(), [], False
        text = prose + call + '\nDone.'
        for i in range(0, len(text), n):
            for e in sp.feed(text[i:i+n]):
                started = started or e.type == 'start'
                if e.type == 'text' and not started: before.append(e.text)
        sp.close()
        assert ''.join(before).strip() == prose.strip(), (n, before)

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
    n = {'many_small_calls': 5_000, 'xml': 4_999}.get(name, 0)  # unclosed XML calls still count, but for the last: the text ends inside it
    assert len(r.tool_calls) == n
    if name in ('xml', 'qwen'): assert r.errors[-1].reason.endswith('the call is cut off at the end of the text: its arguments may be missing some')
    if name in ('unclosed_marked_string',): assert 'max_payload_chars' in r.errors[0].reason
    if name == 'deep_valid': assert 'max_depth' in r.errors[0].reason

QUADRATIC_BEFORE = {  # ~1 MB each; these took 10 s, 8 s and 44 s before
    'bad_escapes': '{"a": "\\' * 125_000,
    'prose_paths': 'Path {"p": "C:\\data\\x"} ok\n' * 38_000,
    'repairs': ('TOOL_CALL {"tool_name": "f", "parameters": {' + 'a: b, ' * 1300 + '}}\n') * 128,
    'small_repairs': ('TOOL_CALL {"tool_name": "f", "parameters": {' + 'a: b, ' * 330 + '}}\n') * 500,
}

@pytest.mark.parametrize('name', QUADRATIC_BEFORE)
@pytest.mark.parametrize('streamed', [False, True])
def test_once_quadratic_inputs(name, streamed):
    "Bad string escapes and broken JSON at 1 MB, as one chunk or many: what comes out (`test_linear` checks their time grows linearly)"
    text = QUADRATIC_BEFORE[name]
    if streamed:
        sp = StreamParser()
        sp.feed(text); sp.close()
        r = sp.result()
    else: r = P.parse(text)
    n = {'repairs': 0, 'small_repairs': 7}.get(name, 0)  # the repair budget holds 7 of the small ones, none of the big
    assert len(r.tool_calls) == n
    if name.endswith('repairs'): assert 'too large to repair' in r.errors[-1].reason

@pytest.mark.parametrize('name', ADVERSARIAL)
@pytest.mark.parametrize('chunk', [4096, None])
def test_adversarial_streamed(name, chunk):
    "Streamed in chunks or as one chunk, each agrees with parse"
    text = ADVERSARIAL[name]
    sp = StreamParser()
    for i in range(0, len(text), chunk or len(text)): sp.feed(text[i:i+(chunk or len(text))])
    sp.close()
    assert sp.result() == P.parse(text)

BIG = {  # ~1 MB each at k=1 (smaller for k>1), and the parser's cap; the array of small objects took 8 s at 128 KB as one chunk (each object copied the rest of the chunk)
    'array_of_objects': (lambda k: '[' + '{"a":1},' * (131_000//k) + '{"a":1}]', 8000),
    'array_of_calls': (lambda k: '[' + '{"name": "f", "arguments": {"a": 1}},' * (28_000//k) + '{"name": "f", "arguments": {"a": 1}}]', 2_000_000),
    'calls': (lambda k: 'Step: {"name": "f", "arguments": {"a": [1, 2], "s": "x"}}\n' * (17_000//k), 8000),
    'long_heads': (lambda k: '[' + ('{' + ('"id": "' + 'x' * 190 + '", ') * 5 + '"name": "f", "arguments": {}},') * (1000//k) + '{}]', 2_000_000),
}

def _stream(text, chunk, cap):
    "Stream `text` in chunks of `chunk` (None: one chunk): the parser, the stream and its events"
    n, p = chunk or len(text), ToolCallParser(max_payload_chars=cap)
    sp = StreamParser(parser=p)
    evs = [e for i in range(0, len(text), n) for e in sp.feed(text[i:i+n])] + sp.close()
    return p, sp, evs

@pytest.mark.parametrize('name', BIG)
@pytest.mark.parametrize('chunk', [None, 256])
def test_stream_big_text(name, chunk):
    "1 MB as one chunk or as many: what parse gives, every start ended; and linear work (8x the text, about 8x the steps)"
    mk, cap = BIG[name]
    (p, sp, evs), text = _stream(mk(1), chunk, cap), mk(1)
    assert sp.result() == p.parse(text)
    assert len([e for e in evs if e.type == 'start']) == len([e for e in evs if e.type in ('end', 'error') and e.index is not None])
    assert step_ratio(lambda n: mk(n), lambda t: _stream(t, chunk, cap), 64) < 12  # mk(64) is 8x smaller than mk(8)

def _peak(f):
    "Peak bytes `f()` allocates, by tracemalloc: counted, the same at any load"
    gc.collect(); tracemalloc.start()
    try: f(); return tracemalloc.get_traced_memory()[1]
    finally: tracemalloc.stop()

def test_stream_memory():
    "In 64-char chunks, a stream keeps its text in few blocks (a str a chunk costs ~50 bytes more than its 64 chars: 1.8x the text), and all it holds beyond what parse's result holds is about that text; result() is parse's"
    body = 'x = \\"a\\\\\\\\b\\"\\n' * 200  # escapes a chunk may split
    text = ''.join(f'Step {i}.\n<tool_call>\n{{"name": "write", "arguments": {{"path": "m{i}.py", "body": "{body}"}}}}\n</tool_call>\n' for i in range(100))
    def stream():
        sp = StreamParser()
        for i in range(0, len(text), 64): sp.feed(text[i:i+64])
        sp.close()
        return sp
    sp = stream()
    assert sum(map(sys.getsizeof, sp.chunks)) < 1.05 * len(text)
    assert _peak(stream) - _peak(lambda: P.parse(text)) < 1.3 * len(text)  # 1.95x when it kept every chunk
    r = P.parse(text)
    assert len(r.tool_calls) == 100 and sp.result() == r

GROWING = {  # text of about n chars, built to make a parser go back over it; the last ones are the issue's (26)
    '{ repeated': lambda n: '{' * n,
    '[ repeated': lambda n: '[' * n,
    'marker {': lambda n: 'TOOL_CALL {' * (n // 11),
    '<tool_call> repeated': lambda n: '<tool_call>' * (n // 11),
    'unclosed string': lambda n: 'TOOL_CALL {"tool_name": "x", "parameters": {"a": "' + 'x' * n,
    'deep valid nesting': lambda n: 'TOOL_CALL {"tool_name": "x", "parameters": {"a": ' + '[' * (n // 2) + ']' * (n // 2) + '}}',
    '{" repeated': lambda n: '{"' * (n // 2),
    'backslashes': lambda n: '{"a": "' + '\\' * n,
    'bad escapes': lambda n: '{"a": "\\' * (n // 8),
    'paths with bad escapes': lambda n: 'Path {"p": "C:\\data\\x"} ok\n' * (n // 27),
    'broken JSON calls': lambda n: ('TOOL_CALL {"tool_name": "f", "parameters": {' + 'a: b, ' * 330 + '}}\n') * max(1, n // 2025),
    'prose braces': lambda n: '{x} [y] ' * (n // 8),
    'xml': lambda n: '<function_calls><invoke name="f"><parameter name="p">' * (n // 55),
    'qwen': lambda n: '<function=f><parameter=p>' * (n // 25),
    'pythonic': lambda n: '[f(' * (n // 3),
    'GLM calls': lambda n: '<tool_call>set_alarm\n<arg_key>time</arg_key>\n<arg_value>07:30</arg_value>\n</tool_call>\n' * (n // 82),
    'tagged calls': lambda n: 'x <tool_calls>[{"name": "add", "arguments": {"a": 1}}]</tool_calls>\n' * (n // 67),
    'many small spans': lambda n: '<think>x</think>' * (n // 16),  # a span that copied the rest of the text would show here
    'GLM <arg_key> repeated': lambda n: '<tool_call>f<arg_key>' + '<arg_key>' * (n // 9),
    'GLM pairs, closed': lambda n: '<tool_call>f' + '<arg_key>k</arg_key><arg_value>v' * (n // 31) + '</tool_call>',
    'DeepSeek begins': lambda n: '<｜tool▁calls▁begin｜>' + '<｜tool▁call▁begin｜>' * (n // 19) + '<｜tool▁calls▁end｜>',
    'DeepSeek seps': lambda n: '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function' + '<｜tool▁sep｜>' * (n // 10) + '<｜tool▁calls▁end｜>',
    'invokes': lambda n: '<minimax:tool_call>' + '<invoke name="f"><parameter name="x">' * (n // 37) + '</minimax:tool_call>',
    'Kimi begins': lambda n: '<|tool_calls_section_begin|>' + '<|tool_call_begin|>' * (n // 19) + '<|tool_calls_section_end|>',
    'Gemma nesting': lambda n: '<|tool_call>call:f{a:' + '[' * (n // 2) + ']' * (n // 2) + '}<tool_call|>',
    'Gemma strings': lambda n: '<|tool_call>call:f{a:<|"|>' + 'x,' * (n // 2) + '}<tool_call|>',
    'Gemma calls': lambda n: '<|tool_call>' + 'call:f{a:1}' * (n // 11) + '<tool_call|>',
    'unclosed <think>, calls': lambda n: '<think>hm <|tool_call>call:f{}<tool_call|>' * (n // 41),
    'Glimmer headers': lambda n: '<|start|>assistant to=f<|message|>' * (n // 34),
    '<|message|> repeated': lambda n: ' to=f<|message|>' * (n // 16),
    'Python keywords, paths': lambda n: '[f(from=1, to="C:\\users")]\n' * (n // 27),
    'objects, no commas': lambda n: '[' + '{"name": "f", "arguments": {}} ' * (n // 31) + ']',  # each read alone
}

def _chunks(text, n=256):
    sp = StreamParser()
    for i in range(0, len(text), n): sp.feed(text[i:i+n])
    return sp.close()

@pytest.mark.parametrize('name', GROWING)
@pytest.mark.parametrize('how', ['whole', 'stream'])
def test_linear(name, how):
    "8x the text takes about 8x the work, counted (the same on any machine): the steps, and the chars copied out of the text; and, for the rest of what C code does (a regex), 16x the text under 64x the time of a run on the smaller one (quadratic: 256x; caches alone can double a small run's speed)"
    mk,run = GROWING[name],(P.parse if how == 'whole' else _chunks)
    assert step_ratio(mk, run, 2_000) < 12
    if how == 'whole': assert copy_ratio(mk, run, 20_000) < 12
    assert time_ratio(mk, run) < 64

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

def test_constructor_args():
    for bad in ('', '   ', None, 3, 'x'*65):
        with pytest.raises(ValueError, match='marker must be a non-blank string'): ToolCallParser(marker=bad)
    for bad in (0, -5, None, 2.5, True, '8000'):
        with pytest.raises(ValueError, match='max_payload_chars must be a positive int'): ToolCallParser(max_payload_chars=bad)
    with pytest.raises(TypeError, match='parser must be a ToolCallParser'): StreamParser(parser=object())
    with pytest.raises(TypeError, match='tools must be tool names'): P.parse('x', tools=5)
    with pytest.raises(TypeError, match='delta must be a str'): StreamParser().feed(None)

def test_no_promotion():
    "An outer object that fails to parse, or is not JSON, never gives up an inner object as a call"
    for t in ('const call = { payload: {"name": "delete_all", "arguments": {}} };', 'x = {1: {"name": "g", "arguments": {}}}',
              '{data: {"name": "g", "arguments": {}}}', '{x {"tool_name": "g", "parameters": {}}}',
              'function f() { return {"tool_name": "rm", "parameters": {"path": "/"}}; }',
              '[x {"name": "g", "arguments": {}}]', 'In JS: { a: 1, b: {"name": "g", "arguments": {}} } works'):
        assert P.parse(t).tool_calls == [], t
    r = P.parse('{"tool_name":"f","parameters":{"x":[1,2,}}, "inner":{"tool_name":"g","parameters":{}}}}')
    assert [c.tool_name for c in r.tool_calls] == ['f']

def test_python_calls():
    text = 'a [f(a=1), g(b="x")] b <|python_tag|>h(c=[1, 2])<|eom_id|> ```tool_code\nprint(default_api.k(d=None))\n```'
    r = P.parse(text)
    assert [(c.tool_name, c.parameters, text[slice(*c.span)]) for c in r.tool_calls] == [
        ('f', {'a': 1}, 'f(a=1)'), ('g', {'b': 'x'}, 'g(b="x")'), ('h', {'c': [1, 2]}, 'h(c=[1, 2])'), ('k', {'d': None}, 'print(default_api.k(d=None))')]
    for t in ('[f(a=g(1))]', '[f(x)]', '[f(a=1), 2]', '<|python_tag|>import os', '```tool_code\nx = 1\n```'):
        r = P.parse(t)
        assert r.tool_calls == [] and len(r.errors) == 1, t

def test_positional_arguments():
    def system(command, timeout=10): pass
    assert P.parse('[os.system("ls", 5)]', tools=[system]).tool_calls == [ToolCall('system', {'command': 'ls', 'timeout': 5})]
    openai = {'type': 'function', 'function': {'name': 'system', 'parameters': {'type': 'object', 'properties': {'command': {}}}}}
    assert P.parse('<|python_tag|>system("ls")', tools=[openai]).tool_calls == [ToolCall('system', {'command': 'ls'})]
    for tools in (None, ['system']):
        r = P.parse('[os.system("rm -rf /")]', tools=tools)
        assert r.tool_calls == [] and 'positional arguments need' in r.errors[0].reason

def test_non_finite_numbers():
    for t in ('{"name": "f", "arguments": {"a": NaN}}', '<tool_call>{"name": "f", "arguments": {"a": -Infinity}}</tool_call>',
              'TOOL_CALL {"tool_name": "f", "parameters": {"a": 1e999}}', '{"name": "f", "arguments": "{\\"a\\": NaN}"}'):
        r = P.parse(t)
        assert r.tool_calls == [] and 'not a JSON number' in str(r.errors) or 'too large for a float' in str(r.errors), t
    sp = StreamParser()
    evs = sp.feed('<function=f><parameter=a>\nInfinity\n</parameter></function>') + sp.close()
    assert [e.text for e in evs if e.type == 'delta'] == ['{"a": "Infinity"}']

def test_suspicious_repairs_are_errors():
    for t in ('TOOL_CALL {"tool_name": "f", "parameters": {"a": }}', 'TOOL_CALL {"tool_name": "f", "parameters": {"a": , "b": 2}}',
              '{"name": "f", "arguments": "{\\"a\\": }"}', '<tool_call>{"name": "f", "arguments": {"a": '):
        r = P.parse(t)
        assert r.tool_calls == [] and 'a value is missing' in r.errors[0].reason, t

def test_three_way_splits():
    "Every split of a short text into three chunks streams like the one-shot parse (single quotes, stray closers, tags)"
    for text in ("TOOL_CALL {'tool_name': 'f', 'parameters': {'s': 'a' b'}}", '{"name":"f","arguments":{"x":[1,}}, "k": 2} x',
                 '<|python_tag|>f(a=1)<|eom_id|>[TOOL_CALLS]g{"b": 2}'):
        ref = P.parse(text)
        for i in range(1, len(text)):
            for j in range(i, len(text)):
                sp = StreamParser()
                evs = sp.feed(text[:i]) + sp.feed(text[i:j]) + sp.feed(text[j:]) + sp.close()
                assert sp.result() == ref and [c.span for c in sp.result().tool_calls] == [c.span for c in ref.tool_calls], (text, i, j)
                check_deltas(text, evs)
                check_errors(sp, evs)

def test_repair_that_loses_a_call():
    "json-repair can turn a call into strings; that is an error in parse and in the stream, which had started the call"
    for t in ('Calls: [call {"name": "f", "arguments": {"a": 1}}]', '[{"name": "f", "arguments": {}}, "y": {"name": "g", "arguments": {}}}'):
        r = P.parse(t)
        assert r.tool_calls == [] and r.errors[0].reason in ("not valid JSON, and repairing it would drop 'call'", "not valid JSON, and repairing it would lose the call to 'g'"), t
        for chunk in (1, 7, len(t)):
            sp = StreamParser()
            evs = [e for i in range(0, len(t), chunk) for e in sp.feed(t[i:i+chunk])] + sp.close()
            assert sp.result() == r
            check_errors(sp, evs)
            assert [e.index for e in evs if e.type == 'start'] == [e.index for e in evs if e.type == 'error']

def test_one_error_event_per_error():
    "A started call that fails ends in one 'error' event, with its index"
    for t in ('{"name":"f","arguments":{"a":NaN}}', '<tool_call>{"name": "f", "arguments": {"a": }}</tool_call>', '{"name": "f", "arguments": {}, "name": "g"}'):
        sp = StreamParser()
        evs = [e for ch in t for e in sp.feed(ch)] + sp.close()
        assert [(e.type, e.index) for e in evs if e.type != 'delta'] == [('start', 0), ('error', 0)], t
        assert sp.result().errors == [evs[-1].error] == P.parse(t).errors

def test_xml_names_split_anywhere():
    "`<` and `>` never belong to an XML name, so where the text is split cannot change the result"
    for t in ('<function=f><parameter=x<y>1</parameter></function>', '<function=a<b><function=f><parameter=x>1</parameter></function>',
              '<function_calls><invoke name="a<b"><parameter name="x">1</parameter></invoke><invoke name="g"><parameter name="p<q">2</parameter></invoke></function_calls>'):
        ref = P.parse(t)
        for k in range(len(t)):
            sp = StreamParser()
            sp.feed(t[:k]); sp.feed(t[k:]); sp.close()
            assert sp.result() == ref, (t, k)

def test_json_inside_python_calls_is_not_started():
    "A call-shaped dict given as an argument in a `[f(...)]` list is an argument: the stream never announces it"
    t = '[run(spec={"name": "x", "arguments": {}}), g(b=1)]'
    assert [c.tool_name for c in P.parse(t).tool_calls] == ['run', 'g']
    for chunk in (1, 3, len(t)):
        sp = StreamParser()
        evs = [e for i in range(0, len(t), chunk) for e in sp.feed(t[i:i+chunk])] + sp.close()
        assert [e.tool_name for e in evs if e.type == 'start'] == ['run', 'g']

def test_comments_are_not_calls():
    text = "Plan:\n```tool_code\n# not now: delete_all(confirm=True)\nsearch(q='y')  # then delete_all()\n```"
    r = P.parse(text)
    assert [(c.tool_name, text[slice(*c.span)]) for c in r.tool_calls] == [('search', "search(q='y')")] and r.errors == []

from hypothesis import given, settings, HealthCheck, strategies as st

_PIECES = ['{', '}', '[', ']', '"', "'", '\\', ':', ',', '<', '>', '/', '=', ' ', '\n', 'a', '`', '|', '<tool_call>', '</tool_call>',
           '<function=f>', '{"name": "f", "arguments": {}}', '```json\n', '<think>', '</think>', '[TOOL_CALLS]', '<|tool_call>',
           '<minimax:tool_call>', '<seed:tool_call>', '<|channel|>', 'to=functions.f', '<|message|>', '<｜DSML｜tool_calls>', '<|role_sep|>',
           'function call', '<arg_key>', '<tool_call|>', '<|"|>', 'call:f']

@pytest.mark.parametrize('marker', ['<', '`', '```', ':', '<|', '<function=', ',', '{', 'true', 'call', '=', 'TOOL_CALL'])
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_marker_overlapping_tags_streams_like_parse(marker, data):
    "A custom marker that overlaps a tag or JSON syntax: parse and StreamParser (any chunking) agree"
    text = ''.join(data.draw(st.lists(st.sampled_from(_PIECES + [marker]), max_size=25)))
    cuts = sorted(data.draw(st.lists(st.integers(0, len(text)), max_size=8)))
    p = ToolCallParser(marker=marker)
    sp = StreamParser(parser=p)
    for a,b in zip([0] + cuts, cuts + [len(text)]): sp.feed(text[a:b])
    sp.close()
    assert sp.result() == p.parse(text)

class _CallTag(Dialect):
    "A JSON format with no closing tag, added as a dialect alone: JSON calls after `<call>`"
    name = 'call tag'
    starts = terms = wraps = ('<call>',)
    scans = True
    def open(self, sc, text, i, tok):
        sc.begin_region(tok, sc.base+i)
        return i+len(tok)

_CALL_TEXTS = ['Both: <call>{"name": "add", "arguments": {"a": 1}} <call>[{"name": "neg", "arguments": {"x": "}"}}] done.',
               'x <call> nothing <call>{"name": "f", "arguments": {"s": "<call>"}}',
               '<call>{"name": "f", "arguments": {"a": [1, 2</call> <tool_call>{"name": "g", "arguments": {}}</tool_call>',
               '<think><call>{"name": "no", "arguments": {}}</think><call>{"name": "yes", "arguments": {}}']

@pytest.mark.parametrize('text', _CALL_TEXTS)
def test_json_dialect_added_alone(text):
    "A dialect that steers the shared JSON scan: read by parse, and by StreamParser in any chunking, with no other code"
    p = ToolCallParser(dialects=[*ToolCallParser().dialects, _CallTag()])
    ref,rng = p.parse(text),random.Random(7)
    assert '<call>' not in ref.content
    for chunk in (1, 7, None):
        sp = StreamParser(parser=p)
        evs = [e for i in range(0, len(text), chunk or len(text)) for e in sp.feed(text[i:i+(chunk or len(text))])] + sp.close()
        assert sp.result() == ref
        assert [e.tool_call for e in evs if e.type == 'end'] == ref.tool_calls
        check_deltas(text, evs)
    for _ in range(10):
        sp,evs = stream(text, rng, parser=p)
        assert sp.result() == ref
    assert '<call>' in ToolCallParser().parse(text).content  # the default parser does not know the tag

def test_json_dialects_and_pinning():
    "The JSON family are dialects like the others: a pinned set without them does not read their tags; the JSON scan of prose always runs"
    text = '<tool_call>{"name": "a", "arguments": {}}</tool_call> [TOOL_CALLS]b{"x": 1}'
    assert [c.tool_name for c in P.parse(text).tool_calls] == ['a', 'b']
    r = ToolCallParser(dialects=['Hermes']).parse(text)
    assert [c.tool_name for c in r.tool_calls] == ['a'] and r.errors == []  # `b{...}` is prose JSON without its tag
    assert [c.tool_name for c in ToolCallParser(dialects=['Mistral']).parse(text).tool_calls] == ['a', 'b']  # bare JSON after a stray tag

def test_scanner_and_driver_name_no_format():
    "Neither the scan nor the driver holds a dialect's token: a format lives in its dialect alone"
    import inspect, fncall.parse as m
    toks = {t for d in ToolCallParser().dialects for t in (*d.starts, *d.terms)} | {'tool_call', 'function_calls', 'python_tag', 'TOOL_CALLS'}
    for cls in (m._Scanner, m._Driver):
        for k,f in vars(cls).items():
            if callable(f) and hasattr(f, '__code__'):
                code = '\n'.join(l.split('  #')[0] for l in inspect.getsource(f).splitlines())  # comments may name an example
                assert not [t for t in toks if t in code], (cls.__name__, k)

# ---------------------------------------------------------------- private helpers (these tests lived in nbs/06_parse.ipynb)
from fastcore.test import test_eq as eq, test_fail as fails  # aliased: pytest would collect `test_*` names
from fncall.parse import CallError, _Ctx, _decode, _nested, _dq_end, _load, _to_call, _pycalls, _tools, _pair, _named, _untyped

def test_decode():
    "`_decode` is json's C decoder at `s[i]`, with where the value ends and where each item of an array stands; NaN, Infinity and 1e999 are refused"
    eq(_decode('x {"a": [1, 2]} y', 2), ({'a': [1, 2]}, 15, None))
    eq(_decode('[ {"a": 1} , 2 ]'), ([{'a': 1}, 2], 16, [(2, 10), (13, 14)]))
    eq(_decode('[]'), ([], 2, []))
    for bad in ('[1,]', '[1 2]', '[1, 2', "{'a': 1}", '[\x0b1]'): fails(lambda: _decode(bad), exc=(ValueError, IndexError))
    eq([_nested(v, 2) for v in (1, [], [[1]], [[[]]], {'a': {'b': {}}})], [False, False, False, True, True])
    for bad in ('{"a": NaN}', '[Infinity]', '{"a": -1e999}'): fails(lambda: _decode(bad), contains='not a JSON number' if 'e999' not in bad else 'too large')
    eq(_decode('[1e308, -0.5]')[0], [1e308, -0.5])

def test_dq_end():
    "`_dq_end`: where a JSON string ends, or None when it runs past the text or holds a bad escape"
    s = 'x "ab\\"c" y'
    eq(_dq_end(s, 3), 8)
    eq(_dq_end('"' + 'a\\n'*500 + '"', 1), 1501)
    eq([_dq_end(s, 1) for s in ('"abc', '"C:\\data" x', '"' + 'x'*300 + '\\u12')], [None, None, None])

def test_load():
    "`_load`: strict JSON first, json-repair when that fails; repairs that would change a value's meaning are errors"
    c = _Ctx(None, 4000, 16_000)
    eq(_load('{"a": "line1\nline2"}', c), ({'a': 'line1\nline2'}, None))
    eq(_load("{'a': 1, }", c), ({'a': 1}, None))
    eq(_load('{"a": [1, 2', c), ({'a': [1, 2]}, None))
    eq(_load('hello', c)[0], None)
    eq(_load('{{{{', c)[0], None)
    eq(_load('{"a": NaN}', c), (None, 'not valid JSON: NaN is not a JSON number'))
    eq(_load('{"a": }', c)[1], 'not valid JSON: a value is missing, and repairing it would invent an empty string')
    eq(_load('{"a": "", "b": }', c)[0], {'a': '', 'b': ''})  # an empty string in the text: the check cannot tell
    eq(_load('{x {"tool_name": "g"}}', c)[1], "not valid JSON, and repairing it would drop 'x' and make an inner object the outer one")
    eq(_load('{"a": [1, 2', c, repair=False)[1], "not valid JSON (Expecting ',' delimiter: line 1 column 12 (char 11))")

def test_load_guesses_that_go_through():
    "What repair cannot know, it guesses; these guesses go through"
    c = _Ctx(None, 4000, 16_000)
    eq(_load("{'a': 'it's'}", c)[0], {'a': "it's'"})  # an apostrophe in a single-quoted string
    eq(_load('{"a": "x" + "y"}', c)[0], {'a': 'x" + "y'})  # an expression
    eq(_load('{"a": [1, , 2]}', c)[0], {'a': [1, 2]})  # a missing item is dropped

def test_load_caps_and_shared_budget():
    "The caps, and the repair budget being shared by one text"
    unquoted = '{' + 'a: b, '*700 + '}'
    eq(_load(unquoted, _Ctx(None, 4000, 16_000))[1], "not valid JSON (Expecting property name enclosed in double quotes: line 1 column 2 (char 1)), and too large to repair: 4202 chars; max_repair_chars is 4000")
    c = _Ctx(None, 4000, 100)
    eq(_load("{'a': 1}", c), ({'a': 1}, None))
    eq(c.repair_left, 36)  # a repair counts at least 64 chars
    eq(_load("{'a': '" + 'x'*100 + "'}", c)[1].split(', and ')[1], 'too large to repair: 36 chars of repair_budget are left')

def test_to_call():
    "`_to_call`: a ToolCall from a dict, or why not; outside a tag (not lenient), prose JSON is no call"
    c = _Ctx(None, 4000, 16_000)
    eq(_to_call({'tool': 'search', 'params': {'q': 'x'}}, False, c), (ToolCall('search', {'q': 'x'}), None))
    eq(_to_call({'name': 'f', 'arguments': '{"a": 1}'}, False, c), (ToolCall('f', {'a': 1}), None))
    eq(_to_call({'id': 'c1', 'type': 'function', 'function': {'name': 'f', 'arguments': '{}'}}, False, c)[0].id, 'c1')
    eq(_to_call({'name': 'Bob', 'age': 3}, False, c), (None, None))
    eq(_to_call({'name': 'x'}, False, c), (None, None))
    eq(_to_call({'tool_name': 'x'}, False, c), (ToolCall('x', {}), None))
    eq(_to_call({'name': 'Bob', 'age': 3}, True, c)[0].tool_name, 'Bob')
    eq(_to_call({'tool_name': 3}, False, c), (None, 'the tool name must be a non-empty string, got 3'))
    eq(_to_call({'name': 'f', 'arguments': [1]}, True, c)[1], 'f: arguments must be a JSON object, got list')

def test_pycalls():
    "`_pycalls`: Python-style calls, each with its span (its whole statement, or its item of a list) and its whole dotted name"
    s = 'x [f(a=1), g(b="é")] y'
    eq([(c, s[a:b]) for c,(a,b) in _pycalls(s[2:20], 2)], [({'name': 'f', 'arguments': {'a': 1}, 'short': 'f'}, 'f(a=1)'), ({'name': 'g', 'arguments': {'b': 'é'}, 'short': 'g'}, 'g(b="é")')])
    s = '\nprint(default_api.f(x=1))\r\ng(y="ü")\n'
    eq([s[a:b] for _,(a,b) in _pycalls(s, 0)], ['print(default_api.f(x=1))', 'g(y="ü")'])
    fails(lambda: _pycalls('[f(a=g(1))]', 0), contains='a call `g(1)`')
    s = "\n# not now: delete_all(confirm=True)\nsearch(q='y')  # delete_all()\n"
    eq([(c['name'], s[a:b]) for c,(a,b) in _pycalls(s, 0)], [('search', "search(q='y')")])
    eq([c['name'] for c,_ in _pycalls('[grocery.order(n=1), print(default_api.f())]', 0)], ['grocery.order', 'f'])

def test_tools():
    "`_tools`: {name: parameter names or None} from names, schemas (Anthropic, OpenAI), functions, or a dict of them"
    def get_weather(city, days=1): pass
    eq(_tools(['a', {'name': 'b', 'input_schema': {'properties': {'q': {}, 'n': {}}}}, {'type': 'function', 'function': {'name': 'c'}}, get_weather]),
            {'a': None, 'b': ['q', 'n'], 'c': None, 'get_weather': ['city', 'days']})
    eq(_tools({'a': 1, 'b': get_weather}), {'a': None, 'b': ['city', 'days']})
    eq(_tools('a'), {'a': None})
    fails(lambda: _tools(3), contains='tools must be tool names, schemas or functions, got int')
    fails(lambda: _tools([{'x': 1}]), contains="cannot tell the name of {'x': 1}")

def test_pair():
    "`_pair`: an error ends every started call in its span, a call ends the next one if the names agree"
    heads = [(0, 'f'), (12, 'g'), (30, 'h'), (60, 'k')]
    eq(_pair([ToolCall('f', {}, span=(0, 9)), CallError('x', (10, 50)), ToolCall('z', {}, span=(60, 70))], heads), ([range(0, 1), range(1, 3), range(3, 3)], [3]))
    eq(_pair([ToolCall('f', {}, span=(0, 90)), ToolCall('g', {}, span=(0, 90))], heads[:2]), ([range(0, 1), range(1, 2)], []))

def test_named():
    "`_named`: positional arguments named after the tool's parameters, or why not"
    c = _Ctx({'f': ['a', 'b'], 'g': None}, 4000, 16_000)
    eq(_named(ToolCall('f', {'_pos_0': 1, 'b': 2}), c), (ToolCall('f', {'a': 1, 'b': 2}), None))
    eq(_named(ToolCall('g', {'_pos_0': 1}), c)[1], "g: positional arguments need the tool's parameter names: pass its schema in tools=, or call it with keywords")
    eq(_named(ToolCall('f', {'_pos_0': 1, 'a': 2}), c)[1], "f: Got multiple values for argument 'a': positionally and as a keyword")

def test_untyped():
    "`_untyped`: a value written without a type, by its schema when known, else as JSON where it parses"
    eq([_untyped(v) for v in ('3', ' [1] ', 'Paris', '007', 'NaN', '1e999')], [3, [1], 'Paris', '007', 'NaN', '1e999'])
    eq([_untyped(v, {'type': t}) for v,t in (('True', 'boolean'), ('5123123', 'string'), ('7', 'integer'), ('7', 'number'), ('[1]', 'array'))], [True, '5123123', 7, 7, [1]])
    eq(_untyped('[{\\"a\\": 1}]', {'type': 'array'}), [{'a': 1}])  # JSON written with its quotes escaped

INT = [{'name': 'f', 'parameters': {'type': 'object', 'properties': {'v': {'type': 'integer'}}}}]
QC = '<tool_call>\n<function=f>\n<parameter={}>{}</parameter>\n</function>\n</tool_call>'
G4 = '<|tool_call>call:{}<tool_call|>'
OLLAMA = [  # cases of Ollama's parser tests (model/parsers/*_test.go) fncall read otherwise: (text, tools, calls, content, reasoning)
    (QC.format('v', 'null'), INT, [('f', {'v': None})], '', ''),  # null for a number is no value, not the text 'null'
    (QC.format('v', 'NULL'), INT, [('f', {'v': None})], '', ''),
    (QC.format('a', '\nX'), None, [('f', {'a': 'X'})], '', ''),  # each side's newline is the tags'
    (QC.format('a', 'X\n'), None, [('f', {'a': 'X'})], '', ''),
    ('<seed:tool_call>\n<function=f>\n<parameter=a>x\n</parameter>\n</function>\n</seed:tool_call>', None, [('f', {'a': 'x\n'})], '', ''),  # Seed-OSS writes values inline: the newline is the value's (llama.cpp's test)
    (G4.format("grep{include:<|\"|>*.py<|\"|>,pattern:':\\s*\\w+'<|\"|>}"), None, [('grep', {'include': '*.py', 'pattern': ':\\s*\\w+'})], '', ''),  # Ollama's issue 15315
    (G4.format("grep{pattern:'abc'}"), None, [('grep', {'pattern': 'abc'})], '', ''),
    (G4.format('f{a:1}') + '<tool_call|>Done.', None, [('f', {'a': 1})], 'Done.', ''),  # a stray end token
    (G4.format('f{a:1}') + '<|tool_response>Done.', None, [('f', {'a': 1})], 'Done.', ''),  # the model starts a tool's answer
    ('Use <|start|> here.', None, [], 'Use <|start|> here.', ''),  # a Harmony token in prose is prose
    ('The token <|start|> begins a message; <|end|> ends it.', None, [], 'The token <|start|> begins a message;  ends it.', ''),  # <|end|> is a turn token
    ('a <|channel|> b', None, [], 'a <|channel|> b', ''),
    ('let me think[/THINK][TOOL_CALLS]test[ARGS]{}', None, [('test', {})], '', 'let me think'),  # Magistral's template opened the reasoning
]

KIMI = '<|tool_calls_section_begin|><|tool_call_begin|>functions.multiply:0<|tool_call_argument_begin|>{"a": 1}<|tool_call_end|><|tool_calls_section_end|>'
MORE = [  # cases of mlx-lm's tool parser tests and Ollama's tools and server tests (tools/tools_test.go, server/routes_harmony_streaming_test.go)
    (KIMI, None, [('multiply', {'a': 1})], '', ''),  # (its id: below)
    ('<|start|>assistant<|message|>Hello, how can I help?<|end|>', None, [], 'Hello, how can I help?', ''),  # a message with no channel
    ('Hi<|im_end|>', None, [], 'Hi', ''),  # the end of a turn a server left in
    ('Done.<｜end▁of▁sentence｜>', None, [], 'Done.', ''),
    ('{"get_temperature": {"location": "SF"}}', ['get_temperature'], [('get_temperature', {'location': 'SF'})], '', ''),  # the tool's name as the key
    ('{"get_temperature": {"location": "SF"}}', None, [], '{"get_temperature": {"location": "SF"}}', ''),  # ...only when tools= names it
    ('<|START_ACTION|>[{"tool_call_id": "0", "tool_name": "a", "parameters": {}}{"tool_call_id": "1", "tool_name": "b", "parameters": {"x": "{not json}"}}]<|END_ACTION|>',
     None, [('a', {}), ('b', {'x': '{not json}'})], '', ''),  # the comma between two calls left out (Ollama's cohere_test.go)
    ("Here's the weather: <｜tool▁output▁begin｜>22°C, Sunny<｜tool▁output▁end｜> Hope that helps!", None, [], "Here's the weather: 22°C, Sunny Hope that helps!", ''),  # deepseek3_test.go
]

REVIEW = [  # what a reviewer of the cases above found they broke
    ('Hello [world', None, [], 'Hello [world', ''),  # a cut array is read item by item only if it holds calls
    ('Use [brackets for lists.\n\nThat is all!', None, [], 'Use [brackets for lists.\n\nThat is all!', ''),
    ('[f(TOOL_CALL_ID=1)]', None, [('f', {'TOOL_CALL_ID': 1})], '', ''),  # the marker is a word: not in a longer one
    ('The <|start|> token. <tool_call>{"name": "f", "arguments": {}}</tool_call>', None, [('f', {})], 'The <|start|> token. ', ''),  # no message opened
    ('Example: {"search": "cats"}', ['search'], [], 'Example: {"search": "cats"}', ''),  # a tool's name as the key: its arguments an object
    ('<|tool_call>call:f{a:1}<|tool_response>response:f{v:1}<tool_response|>Done', None, [('f', {'a': 1})], 'response:f{v:1}Done', ''),  # the answer ends the call
]

@pytest.mark.parametrize('text,tools,calls,content,reasoning', OLLAMA + MORE + REVIEW)
def test_other_projects_cases(text, tools, calls, content, reasoning):
    r = P.parse(text, tools=tools)
    assert ([(c.tool_name, c.parameters) for c in r.tool_calls], r.content, r.reasoning, r.errors) == (calls, content, reasoning, [])
    for seed in range(5): assert stream(text, random.Random(seed), tools=tools)[0].result() == r

def test_reasons_are_short():
    "An error quotes at most the ends of a long name: no reason grows with the text"
    for name,mk in GROWING.items():
        for e in P.parse(mk(50_000)).errors: assert len(e.reason) <= 305, (name, e.reason[:100])

def test_kimi_id(): assert P.parse(KIMI).tool_call.id == 'functions.multiply:0'  # Kimi's template gives the result back under it

def test_cut_array_keeps_whole_calls():
    "In a JSON array the text ends inside, the calls before the cut one are calls; the cut one is an error (Ollama's tools_test.go reads them so)"
    from fncall.parse import _CUT
    r = P.parse('[TOOL_CALLS][{"name": "a", "arguments": {}}, {"name": "b", "arguments": {"n": 1')
    assert [c.tool_name for c in r.tool_calls] == ['a'] and [e.reason for e in r.errors] == [_CUT]
    assert P.parse('[{"name": "a", "arguments": {"s": "x}"}}').tool_calls == [ToolCall('a', {'s': 'x}'})]
