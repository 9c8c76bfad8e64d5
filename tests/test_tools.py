"""The registry in a full two-turn loop with the real provider SDK clients over a mocked HTTP transport:
the request carries our schemas, the response asks for two tools at once, the registry runs them,
and the follow-up request carries the right results."""
import json, sys, pytest
from fncall.tools import FunctionRegistry

def get_weather(location:str, # City name
                unit:str='celsius', # celsius or fahrenheit
               )->str:
    "Get the weather for a location"
    return f"{location}: 25 {unit}"

def divide(a:float, # Numerator
           b:float, # Denominator
          )->float:
    "Divide a by b"
    return a / b

@pytest.fixture
def reg():
    r = FunctionRegistry()
    r.add(get_weather); r.add(divide)
    return r

class Fake:
    "A mock HTTP transport that records each JSON request and answers with the next canned JSON response"
    def __init__(self, *responses): self.responses, self.requests = list(responses), []
    def client(self, sdk):
        "An HTTP client, of the httpx flavour SDK package `sdk` uses (httpx or httpx2), served by this fake"
        base = sys.modules[sdk.__name__.split('.')[0] + '._base_client'] if hasattr(sdk, '_base_client') else None
        http = getattr(base, 'httpx2', None) or getattr(base, 'httpx', None) or __import__('httpx')
        def handle(request):
            self.requests.append(json.loads(request.content))
            return http.Response(200, json=self.responses.pop(0))
        return http.Client(transport=http.MockTransport(handle))

ARGS = [('get_weather', {'location': 'Paris'}), ('divide', {'a': 1, 'b': 0})]
RESULTS = ['Paris: 25 celsius', 'ZeroDivisionError: float division by zero']
ERR = "Error: tool 'divide' raised ZeroDivisionError: float division by zero"  # type and message: no traceback

def test_openai_chat(reg):
    import openai
    from openai import OpenAI
    calls = [{'id': f'call_{i}', 'type': 'function', 'function': {'name': n, 'arguments': json.dumps(a)}} for i,(n,a) in enumerate(ARGS)]
    fake = Fake({'id': 'c1', 'object': 'chat.completion', 'created': 0, 'model': 'gpt-4o', 'choices': [{'index': 0, 'finish_reason': 'tool_calls',
                  'message': {'role': 'assistant', 'content': None, 'tool_calls': calls}}]},
                {'id': 'c2', 'object': 'chat.completion', 'created': 0, 'model': 'gpt-4o', 'choices': [{'index': 0, 'finish_reason': 'stop',
                  'message': {'role': 'assistant', 'content': 'Done'}}]})
    cli = OpenAI(api_key='sk-test', http_client=fake.client(openai))
    msgs = [{'role': 'user', 'content': 'Weather in Paris, and 1/0?'}]
    r = cli.chat.completions.create(model='gpt-4o', messages=msgs, tools=reg.schemas('openai'))
    assert reg.run(r.choices[0].message.tool_calls) == reg.run(r)  # the bare list of SDK tool calls
    msgs += [r.choices[0].message.model_dump(exclude_none=True)] + reg.run(r)
    r = cli.chat.completions.create(model='gpt-4o', messages=msgs, tools=reg.schemas('openai'))
    assert r.choices[0].message.content == 'Done' and reg.run(r) == []  # no calls: nothing to send
    first, second = fake.requests
    assert first['tools'] == second['tools'] == reg.schemas('openai')
    tool_msgs = [m for m in second['messages'] if m['role'] == 'tool']
    assert [m['tool_call_id'] for m in tool_msgs] == ['call_0', 'call_1']
    assert tool_msgs[0]['content'] == RESULTS[0] and tool_msgs[1]['content'] == ERR

def test_openai_responses(reg):
    import openai
    from openai import OpenAI
    out = [{'type': 'function_call', 'id': f'fc_{i}', 'call_id': f'call_{i}', 'name': n, 'arguments': json.dumps(a), 'status': 'completed'}
           for i,(n,a) in enumerate(ARGS)]
    base = {'object': 'response', 'created_at': 0, 'model': 'gpt-4o', 'status': 'completed', 'parallel_tool_calls': True,
            'tool_choice': 'auto', 'tools': []}
    fake = Fake({**base, 'id': 'r1', 'output': out},
                {**base, 'id': 'r2', 'output': [{'type': 'message', 'id': 'm1', 'role': 'assistant', 'status': 'completed',
                                                 'content': [{'type': 'output_text', 'text': 'Done', 'annotations': []}]}]})
    cli = OpenAI(api_key='sk-test', http_client=fake.client(openai))
    inp = [{'role': 'user', 'content': 'Weather in Paris, and 1/0?'}]
    r = cli.responses.create(model='gpt-4o', input=inp, tools=reg.schemas('responses'))
    assert reg.run(r.output) == reg.run(r)
    inp += [o.model_dump(exclude_none=True) for o in r.output] + reg.run(r)
    r = cli.responses.create(model='gpt-4o', input=inp, tools=reg.schemas('responses'))
    assert r.output_text == 'Done' and reg.run(r) == []
    first, second = fake.requests
    assert first['tools'] == second['tools'] == reg.schemas('responses')
    outs = [o for o in second['input'] if o.get('type') == 'function_call_output']
    assert [o['call_id'] for o in outs] == ['call_0', 'call_1'] and outs[0]['output'] == RESULTS[0]

