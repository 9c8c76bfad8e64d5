"""`reg.loop` / `reg.aloop` with each real SDK client (Anthropic messages, OpenAI chat completions and responses,
google-genai generate_content), sync and async, over a mocked HTTP transport: a scripted model's turns become each
provider's JSON replies, and every request the SDK sends is kept to check what the model was shown."""
import asyncio, functools, json, sys, threading, pytest
from dataclasses import dataclass
from pydantic import BaseModel
from fncall.tools import FunctionRegistry
from fncall.loop import Hidden, LoopLimit, LoopResult, ToolEvent, TextDelta, Usage, LATER
from fncall.tools import Retry, Media
from fncall.parse import ToolCallParser

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

# A scripted model: each turn is the final text, a list of (name, args) calls, or a `T` (text and calls, a stop reason).
# Each provider class writes a turn as that API's JSON reply, and a reply as the events the API streams for it; both are
# validated with the SDK's own types, every field known to them, before they are served.

@dataclass
class T:
    "A scripted turn: text, then calls; `stop` overrides the stop reason (a refusal)"
    text:str = ''
    calls:list = ()
    stop:str|None = None

def _turn(t): return T(text=t) if isinstance(t, str) else T(calls=t) if isinstance(t, list) else t

def strict(tp, d):
    "`d`, checked to be valid for the SDK's type `tp`, with no field the type doesn't know (the SDKs let unknown fields pass)"
    from pydantic import BaseModel
    def walk(o, path):
        if isinstance(o, BaseModel):
            assert not getattr(o, 'model_extra', None), f"{path}: fields {type(o).__name__} does not know: {sorted(o.model_extra)}"
            for k in type(o).model_fields: walk(getattr(o, k), f'{path}.{k}')
        elif isinstance(o, (list, tuple)):
            for i,x in enumerate(o): walk(x, f'{path}[{i}]')
    walk(_adapter(tp).validate_python(d), getattr(tp, '__name__', str(tp)))
    return d

@functools.cache
def _adapter(tp):
    from pydantic import TypeAdapter
    return TypeAdapter(tp)

def _http(sdk):
    "The httpx flavour the SDK package `sdk` uses (openai uses httpx2)"
    base = sys.modules.get(sdk.split('.')[0] + '._base_client')
    return getattr(base, 'httpx2', None) or getattr(base, 'httpx', None) or __import__('httpx')

def _pieces(s, n=4): return [s[i:i+n] for i in range(0, len(s), n)] or ['']

class Fake:
    "An HTTP transport that keeps each JSON request and answers with the provider's reply for the next scripted turn, streamed if asked"
    def __init__(self, p, turns): self.p, self.turns, self.sent, self.streamed = p, list(turns), [], []
    def handle(self, request):
        body = json.loads(request.content)
        self.sent.append(body)
        if not self.turns: raise AssertionError('the loop asked the model more often than the script says')
        self.p.check(body)
        reply = strict(self.p.Reply, self.p.reply(self.turns.pop(0), len(self.sent)))
        if not self.p.wants_stream(request, body): return self.http.Response(200, json=reply)
        self.streamed.append(True)
        events = [strict(self.p.Event, e) for e in self.p.events(reply, body)]
        return self.http.Response(200, content=self.p.sse(events).encode(), headers={'content-type': 'text/event-stream'})
    def client(self, aio):
        self.http = h = _http(self.p.sdk)
        return (h.AsyncClient if aio else h.Client)(transport=h.MockTransport(self.handle))

class Provider:
    def wants_stream(self, request, body): return bool(body.get('stream'))
    def sse(self, events): return ''.join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in events)
    def check(self, body):
        "Each message the loop sends is one the SDK's request types take"
        for m in body[self.key]: strict(self.Message, m)

