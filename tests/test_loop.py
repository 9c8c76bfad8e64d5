"""`reg.loop` / `reg.aloop` with each real SDK client (Anthropic messages, OpenAI chat completions and responses,
google-genai generate_content), sync and async, over a mocked HTTP transport: a scripted model's turns become each
provider's JSON replies, and every request the SDK sends is kept to check what the model was shown."""
import asyncio, json, sys, threading, pytest
from dataclasses import dataclass
from pydantic import BaseModel
from fncall.tools import FunctionRegistry
from fncall.loop import Hidden, LoopLimit, ToolEvent

def get_weather(city:str, # City name
               )->str:
    "The weather in `city`"
    return f"{city}: 25 C"

def divide(a:float, # Numerator
           b:float, # Denominator
          )->float:
    "Divide a by b"
    return a / b

@dataclass
class User: name:str

def whoami(greeting:str, # How to greet
           user:Hidden[User]):
    "Greet the user"
    return f"{greeting}, {user.name}"

def rename(path:str, # The file
           owner:str): # Who owns it: the loop fills this in
    "Rename a file"
    return f"{path} renamed by {owner}"

class Forecast(BaseModel):
    "A forecast"
    city:str
    celsius:float

@pytest.fixture
def reg():
    r = FunctionRegistry()
    for f in (get_weather, divide): r.add(f)
    return r

# A scripted model: each turn is a list of (name, args) calls, or the final text.

def _http(sdk):
    "The httpx flavour the SDK package `sdk` uses (openai uses httpx2)"
    base = sys.modules.get(sdk.split('.')[0] + '._base_client')
    return getattr(base, 'httpx2', None) or getattr(base, 'httpx', None) or __import__('httpx')

class Fake:
    "An HTTP transport that keeps each JSON request and answers with the provider's reply for the next scripted turn"
    def __init__(self, p, turns): self.p, self.turns, self.sent = p, list(turns), []
    def handle(self, request):
        self.sent.append(json.loads(request.content))
        if not self.turns: raise AssertionError('the loop asked the model more often than the script says')
        return self.http.Response(200, json=self.p.reply(self.turns.pop(0), len(self.sent)))
    def client(self, aio):
        self.http = h = _http(self.p.sdk)
        return (h.AsyncClient if aio else h.Client)(transport=h.MockTransport(self.handle))

class Anthropic:
    sdk, kw = 'anthropic', dict(model='claude-x', max_tokens=100)
    def reply(self, turn, n):
        content = [{'type': 'text', 'text': turn}] if isinstance(turn, str) else [
            {'type': 'tool_use', 'id': f'toolu_{n}_{i}', 'name': nm, 'input': a} for i,(nm,a) in enumerate(turn)]
        return {'id': f'msg_{n}', 'type': 'message', 'role': 'assistant', 'model': 'claude-x', 'content': content,
                'stop_reason': 'end_turn' if isinstance(turn, str) else 'tool_use', 'stop_sequence': None,
                'usage': {'input_tokens': 1, 'output_tokens': 1}}
    def make(self, fake, aio):
        import anthropic
        return (anthropic.AsyncAnthropic if aio else anthropic.Anthropic)(api_key='sk-test', http_client=fake.client(aio))
    def results(self, req):
        return [(b['content'], b['is_error']) for b in req['messages'][-1]['content']]
    def tools(self, req): return {t['name']: list(t['input_schema']['properties']) for t in req['tools']}
    def last_user(self, req): return req['messages'][-1]['content']

