"The tool-calls-in-text page's longer test lists (nbs/06_parse.ipynb keeps one example a format): each dialect's cases, the stream's events"
import json
from fastcore.test import test_eq as eq, test_fail as fail  # aliased: pytest would collect test_* names
from fncall.parse import ToolCall, ToolCallParser, StreamParser, CallError, Dialect

parser = ToolCallParser()

def test_json_in_prose_and_the_marker():
    parser = ToolCallParser()
    r = parser.parse('I will search for that.\nTOOL_CALL\n{"tool_name": "search", "parameters": {"query": "Python"}}')
    r.tool_calls, r.content
    eq(parser.parse('Sure.\n```json\n{"name": "search", "arguments": {"query": "Python"}}\n```').tool_calls, [ToolCall('search', {'query': 'Python'})])
    eq(parser.parse('{"tool": "search", "params": {}}').tool_call, ToolCall('search', {}))
    eq(parser.parse('{"name": "f", "args": {"a": 1}}').tool_call, ToolCall('f', {'a': 1}))
    eq(parser.parse('{"name": "f", "input": {"a": 1}}').tool_call, ToolCall('f', {'a': 1}))
    eq(parser.parse('[{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]').tool_calls, [ToolCall('a', {'x': 1}), ToolCall('b', {})])
    eq(parser.parse("Just a regular response with no tool call.").tool_call, None)

def test_json_in_prose_and_the_marker_2():
    r = parser.parse('{"id": "call_1", "type": "function", "function": {"name": "get_weather", "arguments": "{\\"city\\": \\"Paris\\"}"}}')
    r.tool_call
    text = '{"tool_name": "first"}\n{"tool_name": "second"}'
    [(c.tool_name, text[slice(*c.span)]) for c in parser.parse(text).tool_calls]
    eq([c.tool_name for c in parser.parse(text).tool_calls], ['first', 'second'])
    eq(parser.parse(text).tool_call.tool_name, 'first')
    r = parser.parse('{"tool_name": "", "parameters": {}}')
    eq((r.tool_call, r.errors[0].reason), (None, "the tool name must be a non-empty string, got ''"))

def test_hermes():
    t = '<tool_call>\n{"name": "a", "arguments": {"x": 1}}\n</tool_call>\n<tool_call>\n{"name": "b", "arguments": {}}'
    parser.parse(t).tool_calls
    eq(parser.parse(t).tool_calls, [ToolCall('a', {'x': 1}), ToolCall('b', {})])
    eq(parser.parse('<tool_call>\n</tool_call>').errors[0].reason, 'no tool call found after the <tool_call> tag')
    eq(parser.parse('<tool_call>{"name": "a", "arguments": {"x": 1}</tool_call>').tool_calls, [ToolCall('a', {'x': 1})])  # a brace missing
    eq(ToolCallParser(marker='<').parse('</tool_call>').errors, [])  # a tag, not the marker

def test_mistral():
    eq(parser.parse('[TOOL_CALLS][{"name": "a", "arguments": {"x": 1}}, {"name": "b", "arguments": {}}]').tool_calls, [ToolCall('a', {'x': 1}), ToolCall('b', {})])
    eq(parser.parse('On it.[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}').tool_calls, [ToolCall('get_weather', {'city': 'Paris'})])
    eq(parser.parse('[TOOL_CALLS]get_weather[ARGS]{"city": "Paris"}').tool_calls, [ToolCall('get_weather', {'city': 'Paris'})])
    eq(parser.parse('[TOOL_CALLS]get_weather{"city": "Paris"}').tool_calls, [ToolCall('get_weather', {'city': 'Paris'})])
    eq(parser.parse('[TOOL_CALLS]f[CALL_ID]a1b2[ARGS]{"x": 1}[TOOL_CALLS]g[CALL_ID]c3[ARGS]{}').tool_calls, [ToolCall('f', {'x': 1}), ToolCall('g', {})])
    eq(parser.parse('So {say [TOOL_CALLS]f{"x": 1}').tool_calls, [ToolCall('f', {'x': 1})])  # the tag ends a stray brace before it