class Anthropic(Provider):
    sdk, key, kw = 'anthropic', 'messages', dict(model='claude-x', max_tokens=100)
    @property
    def Reply(self): import anthropic.types as t; return t.Message
    @property
    def Event(self): import anthropic.types as t; return t.RawMessageStreamEvent
    @property
    def Message(self): import anthropic.types as t; return t.MessageParam
    def usage(self, n): return Usage(100*n, 7*n, 10*n, 5, 0, 1)
    def reply(self, turn, n):
        t = _turn(turn)
        content = ([{'type': 'text', 'text': t.text, 'citations': None}] if t.text else []) + [
            {'type': 'tool_use', 'id': f'toolu_{n}_{i}', 'name': nm, 'input': a, 'caller': {'type': 'direct'}} for i,(nm,a) in enumerate(t.calls)]
        return {'id': f'msg_{n}', 'type': 'message', 'role': 'assistant', 'model': 'claude-x', 'content': content, 'container': None,
                'stop_reason': t.stop or ('tool_use' if t.calls else 'end_turn'), 'stop_sequence': None, 'stop_details': None,
                'usage': {'input_tokens': 90*n - 5, 'cache_creation_input_tokens': 5, 'cache_read_input_tokens': 10*n, 'output_tokens': 7*n,
                          'cache_creation': {'ephemeral_5m_input_tokens': 5, 'ephemeral_1h_input_tokens': 0}, 'server_tool_use': None,
                          'service_tier': 'standard', 'inference_geo': None}}
    def events(self, r, body):
        u = r['usage']
        evs = [{'type': 'message_start', 'message': {**r, 'content': [], 'stop_reason': None, 'usage': {**u, 'output_tokens': 1}}}]
        for i,b in enumerate(r['content']):
            if b['type'] == 'text':
                evs += [{'type': 'content_block_start', 'index': i, 'content_block': {**b, 'text': ''}}]
                evs += [{'type': 'content_block_delta', 'index': i, 'delta': {'type': 'text_delta', 'text': s}} for s in _pieces(b['text'])]
            elif b['type'] == 'thinking':
                evs += [{'type': 'content_block_start', 'index': i, 'content_block': {**b, 'thinking': '', 'signature': ''}},
                        *({'type': 'content_block_delta', 'index': i, 'delta': {'type': 'thinking_delta', 'thinking': s}} for s in _pieces(b['thinking'])),
                        {'type': 'content_block_delta', 'index': i, 'delta': {'type': 'signature_delta', 'signature': b['signature']}}]
            else:
                evs += [{'type': 'content_block_start', 'index': i, 'content_block': {**b, 'input': {}}}]
                evs += [{'type': 'content_block_delta', 'index': i, 'delta': {'type': 'input_json_delta', 'partial_json': s}} for s in ['', *_pieces(json.dumps(b['input']), 7)]]
            evs.append({'type': 'content_block_stop', 'index': i})
        return evs + [{'type': 'message_delta', 'delta': {'stop_reason': r['stop_reason'], 'stop_sequence': None, 'stop_details': None, 'container': None},
                       'usage': {'output_tokens': u['output_tokens']}}, {'type': 'message_stop'}]
    def make(self, fake, aio):
        import anthropic
        return (anthropic.AsyncAnthropic if aio else anthropic.Anthropic)(api_key='sk-test', http_client=fake.client(aio))
    def results(self, req):
        return [(b['content'], b['is_error']) for b in req['messages'][-1]['content']]
    def tools(self, req): return {t['name']: list(t['input_schema']['properties']) for t in req['tools']}
    def last_user(self, req): return req['messages'][-1]['content']

_oai_usage = lambda n: {'prompt_tokens': 100*n, 'completion_tokens': 7*n, 'total_tokens': 107*n,
                        'prompt_tokens_details': {'cached_tokens': 10*n, 'audio_tokens': 0},
                        'completion_tokens_details': {'reasoning_tokens': n, 'audio_tokens': 0, 'accepted_prediction_tokens': 0, 'rejected_prediction_tokens': 0}}

class Chat(Provider):
    sdk, key, kw = 'openai', 'messages', dict(model='gpt-x')
    @property
    def Reply(self): from openai.types.chat import ChatCompletion; return ChatCompletion
    @property
    def Event(self): from openai.types.chat import ChatCompletionChunk; return ChatCompletionChunk
    @property
    def Message(self): from openai.types.chat import ChatCompletionMessageParam; return ChatCompletionMessageParam
    def usage(self, n): return Usage(100*n, 7*n, 10*n, 0, n, 1)
    def reply(self, turn, n):
        t = _turn(turn)
        refused = t.stop == 'refusal'
        msg = {'role': 'assistant', 'content': None if refused else t.text or None, 'refusal': t.text if refused else None, 'annotations': []}
        if t.calls: msg['tool_calls'] = [{'id': f'call_{n}_{i}', 'type': 'function', 'function': {'name': nm, 'arguments': a if isinstance(a, str) else json.dumps(a)}}
                                         for i,(nm,a) in enumerate(t.calls)]
        return {'id': f'chatcmpl-{n}', 'object': 'chat.completion', 'created': 0, 'model': 'gpt-x', 'system_fingerprint': 'fp_x', 'service_tier': 'default',
                'choices': [{'index': 0, 'finish_reason': 'stop' if refused else t.stop or ('tool_calls' if t.calls else 'stop'), 'logprobs': None, 'message': msg}],
                'usage': _oai_usage(n)}
    def sse(self, events): return ''.join(f"data: {json.dumps(e)}\n\n" for e in events) + 'data: [DONE]\n\n'
    def events(self, r, body):
        m, c = r['choices'][0]['message'], lambda delta, finish=None: {**{k: v for k,v in r.items() if k not in ('choices', 'usage')}, 'object': 'chat.completion.chunk',
                                                                        'choices': [{'index': 0, 'delta': delta, 'logprobs': None, 'finish_reason': finish}]}
        evs = [c({'role': 'assistant', 'content': '' if m['content'] else None, 'refusal': None})]
        evs += [c({'content': s}) for s in _pieces(m['content'])] if m['content'] else []
        evs += [c({'refusal': s}) for s in _pieces(m['refusal'])] if m['refusal'] else []
        for i,tc in enumerate(m.get('tool_calls') or []):
            evs.append(c({'tool_calls': [{'index': i, 'id': tc['id'], 'type': 'function', 'function': {'name': tc['function']['name'], 'arguments': ''}}]}))
            evs += [c({'tool_calls': [{'index': i, 'function': {'arguments': s}}]}) for s in _pieces(tc['function']['arguments'], 7) if s]
        evs.append(c({}, r['choices'][0]['finish_reason']))
        if (body.get('stream_options') or {}).get('include_usage'): evs.append({**c({}), 'choices': [], 'usage': r['usage']})
        return evs
    def make(self, fake, aio):
        import openai
        return (openai.AsyncOpenAI if aio else openai.OpenAI)(api_key='sk-test', http_client=fake.client(aio))
    def results(self, req):
        ms = req['messages']
        i = max(i for i,m in enumerate(ms) if m['role'] == 'assistant')
        return [(m['content'], None) for m in ms[i+1:] if m['role'] == 'tool']
    def tools(self, req): return {t['function']['name']: list(t['function']['parameters']['properties']) for t in req['tools']}
    def last_user(self, req): return req['messages'][-1]['content']

