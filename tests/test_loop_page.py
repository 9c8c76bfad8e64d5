"""The checks nbs/09_loop.ipynb moved here (the page keeps its examples and a check or two a section): each option of
`reg.loop`, with the real Anthropic client over a mocked HTTP transport made as the page makes it."""
import asyncio, itertools, json, re
from dataclasses import dataclass
import httpx
from anthropic import Anthropic, AsyncAnthropic
from pydantic import BaseModel, Field
from fastcore.test import test_eq as eq, test_fail as fails  # renamed: pytest would collect test_*
from fncall.loop import Hidden, LATER, TextDelta, ToolEvent
from fncall.tools import FunctionRegistry

sent = []
def canned(*replies, aio=False):
    "An httpx client (async if `aio`) answering each request with the next of `replies` (streamed if asked); what was sent is kept in `sent`"
    sent.clear()
    def handle(req):
        sent.append(json.loads(req.content))
        r = replies[len(sent)-1]
        if sent[-1].get('stream'): return httpx.Response(200, content=sse(r), headers={'content-type': 'text/event-stream'})
        return httpx.Response(200, json=r)
    return (httpx.AsyncClient if aio else httpx.Client)(transport=httpx.MockTransport(handle))

_ids = itertools.count()
def use(name, **args): return {'type': 'tool_use', 'id': f'toolu_{next(_ids)}', 'name': name, 'input': args}
def claude(*content, stop=None):
    "An Anthropic Messages API reply holding `content` (text, or tool_use blocks)"
    blocks = [{'type': 'text', 'text': c} if isinstance(c, str) else c for c in content]
    stop = stop or ('tool_use' if any(b['type'] == 'tool_use' for b in blocks) else 'end_turn')
    return {'id': 'msg', 'type': 'message', 'role': 'assistant', 'model': 'claude-sonnet-4-5', 'content': blocks, 'stop_reason': stop, 'stop_sequence': None,
            'usage': {'input_tokens': 380, 'cache_read_input_tokens': 0, 'cache_creation_input_tokens': 0, 'output_tokens': 25}}

def sse(r):
    "Anthropic reply `r` as the events the API streams for it: the text word by word, each call's arguments in one piece"
    evs = [{'type': 'message_start', 'message': {**r, 'content': [], 'stop_reason': None}}]
    for i,b in enumerate(r['content']):
        if b['type'] == 'text':
            evs += [{'type': 'content_block_start', 'index': i, 'content_block': {'type': 'text', 'text': ''}}]
            evs += [{'type': 'content_block_delta', 'index': i, 'delta': {'type': 'text_delta', 'text': w}} for w in re.findall(r'\S+\s*', b['text'])]
        else: evs += [{'type': 'content_block_start', 'index': i, 'content_block': {**b, 'input': {}}},
                      {'type': 'content_block_delta', 'index': i, 'delta': {'type': 'input_json_delta', 'partial_json': json.dumps(b['input'])}}]
        evs.append({'type': 'content_block_stop', 'index': i})
    evs += [{'type': 'message_delta', 'delta': {'stop_reason': r['stop_reason'], 'stop_sequence': None}, 'usage': {'output_tokens': r['usage']['output_tokens']}},
            {'type': 'message_stop'}]
    return ''.join(f"event: {e['type']}\ndata: {json.dumps(e)}\n\n" for e in evs).encode()

def page_reg():
    "The page's registry: `get_weather` and `delete`"
    reg = FunctionRegistry()
    @reg.function()
    def get_weather(city:str, # City name
                   )->str:
        "The weather in `city`"
        return f"{city}: 25°C, sunny"
    @reg.function()
    def delete(path:str): # The file to delete
        "Delete a file"
        return f"deleted {path}"
    return reg