class Chat:
    sdk, kw = 'openai', dict(model='gpt-x')
    def reply(self, turn, n):
        msg = {'role': 'assistant', 'content': turn} if isinstance(turn, str) else {'role': 'assistant', 'content': None, 'tool_calls': [
            {'id': f'call_{n}_{i}', 'type': 'function', 'function': {'name': nm, 'arguments': json.dumps(a)}} for i,(nm,a) in enumerate(turn)]}
        return {'id': f'c{n}', 'object': 'chat.completion', 'created': 0, 'model': 'gpt-x',
                'choices': [{'index': 0, 'finish_reason': 'stop' if isinstance(turn, str) else 'tool_calls', 'message': msg}]}
    def make(self, fake, aio):
        import openai
        return (openai.AsyncOpenAI if aio else openai.OpenAI)(api_key='sk-test', http_client=fake.client(aio))
    def results(self, req):
        ms = req['messages']
        i = max(i for i,m in enumerate(ms) if m['role'] == 'assistant')
        return [(m['content'], None) for m in ms[i+1:]]
    def tools(self, req): return {t['function']['name']: list(t['function']['parameters']['properties']) for t in req['tools']}
    def last_user(self, req): return req['messages'][-1]['content']

class Responses(Chat):
    def reply(self, turn, n):
        out = [{'type': 'message', 'id': f'm{n}', 'role': 'assistant', 'status': 'completed',
                'content': [{'type': 'output_text', 'text': turn, 'annotations': []}]}] if isinstance(turn, str) else [
               {'type': 'function_call', 'id': f'fc_{n}_{i}', 'call_id': f'call_{n}_{i}', 'name': nm, 'arguments': json.dumps(a),
                'status': 'completed'} for i,(nm,a) in enumerate(turn)]
        return {'id': f'r{n}', 'object': 'response', 'created_at': 0, 'model': 'gpt-x', 'status': 'completed', 'output': out,
                'parallel_tool_calls': True, 'tool_choice': 'auto', 'tools': []}
    def make(self, fake, aio): return super().make(fake, aio).responses
    def results(self, req):
        ins = req['input']
        i = max(i for i,o in enumerate(ins) if o.get('type') in ('function_call', 'message') and o.get('role') != 'user')
        return [(o['output'], None) for o in ins[i+1:]]
    def tools(self, req): return {t['name']: list(t['parameters']['properties']) for t in req['tools']}
    def last_user(self, req): return req['input'][-1]['content']

class Gemini:
    sdk, kw = 'google.genai', dict(model='gemini-x')
    def reply(self, turn, n):
        parts = [{'text': turn}] if isinstance(turn, str) else [{'functionCall': {'name': nm, 'args': a}} for nm,a in turn]
        return {'candidates': [{'content': {'role': 'model', 'parts': parts}, 'finishReason': 'STOP'}]}
    def make(self, fake, aio):
        from google import genai
        from google.genai import types
        h = fake.client(aio)  # genai takes the sync and the async httpx client separately; the loop picks `aio` itself in aloop
        opts = types.HttpOptions(httpx_async_client=h) if aio else types.HttpOptions(httpx_client=h)
        return genai.Client(api_key='test', http_options=opts)
    def results(self, req):
        out = []
        for p in req['contents'][-1]['parts']:
            r = p['functionResponse']['response']
            out.append((r['error'], True) if 'error' in r else (r['result'], False))
        return out
    def tools(self, req): return {d['name']: list(d['parameters']['properties']) for d in req['tools'][0]['functionDeclarations']}
    def last_user(self, req): return req['contents'][-1]['parts'][0]['text']

PROVIDERS = [Anthropic(), Chat(), Responses(), Gemini()]
CASES = [pytest.param(p, aio, id=f"{type(p).__name__.lower()}-{'async' if aio else 'sync'}") for p in PROVIDERS for aio in (False, True)]

def run(p, aio, reg, turns, prompt='Go', **kw):
    "Run the loop on provider `p`'s client (async client and `aloop` if `aio`) against the scripted `turns`: (result, fake)"
    fake = Fake(p, turns)
    cli = p.make(fake, aio)
    try: res = asyncio.run(reg.aloop(cli, prompt, **p.kw, **kw)) if aio else reg.loop(cli, prompt, **p.kw, **kw)
    finally: assert not fake.turns or kw.get('max_steps') or kw.get('output'), f"scripted turns left over: {fake.turns}"
    return res, fake