class Responses(Chat):
    key = 'input'
    @property
    def Reply(self): from openai.types.responses import Response; return Response
    @property
    def Event(self): from openai.types.responses import ResponseStreamEvent; return ResponseStreamEvent
    @property
    def Message(self): from openai.types.responses import ResponseInputItemParam; return ResponseInputItemParam
    def check(self, body):
        if isinstance(body['input'], list): super().check(body)
    def reply(self, turn, n):
        t = _turn(turn)
        out = [{'type': 'message', 'id': f'msg_{n}', 'role': 'assistant', 'status': 'completed',
                'content': [{'type': 'refusal', 'refusal': t.text} if t.stop == 'refusal' else {'type': 'output_text', 'text': t.text, 'annotations': [], 'logprobs': []}]}] if t.text else []
        out += [{'type': 'function_call', 'id': f'fc_{n}_{i}', 'call_id': f'call_{n}_{i}', 'name': nm, 'arguments': a if isinstance(a, str) else json.dumps(a),
                 'status': 'completed'} for i,(nm,a) in enumerate(t.calls)]
        return {'id': f'resp_{n}', 'object': 'response', 'created_at': 0, 'model': 'gpt-x', 'status': 'completed', 'output': out, 'error': None,
                'incomplete_details': None, 'instructions': None, 'metadata': {}, 'parallel_tool_calls': True, 'temperature': 1.0, 'top_p': 1.0,
                'tool_choice': 'auto', 'tools': [],
                'usage': {'input_tokens': 100*n, 'input_tokens_details': {'cached_tokens': 10*n, 'cache_write_tokens': 0},
                          'output_tokens': 7*n, 'output_tokens_details': {'reasoning_tokens': n}, 'total_tokens': 107*n}}
    def sse(self, events): return Provider.sse(self, events)
    def events(self, r, body):
        start = {**r, 'status': 'in_progress', 'output': [], 'usage': None}
        evs = [{'type': 'response.created', 'response': start}, {'type': 'response.in_progress', 'response': start}]
        for i,o in enumerate(r['output']):
            if o['type'] == 'message':
                evs.append({'type': 'response.output_item.added', 'output_index': i, 'item': {**o, 'status': 'in_progress', 'content': []}})
                for j,part in enumerate(o['content']):
                    ids = {'item_id': o['id'], 'output_index': i, 'content_index': j}
                    if part['type'] == 'refusal':
                        evs += [{'type': 'response.content_part.added', **ids, 'part': {**part, 'refusal': ''}},
                                *({'type': 'response.refusal.delta', **ids, 'delta': s} for s in _pieces(part['refusal'])),
                                {'type': 'response.refusal.done', **ids, 'refusal': part['refusal']}]
                    else:
                        evs += [{'type': 'response.content_part.added', **ids, 'part': {**part, 'text': ''}},
                                *({'type': 'response.output_text.delta', **ids, 'delta': s, 'logprobs': []} for s in _pieces(part['text'])),
                                {'type': 'response.output_text.done', **ids, 'text': part['text'], 'logprobs': []}]
                    evs.append({'type': 'response.content_part.done', **ids, 'part': part})
            else:
                evs.append({'type': 'response.output_item.added', 'output_index': i, 'item': {**o, 'status': 'in_progress', 'arguments': ''}})
                evs += [{'type': 'response.function_call_arguments.delta', 'item_id': o['id'], 'output_index': i, 'delta': s} for s in _pieces(o['arguments'], 7) if s]
                evs.append({'type': 'response.function_call_arguments.done', 'item_id': o['id'], 'output_index': i, 'arguments': o['arguments']})
            evs.append({'type': 'response.output_item.done', 'output_index': i, 'item': o})
        evs.append({'type': 'response.completed', 'response': r})
        return [{**e, 'sequence_number': k} for k,e in enumerate(evs)]
    def make(self, fake, aio): return super().make(fake, aio).responses
    def results(self, req):
        ins = req['input']
        i = max(i for i,o in enumerate(ins) if o.get('type') in ('function_call', 'message') and o.get('role') != 'user')
        return [(o['output'], None) for o in ins[i+1:]]
    def tools(self, req): return {t['name']: list(t['parameters']['properties']) for t in req['tools']}
    def last_user(self, req): return req['input'][-1]['content']