def test_llama_3_1_python_tag():
    eq(parser.parse('<|python_tag|>{"name": "a", "parameters": {"x": 1}}; {"name": "b", "parameters": {}}<|eom_id|>').tool_calls, [ToolCall('a', {'x': 1}), ToolCall('b', {})])
    eq(parser.parse('<|python_tag|>get_weather(city="Paris"); get_time(tz="CET")<|eom_id|>').tool_calls, [ToolCall('get_weather', {'city': 'Paris'}), ToolCall('get_time', {'tz': 'CET'})])
    eq(parser.parse('<|python_tag|>get_weather(city="Paris"); search(q="x")<|eom_id|>').tool_calls, [ToolCall('get_weather', {'city': 'Paris'}), ToolCall('search', {'q': 'x'})])
    eq(parser.parse('<|python_tag|><|eom_id|>').errors[0].reason, 'no tool call found after the <|python_tag|> tag')

def test_claude_style_function_calls():
    t = """<function_calls>
    <invoke name="get_weather">
    <parameter name="city">Paris</parameter>
    <parameter name="days">3</parameter>
    </invoke>
    </function_calls>"""
    parser.parse(t).tool_calls
    eq(parser.parse(t).tool_calls, [ToolCall('get_weather', {'city': 'Paris', 'days': 3})])
    t = '<function_calls>\n<invoke name="get_weather">\n<parameter name="city">Paris</parameter>\n<parameter name="days">3</parameter>\n<parameter name="units">["C", "F"]</parameter>\n</invoke>\n</function_calls>'
    eq(parser.parse(t).tool_calls, [ToolCall('get_weather', {'city': 'Paris', 'days': 3, 'units': ['C', 'F']})])
    eq(parser.parse('<function_calls><invoke name="f"><parameter name="a">NaN</parameter><parameter name="b">1e999</parameter></invoke></function_calls>').tool_call.parameters, {'a': 'NaN', 'b': '1e999'})
    eq(parser.parse('<function_calls><invoke name="a<b"><parameter name="x">1</parameter></invoke></function_calls>').tool_calls, [])  # a name never holds < or >

def test_qwen3_coder():
    t = '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n007\n</parameter>\n</function>\n</tool_call>'
    parser.parse(t).tool_calls
    eq(parser.parse(t).tool_calls, [ToolCall('get_weather', {'city': 'Paris', 'days': '007'})])
    eq(parser.parse('<function=f><parameter=x<y>1</parameter><parameter=z>2</parameter></function>').tool_calls, [ToolCall('f', {'z': 2})])

def test_python_style_calls():
    t = '<tool_call>\n<function=get_weather>\n<parameter=city>\nParis\n</parameter>\n<parameter=days>\n007\n</parameter>\n</function>\n</tool_call>'
    parser.parse(t).tool_calls
    text = 'I will call [get_weather(city="Paris"), search(q="x", n=3)] now.'
    [(c, text[slice(*c.span)]) for c in parser.parse(text).tool_calls]
    eq([(c, text[slice(*c.span)]) for c in parser.parse(text).tool_calls], [(ToolCall('get_weather', {'city': 'Paris'}), 'get_weather(city="Paris")'), (ToolCall('search', {'q': 'x', 'n': 3}), 'search(q="x", n=3)')])
    eq(parser.parse('Checking.\n```tool_code\nprint(default_api.get_weather(city="Paris"))\n```\n').tool_calls, [ToolCall('get_weather', {'city': 'Paris'})])
    eq(parser.parse('[grocery.order(n=1)]').tool_calls, [ToolCall('grocery.order', {'n': 1})])
    t = "```tool_code\n# not now: delete_all(confirm=True)\nsearch(q='y')  # delete_all()\n```"
    eq([(c.tool_name, t[slice(*c.span)]) for c in parser.parse(t).tool_calls], [('search', "search(q='y')")])
    for t in ('[f(a=g(1))]', '[f(x)]', '[f(a=1), 2]'): eq((parser.parse(t).tool_calls, len(parser.parse(t).errors)), ([], 1))
    eq(parser.parse('[f(a=1), 2]').errors[0].reason, 'could not read the Python-style calls (ValueError: Not a function call: found a constant `2` in `[f(a=1), 2]`; expected a call or a list of calls)')

def test_reasoning():
    r = parser.parse('<think>Maybe [get_weather(city="Rome")]? No: Paris.</think>Checking Paris.\n<tool_call>{"name": "get_weather", "arguments": {"city": "Paris"}}</tool_call>')
    r.tool_calls, r.content, r.reasoning
    eq((r.tool_calls, r.content, r.reasoning), ([ToolCall('get_weather', {'city': 'Paris'})], 'Checking Paris.\n', 'Maybe [get_weather(city="Rome")]? No: Paris.'))
    eq(parser.parse('[THINK]hmm[/THINK]Hi').reasoning, 'hmm')
    eq(parser.parse('<|channel>thought\nhmm<channel|>Hi').content, 'Hi')

