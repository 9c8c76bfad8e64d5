"""Tests moved from nbs/06_parse.ipynb, so the page's examples are not buried (issue 30): every assertion, as the page had it,
under the heading it stood under"""
import json, random, sys, types
from fastcore.test import test_eq as eq, test_fail as fails, test_ne as ne, test_is as is_  # renamed: pytest would collect test_*
from fncall.parse import *

parser = ToolCallParser()

def test_the_parser():
    "The parser: the page's tests, as it had them"
    fails(lambda: ToolCallParser(marker=''), contains="marker must be a non-blank string of at most 64 characters, got ''")
    fails(lambda: ToolCallParser(max_payload_chars=None), contains='max_payload_chars must be a positive int (it bounds the work per call), got None')
    fails(lambda: ToolCallParser().parse(b'TOOL_CALL {}'), contains='text must be a str, got bytes')

def test_json_in_prose_and_the_marker():
    "JSON in prose and the marker: the page's tests, as it had them"
    eq(parser.parse('Sure.\n```json\n{"name": "search", "arguments": {"query": "Python"}}\n```').tool_calls, [ToolCall('search', {'query': 'Python'})])
    eq(parser.parse('{"tool": "search", "params": {}}').tool_call, ToolCall('search', {}))
    eq(parser.parse('{"name": "f", "args": {"a": 1}}').tool_call, ToolCall('f', {'a': 1}))
    eq(parser.parse('{"name": "f", "input": {"a": 1}}').tool_call, ToolCall('f', {'a': 1}))
    eq(parser.parse('[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]').tool_calls, [ToolCall('a', {'x': 1}), ToolCall('b', {})])
    eq(parser.parse("Just a regular response with no tool call.").tool_call, None)

def test_mistral():
    "Mistral: the page's tests, as it had them"
    eq(parser.parse('[TOOL_CALLS][{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]').tool_calls, [ToolCall('a', {'x': 1}), ToolCall('b', {})])
    eq(parser.parse('On it.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}').tool_calls, [ToolCall('get_weather', {'city': 'Paris'})])
    eq(parser.parse('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}').tool_calls, [ToolCall('get_weather', {'city': 'Paris'})])
    eq(parser.parse('[TOOL_CALLS]get_weather{"city": "Paris"}').tool_calls, [ToolCall('get_weather', {'city': 'Paris'})])
    eq(parser.parse('[TOOL_CALLS]f[CALL_ID]a1b2[ARGS]{"x": 1}[TOOL_CALLS]g[CALL_ID]c3[ARGS]{}').tool_calls, [ToolCall('f', {'x': 1}), ToolCall('g', {})])
    eq(parser.parse('So {say [TOOL_CALLS]f{"x": 1}').tool_calls, [ToolCall('f', {'x': 1})])  # the tag ends a stray brace before it

def test_llama_3_1_python_tag():
    "Llama 3.1 `<|python_tag|>`: the page's tests, as it had them"
    eq(parser.parse('<|python_tag|>{"name": "a", "parameters": {"x": 1}}; {"name": "b", "parameters": {}}<|eom_id|>').tool_calls, [ToolCall('a', {'x': 1}), ToolCall('b', {})])
    eq(parser.parse('<|python_tag|>get_weather(city="Paris"); get_time(tz="CET")<|eom_id|>').tool_calls, [ToolCall('get_weather', {'city': 'Paris'}), ToolCall('get_time', {'tz': 'CET'})])
    eq(parser.parse('<|python_tag|>get_weather(city="Paris"); search(q="x")<|eom_id|>').tool_calls, [ToolCall('get_weather', {'city': 'Paris'}), ToolCall('search', {'q': 'x'})])
    eq(parser.parse('<|python_tag|><|eom_id|>').errors[0].reason, 'no tool call found after the <|python_tag|> tag')

def test_claude_style_function_calls():
    "Claude-style `<function_calls>`: the page's tests, as it had them"
    t = '<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n<parameter name="days">3</parameter>\n</invoke>\n</function_calls>'
    eq(parser.parse(t).tool_calls, [ToolCall('get_weather', {'city': 'Paris', 'days': 3})])
    t = '<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n<parameter name="days">3</parameter>\n<parameter name="units">["C", "F"]</parameter>\n</invoke>\n</function_calls>'
    eq(parser.parse(t).tool_calls, [ToolCall('get_weather', {'city': 'Paris', 'days': 3, 'units': ['C', 'F']})])
    eq(parser.parse('<function_calls><invoke name="f"><parameter name="a">NaN</parameter><parameter name="b">1e999</parameter></invoke></function_calls>').tool_call.parameters, {'a': 'NaN', 'b': '1e999'})
    eq(parser.parse('<function_calls><invoke name="a<b"><parameter name="x">1</parameter></invoke></function_calls>').tool_calls, [])  # a name never holds < or >