class Gemini(Provider):
    sdk, key, kw = 'google.genai', 'contents', dict(model='gemini-x')
    @property
    def Reply(self): from google.genai import types; return types.GenerateContentResponse
    Event = Reply
    @property
    def Message(self): from google.genai import types; return types.Content
    def usage(self, n): return Usage(100*n, 7*n, 10*n, 0, n, 1)
    def wants_stream(self, request, body): return 'streamGenerateContent' in str(request.url)
    def sse(self, events): return ''.join(f"data: {json.dumps(e)}\r\n\r\n" for e in events)
    def reply(self, turn, n):
        t = _turn(turn)
        parts = ([{'text': t.text}] if t.text else []) + [{'functionCall': {'name': nm, 'args': a}} for nm,a in t.calls]
        return {'candidates': [{'content': {'role': 'model', 'parts': parts}, 'finishReason': t.stop or 'STOP', 'index': 0}],
                'usageMetadata': {'promptTokenCount': 100*n, 'candidatesTokenCount': 6*n, 'thoughtsTokenCount': n, 'cachedContentTokenCount': 10*n,
                                  'totalTokenCount': 107*n, 'promptTokensDetails': [{'modality': 'TEXT', 'tokenCount': 100*n}]},
                'modelVersion': 'gemini-x', 'responseId': f'r{n}'}
    def events(self, r, body):
        c = r['candidates'][0]
        chunk = lambda parts: {**r, 'candidates': [{'content': {'role': 'model', 'parts': parts}, 'index': 0}], 'usageMetadata': {'promptTokenCount': r['usageMetadata']['promptTokenCount'], 'totalTokenCount': r['usageMetadata']['promptTokenCount']}}
        evs = []
        for p in c['content']['parts']:
            evs += [chunk([{**p, 'text': s}]) for s in _pieces(p['text'])] if 'text' in p and set(p) == {'text'} else [chunk([p])]
        return evs[:-1] + [{**evs[-1], 'candidates': [{**evs[-1]['candidates'][0], 'finishReason': c['finishReason']}], 'usageMetadata': r['usageMetadata']}]
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

def streamed(p, aio, reg, turns, prompt='Go', **kw):
    "The same run through `reg.stream` (`reg.astream` if `aio`): (events, result, fake), the result being the last event"
    fake = Fake(p, turns)
    cli = p.make(fake, aio)
    async def collect(): return [e async for e in reg.astream(cli, prompt, **p.kw, **kw)]
    evs = asyncio.run(collect()) if aio else list(reg.stream(cli, prompt, **p.kw, **kw))
    assert isinstance(evs[-1], LoopResult) and not any(isinstance(e, LoopResult) for e in evs[:-1])
    return evs[:-1], evs[-1], fake

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
    "A call running past `timeout` goes back as a timeout error and the loop goes on, long before the call would have ended"
    stuck = threading.Event()
    @reg.function()
    def slow(s:float): "Wait"; stuck.wait(s); return 'woke'
    complete, _ = _texts('slow(s=60)', 'gave up')
    evs, kw = [], dict(prompt_style='python', timeout=0.2, on_event=lambda e: evs.append(e))
    try: res = asyncio.run(reg.aloop(complete, 'Sleep', **kw)) if aio else reg.loop(complete, 'Sleep', **kw)
    finally: stuck.set()
    assert res.messages[3]['content'] == "slow failed:\nError: tool 'slow' timed out after 0.2 s" and res.text == 'gave up'
    assert [e.kind for e in evs] == ['start', 'end'] and evs[1].seconds < 0.2*3 + 5  # the wait ran out, not the 60 s call

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


# The defects, each over the official client(s) it concerns