def texts(rs): return [r if isinstance(r, str) else json.dumps(r) for r,_ in rs]  # Gemini results are JSON values

@pytest.mark.parametrize('p,aio', CASES)
def test_three_rounds(p, aio, reg):
    "Three turns of calls, each seeing the last one's result, then the answer; the message list carries it all"
    res, fake = run(p, aio, reg, [[('get_weather', {'city': 'Paris'})], [('get_weather', {'city': 'Rome'})],
                                  [('divide', {'a': 10, 'b': 4})], 'Paris and Rome are 25 C; 10/4 is 2.5'], prompt='Weather?')
    assert res.text == 'Paris and Rome are 25 C; 10/4 is 2.5' and res.steps == 4 and res.output is None
    assert [texts(p.results(r)) for r in fake.sent[1:]] == [['Paris: 25 C'], ['Rome: 25 C'], ['2.5']]
    assert all(p.tools(r) == {'get_weather': ['city'], 'divide': ['a', 'b']} for r in fake.sent)
    assert len(res.messages) > 7  # the prompt, then each assistant turn and its results, then the answer
    if not isinstance(p, Gemini):  # what was last sent is the message list, as plain JSON, but for the final answer
        assert fake.sent[-1]['input' if isinstance(p, Responses) else 'messages'] == res.messages[:-1]

@pytest.mark.parametrize('p,aio', CASES)
def test_parallel_calls(p, aio):
    "Two calls in one turn run at the same time (each waits for the other at a barrier), results in the order asked"
    bar, reg = threading.Barrier(2, timeout=10), FunctionRegistry()
    @reg.function()
    def meet(who:str): # Who arrives
        "Wait for the other caller"
        bar.wait(); return f"{who} met"
    res, fake = run(p, aio, reg, [[('meet', {'who': 'a'}), ('meet', {'who': 'b'})], 'Both met'])
    assert texts(p.results(fake.sent[1])) == ['a met', 'b met'] and res.text == 'Both met'

@pytest.mark.parametrize('p,aio', CASES)
def test_tool_error_recovered(p, aio, reg):
    "A failing call goes back as an error result, and the model tries again"
    res, fake = run(p, aio, reg, [[('divide', {'a': 1, 'b': 0})], [('divide', {'a': 1, 'b': 2})], '0.5'])
    err = p.results(fake.sent[1])[0]
    assert 'ZeroDivisionError: float division by zero' in err[0] and err[1] in (True, None)
    assert texts(p.results(fake.sent[2])) == ['0.5'] and res.text == '0.5'

@pytest.mark.parametrize('p,aio', CASES)
def test_approval_refused(p, aio, reg):
    "A refused call does not run; the model reads the refusal as its result (text, or the default for False); others run"
    ran, seen = [], []
    @reg.function()
    def delete(path:str): "Delete a file"; ran.append(path)
    def approve(name, args):
        seen.append((name, args))
        return True if name != 'delete' else ('Not /etc' if args['path'] == '/etc' else False)
    res, fake = run(p, aio, reg, [[('delete', {'path': '/etc'}), ('get_weather', {'city': 'Oslo'}), ('delete', {'path': '/x'})], 'ok'],
                    approve=approve)
    assert ran == [] and seen == [('delete', {'path': '/etc'}), ('get_weather', {'city': 'Oslo'}), ('delete', {'path': '/x'})]
    rs = p.results(fake.sent[1])
    assert texts(rs) == ['Not /etc', 'Oslo: 25 C', "The user did not approve this call to 'delete'."]
    if isinstance(p, (Anthropic, Gemini)): assert [e for _,e in rs] == [True, False, True]

@pytest.mark.parametrize('p,aio', CASES)
def test_async_approve(p, aio, reg):
    async def approve(name, args): return 'later'
    res, fake = run(p, aio, reg, [[('get_weather', {'city': 'Oslo'})], 'ok'], approve=approve)
    assert texts(p.results(fake.sent[1])) == ['later']