def test_end_of_reasoning():
    r = parser.parse('A call now? <tool_call>{"name": "draft", "arguments": {}}</tool_call> Not yet.\n</think>\n\nIt is sunny.')
    r.tool_calls, r.content, r.reasoning
    eq((r.tool_calls, r.errors, r.content.strip(), r.reasoning), ([], [], 'It is sunny.', 'A call now?  Not yet.'))

def test_turn_tokens():
    eq(parser.parse('<|START_RESPONSE|>Hello.<|END_RESPONSE|>').content, 'Hello.')

def test_gigachat():
    r = parser.parse('Noted.<|message_sep|>\n\nfunction call<|role_sep|>\n{"name": "remember", "arguments": {"fact": "likes tea"}}')
    r.tool_calls, r.content
    eq((r.tool_calls, r.content.strip()), ([ToolCall('remember', {'fact': 'likes tea'})], 'Noted.'))
    eq(parser.parse('<|function_call|>{"name": "remember"}').errors[0].reason, 'GigaChat: expected {"name": ..., "arguments": {...}}')

def test_tagged_calls():
    r = parser.parse('Adding. <tool_calls>[{"name": "add", "arguments": {"a": 1, "b": 2}}]</tool_calls>')
    r.tool_calls, r.content
    eq((r.tool_calls, r.content), ([ToolCall('add', {'a': 1, 'b': 2})], 'Adding. '))
    eq(parser.parse('<|tool_call_start|>[dictionary.lookup(word="tea")]<|tool_call_end|>').tool_calls, [ToolCall('dictionary.lookup', {'word': 'tea'})])
    eq(parser.parse('<seed:tool_call><function=f><parameter=x>1</parameter></function></seed:tool_call>').tool_calls, [ToolCall('f', {'x': 1})])
    eq(parser.parse('<TOOLCALL>nothing here</TOOLCALL>').errors[0].reason, '<TOOLCALL>: no tool call found')
    eq(parser.parse('<|tool_call_start|>ping(host="a.example", count=3)<|tool_call_end|>').tool_calls, [ToolCall('ping', {'host': 'a.example', 'count': 3})])  # LFM2, no brackets

def test_deepseek():
    r = parser.parse('Adding. <tool_calls>[{"name": "add", "arguments": {"a": 1, "b": 2}}]</tool_calls>')
    r.tool_calls, r.content
    t = '<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>function<｜tool▁sep｜>get_weather\n```json\n{"city": "Paris"}\n```<｜tool▁call▁end｜><｜tool▁call▁begin｜>get_time<｜tool▁sep｜>{"tz": "CET"}<｜tool▁call▁end｜><｜tool▁calls▁end｜>'
    parser.parse(t).tool_calls
    eq(parser.parse(t).tool_calls, [ToolCall('get_weather', {'city': 'Paris'}), ToolCall('get_time', {'tz': 'CET'})])
    r = parser.parse('<｜tool▁calls▁begin｜><｜tool▁call▁begin｜>f<｜tool▁sep｜>{"a": }<｜tool▁call▁end｜>')
    eq(str(r.errors[0]), 'chars 20-76: DeepSeek: f: arguments given as a string are not valid JSON: a value is missing, and repairing it would invent an empty string')
    eq(parser.parse('<｜tool▁call▁begin｜>fn<｜tool▁sep｜>f\n```json\n{"a": 1}\n```<｜tool▁call▁end｜>').errors[0].reason, "DeepSeek: expected the type function before the name, got 'fn'")
    eq(parser.parse('<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n{"a": 1}<｜tool▁call▁end｜>').errors[0].reason, 'DeepSeek: f: expected the arguments in a ```json fence')
    eq(parser.parse('<|tool▁call▁begin|>f<|tool▁sep|>{"a": 1}<|tool▁call▁end|>').tool_calls, [ToolCall('f', {'a': 1})])  # its tokens with an ASCII bar

def test_invoke():
    t = '<｜DSML｜function_calls>\n<｜DSML｜invoke name="search">\n<｜DSML｜parameter name="q" string="true">007</｜DSML｜parameter>\n<｜DSML｜parameter name="n" string="false">3</｜DSML｜parameter>\n</｜DSML｜invoke>\n</｜DSML｜function_calls>'
    parser.parse(t).tool_calls
    eq(parser.parse(t).tool_calls, [ToolCall('search', {'q': '007', 'n': 3})])
    eq(parser.parse('<minimax:tool_call>\n<invoke name="get_date">\n</invoke>\n</minimax:tool_call>').tool_calls, [ToolCall('get_date', {})])