REFUSED = {'anthropic': 'refusal', 'chat': 'refusal', 'responses': 'refusal', 'gemini': 'SAFETY'}

@pytest.mark.parametrize('p,aio', CASES)
def test_refused_turn_runs_nothing(p, aio, reg):
    "A refused turn (Anthropic's stop_reason 'refusal', OpenAI's refusal, Gemini's SAFETY) ends the run: none of its calls run, and it is not kept"
    ran = []
    @reg.function()
    def delete_file(path:str): "Delete a file"; ran.append(path)
    turn = T("I can't help with that.", [('delete_file', {'path': '/etc/passwd'})], REFUSED[type(p).__name__.lower()])
    res, fake = run(p, aio, reg, [turn])
    assert ran == [] and res.refused and res.steps == 1 and len(res.messages) == 1 and res.pending == []

@pytest.mark.parametrize('p,aio', CASES)
def test_forced_tool_choice_once(p, aio, reg):
    "A forced tool choice is sent on the first step only (as openai-agents resets it): then the model can answer"
    forced = {Anthropic: dict(tool_choice={'type': 'tool', 'name': 'get_weather', 'disable_parallel_tool_use': True}),
              Chat: dict(tool_choice='required'), Responses: dict(tool_choice={'type': 'function', 'name': 'get_weather'}),
              Gemini: dict(config={'tool_config': {'function_calling_config': {'mode': 'ANY', 'allowed_function_names': ['get_weather']}}})}[type(p)]
    res, fake = run(p, aio, reg, [[('get_weather', {'city': 'Oslo'})], 'Sunny'], **forced)
    assert res.text == 'Sunny'
    choice = lambda req: req['toolConfig']['functionCallingConfig'] if isinstance(p, Gemini) else req['tool_choice']
    auto = {Anthropic: {'type': 'auto', 'disable_parallel_tool_use': True}, Chat: 'auto', Responses: 'auto', Gemini: {'mode': 'AUTO'}}[type(p)]
    assert choice(fake.sent[0]) != auto and choice(fake.sent[1]) == auto

@pytest.mark.parametrize('p,aio', [c for c in CASES if isinstance(c.values[0], (Chat, Responses))])
def test_empty_arguments(p, aio):
    "OpenAI's `arguments: \"\"` for a tool without parameters is read as {}"
    reg = FunctionRegistry()
    @reg.function()
    def now()->str: "The time"; return '12:00'
    res, fake = run(p, aio, reg, [[('now', '')], 'Noon'])
    assert texts(p.results(fake.sent[1])) == ['12:00'] and res.text == 'Noon'

@pytest.mark.parametrize('p,aio', CASES)
def test_stream_true_is_the_same_run(p, aio, reg):
    "`stream=True` streams each request with the SDK's helper, and gives the LoopResult of the same run unstreamed"
    script = [T('Let me check.', [('get_weather', {'city': 'Paris'}), ('divide', {'a': 1, 'b': 4})]), 'Paris is 25 C; 1/4 is 0.25']
    plain, f1 = run(p, aio, reg, script)
    res, f2 = run(p, aio, reg, script, stream=True)
    assert f2.streamed == [True, True] and f1.streamed == []
    assert same(res, plain)

def same(a, b):
    "Two LoopResults alike in all but the SDK object of the last response"
    return all(getattr(a, k) == getattr(b, k) for k in ('messages', 'text', 'output', 'steps', 'usage', 'step_usage', 'pending', 'refused'))

@pytest.mark.parametrize('aio', [False, True])
def test_gemini_messages_are_json(aio, reg):
    "A Gemini thought signature is kept as base64 text, so the conversation can be saved as JSON, and loaded to go on: the signature is sent back as it came"
    sig = 'c2lnbmF0dXJlLWJ5dGVz'
    class Signed(Gemini):
        def reply(self, turn, n):
            r = super().reply(turn, n)
            if not isinstance(turn, str): r['candidates'][0]['content']['parts'][0]['thoughtSignature'] = sig
            return r
    res, _ = run(Signed(), aio, reg, [[('get_weather', {'city': 'Rome'})], 'ok'])
    saved = json.loads(json.dumps(res.messages))
    res2, fake = run(Signed(), aio, reg, ['And?'], prompt=saved + [{'role': 'user', 'parts': [{'text': 'More?'}]}])
    assert fake.sent[0]['contents'][1]['parts'][0]['thoughtSignature'] == sig

def test_sync_errors_not_chained(reg):
    "An error from the sync loop (or stream) is its own, not chained to the 'no running event loop' RuntimeError"
    p = Anthropic()
    for go in (lambda cli: reg.loop(cli, 'Go', max_steps=1, **p.kw), lambda cli: list(reg.stream(cli, 'Go', max_steps=1, **p.kw))):
        fake = Fake(p, [[('get_weather', {'city': 'A'})]])
        with pytest.raises(LoopLimit) as e: go(p.make(fake, False))
        assert e.value.__context__ is None and e.value.__cause__ is None

