"""The formats of issue 26, one test each, read whole and by a StreamParser fed 7-char chunks; and the three choices every
dialect makes alike: a call cut off at the end of the text is an error, never a call with what was cut; a call missing a
part its format requires is an error, not a guess; a string with an escape its syntax lacks is kept as written, whole."""
import pytest
from fncall.parse import ToolCall, ToolCallParser, StreamParser, Dialect, render_calls, _DIALECTS, _marker

P = ToolCallParser()

def both(text, tools=None):
    "What parse reads in `text`, after checking a StreamParser fed 7-char chunks reads the same"
    r = P.parse(text, tools=tools)
    sp = StreamParser(tools=tools)
    for i in range(0, len(text), 7): sp.feed(text[i:i+7])
    sp.close()
    s = sp.result()
    assert (s.tool_calls, [str(e) for e in s.errors], s.content, s.reasoning) == (r.tool_calls, [str(e) for e in r.errors], r.content, r.reasoning)
    return r

EXAMPLES = {  # text: the calls read, and the errors' reasons
    'FunctionGemma': ('<start_function_call>call:set_alarm{label:<escape>Wake up, now<escape>,hour:7,days:[<escape>mon<escape>],opts:{loud:true}}<end_function_call>',
                      [ToolCall('set_alarm', {'label': 'Wake up, now', 'hour': 7, 'days': ['mon'], 'opts': {'loud': True}})], []),
    'FunctionGemma, prose between': ('Sure.<start_function_call>call:a{x:1}<end_function_call> and <start_function_call>call:b{y:<escape>z<escape>}<end_function_call> done.',
                                     [ToolCall('a', {'x': 1}), ToolCall('b', {'y': 'z'})], []),
    'Glimmer': (' to=lookup<|message|><atem:function_calls>\n<atem:invoke name="lookup">\n<atem:parameter name="q">cats</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>',
                [ToolCall('lookup', {'q': 'cats'})], []),
    'Glimmer, self and user': (' to=self<|message|>Think.<|eom|><|start|>assistant to=user<|message|>Hi.<|eot|>', [], []),
    'LongCat XML': ('<longcat_tool_call>get_time\n<longcat_arg_key>zone</longcat_arg_key>\n<longcat_arg_value>UTC</longcat_arg_value></longcat_tool_call>',
                    [ToolCall('get_time', {'zone': 'UTC'})], []),
    'name then JSON': ('<tool_call>lookup\n{"name": "cats", "n": 2}\n</tool_call>', [ToolCall('lookup', {'name': 'cats', 'n': 2})], []),
    'LFM2 without brackets': ('<|tool_call_start|>ping(host="a.example", count=3)<|tool_call_end|>', [ToolCall('ping', {'host': 'a.example', 'count': 3})], []),
    'key=value pairs, not read': ('<tool_call>add x=1 y=2</tool_call>', [], ['no tool call found after the <tool_call> tag']),  # no dialect reads it: an error naming the tag, never a guess
    'DeepSeek, ASCII bars': ('<|tool▁calls▁begin|><|tool▁call▁begin|>function<|tool▁sep|>f\n```json\n{"a": 1}\n```<|tool▁call▁end|><|tool▁calls▁end|>',
                             [ToolCall('f', {'a': 1})], []),
    'Gemma 4, same call twice': ('<|tool_call>call:read{path:<|"|>a<|"|>}call:read{path:<|"|>b<|"|>}<tool_call|>',
                                 [ToolCall('read', {'path': 'a'}), ToolCall('read', {'path': 'b'})], []),
    'Gemma 4, two calls': ('<|tool_call>call:read{path:<|"|>a<|"|>}call:write{path:<|"|>b<|"|>}<tool_call|>',
                           [ToolCall('read', {'path': 'a'}), ToolCall('write', {'path': 'b'})], []),
    'Gemma 4, raw string': ('<|tool_call>call:f{s:"hi, who:me"}<tool_call|>', [ToolCall('f', {'s': 'hi, who:me'})], []),
    'Gemma 4, string never closed': ('<|tool_call>call:f{s:<|"|>abc}<tool_call|>', [], ['Gemma 4: f: a string opened with <|"|> is never closed']),
    'Gemma 4, bare lines': ('<|tool_call>call:f{s:# Title\nbody text\n}<tool_call|>', [ToolCall('f', {'s': '# Title\nbody text'})], []),
    'GLM, value left open': ('<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>one\n<arg_key>b</arg_key>\n<arg_value>2</arg_value>\n</tool_call>',
                             [ToolCall('f', {'a': 'one', 'b': 2})], []),
    'GLM, value never opened': ('<tool_call>f\n<arg_key>mode</arg_key>\nfast</arg_value>\n</tool_call>', [ToolCall('f', {'mode': 'fast'})], []),
    'JSON array, a broken item': ('[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {"at": 7:45}}]',
                                  [ToolCall('a', {'x': 1})], ["not valid JSON, and repairing it would drop '45'"]),
    'Python keywords as names': ('[send(to="a", from="b")]', [ToolCall('send', {'to': 'a', 'from': 'b'})], []),
    '<tool_call> in an unclosed <think>': ('<think>Let me look. <tool_call>\n{"name": "f", "arguments": {"a": 1}}\n</tool_call>', [ToolCall('f', {'a': 1})], []),
    '<|tool_call> in an unclosed <think>': ('<think>Let me look. <|tool_call>call:f{a:1}<tool_call|>', [ToolCall('f', {'a': 1})], []),
    'DeepSeek, no fence': ('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n{"a": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
                           [], ['DeepSeek: f: expected the arguments in a ```json fence']),
    'DeepSeek, not function': ('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>not_function<｜tool▁sep｜>f\n```json\n{"a": 1}\n```<｜tool▁call▁end｜><｜tool▁calls▁end｜>',
                               [], ["DeepSeek: expected the type function before the name, got 'not_function'"]),
    'raw Windows path in JSON': (r'<tool_call>{"name": "f", "arguments": {"p": "C:\users\bob", "q": "C:\new"}}</tool_call>', [ToolCall('f', {'p': r'C:\users\bob', 'q': 'C:\new'})], []),
    'raw Windows path in Python': (r'[f(p="C:\users\bob", q="C:\data\bob")]', [ToolCall('f', {'p': r'C:\users\bob', 'q': r'C:\data\bob'})], []),
}

