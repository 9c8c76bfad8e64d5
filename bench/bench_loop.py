"""The tool loop's own cost: one three-turn conversation (two parallel calls, one call, the answer) with the real Anthropic
client on a canned HTTP transport, run by `reg.loop`, by the loop a user wrote before it (`FunctionRegistry.run` in a
while loop), and by claudette's `Chat.toolloop`; time per conversation and the ratio to the hand-written loop, in one run.
Run: python bench/bench_loop.py"""
import itertools, json, timeit, httpx, anthropic
from fncall.tools import FunctionRegistry
import fncall.loop  # noqa: adds reg.loop

def get_weather(city:str, # City name
               )->str:
    "The weather in `city`"
    return f"{city}: 25 C"

_ids = itertools.count()
def reply(*calls, text=None):
    content = [{'type': 'text', 'text': text}] if text else [{'type': 'tool_use', 'id': f'toolu_{next(_ids)}', 'name': 'get_weather',
                                                              'input': {'city': c}} for c in calls]
    return {'id': 'msg', 'type': 'message', 'role': 'assistant', 'model': 'claude-sonnet-4-5', 'content': content, 'stop_sequence': None,
            'stop_reason': 'end_turn' if text else 'tool_use', 'usage': {'input_tokens': 1, 'output_tokens': 1}}

SCRIPT = [reply('Paris', 'Rome'), reply('Oslo'), reply(text='Sunny everywhere.')]
def client():
    "An Anthropic client whose transport answers the three scripted turns, again and again"
    it = itertools.cycle(SCRIPT)
    return anthropic.Anthropic(api_key='sk-test', http_client=httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(200, json=next(it)))))

reg = FunctionRegistry()
reg.add(get_weather)
KW = dict(model='claude-sonnet-4-5', max_tokens=100)

def by_loop(cli): return reg.loop(cli, 'Weather in Paris, Rome and Oslo?', **KW).text

def by_hand(cli):
    msgs = [{'role': 'user', 'content': 'Weather in Paris, Rome and Oslo?'}]
    while True:
        r = cli.messages.create(messages=msgs, tools=reg.schemas('anthropic'), **KW)
        msgs.append({'role': 'assistant', 'content': [b.model_dump(exclude_none=True) for b in r.content]})
        if not (res := reg.run(r)): return r.content[0].text
        msgs += res

def by_claudette(cli):
    from claudette import Chat, Client
    chat = Chat(cli=Client('claude-sonnet-4-5', cli=cli), tools=[get_weather])
    return list(chat.toolloop('Weather in Paris, Rome and Oslo?'))[-1].content[0].text

def best(fs, n=20, rounds=11):
    "Best per-conversation time of each of `fs`, in interleaved rounds so machine noise hits them alike"
    clis = [client() for _ in fs]
    res = [float('inf')]*len(fs)
    for _ in range(rounds):
        for i,f in enumerate(fs): res[i] = min(res[i], timeit.timeit(lambda: f(clis[i]), number=n) / n)
    return res

if __name__ == '__main__':
    fs = [by_hand, by_loop, by_claudette]
    for f in fs: assert f(client()) == 'Sunny everywhere.', f.__name__
    ts = best(fs)
    print(f"{'loop':<14}{'ms/conversation':>16}{'vs by hand':>12}")
    for f,t in zip(fs, ts): print(f"{f.__name__:<14}{t*1e3:>16.2f}{t/ts[0]:>12.2f}")