@pytest.mark.parametrize('p,aio', CASES)
def test_max_steps(p, aio, reg):
    "At max_steps the loop raises LoopLimit; the last calls ran and the messages go on from there"
    turns = [[('get_weather', {'city': c})] for c in ('A', 'B', 'C')]
    with pytest.raises(LoopLimit, match=r'max_steps=2, the model still calling get_weather') as e: run(p, aio, reg, turns, max_steps=2)
    r = e.value.result
    assert r.steps == 2 and r.output is None
    res, fake = run(p, aio, reg, ['Done'], prompt=r.messages)  # going on: the last result is in what is sent
    assert res.text == 'Done' and texts(p.results(fake.sent[0])) == ['B: 25 C']

@pytest.mark.parametrize('p,aio', CASES)
def test_hidden(p, aio):
    "Hidden parameters (by marker, or named in `hidden=`) are out of every schema sent, filled by the loop, refused from the model"
    reg = FunctionRegistry()
    reg.add(whoami); reg.add(rename)
    res, fake = run(p, aio, reg, [[('whoami', {'greeting': 'Hi'}), ('rename', {'path': 'a.txt'}), ('rename', {'path': 'b', 'owner': 'root'})], 'ok'],
                    hidden={'user': User('ann'), 'owner': 'ann'})
    assert p.tools(fake.sent[0]) == {'whoami': ['greeting'], 'rename': ['path']}
    rs = p.results(fake.sent[1])
    assert texts(rs)[:2] == ['Hi, ann', 'a.txt renamed by ann']
    assert texts(rs)[2] == "Error: invalid arguments for tool 'rename':\nowner: unknown argument\n(parameters: path)"

def test_hidden_errors():
    reg = FunctionRegistry()
    reg.add(whoami)
    with pytest.raises(ValueError, match="hidden parameter 'user' and no value"): reg.loop(lambda m: 'x', 'hi')
    with pytest.raises(ValueError, match="hidden names 'nope'"): reg.loop(lambda m: 'x', 'hi', hidden={'user': User('a'), 'nope': 1})
    def opt(q:str, user:Hidden[User]=None): "Optional user"; return str(user)
    r2 = FunctionRegistry(); r2.add(opt)
    complete, _ = _texts('opt(q="x", user="root")', 'opt(q="x")', 'done')  # a marked parameter with a default needs no value
    out = r2.loop(complete, 'hi', prompt_style='python')
    assert out.messages[3]['content'].startswith("opt failed:\nError: invalid arguments for tool 'opt':\nuser: unknown argument")
    assert out.messages[-2]['content'] == 'opt returned:\nNone' and '"user"' not in out.messages[0]['content']

@pytest.mark.parametrize('p,aio', CASES)
def test_structured_output(p, aio, reg):
    "The final answer fails validation once (its error goes back), then passes; `output` is the validated instance"
    res, fake = run(p, aio, reg, [[('get_weather', {'city': 'Paris'})], [('final_answer', {'city': 'Paris', 'celsius': 'warm'})],
                                  [('final_answer', {'city': 'Paris', 'celsius': '25'})]], output=Forecast)
    assert res.output == Forecast(city='Paris', celsius=25) and res.steps == 3
    assert p.tools(fake.sent[0]) == {'get_weather': ['city'], 'divide': ['a', 'b'], 'final_answer': ['city', 'celsius']}
    assert "celsius: expected number, got 'warm'" in p.results(fake.sent[2])[0][0]
    assert not fake.turns

@pytest.mark.parametrize('p,aio', CASES)
def test_structured_output_retries_run_out(p, aio, reg):
    "A text answer where a final answer is due is sent back with a nudge; past max_retries the loop stops"
    with pytest.raises(LoopLimit, match=r'No valid final answer after 2 tries \(max_retries=1\)'):
        run(p, aio, reg, ['It is warm', [('final_answer', {'city': 'Paris'})]], output=Forecast)