def test_anthropic(reg):
    import anthropic
    from anthropic import Anthropic
    blocks = [{'type': 'tool_use', 'id': f'toolu_{i}', 'name': n, 'input': a} for i,(n,a) in enumerate(ARGS)]
    msg = lambda content, stop: {'id': 'msg', 'type': 'message', 'role': 'assistant', 'model': 'claude-x', 'content': content,
                                 'stop_reason': stop, 'stop_sequence': None, 'usage': {'input_tokens': 1, 'output_tokens': 1}}
    fake = Fake(msg(blocks, 'tool_use'), msg([{'type': 'text', 'text': 'Done'}], 'end_turn'))
    cli = Anthropic(api_key='sk-test', http_client=fake.client(anthropic))
    msgs = [{'role': 'user', 'content': 'Weather in Paris, and 1/0?'}]
    r = cli.messages.create(model='claude-x', max_tokens=100, messages=msgs, tools=reg.schemas('anthropic'))
    assert reg.run(r.content) == reg.run(r)
    msgs += [{'role': 'assistant', 'content': [b.model_dump() for b in r.content]}] + reg.run(r)
    r = cli.messages.create(model='claude-x', max_tokens=100, messages=msgs, tools=reg.schemas('anthropic'))
    assert r.content[0].text == 'Done' and reg.run(r) == []
    first, second = fake.requests
    assert first['tools'] == second['tools'] == reg.schemas('anthropic')
    res = second['messages'][-1]['content']
    assert [b['tool_use_id'] for b in res] == ['toolu_0', 'toolu_1'] and [b['is_error'] for b in res] == [False, True]
    assert res[0]['content'] == RESULTS[0] and res[1]['content'] == ERR

def test_gemini(reg):
    from google import genai
    from google.genai import types
    parts = [{'functionCall': {'name': n, 'args': a}} for n,a in ARGS]
    fake = Fake({'candidates': [{'content': {'role': 'model', 'parts': parts}, 'finishReason': 'STOP'}]},
                {'candidates': [{'content': {'role': 'model', 'parts': [{'text': 'Done'}]}, 'finishReason': 'STOP'}]})
    cli = genai.Client(api_key='test', http_options=types.HttpOptions(httpx_client=fake.client(genai)))
    cfg = types.GenerateContentConfig(tools=[types.Tool(function_declarations=reg.schemas('gemini'))])
    contents = [{'role': 'user', 'parts': [{'text': 'Weather in Paris, and 1/0?'}]}]
    r = cli.models.generate_content(model='gemini-2.0-flash', contents=contents, config=cfg)
    assert reg.run(r.candidates[0].content.parts) == reg.run(r)
    contents += [r.candidates[0].content] + reg.run(r)
    r = cli.models.generate_content(model='gemini-2.0-flash', contents=contents, config=cfg)
    assert r.text == 'Done' and reg.run(r) == []
    first, second = fake.requests
    for req in (first, second):  # the SDK writes types in upper case (STRING); otherwise the declarations are ours
        assert _lower_types(req['tools']) == [{'functionDeclarations': reg.schemas('gemini')}]
    resp = [p['functionResponse'] for p in second['contents'][-1]['parts']]
    assert [p['name'] for p in resp] == ['get_weather', 'divide']
    assert resp[0]['response'] == {'result': RESULTS[0]} and resp[1]['response']['error'] == ERR

def _lower_types(o):
    "`o` with every JSON schema `type` in lower case"
    if isinstance(o, list): return [_lower_types(v) for v in o]
    if not isinstance(o, dict): return o
    return {k: v.lower() if k == 'type' and isinstance(v, str) else _lower_types(v) for k,v in o.items()}

def test_gemini_rest_dict(reg):
    "A plain dict from Gemini's REST API (camelCase functionCall, with ids) gives function_response parts the SDK accepts, ids matched"
    from google.genai import types
    rest = {'candidates': [{'content': {'role': 'model', 'parts': [
        {'text': 'Checking.'},
        {'functionCall': {'id': 'g1', 'name': 'get_weather', 'args': {'location': 'Rome', 'unit': 'kelvin'}}},
        {'functionCall': {'id': 'g2', 'name': 'divide', 'args': {'a': '1', 'b': 0}}}]}}]}
    out = reg.run(rest)
    assert len(out) == 1 and out[0]['role'] == 'user'
    resp = [p['function_response'] for p in out[0]['parts']]
    assert [(p['id'], p['name']) for p in resp] == [('g1', 'get_weather'), ('g2', 'divide')]
    assert resp[0]['response'] == {'result': 'Rome: 25 kelvin'} and resp[1]['response']['error'] == ERR
    assert types.Content.model_validate(out[0]).parts[1].function_response.id == 'g2'
    assert reg.run(rest['candidates'][0]['content']['parts']) == out