def test_turn_tokens():
    "Turn tokens: the page's tests, as it had them"
    eq(parser.parse('<|START_RESPONSE|>Hello.<|END_RESPONSE|>').content, 'Hello.')

def test_invoke():
    "Invoke: the page's tests, as it had them"
    eq(parser.parse('<function name="html"><param name="markup"><![CDATA[<b>hi</b>]]></param></function>').tool_calls, [ToolCall('html', {'markup': '<b>hi</b>'})])

def test_kimi_k2():
    "Kimi K2: the page's tests, as it had them"
    r = parser.parse('Sure.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Oslo"}<|tool_call_end|><|tool_calls_section_end|>')
    eq((r.tool_calls, r.content), ([ToolCall('get_weather', {'city': 'Oslo'}, 'functions.get_weather:0')], 'Sure.'))  # its id, as written
    r = parser.parse('<think>Two calls<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>')
    eq((r.tool_calls, r.reasoning), ([ToolCall('f', {}, 'functions.f:0')], 'Two calls'))  # a reasoning never closed ends where the calls begin

def test_gemma_4_and_functiongemma():
    "Gemma 4 and FunctionGemma: the page's tests, as it had them"
    t = '<|tool_call>call:book{city:<|"|>Nice<|"|>,nights:2,tags:[<|"|>sea<|"|>],opts:{late:true}}<tool_call|>'
    eq(parser.parse(t).tool_calls, [ToolCall('book', {'city': 'Nice', 'nights': 2, 'tags': ['sea'], 'opts': {'late': True}})])
    eq(parser.parse('<|tool_call>call:read{p:<|"|>a<|"|>}call:read{p:<|"|>b<|"|>}<tool_call|>').tool_calls, [ToolCall('read', {'p': 'a'}), ToolCall('read', {'p': 'b'})])
    eq(parser.parse('<|tool_call>call:f{s:"hi, who:me",t:# Title\nbody}<tool_call|>').tool_calls, [ToolCall('f', {'s': 'hi, who:me', 't': '# Title\nbody'})])
    eq(parser.parse('<|tool_call>call:f{s:<|"|>abc}<tool_call|>').errors[0].reason, 'Gemma 4: f: a string opened with <|"|> is never closed')
    t = '<start_function_call>call:set_alarm{label:<escape>Wake up, now<escape>,hour:7,days:[<escape>mon<escape>],opts:{loud:true}}<end_function_call>'
    eq(parser.parse(t).tool_calls, [ToolCall('set_alarm', {'label': 'Wake up, now', 'hour': 7, 'days': ['mon'], 'opts': {'loud': True}})])

def test_apertus():
    "Apertus: the page's tests, as it had them"
    eq(parser.parse('<|tools_prefix|>[{"add": {"a": 1}}, {"neg": {"x": 2}}]<|tools_suffix|>').tool_calls, [ToolCall('add', {'a': 1}), ToolCall('neg', {'x': 2})])

def test_olmo_3():
    "OLMo 3: the page's tests, as it had them"
    eq(parser.parse("<function_calls>get_weather(city='Lyon')\nget_time(tz=null)</function_calls>").tool_calls, [ToolCall('get_weather', {'city': 'Lyon'}), ToolCall('get_time', {'tz': None})])

def test_functionary():
    "Functionary: the page's tests, as it had them"
    eq(parser.parse('<function=get_weather>{"city": "Bern"}</function>').tool_calls, [ToolCall('get_weather', {'city': 'Bern'})])

def test_adding_a_format():
    "Adding a format: the page's tests, as it had them"
    eq(ToolCallParser(dialects=['DeepSeek']).parse('<think>x</think>').content, '<think>x</think>')
    fails(lambda: ToolCallParser(dialects=['nope']), contains="dialects: expected Dialect instances or names of")

def test_the_marker():
    "The marker: the page's tests, as it had them"
    eq(parser.parse('TOOL_CALLS are explained later. TOOL_CALL: {"tool_name": "x"}').tool_calls, [ToolCall('x', {})])
    eq(parser.parse('TOOL_CALLS are explained later. TOOL_CALL: {"tool_name": "x"}').errors, [])
    eq(parser.parse('I will use TOOL_CALL next time.').errors[0].reason, "no tool call found after the 'TOOL_CALL' marker")
    eq(ToolCallParser(marker='CALL(').parse('CALL( {"tool_name": "x"}').tool_call, ToolCall('x', {}))
    eq(ToolCallParser(marker=':').parse('Call: {"tool_name": "f", "parameters": {"a": 1}}').tool_calls, [ToolCall('f', {'a': 1})])