@pytest.mark.parametrize('name', EXAMPLES)
def test_example(name):
    text,calls,reasons = EXAMPLES[name]
    r = both(text)
    assert (r.tool_calls, [e.reason for e in r.errors]) == (calls, reasons)

def test_glimmer_reasoning_and_answer():
    r = both(EXAMPLES['Glimmer, self and user'][0])
    assert (r.reasoning, r.content.strip()) == ('Think.', 'Hi.')

def test_python_literal_under_an_object_schema():
    "Qwen3-Coder's value written as a Python literal (as a chat template's `|string` writes a dict) reads as the object its schema wants"
    t = "<tool_call>\n<function=f>\n<parameter=o>\n{'deep': True, 'kind': None}\n</parameter>\n</function>\n</tool_call>"
    tools = [{'name': 'f', 'parameters': {'properties': {'o': {'type': 'object'}}}}]
    assert both(t, tools).tool_calls == [ToolCall('f', {'o': {'deep': True, 'kind': None}})]
    assert both(t).tool_calls == [ToolCall('f', {'o': "{'deep': True, 'kind': None}"})]  # no schema: as written

WRITERS = [d for d in (*_DIALECTS, _marker('TOOL_CALL')) if type(d).write is not Dialect.write or type(d).render is not Dialect.render]
CALL = [('first', {'s': 'abc def', 'n': 12})]

@pytest.mark.parametrize('d', WRITERS, ids=lambda d: d.name)
def test_cut_off_is_an_error(d):
    "Cut off inside a value (the string, the number), a call is an error, the same in every dialect"
    text = d.render(CALL)
    for at in (text.index('abc')+2, text.index('12')+1):
        r = both(text[:at])
        assert r.tool_calls == [] and len(r.errors) == 1, (d.name, text[:at], r)
        assert 'cut off' in r.errors[0].reason or 'never closed' in r.errors[0].reason, (d.name, r.errors[0].reason)

@pytest.mark.parametrize('d', [d for d in WRITERS if d.name not in ('JSON in prose', 'pythonic')], ids=lambda d: d.name)
def test_missing_name_is_an_error(d):
    "A call without the name its format requires is an error in every dialect with markup (bare JSON or Python without a name is no call at all)"
    text = d.render([('nameless', {'a': 1})]).replace('nameless', '')
    r = both(text)
    assert r.tool_calls == [] and r.errors, (d.name, text, r)

def named_(calls): return [(c.tool_name, c.parameters) for c in calls]  # ids are each format's own (Kimi K2 numbers its calls)
def named(r): return named_(r.tool_calls)

@pytest.mark.parametrize('d', WRITERS, ids=lambda d: d.name)
def test_escapes_all_or_none(d):
    "A path written raw, its backslashes not doubled as JSON and Python want, reads back as written; a format without escapes never decodes one"
    want = [ToolCall('f', {'p': r'C:\users\bob', 'q': r'C:\data\x'})]
    text = d.render(want)
    assert named(both(text)) == named_(want), d.name
    raw = text.replace('\\\\', '\\')  # as a model writes it, in the formats that escape
    assert named(both(raw)) == named_(want), (d.name, raw)