class TaskAgent:
    "Seed 003's agent: a closure registered in __init__ that updates the agent, and a bound method"
    def __init__(self):
        self.tasks, self.reg = [], FunctionRegistry()
        @self.reg.function("Add a new task")
        def add_task(task:str, priority:str="medium")->str:
            "Add a new task to the list."
            self.tasks.append({'id': len(self.tasks)+1, 'task': task, 'priority': priority, 'completed': False})
            return f"Added task: '{task}' with {priority} priority"
        self.reg.add(self.complete, "Mark a task completed")
    def complete(self, task_id:int)->str:
        "Mark a task completed"
        self.tasks[task_id-1]['completed'] = True
        return f"Completed task {task_id}"

def _tool_use(*calls): return {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': f't{i}', 'name': n, 'input': a} for i,(n,a) in enumerate(calls)]}

def test_task_agent():
    a, b = TaskAgent(), TaskAgent()
    assert [s['name'] for s in a.reg.schemas()] == ['add_task', 'complete']
    assert a.reg.schemas()[0]['input_schema'] == {'type': 'object', 'required': ['task'], 'properties': {
        'task': {'type': 'string'}, 'priority': {'default': 'medium', 'type': 'string'}}}  # tool_schema leaves empty descriptions out
    assert 'self' not in a.reg.schemas()[1]['input_schema']['properties']
    out = a.reg.run(_tool_use(('add_task', {'task': 'Write docs', 'priority': 'high'}), ('add_task', {'task': 'Ship'})))
    assert [r['content'] for r in out[0]['content']] == ["Added task: 'Write docs' with high priority", "Added task: 'Ship' with medium priority"]
    a.tasks.sort(key=lambda t: t['task'] != 'Write docs')  # the two calls ran in parallel: either may have been added first
    for i,t in enumerate(a.tasks): t['id'] = i+1
    out = a.reg.run(_tool_use(('complete', {'task_id': '2'})))
    assert out[0]['content'][0] == {'type': 'tool_result', 'tool_use_id': 't0', 'content': 'Completed task 2', 'is_error': False}
    assert [(t['task'], t['completed']) for t in a.tasks] == [('Write docs', False), ('Ship', True)]
    assert b.tasks == []  # each agent's tools act on that agent
    bad = a.reg.run(_tool_use(('complete', {'task_id': 'two'})))[0]['content'][0]
    assert bad['is_error'] and "task_id: expected integer, got 'two'" in bad['content']

def test_tool_exit_is_an_error_result():
    "A tool calling sys.exit gives an error result; the registry (and the program running it) carries on"
    reg = FunctionRegistry()
    @reg.function("Leave")
    def leave(code:int): import sys; sys.exit(code)
    res = reg.run(_tool_use(('leave', {'code': 3})))[0]['content'][0]
    assert res['is_error'] and res['content'] == "Error: tool 'leave' raised SystemExit: 3", res

def test_class_level_method_is_refused():
    "A method decorated in the class body has no instance to be called on: registering it says what to do instead"
    with pytest.raises(TypeError, match=r"A.addn is a method with no instance.*reg.add\(self.addn\)"):
        class A:
            reg = FunctionRegistry()
            @reg.function("Add n")
            def addn(self, x:int)->int: return x

def test_duplicate_names(reg):
    with pytest.raises(ValueError, match="'divide' is already registered"): reg.add(divide)
    with pytest.raises(ValueError, match="'divide' is already registered"): reg.function("Also divide", name='divide')(get_weather)
    def other(x:int): "Other"; return x
    with pytest.raises(ValueError, match="'get_weather' is already registered"): reg.add(other, name='get_weather')
    assert list(reg.tools) == ['get_weather', 'divide'] and reg.ns['divide'] is divide  # the failed registrations changed nothing
    reg.add(divide, name='div')  # the same function under another name is fine
    assert reg.run(_tool_use(('div', {'a': 1, 'b': 4})))[0]['content'][0]['content'] == '0.25'

def _example(prompt, marker):
    "The example call line a prompt shows"
    return next(l for l in prompt.splitlines() if l.startswith(marker))

def test_prompt_and_text_run(reg):
    "A model without a tools API: the prompt describes every tool and the format; what comes back in that format runs"
    p = reg.prompt()
    for t in reg.schemas(): assert f"## {t['name']}\n{t['description']}\nParameters (JSON schema): {json.dumps(t['input_schema'])}" in p
    ex = _example(p, 'TOOL_CALL ')
    assert ex == 'TOOL_CALL {"tool_name": "get_weather", "parameters": {"location": "..."}}'
    assert reg.run(ex) == [{'role': 'user', 'content': 'get_weather returned:\n...: 25 celsius'}]  # the example itself runs
    reply = ('I will look both up.\nTOOL_CALL {"tool_name": "get_weather", "parameters": {"location": "Oslo", "unit": "kelvin"}}\n'
             'TOOL_CALL {"tool_name": "divide", "parameters": {"a": 3, "b": 4}}')
    assert reg.run(reply) == [{'role': 'user', 'content': 'get_weather returned:\nOslo: 25 kelvin\n\ndivide returned:\n0.75'}]
    p = reg.prompt('python', context={'city': 'Lima', 'n': 9})
    assert _example(p, 'get_weather(') == "get_weather(location='...')" and 'or these variables: city, n.' in p
    out = reg.run("get_weather(city)\ndivide(n, b=3)", context={'city': 'Lima', 'n': 9})
    assert out == [{'role': 'user', 'content': 'get_weather returned:\nLima: 25 celsius\n\ndivide returned:\n3.0'}]
    out = reg.run('TOOL_CALL {"tool_name": "nope", "parameters": {}}\ndivide(1, 0)')[0]['content']
    assert out.startswith("parse failed:\nchars 10-49: unknown tool 'nope'; expected one of ['divide', 'get_weather']\n\ndivide failed:\n")
    assert reg.run('No tools needed: the answer is 4.') == []
    with pytest.raises(ValueError, match='no tools'): FunctionRegistry().prompt()

def test_function_tool_calls_through_call_func():
    from fncall.tools import FunctionTool
    t = FunctionTool(divide)
    assert t('1', b='4') == 0.25 and t.run('{"a": "3", "b": 4}') == 0.75
    with pytest.raises(ZeroDivisionError): t(1, 0)
    with pytest.raises(ValueError, match="a: expected number, got 'x'"): t('x', 1)
    assert t.run({'a': 1, 'b': 0}) == ERR
    assert t.run({'a': 1, 'c': 2}) == "Error: invalid arguments for tool 'divide':\nc: unknown argument\nb: missing required argument\n(parameters: a, b)"

def test_bare_lists_never_silently_run_nothing(reg):
    with pytest.raises(ValueError, match="Can't read tool calls from a list holding"): reg.run([{'name': 'divide', 'arguments': {'a': 1, 'b': 2}}])
    with pytest.raises(ValueError, match="Can't read tool calls from a list holding 'divide'"): reg.run(['divide', 'x'])
    with pytest.raises(ValueError, match='mixes tool calls of anthropic and openai'):
        reg.run([{'type': 'tool_use', 'id': 't', 'name': 'divide', 'input': {}}, {'id': 'c', 'type': 'function', 'function': {'name': 'divide', 'arguments': '{}'}}])

def test_async_parallel(reg):
    "Three calls asked for in one turn run at the same time: each waits at a barrier for the other two (a serial run would break it)"
    import asyncio, threading
    bar = threading.Barrier(3, timeout=30)
    def meet(s:float): "Wait for the others"; bar.wait(); return s
    reg.add(meet)
    ant = {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': f't{i}', 'name': 'meet', 'input': {'s': 0.4}} for i in range(3)]}
    res = asyncio.run(reg.arun(ant))
    assert [b['content'] for b in res[0]['content']] == ['0.4']*3 and not bar.broken

def test_claudette_with_fncall_python(reg):
    "claudette (an Anthropic chat client of this ecosystem) with a registry's tools, fncall's sandboxed python tool among them, over a mocked transport"
    import anthropic
    from anthropic import Anthropic
    from claudette import Chat, Client
    from fncall.python import Sandbox
    msg = lambda content, stop: {'id': 'msg', 'type': 'message', 'role': 'assistant', 'model': 'claude-sonnet-4-5', 'content': content,
                                 'stop_reason': stop, 'stop_sequence': None, 'usage': {'input_tokens': 1, 'output_tokens': 1}}
    fake = Fake(msg([{'type': 'tool_use', 'id': 'toolu_1', 'name': 'python', 'input': {'code': 'import math\nmath.factorial(6)'}},
                     {'type': 'tool_use', 'id': 'toolu_2', 'name': 'get_weather', 'input': {'location': 'Paris'}}], 'tool_use'),
                msg([{'type': 'text', 'text': 'It is 720, and sunny in Paris.'}], 'end_turn'))
    with Sandbox(timeout=10) as sb:
        reg.add(sb.python)
        cli = Client('claude-sonnet-4-5', cli=Anthropic(api_key='sk-test', http_client=fake.client(anthropic)))
        chat = Chat(cli=cli, tools=list(reg.ns.values()))
        out = list(chat.toolloop('What is 6 factorial, and the weather in Paris?'))
        assert sb.python('math.factorial(3)') == '6'  # claudette's call ran in the sandbox, whose namespace persists
    assert out[-1].content[0].text == 'It is 720, and sunny in Paris.'
    first, second = fake.requests
    tools = {t['name']: t for t in first['tools']}
    assert list(tools) == ['get_weather', 'divide', 'python'] and list(tools['python']['input_schema']['properties']) == ['code']
    assert tools['get_weather']['input_schema'] == reg.schemas()[0]['input_schema']
    res = second['messages'][-1]['content']
    assert [(r['type'], r['tool_use_id']) for r in res] == [('tool_result', 'toolu_1'), ('tool_result', 'toolu_2')]
    assert '720' in str(res[0]['content']) and 'Paris: 25 celsius' in str(res[1]['content'])

def test_tools_pickle(reg):
    "A tool and a registry survive pickle and copy: the look-alike `__call__` is made again, for the new object"
    import copy, pickle
    from fncall.tools import FunctionTool
    t = pickle.loads(pickle.dumps(FunctionTool(divide, 'Split a by b')))
    assert (t('1', b=4), t.run({'a': 1, 'b': 'x'}).startswith('Error: invalid arguments'), t.__call__(6, 3)) == (0.25, True, 2.0)
    assert (t.__name__, t.__doc__, t.__wrapped__, t.schema['description']) == ('divide', 'Split a by b', divide, 'Split a by b')
    c = copy.copy(t)
    assert c.__call__ is not t.__call__ and c.__call__(1, 2) == 0.5
    r = pickle.loads(pickle.dumps(reg))
    assert r.schemas('openai') == reg.schemas('openai') and r.run([{'type': 'tool_use', 'id': 'a', 'name': 'divide', 'input': {'a': 1, 'b': 2}}])[0]['content'][0]['content'] == '0.5'

def test_schemas_cached(reg):
    "`schemas` is made once per format; adding or removing a tool remakes it; what it returns is the caller's to edit"
    s = reg.schemas('openai')
    s[0]['function']['description'] = 'edited'; s.append('junk')
    assert reg.schemas('openai') == [reg.tools[n].schema_for('openai') for n in ('get_weather', 'divide')]
    assert reg.schemas('openai', strict=True)[0]['function'].get('strict') is True
    def hello(name:str)->str: "Greet"; return name
    reg.add(hello)
    assert [s['name'] for s in reg.schemas()] == ['get_weather', 'divide', 'hello'] and reg.schemas('openai')[-1]['function']['name'] == 'hello'
    assert (len(reg), repr(reg)) == (3, "FunctionRegistry(['get_weather', 'divide', 'hello'])")
    del reg.tools['divide']
    assert [s['name'] for s in reg.schemas()] == ['get_weather', 'hello']

# ---- `_read`: the tool calls in a provider response, as the SDK object or its plain dict ----
_OAI = {'choices': [{'message': {'role': 'assistant', 'content': None, 'tool_calls': [
    {'id': 'call_1', 'type': 'function', 'function': {'name': 'get_weather', 'arguments': '{"location": "Paris"}'}}]}}]}
_ANT = {'role': 'assistant', 'content': [{'type': 'text', 'text': 'Let me check.'}, {'type': 'tool_use', 'id': 'tu_1', 'name': 'get_weather', 'input': {'location': 'Paris'}}]}
_GEM = {'candidates': [{'content': {'role': 'model', 'parts': [{'function_call': {'name': 'get_weather', 'args': {'location': 'Paris'}}}]}}]}
_GEM_REST = {'candidates': [{'content': {'role': 'model', 'parts': [{'functionCall': {'id': 'g1', 'name': 'get_weather', 'args': {'location': 'Paris'}}}]}}]}
_RESP = {'output': [{'type': 'function_call', 'call_id': 'fc_1', 'name': 'get_weather', 'arguments': '{"location": "Paris"}'}]}

def test_read_each_provider():
    from fncall.tools import _read
    assert _read(_OAI) == ('openai', [('call_1', 'get_weather', '{"location": "Paris"}')])
    assert _read(_ANT) == ('anthropic', [('tu_1', 'get_weather', {'location': 'Paris'})])
    assert _read(_GEM) == ('gemini', [(None, 'get_weather', {'location': 'Paris'})])
    assert _read(_GEM_REST) == ('gemini', [('g1', 'get_weather', {'location': 'Paris'})])
    assert _read(_RESP) == ('responses', [('fc_1', 'get_weather', '{"location": "Paris"}')])

@pytest.mark.parametrize('resp, msg', [
    ({'foo': 1}, 'No OpenAI, Responses, Anthropic or Gemini tool calls found'),
    ({'choices': [{'message': 3}]}, 'Malformed response: choices[0].message should be an object, got 3'),
    ({'content': [{'type': 'tool_use', 'id': 'tu_1', 'name': None, 'input': {}}]}, 'content[0].name should be a string, got None'),
    ([{'name': 'get_weather', 'arguments': {}}], "Can't read tool calls from a list holding {'name': 'get_weather'"),
    (_ANT['content'] + _RESP['output'], 'mixes tool calls of anthropic and responses')])
def test_read_wrong_shapes(resp, msg):
    from fncall.tools import _read
    with pytest.raises(ValueError) as e: _read(resp)
    assert msg in str(e.value)

def test_read_bare_lists_and_no_calls():
    "A bare list of calls, blocks, items or parts reads as its response does; a response or list without calls, as no calls"
    from fncall.tools import _read
    assert _read(_OAI['choices'][0]['message']['tool_calls']) == _read(_OAI)
    assert _read(_ANT['content']) == _read(_ANT)
    assert _read(_GEM_REST['candidates'][0]['content']['parts']) == _read(_GEM_REST)
    assert _read(_RESP['output']) == _read(_RESP)
    assert _read({'choices': [{'message': {'role': 'assistant', 'content': 'Done.'}}]}) == (None, [])
    assert _read({'role': 'assistant', 'content': [{'type': 'text', 'text': 'Done.'}]}) == ('anthropic', [])
    assert _read({'candidates': [{'content': {'role': 'model', 'parts': [{'text': 'Done.'}]}}]}) == ('gemini', [])
    assert _read([{'type': 'text', 'text': 'Done.'}]) == (None, [])
    assert _read([]) == (None, [])

def test_no_none_globals():
    "fastcore's `@patch` leaves None under each patched name: the module holds none of them"
    import fncall.tools
    assert [k for k,v in vars(fncall.tools).items() if v is None and not k.startswith('__')] == []

def test_sync_errors_not_chained(reg):
    "An error raised through `run` is not chained to the 'no running event loop' RuntimeError `_sync` looked for"
    with pytest.raises(ValueError) as e: reg.run({'choices': 'x'})
    assert e.value.__context__ is None and 'During handling' not in ''.join(__import__('traceback').format_exception(e.value))

def test_prompt_omits_empty_descriptions():
    "`get_schema` writes an empty description for each undocumented parameter; the prompt leaves them out (a default's are kept)"
    from dataclasses import dataclass
    @dataclass
    class P: x:int
    def f(a:int, p:P, d:dict={'description': ''}): "Do f"; return a
    reg = FunctionRegistry(); reg.add(f)
    params = json.loads(reg.prompt().split('Parameters (JSON schema): ')[1].split('\n')[0])
    assert params['properties']['a'] == {'type': 'integer'} and params['$defs']['P']['properties']['x'] == {'type': 'integer'}
    assert params['properties']['d']['default'] == {'description': ''}

def test_empty_arguments_string():
    "OpenAI sends `arguments: \"\"` for a call with no arguments (Chat and Responses): read as {}, as the SDKs' own runners do"
    import openai
    reg = FunctionRegistry()
    @reg.function()
    def now()->str: "The time"; return '12:00'
    call = {'id': 'call_1', 'type': 'function', 'function': {'name': 'now', 'arguments': ''}}
    fake = Fake({'id': 'c1', 'object': 'chat.completion', 'created': 0, 'model': 'gpt-4o', 'choices': [{'index': 0, 'finish_reason': 'tool_calls',
                 'logprobs': None, 'message': {'role': 'assistant', 'content': None, 'refusal': None, 'tool_calls': [call]}}]})
    r = openai.OpenAI(api_key='sk-test', http_client=fake.client(openai)).chat.completions.create(model='gpt-4o', messages=[{'role': 'user', 'content': 'Time?'}])
    assert reg.run(r) == [{'role': 'tool', 'tool_call_id': 'call_1', 'content': '12:00'}]
    assert reg.run({'output': [{'type': 'function_call', 'call_id': 'c', 'name': 'now', 'arguments': ' '}]})[0]['output'] == '12:00'

def test_retry_and_on_error():
    "A `Retry` sends its message alone; `on_error` words every other exception; neither shows a traceback"
    from fncall.tools import Retry
    def pick(n:int)->int:
        "Pick a number"
        if n < 0: raise Retry('n must be positive: try again')
        raise KeyError(n)
    for on_error, want in [(None, "Error: tool 'pick' raised KeyError: 3"), (lambda nm, e: f'{nm}: {type(e).__name__}', 'pick: KeyError')]:
        reg = FunctionRegistry(on_error=on_error); reg.add(pick)
        res = reg.run(_tool_use(('pick', {'n': -1}), ('pick', {'n': 3})))[0]['content']
        assert [(b['content'], b['is_error']) for b in res] == [('n must be positive: try again', True), (want, True)]

@pytest.mark.parametrize('provider', ['anthropic', 'openai', 'responses', 'gemini'])
def test_results_as_data_through_the_sdk(provider):
    "A dataclass or pydantic result goes to the model as a JSON object; an image as the provider's own block, in a request the SDK sends"
    import base64
    from dataclasses import dataclass
    from pydantic import BaseModel
    from fncall.tools import Media
    @dataclass
    class Point: x:int; y:int
    class Box(BaseModel): w:int; h:int
    png = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==')
    reg = FunctionRegistry()
    @reg.function()
    def point()->Point: "A point"; return Point(4, 6)
    @reg.function()
    def box()->Box: "A box"; return Box(w=1, h=2)
    @reg.function()
    def snap()->list: "A picture"; return ['the view', Media(png, 'image/png')]
    calls = [('point', {}), ('box', {}), ('snap', {})]
    out = reg.run({'anthropic': _tool_use(*calls),
                   'openai': {'role': 'assistant', 'content': None, 'tool_calls': [{'id': f'c{i}', 'type': 'function', 'function': {'name': n, 'arguments': '{}'}} for i,(n,_) in enumerate(calls)]},
                   'responses': {'output': [{'type': 'function_call', 'call_id': f'c{i}', 'name': n, 'arguments': '{}'} for i,(n,_) in enumerate(calls)]},
                   'gemini': {'role': 'model', 'parts': [{'function_call': {'name': n, 'args': {}}} for n,_ in calls]}}[provider])
    b64 = base64.b64encode(png).decode()
    if provider == 'anthropic':
        from anthropic.types import MessageParam
        from pydantic import TypeAdapter
        TypeAdapter(MessageParam).validate_python(out[0])
        c = [b['content'] for b in out[0]['content']]
        assert c[:2] == ['{"x": 4, "y": 6}', '{"w": 1, "h": 2}']
        assert c[2] == [{'type': 'text', 'text': 'the view'}, {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': b64}}]
    elif provider == 'openai':
        assert [m['content'] for m in out[:3]] == ['{"x": 4, "y": 6}', '{"w": 1, "h": 2}', 'the view\n[image/png, 70 bytes]']
        assert out[3] == {'role': 'user', 'content': [{'type': 'image_url', 'image_url': {'url': f'data:image/png;base64,{b64}'}}]}
    elif provider == 'responses':
        assert [o['output'] for o in out[:2]] == ['{"x": 4, "y": 6}', '{"w": 1, "h": 2}']
        assert out[2]['output'] == [{'type': 'input_text', 'text': 'the view'}, {'type': 'input_image', 'image_url': f'data:image/png;base64,{b64}'}]
    else:
        from google.genai import types
        ps = [types.Part.model_validate(p) for p in out[0]['parts']]
        assert [p.function_response.response for p in ps[:2]] == [{'result': {'x': 4, 'y': 6}}, {'result': {'w': 1, 'h': 2}}]
        assert ps[2].function_response.parts[0].inline_data.data == png and ps[2].function_response.parts[0].inline_data.mime_type == 'image/png'

def test_mcp_image_content_as_provider_blocks():
    "An MCP tool's image, as `mcp_tools` returns it (MCP content blocks as JSON), goes to each provider as its own image block"
    reg = FunctionRegistry()
    @reg.function()
    def shot()->list: "A screenshot"; return [{'type': 'text', 'text': 'the screen'}, {'type': 'image', 'data': 'iVBORw0KGgo=', 'mimeType': 'image/png'}]
    ant = reg.run(_tool_use(('shot', {})))[0]['content'][0]['content']
    assert ant == [{'type': 'text', 'text': 'the screen'}, {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': 'iVBORw0KGgo='}}]
    out = reg.run({'output': [{'type': 'function_call', 'call_id': 'c', 'name': 'shot', 'arguments': '{}'}]})[0]['output']
    assert out[1] == {'type': 'input_image', 'image_url': 'data:image/png;base64,iVBORw0KGgo='}

# Moved from nbs/07_tools.ipynb (the page keeps one example and a few checks a behaviour); the tools as the page defines them
import base64, time
from fastcore.test import test_eq as eq, test_fail as fails  # renamed: pytest would collect test_*
from fncall.tools import FunctionTool, Media, Retry, _parts

def page_reg():
    "The page's registry: `get_weather` and `divide`"
    def get_weather(location:str, unit:str="celsius")->str: "Get the weather for a location"; return f"Weather in {location}: 25°C, sunny"
    def divide(a:float, b:float)->float: "Divide a by b"; return a / b
    r = FunctionRegistry()
    r.add(get_weather); r.add(divide)
    return r

def test_timeout_is_the_waits_not_the_tools():
    "A `TimeoutError` the tool raises is its own error; only the wait running out is a timeout"
    def db()->str: "Query the database"; raise TimeoutError("database connection timed out (host db1)")
    async def adb()->str: "Query the database"; raise TimeoutError("database connection timed out (host db1)")
    for f in (db, adb):
        eq(FunctionTool(f).run({}, timeout=30), f"Error: tool '{f.__name__}' raised TimeoutError: database connection timed out (host db1)")
    def slow()->str: "Take a while"; time.sleep(0.5); return 'done'
    eq(FunctionTool(slow).run({}, timeout=0.05), "Error: tool 'slow' timed out after 0.05 s")
    eq(FunctionTool(slow).run({}, timeout=5), 'done')

def test_what_a_failing_tool_says():
    def book(day:str)->str:
        "Book a table"
        if day == 'Monday': raise Retry("We are closed on Mondays: pick another day.")
        return f"Booked for {day}"
    eq(FunctionTool(book).run({'day': 'Monday'}), 'We are closed on Mondays: pick another day.')
    class Mute(Exception):
        def __str__(self): raise RuntimeError('no')
    def mute(): "Fail badly"; raise Mute()
    eq(FunctionTool(mute).run({}), "Error: tool 'mute' raised Mute, whose message can't be shown")
    eq(FunctionTool(lambda: 1/0, 'Fail', 'f').run({}), "Error: tool 'f' raised ZeroDivisionError: division by zero")

def test_on_error_is_for_the_tools_exceptions_only():
    def divide(a:float, b:float)->float: "Divide a by b"; return a / b
    quiet = FunctionRegistry(on_error=lambda name, e: f"{name} is out of order; don't call it again.")
    quiet.add(divide)
    call = lambda args: quiet.run({'role': 'assistant', 'content': [{'type': 'tool_use', 'id': 't', 'name': 'divide', 'input': args}]})[0]['content'][0]['content']
    eq(call({'a': 1, 'b': 0}), "divide is out of order; don't call it again.")
    eq(call({'a': 1}), "Error: invalid arguments for tool 'divide':\nb: missing required argument\n(parameters: a, b)")  # our own words are not the tool's exception

def test_media_in_every_format():
    png = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==')  # a 1x1 PNG
    def plot(city:str): "Plot the week's weather"; return [f"{city}: sunny all week", Media(png, 'image/png', 'week.png')]
    data = FunctionRegistry()
    data.add(plot)
    oai_plot = {'choices': [{'message': {'role': 'assistant', 'content': None, 'tool_calls': [{'id': 'c1', 'type': 'function', 'function': {'name': 'plot', 'arguments': '{"city": "Oslo"}'}}]}}]}
    eq(data.run(oai_plot)[0]['content'], "Oslo: sunny all week\n[image/png week.png, 70 bytes]")
    eq(data.run(oai_plot)[1], {'role': 'user', 'content': [{'type': 'image_url', 'image_url': {'url': 'data:image/png;base64,' + base64.b64encode(png).decode()}}]})
    eq(data.run({'output': [{'type': 'function_call', 'call_id': 'c', 'name': 'plot', 'arguments': '{"city": "Oslo"}'}]})[0]['output'][1]['type'], 'input_image')
    eq(data.run({'parts': [{'function_call': {'name': 'plot', 'args': {'city': 'Oslo'}}}]})[0]['parts'][0]['function_response']['parts'][0]['inline_data']['mime_type'], 'image/png')
    mcp_img = {'type': 'image', 'data': base64.b64encode(png).decode(), 'mimeType': 'image/png'}
    eq(_parts([{'type': 'text', 'text': 'a chart'}, mcp_img]), ['a chart', Media(png, 'image/png')])
    fails(lambda: Media('x', 'image/png'), contains='Media data must be bytes')
    fails(lambda: Media.read('notes.zzz'), contains="Can't tell the type of 'notes.zzz'")

def test_calls_in_text_mixed():
    reg = page_reg()
    eq(reg.run('get_weather("Rome")\nTOOL_CALL {"tool_name": "divide", "parameters": {"a": 1, "b": 2}}\nget_weather("Oslo")'),
            [{'role': 'user', 'content': 'get_weather returned:\nWeather in Rome: 25°C, sunny\n\ndivide returned:\n0.5\n\nget_weather returned:\nWeather in Oslo: 25°C, sunny'}])
    eq(reg.run('[divide(8, 2), get_weather("Oslo")]'), reg.run('divide(8, 2)\nget_weather("Oslo")'))  # a pythonic list, positional arguments named
    eq(reg.run('[get_weather(city)]', context={'city': 'Rome'}), reg.run('[get_weather("Rome")]'))  # a list the parser can't read alone, read with the caller's variables
    assert "unknown variable 'city'" in reg.run('[get_weather(city)]')[0]['content']

def test_run_takes_parsed_calls():
    "The registry runs what each parser gives, as call_funcs does: parse_function_calls' dicts (positional arguments named) and ToolCallParser's ToolCalls"
    from fncall.pycall import parse_function_calls
    from fncall.parse import ToolCallParser, ToolCall
    reg = FunctionRegistry()
    @reg.function()
    def get_weather(city:str, unit:str='C'): "Weather"; return f'{city}: 20{unit}'
    said = lambda r: r[0]['content']
    assert said(reg.run(parse_function_calls('get_weather(city="Paris")'))) == 'get_weather returned:\nParis: 20C'
    assert said(reg.run(parse_function_calls('get_weather("Oslo", "F")'))) == 'get_weather returned:\nOslo: 20F'
    tcs = ToolCallParser().parse('TOOL_CALL {"tool_name": "get_weather", "parameters": {"city": "Rome"}}').tool_calls
    assert said(reg.run(tcs)) == 'get_weather returned:\nRome: 20C'
    assert 'there is no tool' in said(reg.run([ToolCall('nope', {})]))
    with pytest.raises(ValueError): reg.run([{'tool': 'get_weather', 'arguments': {}}, {'unknown': 1}])  # a list of something else: as before