def test_approve():
    reg = page_reg()
    def approve(name, args): return name != 'delete' or 'Not outside the home directory'
    cli = Anthropic(api_key='sk-...', http_client=canned(claude(use('delete', path='/etc'), use('get_weather', city='Oslo')), claude('I may not delete /etc.')))
    res = reg.loop(cli, "Delete /etc, and the weather?", approve=approve, model='m', max_tokens=10)
    eq(res.messages[2]['content'][0]['content'], 'Not outside the home directory')
    cli = Anthropic(api_key='sk-...', http_client=canned(claude(use('delete', path='/tmp/x')), claude('Not allowed.')))
    res = reg.loop(cli, "Delete /tmp/x", approve=lambda *a: False, model='m', max_tokens=10)
    eq(res.messages[2]['content'][0]['content'], "The user did not approve this call to 'delete'.")

def test_approve_later():
    reg = page_reg()
    cli = Anthropic(api_key='sk-...', http_client=canned(claude(use('delete', path='/tmp/draft.txt')), claude('Deleted.')))
    later = lambda name, args: LATER if name == 'delete' else True
    paused = reg.loop(cli, "Delete my draft", approve=later, model='m', max_tokens=10)
    saved = json.dumps(paused.messages)
    done = reg.loop(cli, json.loads(saved), approve=later, approvals={paused.pending[0].id: True}, model='m', max_tokens=10)
    eq((done.text, done.steps, len(done.messages)), ('Deleted.', 1, 4))
    fails(lambda: reg.loop(cli, json.loads(saved), approvals={'toolu_x': True}, model='m'), contains="approvals for 'toolu_x', which is not a call waiting")

@dataclass
class User: name:str; home:str

def test_hidden():
    def ls(path:str, # Directory, relative to the user's home
           user:Hidden[User]):
        "List a directory"
        return f"{user.home}/{path}: notes.txt"
    reg2 = FunctionRegistry()
    reg2.add(ls)
    cli = Anthropic(api_key='sk-...', http_client=canned(claude(use('ls', path='docs'), use('ls', path='docs', user='root')), claude('One file.')))
    res = reg2.loop(cli, "What is in docs?", hidden={'user': User('ann', '/home/ann')}, model='m', max_tokens=10)
    eq(list(sent[0]['tools'][0]['input_schema']['properties']), ['path'])
    eq(res.messages[2]['content'][0]['content'], '/home/ann/docs: notes.txt')
    assert res.messages[2]['content'][1]['is_error']
    fails(lambda: reg2.loop(cli, 'hi', model='m'), contains="hidden parameter 'user' and no value")
    fails(lambda: reg2.loop(cli, 'hi', hidden={'user': 1, 'usr': 2}, model='m'), contains="hidden names 'usr'")

class Forecast(BaseModel):
    "The forecast for one city"
    city:str
    celsius:float = Field(description='Temperature')

def test_output():
    reg = page_reg()
    cli = Anthropic(api_key='sk-...', http_client=canned(claude(use('final_answer', city='Paris', celsius='warm')), claude(use('final_answer', city='Paris', celsius=25))))
    res = reg.loop(cli, "Forecast for Paris?", output=Forecast, model='m', max_tokens=10)
    eq(res.output, Forecast(city='Paris', celsius=25))
    eq(res.steps, 2)
    cli = Anthropic(api_key='sk-...', http_client=canned(claude('It is warm.'), claude('Warm!')))
    fails(lambda: reg.loop(cli, "Forecast?", output=Forecast, model='m', max_tokens=10), contains='without calling final_answer')
    eq(sent[1]['messages'][-1], {'role': 'user', 'content': 'Give your final answer by calling the final_answer tool.'})
    fails(lambda: reg.loop(cli, 'hi', output=dict, model='m'), contains='pydantic model or a dataclass')