def test_dataclass_output():
    @dataclass
    class Point:
        "A point"
        x:int
        y:int
    it = iter(['TOOL_CALL {"tool_name": "final_answer", "parameters": {"x": 1, "y": "two"}}',
               'TOOL_CALL {"tool_name": "final_answer", "parameters": {"x": 1, "y": 2}}'])
    res = FunctionRegistry().loop(lambda m: next(it), 'Where?', output=Point, max_retries=1)
    assert res.output == Point(1, 2) and "y: expected integer, got 'two'" in res.messages[-3]['content']

@pytest.mark.parametrize('p,aio', CASES)
def test_events(p, aio, reg):
    "Each call starts and ends (with result and time) in the callback; a refused one is 'refused'; an async callback is awaited"
    evs = []
    async def on_event(e): evs.append(e)
    run(p, aio, reg, [[('get_weather', {'city': 'Lima'}), ('divide', {'a': 1, 'b': 0})], 'ok'], on_event=on_event if aio else evs.append,
        approve=lambda n, a: n == 'get_weather')
    assert sorted((e.kind, e.name) for e in evs) == [('end', 'get_weather'), ('refused', 'divide'), ('start', 'get_weather')]
    end = next(e for e in evs if e.kind == 'end')
    assert end.args == {'city': 'Lima'} and end.result == 'Lima: 25 C' and not end.error and end.seconds >= 0

def _texts(*replies):
    "A text-completion callable answering with `replies` in turn, keeping the messages it was given"
    it, seen = iter(replies), []
    def complete(messages, **kw): seen.append(([dict(m) for m in messages], kw)); return next(it)
    return complete, seen

@pytest.mark.parametrize('aio', [False, True])
def test_prompt_based(aio, reg):
    "A model without a tools API: the tools prompt in the system message, calls read from its text, results as user messages"
    complete, seen = _texts('TOOL_CALL {"tool_name": "get_weather", "parameters": {"city": "Quito"}}\n'
                            'TOOL_CALL {"tool_name": "divide", "parameters": {"a": 1, "b": 0}}',
                            'divide(a=9, b=3)', 'Sunny; 3.0')
    fn = complete
    if aio:
        async def fn(messages, **kw): return complete(messages, **kw)
    msgs = [{'role': 'system', 'content': 'Be brief.'}, {'role': 'user', 'content': 'Weather in Quito, and 1/0?'}]
    res = asyncio.run(reg.aloop(fn, msgs, temperature=0)) if aio else reg.loop(fn, msgs, temperature=0)
    assert res.text == 'Sunny; 3.0' and res.steps == 3 and len(msgs) == 2  # the caller's list is left as it was
    assert res.messages[0]['content'] == 'Be brief.\n\n' + reg.prompt() and seen[0][1] == {'temperature': 0}
    assert res.messages[3]['content'].startswith('get_weather returned:\nQuito: 25 C\n\ndivide failed:\n')
    assert res.messages[5] == {'role': 'user', 'content': 'divide returned:\n3.0'}
    complete, seen = _texts('Again: 3.0')  # going on with the returned messages: the prompt is not added twice
    assert reg.loop(complete, res.messages + [{'role': 'user', 'content': 'And?'}]).messages[0] == res.messages[0]

def test_python_style_prompt(reg):
    complete, seen = _texts('get_weather(city="Lima")', 'ok')
    res = reg.loop(complete, 'Weather?', prompt_style='python')
    assert res.messages[0]['content'] == reg.prompt('python') and res.messages[3]['content'] == 'get_weather returned:\nLima: 25 C'

def test_bad_arguments(reg):
    import anthropic
    with pytest.raises(TypeError, match='use `await reg.aloop'): reg.loop(anthropic.AsyncAnthropic(api_key='x'), 'hi', model='m')
    with pytest.raises(TypeError, match="Can't loop on a int"): reg.loop(3, 'hi')
    with pytest.raises(ValueError, match="prompt_style must be 'json' or 'python'"): reg.loop(lambda m: 'x', 'hi', prompt_style='xml')
    @reg.function()
    def final_answer(x:int): "Answer"; return x
    with pytest.raises(ValueError, match="A tool is named 'final_answer'"): reg.loop(lambda m: 'x', 'hi', output=Forecast)
    import openai
    with pytest.raises(TypeError, match="Can't loop on OpenAI's Completions"): reg.loop(openai.OpenAI(api_key='x').completions, 'hi')