@pytest.mark.parametrize('p,aio', CASES)
def test_tool_error_is_type_and_message(p, aio):
    "A raising tool sends the model its exception's type and message, not its traceback (no paths, no source); `on_error` decides otherwise"
    def boom(x:int)->int:
        "Fail"
        secret = 'sk-live-123'  # a line of source the model must not read
        raise KeyError(x)
    for on_error, want in [(None, "Error: tool 'boom' raised KeyError: 1"), (lambda nm, e: f'{nm} is down', 'boom is down')]:
        reg = FunctionRegistry(on_error=on_error); reg.add(boom)
        res, fake = run(p, aio, reg, [[('boom', {'x': 1})], 'ok'])
        assert texts(p.results(fake.sent[1])) == [want] and 'sk-live' not in json.dumps(fake.sent[1])

# What was missing: streaming, usage, retries, stop-at-tool, results as data, approval that waits, parser=

SCRIPT = [T('Let me check.', [('get_weather', {'city': 'Paris'}), ('divide', {'a': 1, 'b': 4})]), [('get_weather', {'city': 'Rome'})],
          'Paris and Rome are 25 C; 1/4 is 0.25']

@pytest.mark.parametrize('p,aio', CASES)
def test_streaming(p, aio, reg):
    "A streamed run yields the text as it comes, a start and an end per call (with the provider's call id), then the LoopResult of the same run unstreamed"
    evs, res, fake = streamed(p, aio, reg, SCRIPT)
    plain, _ = run(p, aio, reg, SCRIPT)
    assert same(res, plain) and fake.streamed == [True]*3
    assert ''.join(e.text for e in evs if isinstance(e, TextDelta)) == 'Let me check.Paris and Rome are 25 C; 1/4 is 0.25'
    assert len([e for e in evs if isinstance(e, TextDelta)]) > 3  # in pieces, as they came
    ids = [c.get('call_id') or c.get('id') or (c.get('function_call') or {}).get('id') for c in _calls_in(p, res.messages)]  # Responses: the call_id
    tools = [e for e in evs if isinstance(e, ToolEvent)]
    assert sorted((e.id, e.kind) for e in tools) == sorted((i, k) for i in ids for k in ('start', 'end'))
    for i in ids:
        mine = [e.kind for e in tools if e.id == i] if i else None
        if mine: assert mine == ['start', 'end']
    kinds = ['text' if isinstance(e, TextDelta) else e.kind for e in evs]  # step by step: the model's text, then its calls
    assert kinds.index('start') > kinds.index('text') and kinds[-1] == 'text' and kinds.index('text', kinds.index('end')) > kinds.index('end')
    assert [e.name for e in tools if e.kind == 'end'][-1] == 'get_weather' and tools[-1].result == 'Rome: 25 C'

def _calls_in(p, msgs):
    "Each tool call in a conversation, as the provider wrote it"
    out = []
    for m in msgs:
        if isinstance(p, Anthropic) and m['role'] == 'assistant': out += [b for b in m['content'] if b['type'] == 'tool_use']
        elif type(p) is Chat and m['role'] == 'assistant': out += m.get('tool_calls') or []
        elif isinstance(p, Responses) and m.get('type') == 'function_call': out.append(m)
        elif isinstance(p, Gemini) and m['role'] == 'model': out += [q for q in m['parts'] if 'function_call' in q]
    return out

@pytest.mark.parametrize('p,aio', CASES)
def test_usage(p, aio, reg):
    "LoopResult.usage sums the provider's own usage fields over the steps (cached and reasoning tokens too); step_usage has each"
    res, _ = run(p, aio, reg, SCRIPT)
    assert res.step_usage == [p.usage(n) for n in (1, 2, 3)] and res.usage == p.usage(1) + p.usage(2) + p.usage(3)
    assert res.usage.requests == 3 and res.usage.input_tokens == 600 and res.usage.output_tokens == 42

@pytest.mark.parametrize('aio', [False, True])
def test_text_model_streams_pieces(aio, reg):
    "A callable may return its text in pieces (a generator, sync or async): each is a TextDelta; unstreamed, they are joined"
    def pieces(messages):
        n = len(messages)
        yield from (['TOOL_CALL {"tool_name": "get_weather", ', '"parameters": {"city": "Lima"}}'] if n == 2 else ['Sunny ', 'in Lima.'])
    async def apieces(messages):
        for t in pieces(messages): yield t
    fn = apieces if aio else pieces
    async def collect(): return [e async for e in reg.astream(fn, 'Weather?')]
    evs = asyncio.run(collect()) if aio else list(reg.stream(fn, 'Weather?'))
    assert ''.join(e.text for e in evs if isinstance(e, TextDelta)) == 'Sunny in Lima.' == evs[-1].text  # the call's text is no delta
    res = asyncio.run(reg.aloop(fn, 'Weather?')) if aio else reg.loop(fn, 'Weather?')
    assert res.text == 'Sunny in Lima.' and res.messages[3]['content'] == 'get_weather returned:\nLima: 25 C'