def test_aloop():
    reg = page_reg()
    cli = AsyncAnthropic(api_key='sk-...', http_client=canned(claude(use('get_weather', city='Lima')), claude('Sunny in Lima.'), aio=True))
    res = asyncio.run(reg.aloop(cli, "Weather in Lima?", model='claude-sonnet-4-5', max_tokens=1000))
    eq(res.messages[2]['content'][0]['content'], 'Lima: 25°C, sunny')
    async def acomplete(messages): return 'No tools needed.'
    eq(asyncio.run(reg.aloop(acomplete, 'hi')).text, 'No tools needed.')
    fails(lambda: reg.loop(AsyncAnthropic(api_key='x'), 'hi', model='m'), contains='use `await reg.aloop')

def test_stream_is_the_loop():
    reg = page_reg()
    script = [claude("Let me look.", use('get_weather', city='Rome')), claude('Rome is sunny, 25°C.')]
    evs = list(reg.stream(Anthropic(api_key='sk-...', http_client=canned(*script)), "Weather in Rome?", model='m', max_tokens=10))
    plain = reg.loop(Anthropic(api_key='sk-...', http_client=canned(*script)), "Weather in Rome?", model='m', max_tokens=10)
    eq(''.join(e.text for e in evs if isinstance(e, TextDelta)), 'Let me look.Rome is sunny, 25°C.')
    eq([(e.kind, e.id) for e in evs if isinstance(e, ToolEvent)], [('start', script[0]['content'][1]['id']), ('end', script[0]['content'][1]['id'])])
    eq((evs[-1].messages, evs[-1].text, evs[-1].usage), (plain.messages, plain.text, plain.usage))

def test_astream_and_streamed_requests():
    reg = page_reg()
    async def show():
        cli = AsyncAnthropic(api_key='sk-...', http_client=canned(claude(use('get_weather', city='Lima')), claude('Sunny in Lima.'), aio=True))
        return [ev async for ev in reg.astream(cli, "Weather in Lima?", model='m', max_tokens=10)]
    eq([type(e).__name__ for e in asyncio.run(show())], ['ToolEvent', 'ToolEvent', 'TextDelta', 'TextDelta', 'TextDelta', 'LoopResult'])
    cli = Anthropic(api_key='sk-...', http_client=canned(claude(use('get_weather', city='Oslo')), claude('Sunny in Oslo.')))
    eq(reg.loop(cli, "Weather in Oslo?", stream=True, model='m', max_tokens=10).text, 'Sunny in Oslo.')
    eq(sent[0]['stream'], True)

def test_prompt_style_python():
    reg = page_reg()
    replies = iter(['get_weather(city="Lima")', 'Sunny in Lima.'])
    def complete(messages): return next(replies)
    res = reg.loop(complete, "Weather in Lima?", prompt_style='python')
    eq(res.messages[0]['content'], reg.prompt('python'))
    eq(res.text, 'Sunny in Lima.')
    fails(lambda: reg.loop(complete, 'hi', prompt_style='xml'), contains="prompt_style must be 'json' or 'python'")

def test_hidden_by_name_needs_no_marker():
    def ls(path:str, # Directory, relative to the user's home
           user:Hidden[User]):
        "List a directory"
        return f"{user.home}/{path}: notes.txt"
    reg2 = FunctionRegistry()
    reg2.add(ls)
    cli = Anthropic(api_key='sk-...', http_client=canned(claude(use('ls')), claude('One file.')))
    res = reg2.loop(cli, "What is in docs?", hidden={'path': 'docs', 'user': User('ann', '/home/ann')}, model='m', max_tokens=10)
    eq(sent[0]['tools'][0]['input_schema']['properties'], {})
    eq(res.messages[2]['content'][0]['content'], '/home/ann/docs: notes.txt')
    eq(list(reg2.schemas()[0]['input_schema']['properties']), ['path', 'user'])

def test_on_event():
    reg, events = page_reg(), []
    cli = Anthropic(api_key='sk-...', http_client=canned(claude(use('get_weather', city='Lima')), claude('Sunny.')))
    reg.loop(cli, "Weather in Lima?", on_event=events.append, model='m', max_tokens=10)
    eq([e.kind for e in events], ['start', 'end'])
    assert events[1].seconds >= 0 and not events[1].error
