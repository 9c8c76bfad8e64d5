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
    msgs += [r.choices[0].message.model_dump(exclude_none=True)] + reg.run(r)
    r = cli.chat.completions.create(model='gpt-4o', messages=msgs, tools=reg.schemas('openai'))
    assert r.choices[0].message.content == 'Done'
    first, second = fake.requests
    assert first['tools'] == reg.schemas('openai')
    tool_msgs = [m for m in second['messages'] if m['role'] == 'tool']
    assert [m['tool_call_id'] for m in tool_msgs] == ['call_0', 'call_1']
    assert tool_msgs[0]['content'] == RESULTS[0] and tool_msgs[1]['content'].endswith(RESULTS[1] + '\n')

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
    inp += [o.model_dump(exclude_none=True) for o in r.output] + reg.run(r)
    r = cli.responses.create(model='gpt-4o', input=inp, tools=reg.schemas('responses'))
    assert r.output_text == 'Done'
    first, second = fake.requests
    assert first['tools'] == reg.schemas('responses')
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
    msgs += [{'role': 'assistant', 'content': [b.model_dump() for b in r.content]}] + reg.run(r)
    r = cli.messages.create(model='claude-x', max_tokens=100, messages=msgs, tools=reg.schemas('anthropic'))
    assert r.content[0].text == 'Done'
    first, second = fake.requests
    assert first['tools'] == reg.schemas('anthropic')
    res = second['messages'][-1]['content']
    assert [b['tool_use_id'] for b in res] == ['toolu_0', 'toolu_1'] and [b['is_error'] for b in res] == [False, True]
    assert res[0]['content'] == RESULTS[0] and res[1]['content'].endswith(RESULTS[1] + '\n')

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
    contents += [r.candidates[0].content] + reg.run(r)
    r = cli.models.generate_content(model='gemini-2.0-flash', contents=contents, config=cfg)
    assert r.text == 'Done'
    first, second = fake.requests
    decls = first['tools'][0]['functionDeclarations']
    assert [d['name'] for d in decls] == ['get_weather', 'divide']
    resp = [p['functionResponse'] for p in second['contents'][-1]['parts']]
    assert [p['name'] for p in resp] == ['get_weather', 'divide']
    assert resp[0]['response'] == {'result': RESULTS[0]} and resp[1]['response']['error'].endswith(RESULTS[1] + '\n')

def test_async_parallel(reg):
    "Two slow tools asked for in one turn run concurrently"
    import asyncio, time
    def slow(s:float): "Sleep"; time.sleep(s); return s
    reg.add(slow)
    ant = {'role': 'assistant', 'content': [{'type': 'tool_use', 'id': f't{i}', 'name': 'slow', 'input': {'s': 0.4}} for i in range(3)]}
    t0 = time.perf_counter()
    res = asyncio.run(reg.arun(ant))
    assert time.perf_counter() - t0 < 1.0 and [b['content'] for b in res[0]['content']] == ['0.4']*3

def test_claudette_with_fncall_python():
    "claudette (an Anthropic chat client of this ecosystem) using fncall's sandboxed python tool, over a mocked transport"
    import anthropic
    from anthropic import Anthropic
    from claudette import Chat, Client
    from fncall.python import Sandbox
    msg = lambda content, stop: {'id': 'msg', 'type': 'message', 'role': 'assistant', 'model': 'claude-sonnet-4-5', 'content': content,
                                 'stop_reason': stop, 'stop_sequence': None, 'usage': {'input_tokens': 1, 'output_tokens': 1}}
    fake = Fake(msg([{'type': 'tool_use', 'id': 'toolu_1', 'name': 'python', 'input': {'code': 'import math\nmath.factorial(6)'}}], 'tool_use'),
                msg([{'type': 'text', 'text': 'It is 720.'}], 'end_turn'))
    with Sandbox(timeout=10) as sb:
        cli = Client('claude-sonnet-4-5', cli=Anthropic(api_key='sk-test', http_client=fake.client(anthropic)))
        chat = Chat(cli=cli, tools=[sb.python])
        out = list(chat.toolloop('What is 6 factorial?'))
    assert out[-1].content[0].text == 'It is 720.'
    first, second = fake.requests
    tool = first['tools'][0]
    assert tool['name'] == 'python' and list(tool['input_schema']['properties']) == ['code']
    res = second['messages'][-1]['content'][0]
    assert res['type'] == 'tool_result' and res['tool_use_id'] == 'toolu_1' and '720' in str(res['content'])