@pytest.mark.parametrize('aio', [False, True])
def test_text_model_deltas_are_the_answer(aio, reg):
    "A text model's deltas are its answer as `parse` reads it: a call's markup and the reasoning, cut anywhere by the pieces, are not shown"
    first = 'Let me check.<think>Lima is in Peru</think> <tool_call>{"name": "get_weather", "arguments": {"city": "Lima"}}</tool_call> One moment.'
    def pieces(messages):
        t = first if len(messages) == 2 else 'Sunny in Lima.'
        yield from (t[i:i+5] for i in range(0, len(t), 5))
    evs = list(reg.stream(pieces, 'Weather?')) if not aio else asyncio.run(_collect(reg.astream(pieces, 'Weather?')))
    shown = ''.join(e.text for e in evs if isinstance(e, TextDelta))
    assert shown == ToolCallParser().parse(first).content + 'Sunny in Lima.' and '<' not in shown and 'Peru' not in shown, shown
    assert [e.kind for e in evs if isinstance(e, ToolEvent)] == ['start', 'end'] and evs[-1].text == 'Sunny in Lima.'

async def _collect(s): return [e async for e in s]

@pytest.mark.parametrize('p,aio', CASES)
def test_retry_and_retries(p, aio):
    "A tool raising Retry sends the model its message alone; past the tool's `retries` failures in a row, the loop stops"
    tries = []
    def book(day:str)->str:
        "Book a table"
        tries.append(day)
        if day != 'Tuesday': raise Retry(f"Closed on {day}s: try another day.")
        return 'Booked'
    reg = FunctionRegistry(); reg.add(book, retries=2)
    res, fake = run(p, aio, reg, [[('book', {'day': 'Sunday'})], [('book', {'day': 'Monday'})], [('book', {'day': 'Tuesday'})], 'Booked for Tuesday'])
    assert texts(p.results(fake.sent[1])) == ['Closed on Sundays: try another day.'] and res.text == 'Booked for Tuesday'
    reg = FunctionRegistry(); reg.add(book, retries=1)
    with pytest.raises(LoopLimit, match=r"Tool 'book' failed 2 times in a row \(retries=1\)") as e:
        run(p, aio, reg, [[('book', {'day': 'Sunday'})], [('book', {'day': 'Monday'})], 'never'], max_steps=5)
    assert e.value.result.steps == 2

@pytest.mark.parametrize('p,aio', CASES)
def test_stop_at(p, aio):
    "A call to a `stop_at` tool that succeeds ends the run, its result (the Python value) the output; a failing one goes back to the model"
    @dataclass
    class Sent: to:str
    def send(to:str)->Sent: "Send the email"; return Sent(to) if '@' in to else 1/0
    reg = FunctionRegistry(); reg.add(send)
    res, fake = run(p, aio, reg, [[('send', {'to': 'bob'})], [('send', {'to': 'bob@x.org'})]], stop_at=['send'])
    assert res.output == Sent('bob@x.org') and res.steps == 2 and len(fake.sent) == 2
    assert texts(p.results(fake.sent[1])) == ["Error: tool 'send' raised ZeroDivisionError: division by zero"]
    with pytest.raises(ValueError, match="stop_at names 'sned', which is not a tool"): run(p, aio, reg, [], stop_at=['sned'])