def test_invoke_2():
    eq(parser.parse('<function name="html"><param name="markup"><![CDATA[<b>hi</b>]]></param></function>').tool_calls, [ToolCall('html', {'markup': '<b>hi</b>'})])

def test_glm():
    t = '<tool_call>set_alarm\n<arg_key>time</arg_key>\n<arg_value>07:30</arg_value>\n<arg_key>repeat</arg_key>\n<arg_value>true</arg_value>\n</tool_call>'
    parser.parse(t).tool_calls
    eq(parser.parse(t).tool_calls, [ToolCall('set_alarm', {'time': '07:30', 'repeat': True})])
    eq(parser.parse('<tool_call>now</tool_call>').tool_calls, [ToolCall('now', {})])
    eq(parser.parse('<tool_call>f\n<arg_key>a</arg_key>\n<arg_value>1\n<arg_key>b</arg_key>\nfast</arg_value>\n</tool_call>').tool_calls, [ToolCall('f', {'a': 1, 'b': 'fast'})])
    eq(parser.parse('<tool_call>lookup\n{"name": "cats", "n": 2}\n</tool_call>').tool_calls, [ToolCall('lookup', {'name': 'cats', 'n': 2})])
    eq(parser.parse('<longcat_tool_call>get_time\n<longcat_arg_key>zone</longcat_arg_key>\n<longcat_arg_value>UTC</longcat_arg_value></longcat_tool_call>').tool_calls, [ToolCall('get_time', {'zone': 'UTC'})])

def test_kimi_k2():
    r = parser.parse('Sure.<|tool_calls_section_begin|><|tool_call_begin|>functions.get_weather:0<|tool_call_argument_begin|>{"city": "Oslo"}<|tool_call_end|><|tool_calls_section_end|>')
    r.tool_calls, r.content
    eq((r.tool_calls, r.content), ([ToolCall('get_weather', {'city': 'Oslo'})], 'Sure.'))
    r = parser.parse('<think>Two calls<|tool_calls_section_begin|><|tool_call_begin|>functions.f:0<|tool_call_argument_begin|>{}<|tool_call_end|><|tool_calls_section_end|>')
    eq((r.tool_calls, r.reasoning), ([ToolCall('f', {})], 'Two calls'))  # a reasoning never closed ends where the calls begin

def test_gemma_4_and_functiongemma():
    t = '<|tool_call>call:book{city:<|"|>Nice<|"|>,nights:2,tags:[<|"|>sea<|"|>],opts:{late:true}}<tool_call|>'
    parser.parse(t).tool_calls
    eq(parser.parse(t).tool_calls, [ToolCall('book', {'city': 'Nice', 'nights': 2, 'tags': ['sea'], 'opts': {'late': True}})])
    eq(parser.parse('<|tool_call>call:read{p:<|"|>a<|"|>}call:read{p:<|"|>b<|"|>}<tool_call|>').tool_calls, [ToolCall('read', {'p': 'a'}), ToolCall('read', {'p': 'b'})])
    eq(parser.parse('<|tool_call>call:f{s:"hi, who:me",t:# Title\nbody}<tool_call|>').tool_calls, [ToolCall('f', {'s': 'hi, who:me', 't': '# Title\nbody'})])
    eq(parser.parse('<|tool_call>call:f{s:<|"|>abc}<tool_call|>').errors[0].reason, 'Gemma 4: f: a string opened with <|"|> is never closed')
    t = '<start_function_call>call:set_alarm{label:<escape>Wake up, now<escape>,hour:7,days:[<escape>mon<escape>],opts:{loud:true}}<end_function_call>'
    eq(parser.parse(t).tool_calls, [ToolCall('set_alarm', {'label': 'Wake up, now', 'hour': 7, 'days': ['mon'], 'opts': {'loud': True}})])

def test_glimmer():
    t = ' to=self<|message|>Look it up.<|eom|><|start|>assistant to=lookup<|message|><atem:function_calls>\n<atem:invoke name="lookup">\n<atem:parameter name="q">cats</atem:parameter>\n</atem:invoke>\n</atem:function_calls><|eom|>'
    r = parser.parse(t)
    r.tool_calls, r.reasoning
    eq((r.tool_calls, r.reasoning), ([ToolCall('lookup', {'q': 'cats'})], 'Look it up.'))
    eq(parser.parse(' to=user<|message|>Hello<|eot|>').content, ' Hello')  # the space before the header is the model's

