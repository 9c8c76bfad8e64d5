"""The tool loop's own cost per step, against openai-agents' `Runner.run`: one three-step conversation (two parallel calls,
one call, the answer) with the real `AsyncOpenAI` client (Chat Completions) on a mocked HTTP transport, run by
`reg.aloop` and by openai-agents' `Runner.run` (tracing off), and streamed by `reg.astream` and `Runner.run_streamed`. A
baseline makes the same three requests with the bare SDK (streamed with its helper for the streamed loops); each loop's own
overhead is its time less the baseline's, per step. Candidates alternate in
every round (best of the rounds), so machine noise hits them alike. Run: python bench/bench_loop.py"""
import asyncio, json, time
import httpx2, openai
from fncall.tools import FunctionRegistry
import fncall.loop  # noqa: adds reg.aloop

PROMPT = 'Weather in Paris, Rome and Oslo?'
STEPS = [[('Paris',), ('Rome',)], [('Oslo',)], 'Sunny everywhere.']
USAGE = {'prompt_tokens': 50, 'completion_tokens': 10, 'total_tokens': 60,
         'prompt_tokens_details': {'cached_tokens': 0, 'audio_tokens': 0},
         'completion_tokens_details': {'reasoning_tokens': 0, 'audio_tokens': 0, 'accepted_prediction_tokens': 0, 'rejected_prediction_tokens': 0}}

def reply(step):
    "The Chat Completions reply for `step` (0, 1 or 2) of the script, as the API sends it"
    turn = STEPS[step]
    msg = {'role': 'assistant', 'content': turn, 'refusal': None, 'annotations': []} if isinstance(turn, str) else {
        'role': 'assistant', 'content': None, 'refusal': None, 'annotations': [], 'tool_calls': [
            {'id': f'call_{step}_{i}', 'type': 'function', 'function': {'name': 'get_weather', 'arguments': json.dumps({'city': c})}}
            for i,(c,) in enumerate(turn)]}
    return {'id': f'chatcmpl-{step}', 'object': 'chat.completion', 'created': 0, 'model': 'gpt-x', 'system_fingerprint': 'fp',
            'choices': [{'index': 0, 'message': msg, 'logprobs': None, 'finish_reason': 'stop' if isinstance(turn, str) else 'tool_calls'}],
            'usage': USAGE, 'service_tier': 'default'}

def sse(step):
    "The same reply as the API streams it (`stream_options.include_usage`)"
    r, turn = reply(step), STEPS[step]
    def chunk(delta, finish=None):
        return {'id': r['id'], 'object': 'chat.completion.chunk', 'created': 0, 'model': 'gpt-x', 'system_fingerprint': 'fp',
                'choices': [{'index': 0, 'delta': delta, 'logprobs': None, 'finish_reason': finish}]}
    m = r['choices'][0]['message']
    cs = [chunk({'role': 'assistant', 'content': '' if isinstance(turn, str) else None, 'refusal': None})]
    if isinstance(turn, str): cs += [chunk({'content': turn[i:i+4]}) for i in range(0, len(turn), 4)]
    else: cs += [chunk({'tool_calls': [{'index': i, **c}]}) for i,c in enumerate(m['tool_calls'])]
    cs += [chunk({}, r['choices'][0]['finish_reason']), {**chunk({}), 'choices': [], 'usage': USAGE}]
    return ''.join(f'data: {json.dumps(c)}\n\n' for c in cs) + 'data: [DONE]\n\n'

def handle(req):
    "Answer a request with the step its conversation is at (the assistant turns it holds): the script needs no state"
    body = json.loads(req.content)
    step = sum(m.get('role') == 'assistant' for m in body['messages'])
    if body.get('stream'): return httpx2.Response(200, content=sse(step).encode(), headers={'content-type': 'text/event-stream'})
    return httpx2.Response(200, json=reply(step))