@pytest.mark.parametrize('p,aio', CASES)
def test_results_as_data(p, aio):
    "A dataclass result reaches the model as a JSON object, an image as the provider's image block: in messages the SDK's request types take"
    import base64
    from pydantic import BaseModel
    png = base64.b64decode('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGNgYGD4DwABBAEAwS2OUAAAAABJRU5ErkJggg==')
    class Point(BaseModel): x:int; y:int
    reg = FunctionRegistry()
    @reg.function()
    def where()->Point: "Where"; return Point(x=4, y=6)
    @reg.function()
    def snap()->list: "Snap"; return ['the view', Media(png, 'image/png')]
    res, fake = run(p, aio, reg, [[('where', {}), ('snap', {})], 'A sunny view at (4, 6)'])
    got = p.results(fake.sent[1])
    b64 = base64.b64encode(png).decode()
    if isinstance(p, Gemini):
        fr = [q['functionResponse'] for q in fake.sent[1]['contents'][-1]['parts']]
        blob = fr[1]['parts'][0]  # the SDK sends a function response's parts as they are (proto JSON takes either spelling)
        assert fr[0]['response'] == {'result': {'x': 4, 'y': 6}} and blob.get('inline_data', blob.get('inlineData')) == {'mime_type': 'image/png', 'data': b64}
    elif isinstance(p, Anthropic):
        assert got[0][0] == '{"x": 4, "y": 6}' and got[1][0][1] == {'type': 'image', 'source': {'type': 'base64', 'media_type': 'image/png', 'data': b64}}
    elif isinstance(p, Responses):
        assert got[0][0] == '{"x": 4, "y": 6}' and got[1][0][1] == {'type': 'input_image', 'image_url': f'data:image/png;base64,{b64}'}
    else:
        assert texts(got) == ['{"x": 4, "y": 6}', 'the view\n[image/png, 70 bytes]']
        assert fake.sent[1]['messages'][-1] == {'role': 'user', 'content': [{'type': 'image_url', 'image_url': {'url': f'data:image/png;base64,{b64}'}}]}
    json.dumps(res.messages)  # the conversation saves as JSON

@pytest.mark.parametrize('p,aio', CASES)
def test_approval_waits(p, aio):
    "approve returns LATER: the run pauses before any call of the turn runs; the saved conversation, loaded later, resumes with the decisions"
    ran = []
    reg = FunctionRegistry()
    @reg.function()
    def delete(path:str): "Delete a file"; ran.append(path); return f'deleted {path}'
    reg.add(get_weather)
    ask = lambda nm, args: LATER if nm == 'delete' else True
    res, fake = run(p, aio, reg, [[('get_weather', {'city': 'Oslo'}), ('delete', {'path': '/tmp/a'}), ('delete', {'path': '/etc'})]], approve=ask)
    assert ran == [] and [(c.tool_name, c.parameters) for c in res.pending] == [('get_weather', {'city': 'Oslo'}), ('delete', {'path': '/tmp/a'}), ('delete', {'path': '/etc'})]
    assert res.steps == 1 and 'pending=3' in repr(res)
    saved = json.loads(json.dumps(res.messages))  # hours later, in another process
    key = lambda i: res.pending[i].id if res.pending[i].id is not None else i
    res2, fake = run(p, aio, reg, ['Deleted /tmp/a only.'], prompt=saved, approve=ask, approvals={key(1): True, key(2): 'Never /etc'})
    assert ran == ['/tmp/a'] and res2.text == 'Deleted /tmp/a only.' and res2.steps == 1 and res2.pending == []
    assert texts(p.results(fake.sent[0])) == ['Oslo: 25 C', 'deleted /tmp/a', 'Never /etc']
    with pytest.raises(ValueError, match="approvals for 'nope', which is not a call waiting"): run(p, aio, reg, [], prompt=saved, approvals={'nope': True})
    res3, _ = run(p, aio, reg, [], prompt=saved, approve=ask)  # still undecided: paused again, nothing ran
    assert len(res3.pending) == 3 and res3.steps == 0 and ran == ['/tmp/a']

def test_parser_for_text_models(reg):
    "parser= reads a text model's calls (here with its own marker), and the tools prompt shows that marker"
    from fncall.parse import ToolCallParser
    complete, seen = _texts('ACT {"tool_name": "get_weather", "parameters": {"city": "Lima"}}', 'Sunny.')
    res = reg.loop(complete, 'Weather?', parser=ToolCallParser(marker='ACT'))
    assert res.messages[3]['content'] == 'get_weather returned:\nLima: 25 C' and 'ACT {"tool_name"' in seen[0][0][0]['content']
    assert 'TOOL_CALL' not in seen[0][0][0]['content']

def test_no_none_globals():
    import fncall.loop
    assert [k for k,v in vars(fncall.loop).items() if v is None and not k.startswith('__')] == []

@pytest.mark.parametrize('p,aio', CASES)
def test_stream_stopped_early(p, aio, caplog):
    "A caller that stops reading a stream closes it, the SDK's stream with it: nothing left pending (asyncio logs nothing), no tool runs"
    import gc, logging
    ran = []
    reg = FunctionRegistry()
    @reg.function()
    def get_weather(city:str): "Weather"; ran.append(city); return 'sunny'
    fake = Fake(p, SCRIPT)
    cli = p.make(fake, aio)
    async def first():
        g = reg.astream(cli, 'Go', **p.kw)
        async for ev in g: break
        await g.aclose()
        return ev
    with caplog.at_level(logging.ERROR, logger='asyncio'):
        if aio: ev = asyncio.run(first())
        else:
            g = reg.stream(cli, 'Go', **p.kw)
            ev = next(g); g.close(); gc.collect()
    assert ev == TextDelta('Let ') and ran == [] and len(fake.sent) == 1 and not caplog.records