def test_three_rules_for_every_format():
    "Three rules for every format: the page's tests, as it had them"
    eq(parser.parse('<tool_call>set_alarm\n<arg_key>time</arg_key>\n<arg_value>07:3').errors[0].reason, 'GLM: set_alarm: the call is cut off at the end of the text: its arguments may be missing some')
    eq(parser.parse('<tool_call>{"name": "f", "arguments": {"n": 12}}').tool_calls, [ToolCall('f', {'n': 12})])  # its JSON closes
    eq(parser.parse(r'[f(p="C:\users\bob", q="C:\new")]').tool_call.parameters, {'p': r'C:\users\bob', 'q': 'C:\new'})
    eq(parser.parse('<|tool_call>call:f{p:<|"|>C:\\new<|"|>}<tool_call|>').tool_call.parameters, {'p': 'C:\\new'})  # no escapes in Gemma's strings

def test_streaming_events():
    "Streaming events: the page's tests, as it had them"
    sp = StreamParser()
    events = [e for ch in '{"name": "f", "arguments": {"a": NaN}}' for e in sp.feed(ch)] + sp.close()
    [(e.type, e.index) for e in events if e.type in ('start', 'end', 'error')], events[-1].error.reason
    eq([(e.type, e.index) for e in events if e.type in ('start', 'end', 'error')], [('start', 0), ('error', 0)])
    eq(sp.result().errors, [events[-1].error])
    text = '<function_calls><invoke name="get"><parameter name="n">3</parameter></invoke></function_calls>'
    sp = StreamParser(tools=['get'])
    events = [e for ch in text for e in sp.feed(ch)] + sp.close()
    eq([(e.type, e.text) for e in events], [('start', None), ('delta', '{"n": 3}'), ('end', '{"n": 3}')])
    eq(sp.result(), parser.parse(text, tools=['get']))
    fails(lambda: StreamParser(parser='TOOL_CALL'), contains='parser must be a ToolCallParser, got str')
    sp = StreamParser()
    events = sp.feed('Calls: [call {"name": "f", "arguments": {"a": 1}}]') + sp.close()
    eq([(e.type, e.index) for e in events if e.type in ('start', 'end', 'error')], [('start', 0), ('error', 0)])
    eq(sp.result(), parser.parse('Calls: [call {"name": "f", "arguments": {"a": 1}}]'))
    t = '<function=f><parameter=x<y>1</parameter><parameter=z>2</parameter></function>'  # XML split anywhere
    for k in range(len(t)):
        sp = StreamParser(); sp.feed(t[:k]); sp.feed(t[k:]); sp.close()
        eq(sp.result(), parser.parse(t))

def test_streaming_events_2():
    "Streaming events: the page's tests, as it had them"
    text = '<think>Short.</think>Here: <｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": 1}<｜tool▁call▁end｜><｜tool▁calls▁end｜> done'
    sp = StreamParser()
    events = [e for i in range(0, len(text), 5) for e in sp.feed(text[i:i+5])] + sp.close()
    eq([(e.type, e.text) for e in events if e.type in ('reasoning', 'start', 'end')], [('reasoning', 'Short.'), ('start', None), ('end', '{"a": 1}')])
    eq(sp.result(), parser.parse(text))

def test_the_json_scan():
    "The JSON scan: the page's tests, as it had them"
    for t in ('x = {1: {"name": "g", "arguments": {}}}', '{data: {"name": "g", "arguments": {}}}', 'function f() { return {"tool_name": "rm", "parameters": {"path": "/"}}; }'):
        eq(parser.parse(t).tool_calls, [])
    eq(parser.parse('{"result": {"tool_name": "search", "parameters": {}}}').tool_calls, [])  # a valid object that is not a call hides none
    r = parser.parse("""TOOL_CALL {'tool_name': 'w', 'parameters': {'s': 'a } b', 'q': "it's {"}} done""")
    eq(r.tool_calls, [ToolCall('w', {'s': 'a } b', 'q': "it's {"})])
    eq(parser.parse('{"name": "f", "arguments": {"code": "if x: {\\"a\\": [1}"}}').tool_call.parameters, {'code': 'if x: {"a": [1}'})

def test_the_json_scan_2():
    "The JSON scan: the page's tests, as it had them"
    r = parser.parse('Use { to open. Then: {"name": "f", "arguments": {}}')
    eq((r.tool_calls, r.errors[0].reason), ([], "not valid JSON, and repairing it would drop 'to' and make an inner object the outer one"))
    eq(parser.parse('Use { to open.\nTOOL_CALL {"tool_name": "f", "parameters": {}}').tool_calls, [ToolCall('f', {})])
    eq(parser.parse('{"tool_name":"f","parameters":{"x":[1,2,}}, "inner":{"tool_name":"g","parameters":{}}}}').tool_calls, [ToolCall('f', {'x': [1, 2]})])
    eq(parser.parse('{"tool_name": "f", "parameters": {"x": "a"}}, "y": {"tool_name": "g", "parameters": {}}}').tool_calls, [ToolCall('f', {'x': 'a'})])
    eq(len(parser.parse('{"name": "f", "arguments": {}}, {"name": "g", "arguments": {}}').tool_calls), 2)  # two calls