def client(): return openai.AsyncOpenAI(api_key='sk-test', http_client=httpx2.AsyncClient(transport=httpx2.MockTransport(handle)))

def get_weather(city:str, # City name
               )->str:
    "The weather in `city`"
    return f"{city}: 25 C"

reg = FunctionRegistry()
reg.add(get_weather)

async def by_sdk(cli):
    "The three requests alone, as a loop would send them: the cost every loop pays"
    tools = reg.schemas('openai')
    msgs = [{'role': 'user', 'content': PROMPT}]
    for step in range(3):
        r = await cli.chat.completions.create(model='gpt-x', messages=msgs, tools=tools)
        msgs.append({'role': 'assistant', 'content': None, 'tool_calls': [c.model_dump() for c in r.choices[0].message.tool_calls or []]})
    return r.choices[0].message.content

async def by_sdk_stream(cli):
    "The same three requests streamed with the SDK's helper: the cost every streaming loop pays"
    tools = reg.schemas('openai')
    msgs = [{'role': 'user', 'content': PROMPT}]
    for step in range(3):
        async with cli.chat.completions.stream(model='gpt-x', messages=msgs, tools=tools, stream_options={'include_usage': True}) as s:
            async for ev in s: pass
            r = await s.get_final_completion()
        msgs.append({'role': 'assistant', 'content': None, 'tool_calls': [c.model_dump() for c in r.choices[0].message.tool_calls or []]})
    return r.choices[0].message.content

async def by_fncall(cli): return (await reg.aloop(cli, PROMPT, model='gpt-x')).text

async def by_fncall_stream(cli):
    async for ev in reg.astream(cli, PROMPT, model='gpt-x'): pass
    return ev.text

def _agent(cli):
    from agents import Agent, OpenAIChatCompletionsModel, function_tool, set_tracing_disabled
    set_tracing_disabled(True)
    return Agent(name='weather', instructions=None, tools=[function_tool(get_weather)],
                 model=OpenAIChatCompletionsModel(model='gpt-x', openai_client=cli))

async def by_agents(cli, agent={}):
    from agents import Runner
    a = agent.get(id(cli)) or agent.setdefault(id(cli), _agent(cli))
    return (await Runner.run(a, PROMPT)).final_output

async def by_agents_stream(cli, agent={}):
    from agents import Runner
    a = agent.get(id(cli)) or agent.setdefault(id(cli), _agent(cli))
    res = Runner.run_streamed(a, PROMPT)
    async for ev in res.stream_events(): pass
    return res.final_output

async def best(fs, n=20, rounds=15):
    "Best time per conversation of each of `fs`, the candidates alternating in every round"
    clis, res = [client() for _ in fs], [float('inf')]*len(fs)
    for _ in range(rounds):
        for i,f in enumerate(fs):
            t0 = time.perf_counter()
            for _ in range(n): await f(clis[i])
            res[i] = min(res[i], (time.perf_counter() - t0) / n)
    return res

async def main():
    fs = [by_sdk, by_fncall, by_agents, by_sdk_stream, by_fncall_stream, by_agents_stream]
    for f in fs: assert await f(client()) == 'Sunny everywhere.', f.__name__
    ts = dict(zip([f.__name__ for f in fs], await best(fs)))
    own = {nm: (t - ts['by_sdk_stream' if 'stream' in nm else 'by_sdk']) / len(STEPS) for nm,t in ts.items()}
    print(f"{'loop':<18}{'ms/conversation':>16}{'own ms/step':>13}")
    for nm,t in ts.items(): print(f"{nm:<18}{t*1e3:>16.2f}{own[nm]*1e3:>13.3f}")
    print(f"openai-agents' own overhead per step / fncall's: {own['by_agents'] / own['by_fncall']:.1f}x; "
          f"streamed: {own['by_agents_stream'] / own['by_fncall_stream']:.1f}x")

if __name__ == '__main__': asyncio.run(main())