def test_sync_client_in_aloop(reg):
    "A sync client given to aloop: its calls run in a thread, so the event loop goes on ticking while the request waits"
    import time
    ticks, during = [], []
    class Slow(Fake):
        def handle(self, request):
            n = len(ticks); time.sleep(0.1); during.append(len(ticks) - n)
            return super().handle(request)
    p = Anthropic()
    fake = Slow(p, [[('get_weather', {'city': 'Rome'})], 'ok'])
    cli = p.make(fake, False)
    async def main():
        async def tick():
            while True: ticks.append(1); await asyncio.sleep(0.005)
        t = asyncio.create_task(tick())
        try: return await reg.aloop(cli, 'Weather?', **p.kw)
        finally: t.cancel()
    assert asyncio.run(main()).text == 'ok' and len(during) == 2 and all(d > 0 for d in during), during

def test_gemini_config_kept(reg):
    "A config passed for Gemini keeps its settings; the registry's tools are added to its own"
    from google.genai import types
    p = Gemini()
    fake = Fake(p, ['ok'])
    cli = p.make(fake, False)
    cfg = types.GenerateContentConfig(system_instruction='Be brief', temperature=0.5)
    assert reg.loop(cli, 'hi', model='gemini-x', config=cfg).text == 'ok'
    req = fake.sent[0]
    assert req['systemInstruction']['parts'][0]['text'] == 'Be brief' and req['generationConfig']['temperature'] == 0.5
    assert [d['name'] for d in req['tools'][0]['functionDeclarations']] == ['get_weather', 'divide']

def test_client_subclass_and_messages_kept(reg):
    "A subclass of an SDK client is that provider's; the caller's message list is left as it was"
    import anthropic
    p = Anthropic()
    fake = Fake(p, [[('get_weather', {'city': 'Rome'})], 'ok'])
    class Mine(anthropic.Anthropic): pass
    msgs = [{'role': 'user', 'content': 'Weather?'}]
    res = reg.loop(Mine(api_key='sk-test', http_client=fake.client(False)), msgs, **p.kw)
    assert res.text == 'ok' and msgs == [{'role': 'user', 'content': 'Weather?'}] and len(res.messages) == 4

@pytest.mark.parametrize('aio', [False, True])
def test_timeout(aio, reg):
    "A call running past `timeout` goes back as a timeout error; the loop goes on"
    import time
    @reg.function()
    def slow(s:float): "Sleep"; time.sleep(s); return 'woke'
    complete, _ = _texts('slow(s=2)', 'gave up')
    kw = dict(prompt_style='python', timeout=0.2)
    t0 = time.perf_counter()
    res = asyncio.run(reg.aloop(complete, 'Sleep', **kw)) if aio else reg.loop(complete, 'Sleep', **kw)
    assert res.messages[3]['content'] == "slow failed:\nError: tool 'slow' timed out after 0.2 s" and time.perf_counter() - t0 < 1.9

def test_hidden_marker_reach():
    "The marker is seen through a partial and on a callable object; an annotation naming Hidden that can't be resolved is an error"
    import functools
    from fncall.loop import _marked
    assert _marked(functools.partial(whoami, greeting='Hi')) == {'user'}
    class Greeter:
        def __call__(self, greeting:str, user:Hidden[User]): "Greet"; return greeting
    assert _marked(Greeter()) == {'user'}
    def later(q:str, user:'Hidden[Nope]'): "Later"
    with pytest.raises(TypeError, match="Can't resolve the annotation of 'user'"): _marked(later)
    def plain(q:'Nope'): "Plain"
    assert _marked(plain) == set()