def test_glimmer_2():
    t = '<|channel|>analysis<|message|>Need the time.<|end|><|start|>assistant<|channel|>commentary to=functions.get_time <|constrain|>json<|message|>{"tz": "UTC"}<|call|>'
    r = parser.parse(t)
    r.tool_calls, r.reasoning
    eq((r.tool_calls, r.reasoning), ([ToolCall('get_time', {'tz': 'UTC'})], 'Need the time.'))
    eq(parser.parse('<|channel|>final<|message|>Noon.').content, 'Noon.')
    eq(parser.parse('<|channel|>commentary to=functions.f').errors[0].reason, 'Harmony: f: no <|message|> after the header')

def test_apertus():
    eq(parser.parse('<|tools_prefix|>[{"add": {"a": 1}}, {"neg": {"x": 2}}]<|tools_suffix|>').tool_calls, [ToolCall('add', {'a': 1}), ToolCall('neg', {'x': 2})])

def test_olmo_3():
    eq(parser.parse("<function_calls>get_weather(city='Lyon')\nget_time(tz=null)</function_calls>").tool_calls, [ToolCall('get_weather', {'city': 'Lyon'}), ToolCall('get_time', {'tz': None})])

def test_functionary():
    eq(parser.parse('<function=get_weather>{"city": "Bern"}</function>').tool_calls, [ToolCall('get_weather', {'city': 'Bern'})])

def test_streaming_events():
    e = CallError('DeepSeek: get_weather: arguments given as a string are not valid JSON', (12, 80), '<｜tool▁call▁begin｜>...')
    eq(str(e), 'chars 12-80: DeepSeek: get_weather: arguments given as a string are not valid JSON')
    str(e)
    parser = ToolCallParser()
    r = parser.parse('I will search for that.\nTOOL_CALL\n{"tool_name": "search", "parameters": {"query": "Python"}}')
    r.tool_calls, r.content
    for t in ('<tool_call>set_alarm\n<arg_key>time</arg_key>\n<arg_value>07:3', '<tool_call>{"name": "f", "arguments": {"n": 12', '<｜tool▁call▁begin｜>function<｜tool▁sep｜>f\n{"a": 1}<｜tool▁call▁end｜>'):
        print([e.reason for e in parser.parse(t).errors])
    parser.parse(r'<tool_call>{"name": "f", "arguments": {"p": "C:\users\bob", "q": "tab\tstop"}}</tool_call>').tool_call
    text = "<tool_call>{\"name\": \"search\", \"arguments\": {'query': 'x', 'n': 3,}}"
    sp = StreamParser()
    events = [e for ch in text for e in sp.feed(ch)] + sp.close()
    ''.join(e.text for e in events if e.type == 'delta'), events[-1].text, events[-1].repaired
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
    fail(lambda: StreamParser(parser='TOOL_CALL'), contains='parser must be a ToolCallParser, got str')
    sp = StreamParser()
    events = sp.feed('Calls: [call {"name": "f", "arguments": {"a": 1}}]') + sp.close()
    eq([(e.type, e.index) for e in events if e.type in ('start', 'end', 'error')], [('start', 0), ('error', 0)])
    eq(sp.result(), parser.parse('Calls: [call {"name": "f", "arguments": {"a": 1}}]'))
    t = '<function=f><parameter=x<y>1</parameter><parameter=z>2</parameter></function>'  # XML split anywhere
    for k in range(len(t)):
        sp = StreamParser(); sp.feed(t[:k]); sp.feed(t[k:]); sp.close()
        eq(sp.result(), parser.parse(t))

def test_repairs():
    schemas = [{'name': 'search', 'input_schema': {}}, {'type': 'function', 'function': {'name': 'get_weather'}}]
    r = parser.parse('<tool_call>{"name": "serach", "arguments": {}}</tool_call><tool_call>{"name": "search", "arguments": {}}</tool_call>', tools=schemas)
    r.tool_calls, [str(e) for e in r.errors]
    r = parser.parse('TOOL_CALL {"tool_name": "a", "parameters": {"name": "b", "arguments": {}}')
    eq((r.tool_calls, r.errors[0].reason), ([], 'the call is cut off at the end of the text: its arguments may be missing some'))
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