def test_what_counts_as_a_call():
    "What counts as a call: the page's tests, as it had them"
    eq(parser.parse('The user is {"name": "Bob", "age": 3}.').tool_calls, [])
    eq(parser.parse('{"name": "x"}').tool_calls, [])
    eq(parser.parse('{"tool_name": "x"}').tool_calls, [ToolCall('x', {})])

def test_repairs():
    "Repairs: the page's tests, as it had them"
    r = parser.parse('TOOL_CALL {"tool_name": "a", "parameters": {"name": "b", "arguments": {}}')
    eq((r.tool_calls, r.errors[0].reason), ([], 'a: the call is cut off at the end of the text: its arguments may be missing some'))
    eq(parser.parse("{'name': 'f', 'arguments': {'a': 1,}}").tool_calls, [ToolCall('f', {'a': 1})])
    eq(parser.parse('{"name": "f", "arguments": {"a": }}').errors[0].reason, 'not valid JSON: a value is missing, and repairing it would invent an empty string')
    r = parser.parse('{x {"tool_name": "g", "parameters": {}}}')
    eq((r.tool_calls, r.errors[0].reason), ([], "not valid JSON, and repairing it would drop 'x' and make an inner object the outer one"))
    r = parser.parse('[{"name": "f", "arguments": {}}, "y": {"name": "g", "arguments": {}}}')
    eq((r.tool_calls, r.errors[0].reason), ([], "not valid JSON, and repairing it would lose the call to 'g'"))
    r = parser.parse('[{"name": "f", "arguments": {}}, {"name": "g", "arguments": {"at": 7:45}}]')  # each item of a broken array on its own
    eq((r.tool_calls, r.errors[0].reason), ([ToolCall('f', {})], "not valid JSON, and repairing it would drop '45'"))
    r = parser.parse('{"name": "f", "arguments": {}, "name": "g"}')
    eq((r.tool_calls, r.errors[0].reason), ([], "the object names two tools: 'f', then 'g'"))
    eq(parser.parse('[1, {"name": "f" "arguments": {}}]').tool_calls, [ToolCall('f', {})])  # a repair that keeps the call
    eq(parser.parse('{"name": "f", "arguments": {"a": NaN}}').errors[0].reason, 'not valid JSON: NaN is not a JSON number')
    eq(parser.parse('{"name": "f", "arguments": {"a": "x" + "y"}}').tool_call.parameters, {'a': 'x" + "y'})  # some guesses go through

def test_linear_time_and_limits():
    "Linear time and limits: the page's tests, as it had them"
    big = 'TOOL_CALL {"tool_name": "w", "parameters": {"s": "' + 'x'*10_000 + '"}}'
    eq(parser.parse(big).errors[0].reason, 'the payload is 10043 chars; max_payload_chars is 8000')
    eq(ToolCallParser(max_payload_chars=20_000).parse(big).tool_call.parameters['s'], 'x'*10_000)
    deep = 'TOOL_CALL {"tool_name": "x", "parameters": {"a": ' + '['*2000 + ']'*2000 + '}}'
    eq(parser.parse(deep).errors[0].reason, 'the JSON is nested deeper than max_depth=100')
    broken = 'TOOL_CALL {"tool_name": "f", "parameters": {' + 'a: b, '*1000 + '}}'
    eq(parser.parse(broken).errors[0].reason.split(', and ')[1], 'too large to repair: 6036 chars; max_repair_chars is 4000')
    r = parser.parse((broken[:3000] + '}}\n') * 10)
    eq((len(r.tool_calls), r.errors[0].reason.split(', and ')[1]), (5, 'too large to repair: 1040 chars of repair_budget are left'))

def test_linear_time_and_limits_2():
    "Linear time and limits: the page's tests, as it had them"
    for s in ('{'*100_000, '['*100_000, 'TOOL_CALL {'*1000, '<tool_call>'*50_000, '{"a": "' + 'x'*1_000_000, '{"a": "\\'*12_500, 'Path {"p": "C:\\data\\x"} ok\n'*4000,
              '<tool_call>f<arg_key>' + '<arg_key>'*100_000, '<｜tool▁calls▁begin｜>' + '<｜tool▁call▁begin｜>'*50_000):
        eq(parser.parse(s).tool_calls, [])
    r = parser.parse(('TOOL_CALL {"tool_name": "f", "parameters": {' + 'a: b, '*300 + '}}\n')*50)
    eq((len(r.tool_calls), len(r.errors)), (8, 42))  # the repair budget holds 8 of these
