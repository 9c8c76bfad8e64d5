"""The cases the peers' own test suites (openai-agents, pydantic-ai, langchain-core, the MCP SDK, fastcore.funccall, toolslm)
check, written from the behaviour they describe, and fncall used where those libraries' clients expect theirs: claudette with
registry tools, google-genai with `response.function_calls` and chats. SDKs run over a mocked HTTP transport."""
import json, pytest
from fncall.tools import FunctionRegistry, FunctionTool
from fncall.schema import get_schema
from test_tools import Fake, ARGS, RESULTS, get_weather, divide

@pytest.fixture
def reg():
    r = FunctionRegistry()
    r.add(get_weather); r.add(divide)
    return r

def _msg(content, stop):
    return {'id': 'msg', 'type': 'message', 'role': 'assistant', 'model': 'claude-sonnet-4-5', 'content': content,
            'stop_reason': stop, 'stop_sequence': None, 'usage': {'input_tokens': 1, 'output_tokens': 1}}

def test_claudette_takes_function_tools(reg):
    "claudette is given the registry's FunctionTool objects themselves (not their functions): it describes and calls them as functions"
    import anthropic
    from anthropic import Anthropic
    from claudette import Chat, Client
    fake = Fake(_msg([{'type': 'tool_use', 'id': f'toolu_{i}', 'name': n, 'input': a} for i,(n,a) in enumerate(ARGS)], 'tool_use'),
                _msg([{'type': 'text', 'text': 'Sunny; and 1/0 failed.'}], 'end_turn'))
    cli = Client('claude-sonnet-4-5', cli=Anthropic(api_key='sk-test', http_client=fake.client(anthropic)))
    chat = Chat(cli=cli, tools=list(reg.tools.values()))
    out = list(chat.toolloop('Weather in Paris, and 1/0?'))
    assert out[-1].content[0].text == 'Sunny; and 1/0 failed.'
    first, second = fake.requests
    tools = {t['name']: t for t in first['tools']}
    assert list(tools) == ['get_weather', 'divide']
    assert tools['get_weather']['input_schema'] == get_schema(get_weather)['input_schema']
    assert tools['get_weather']['description'].startswith('Get the weather for a location')
    res = second['messages'][-1]['content']
    assert [r['tool_use_id'] for r in res] == ['toolu_0', 'toolu_1']
    assert res[0]['content'] == RESULTS[0] and 'ZeroDivisionError' in str(res[1]['content'])

def test_function_tool_is_a_function():
    "A FunctionTool keeps its own name and description wherever a function's are read, and calls validate"
    import inspect
    from fastcore.funccall import get_schema as fc_schema, call_func as fc_call, mk_ns
    from fncall.call import call_func
    t = FunctionTool(divide, description='Divide two numbers', name='div')
    assert (t.__name__, t.__doc__, str(inspect.signature(t))) == ('div', 'Divide two numbers', '(a: float, b: float) -> float')
    assert get_schema(t)['name'] == 'div' and get_schema(t)['input_schema'] == t.schema['input_schema']
    s = fc_schema(t)
    assert (s['name'], list(s['input_schema']['properties'])) == ('div', ['a', 'b'])
    assert s['input_schema']['properties']['a']['description'] == 'Numerator'
    assert fc_call('div', {'a': 1, 'b': 4}, ns=mk_ns(t)) == 0.25
    assert call_func('div', {'a': '1', 'b': 4}, ns={'div': t}) == 0.25  # validated: the string becomes a float
    assert t(1, b=2) == 0.5

def _gemini_fake(genai):
    parts = [{'functionCall': {'name': n, 'args': a}} for n,a in ARGS]
    return Fake({'candidates': [{'content': {'role': 'model', 'parts': parts}, 'finishReason': 'STOP'}]},
                {'candidates': [{'content': {'role': 'model', 'parts': [{'text': 'Done'}]}, 'finishReason': 'STOP'}]})

def test_gemini_function_calls_and_chat(reg):
    "google-genai: `reg.run(r.function_calls)` (the SDK's list of calls) works, and its parts go to `chat.send_message` as they are"
    from google import genai
    from google.genai import types
    fake = _gemini_fake(genai)
    cli = genai.Client(api_key='test', http_options=types.HttpOptions(httpx_client=fake.client(genai)))
    chat = cli.chats.create(model='gemini-2.0-flash', config=types.GenerateContentConfig(tools=[types.Tool(function_declarations=reg.schemas('gemini'))]))
    r = chat.send_message('Weather in Paris, and 1/0?')
    out = reg.run(r.function_calls)
    assert out == reg.run(r) == reg.run(r.candidates[0].content.parts)
    assert all(isinstance(p, types.Part) for p in out[0]['parts'])
    r2 = chat.send_message(out[0]['parts'])
    assert r2.text == 'Done'
    resp = [p['functionResponse'] for p in fake.requests[-1]['contents'][-1]['parts']]
    assert [p['name'] for p in resp] == ['get_weather', 'divide']
    assert resp[0]['response'] == {'result': RESULTS[0]} and 'ZeroDivisionError' in resp[1]['response']['error']

def test_gemini_bare_calls_as_dicts(reg):
    "Bare FunctionCall dicts (no SDK) are read too, and answered with plain dict parts"
    out = reg.run([{'name': 'get_weather', 'args': {'location': 'Rome'}, 'id': 'c1'}])
    assert out == [{'role': 'user', 'parts': [{'function_response': {'id': 'c1', 'name': 'get_weather', 'response': {'result': 'Rome: 25 celsius'}}}]}]