def test_hidden_schema_and_description():
    "A hidden parameter's type leaves the schema with it ($defs only it used); a tool described at registration (no docstring) keeps its description"
    from fncall.loop import _Loop
    @dataclass
    class Place: city:str
    reg = FunctionRegistry()
    @reg.function("Greet someone somewhere")
    def greet(greeting:str, user:Hidden[User], where:Place|None=None): return f"{greeting} {user.name}"
    full = reg.tools['greet'].schema['input_schema']
    assert set(full['$defs']) == {'User', 'Place'}
    s = _Loop(reg, lambda m: '', False, hidden={'user': User('ann')}).reg.tools['greet'].schema
    assert s['description'] == 'Greet someone somewhere' and list(s['input_schema']['properties']) == ['greeting', 'where']
    assert set(s['input_schema']['$defs']) == {'Place'} and s['input_schema']['required'] == ['greeting']
    complete, _ = _texts('TOOL_CALL {"tool_name": "greet", "parameters": {"greeting": "Hi"}}', 'done')
    assert reg.loop(complete, 'hi', hidden={'user': User('ann')}).messages[3]['content'] == 'greet returned:\nHi ann'

@pytest.mark.parametrize('aio', [False, True])
def test_gemini_thought_signature_sent_back(aio, reg):
    "Gemini's thought signature on a function call part goes back unchanged with the model's turn (Gemini 3 refuses a turn without it)"
    sig = 'c2lnbmF0dXJlLWJ5dGVz'  # base64
    class Signed(Gemini):
        def reply(self, turn, n):
            r = super().reply(turn, n)
            if not isinstance(turn, str): r['candidates'][0]['content']['parts'][0]['thoughtSignature'] = sig
            return r
    res, fake = run(Signed(), aio, reg, [[('get_weather', {'city': 'Rome'})], 'ok'])
    model_turn = fake.sent[1]['contents'][1]
    assert model_turn['role'] == 'model' and model_turn['parts'][0]['thoughtSignature'] == sig
    assert model_turn['parts'][0]['functionCall'] == {'name': 'get_weather', 'args': {'city': 'Rome'}}

def test_messages_must_be_a_prompt_or_a_list(reg):
    with pytest.raises(TypeError, match='messages must be a prompt .str. or a list of messages, got a dict'):
        reg.loop(lambda m: 'x', {'role': 'user', 'content': 'hi'})

def test_anthropic_thinking_sent_back(reg):
    "Claude's thinking block (with its signature) goes back first in the assistant's turn, as the API requires with tool use"
    class Thinking(Anthropic):
        def reply(self, turn, n):
            r = super().reply(turn, n)
            if not isinstance(turn, str): r['content'].insert(0, {'type': 'thinking', 'thinking': 'Rome first.', 'signature': 'sig=='})
            return r
    res, fake = run(Thinking(), False, reg, [[('get_weather', {'city': 'Rome'})], 'ok'])
    turn = fake.sent[1]['messages'][1]
    assert turn['role'] == 'assistant' and turn['content'][0] == {'type': 'thinking', 'thinking': 'Rome first.', 'signature': 'sig=='}
    assert turn['content'][1]['type'] == 'tool_use'

def test_hidden_on_a_partial_keeps_its_pins():
    "A partial tool with a hidden parameter: the loop's binding of the hidden value doesn't free what the partial pinned"
    import functools
    from fncall.loop import _conceal
    from fncall.call import call_func
    def who(q:str, user:Hidden[str], role:str='viewer')->str: "Who"; return f"{user} {role}"
    reg = FunctionRegistry(); reg.add(functools.partial(who, role='viewer'), 'Who', 'who')
    t = _conceal(reg.tools, {'user': 'guest'})[0]['who']
    assert "role: fixed by the tool" in call_func(t.fn, {'q': 'x', 'role': 'admin'}, raise_on_err=False)
    assert call_func(t.fn, {'q': 'x'}) == 'guest viewer'
