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

# ---- schemas: the cases the peers' suites check ----
import dataclasses, typing
from typing import Annotated, Any
from pydantic import BaseModel, Field, WithJsonSchema
from fncall.schema import union_schema, handle_type
from fncall.providers import strict_schema, tool_schema, check_schema
from fncall.call import call_func

def _props(f): return get_schema(f)['input_schema']['properties']

def test_field_as_default():
    "`x: int = Field(..., ge=0, description=...)`: required, constrained and described as `Annotated[int, Field(...)]` is; calls fill its default"
    def count(
        n:int=Field(..., ge=0, description='How many'),
        unit:str=Field('m', description='Unit'),
        tags:list[str]=Field(default_factory=list),
    ): "Count"; return n, unit, tags
    s = get_schema(count)['input_schema']
    assert s['properties']['n'] == {'description': 'How many', 'type': 'integer', 'minimum': 0}
    assert s['properties']['unit'] == {'description': 'Unit', 'default': 'm', 'type': 'string'}
    assert s['properties']['tags']['default'] == [] and s['required'] == ['n']
    assert call_func(count, {'n': 2}) == (2, 'm', [])
    assert 'greater than or equal to 0' in call_func(count, {'n': -1}, raise_on_err=False)
    assert 'n: missing required argument' in call_func(count, {}, raise_on_err=False)

def test_var_args_and_kwargs():
    "`*args` is an array and `**kwargs` an object, their docstring descriptions kept; a call passes them back spread out"
    def tally(first:int, *rest:int, sep:str=',', **labels:str)->str:
        """Join numbers.

        Args:
            first: The first number
            *rest: More numbers
            sep: Separator
            **labels: Extra labels
        """
        return sep.join(map(str, (first, *rest))) + str(labels)
    p = _props(tally)
    assert p['rest'] == {'description': 'More numbers', 'type': 'array', 'items': {'type': 'integer'}}
    assert p['labels'] == {'description': 'Extra labels', 'type': 'object', 'additionalProperties': {'type': 'string'}}
    assert get_schema(tally)['input_schema']['required'] == ['first']
    assert call_func(tally, {'first': 1, 'rest': [2, '3'], 'labels': {'a': 'b'}}) == "1,2,3{'a': 'b'}"
    assert call_func(tally, {'first': 1}) == '1{}'
    assert call_func(tally, {'first': 1, 'extra': 'x'}) == "1{'extra': 'x'}"  # keys no parameter has still go to **kwargs
    def plain(*args, **kwargs): "Anything"; return args, kwargs
    assert _props(plain) == {'args': {'description': '', 'type': 'array', 'items': {}}, 'kwargs': {'description': '', 'type': 'object'}}
    assert call_func(plain, {'args': [1, 'a'], 'kwargs': {'k': 2}}) == ((1, 'a'), {'k': 2})

def test_seed_kwargs_call_syntax_unchanged():
    "Seed 000's exact output: `**kwargs` in a call written as text is still refused"
    from fncall.pycall import parse_function_call
    with pytest.raises(ValueError, match=r'\*\*kwargs not supported'): parse_function_call('func(**kwargs)')

def test_google_docstrings_without_summary():
    "A Google docstring starting with `Args:` (no summary line) is parsed; a `Returns:`-only docstring gives one Returns line"
    def f(a:int, b:str)->int:
        """Args:
            a: The a
            b: The b

        Returns:
            The count
        """
    s = get_schema(f)
    assert [p['description'] for p in s['input_schema']['properties'].values()] == ['The a', 'The b']
    assert s['description'] == 'Returns:\n- The count (type: integer)'
    def g(a:int)->int:
        """Returns:
            The doubled value
        """
    assert get_schema(g)['description'] == 'Returns:\n- The doubled value (type: integer)'
    def h(a:int):
        """Args:
            a: Only this
        """
    assert get_schema(h)['description'] == '' and _props(h)['a']['description'] == 'Only this'

@dataclasses.dataclass
class _Linted:
    "A record"
    a:int  # noqa: E501
    b:str = ''  # type: ignore[assignment]
    c:int = 0  # The c  # pragma: no cover

def test_linter_comments_are_not_descriptions():
    def f(a:int, # noqa: B008
          b:str='x', # type: ignore
          c:int=1, # pragma: no cover
          d:int=2, # The d  # noqa: E501
          e:int=3, # pylint: disable=unused-argument
         )->int: # noqa
        "F"
    assert [p['description'] for p in _props(f).values()] == ['', '', '', 'The d', '']
    assert get_schema(f)['description'] == 'F\n\nReturns:\n- type: integer'
    def uses(x:_Linted): "Uses"
    d = get_schema(uses)['input_schema']['$defs']['_Linted']['properties']
    assert ('description' not in d['a'] or d['a']['description'] == '') and d['c']['description'] == 'The c'
    assert not d['b'].get('description')

def test_callable_instances():
    "A plain callable instance keeps seed 002's exact name `__call__`; one wrapping a function (a FunctionTool) has the wrapped function's parameters and its own name"
    class Adder:
        "Adds"
        def __call__(self, a:int, b:int)->int:
            "Add a and b"
            return a + b
    s = get_schema(Adder())
    assert (s['name'], list(s['input_schema']['properties'])) == ('__call__', ['a', 'b'])
    assert get_schema(Adder(), name='adder')['name'] == 'adder'
    t = FunctionTool(get_weather, name='weather')
    assert get_schema(t)['name'] == 'weather' and list(get_schema(t)['input_schema']['properties']) == ['location', 'unit']

def test_with_json_schema():
    def f(port:Annotated[int, WithJsonSchema({'type': 'integer', 'minimum': 1, 'maximum': 65535})], # The port
          blob:Annotated[Any, Field(description='Raw'), WithJsonSchema({'type': 'string', 'format': 'byte'})]=None): "F"
    p = _props(f)
    assert p['port'] == {'description': 'The port', 'type': 'integer', 'minimum': 1, 'maximum': 65535}
    assert p['blob'] == {'description': 'Raw', 'default': None, 'type': 'string', 'format': 'byte'}
    class M(BaseModel):
        x:Annotated[int, WithJsonSchema({'type': 'string'})]
    def g(m:M): "G"
    assert get_schema(g)['input_schema']['$defs']['M']['properties']['x'] == {'type': 'string'}

def test_union_schema_public():
    "fastcore.funccall and toolslm export `union_schema`: the schema of a union's members that have a JSON form"
    assert union_schema(int | str) == {'anyOf': [{'type': 'integer'}, {'type': 'string'}]}
    assert union_schema(typing.Optional[int]) == {'anyOf': [{'type': 'integer'}, {'type': 'null'}]}
    assert union_schema(int | typing.Callable) == {'type': 'integer'}  # a member the model can't send is left out
    defs = {}
    @dataclasses.dataclass
    class P: x:int
    assert union_schema(P | None, defs) == {'anyOf': [{'$ref': '#/$defs/P'}, {'type': 'null'}]} and 'P' in defs
    with pytest.raises(TypeError, match='any member'): union_schema(complex | typing.Callable)
    with pytest.raises(TypeError, match='needs a union'): union_schema(int)
    def f(x:int|typing.Callable=0): "F"
    assert _props(f)['x'] == {'description': '', 'default': 0, 'type': 'integer'}

def test_bare_list_and_set_items():
    "Seed 002 shows `items: {}` for a bare `list` exactly, so `get_schema` keeps it; every provider's tool gets a typed item (Gemini: any scalar), never a typeless one"
    assert handle_type(list, None) == {'type': 'array', 'items': {}}
    def f(a:list, b:set): "F"
    for p in ('gemini',):
        t = tool_schema(f, p)
        assert check_schema(t, p) == [] and all('anyOf' in v['items'] or 'type' in v['items'] for v in t['parameters']['properties'].values())
    assert check_schema(tool_schema(f, 'openai', strict=True), 'openai') == []

def test_no_empty_descriptions_in_tools():
    "A parameter with no comment: `description: ''` in `get_schema` (seed 002 shows it exactly), no description key in a provider's tool"
    def f(a:int, b:str='x', # B
         ): "F"
    assert _props(f)['a'] == {'description': '', 'type': 'integer'}
    for p in ('anthropic', 'openai', 'gemini', 'mcp', 'responses'):
        t = json.dumps(tool_schema(f, p))
        assert '"description": ""' not in t and '"B"' in t, p
    assert 'description' not in strict_schema(get_schema(f)['input_schema'])['properties']['a']

# ---- hand-written schemas (what MCP servers send) in strict mode ----
def _closed(s):
    "Every object schema in `s` closed, with all its properties required"
    if isinstance(s, list): return all(map(_closed, s))
    if not isinstance(s, dict): return True
    if 'properties' in s and (s.get('additionalProperties') is not False or set(s.get('required', [])) != set(s['properties'])): return False
    return all(_closed(v) for k,v in s.items() if k not in ('enum', 'const', 'default', 'required'))

def test_strict_typeless_objects_closed():
    s = {'type': 'object', 'properties': {'o': {'properties': {'x': {'type': 'string'}}, 'required': ['x']}}, 'required': ['o']}
    ss = strict_schema(s)
    assert ss['properties']['o']['type'] == 'object' and _closed(ss)
    assert check_schema({'type': 'function', 'function': {'name': 'f', 'parameters': ss, 'strict': True}}, 'openai') == []

def test_strict_typeless_root():
    assert strict_schema({'properties': {'a': {'type': 'integer'}}, 'required': ['a']}) == {
        'properties': {'a': {'type': 'integer'}}, 'required': ['a'], 'type': 'object', 'additionalProperties': False}
    assert strict_schema({}) == {'type': 'object', 'properties': {}, 'additionalProperties': False, 'required': []}
    t = tool_schema({'name': 'f', 'description': 'F', 'parameters': {'properties': {'a': {'type': 'integer'}}}}, 'openai', strict=True)
    assert t['function']['parameters']['type'] == 'object'

def test_strict_root_allof():
    "A single root `allOf` keeps its properties, merged with the root's own"
    s = {'allOf': [{'type': 'object', 'properties': {'a': {'type': 'integer'}}, 'required': ['a']}], 'properties': {'b': {'type': 'string'}}}
    ss = strict_schema(s)
    assert list(ss['properties']) == ['a', 'b'] and ss['required'] == ['a', 'b'] and ss['type'] == 'object'
    assert ss['properties']['b']['type'] == ['string', 'null']  # optional: nullable

def test_strict_root_allof_ref():
    "An `allOf` holding a `$ref` at the root is the record it names: a valid object root"
    s = {'allOf': [{'$ref': '#/$defs/Args'}], '$defs': {'Args': {'type': 'object', 'properties': {'q': {'type': 'string'}}, 'required': ['q']}}}
    ss = strict_schema(s)
    assert ss['type'] == 'object' and list(ss['properties']) == ['q'] and _closed(ss)
    t = tool_schema({'name': 'f', 'description': 'F', 'inputSchema': s}, 'openai', strict=True)
    assert t['function']['parameters']['properties'] == {'q': {'type': 'string'}}

def test_draft7_definitions():
    s = {'type': 'object', 'properties': {'p': {'$ref': '#/definitions/P'}}, 'required': ['p'],
         'definitions': {'P': {'type': 'object', 'properties': {'x': {'type': 'number'}}, 'required': ['x']}}}
    ss = strict_schema(s)
    assert ss['properties']['p'] == {'$ref': '#/$defs/P'} and '$defs' in ss and 'definitions' not in ss
    for p in ('anthropic', 'openai', 'gemini'):
        assert check_schema(tool_schema({'name': 'f', 'description': 'F', 'input_schema': s}, p), p) == []
    g = tool_schema({'name': 'f', 'description': 'F', 'input_schema': s}, 'gemini')
    assert g['parameters']['properties']['p']['properties']['x']['type'] == 'number'

def test_deep_nesting_is_a_value_error():
    s = {'type': 'string'}
    for _ in range(1000): s = {'type': 'object', 'properties': {'x': s}}
    with pytest.raises(ValueError, match='nests over'): strict_schema(s)
    for p in ('anthropic', 'openai', 'gemini'):
        with pytest.raises(ValueError, match="Tool 'deep'"): tool_schema({'name': 'deep', 'description': 'D', 'input_schema': s}, p)

# ---- caching ----
def test_tool_schema_cached_like_get_schema():
    "tool_schema of a function is cached with its schema: equal copies, a change to one never reaching the next, an edited function described afresh"
    from fncall import providers
    calls = []
    orig = providers._tool
    def counting(*a): calls.append(a[1:]); return orig(*a)
    providers._tool = counting
    try:
        def f(a:int): "F"
        t1, t2 = tool_schema(f, 'openai'), tool_schema(f, 'openai')
        assert t1 == t2 and t1 is not t2 and len(calls) == 1
        t1['function']['name'] = 'changed'
        assert tool_schema(f, 'openai')['function']['name'] == 'f'
        tool_schema(f, 'openai', strict=True); tool_schema(f, 'gemini')
        assert len(calls) == 3
        f.__doc__ = 'Edited'
        assert tool_schema(f, 'openai')['function']['description'] == 'Edited' and len(calls) == 4
    finally: providers._tool = orig

def test_class_source_read_once(monkeypatch):
    "A new function naming a class already described doesn't read and parse the class's source again"
    from fncall import schema
    reads = []
    orig = schema._read_field_docs
    monkeypatch.setattr(schema, '_read_field_docs', lambda c: reads.append(c) or orig(c))
    @dataclasses.dataclass
    class Spot:
        "A spot"
        x:int # Across
    def f1(s:Spot): "One"
    def f2(s:Spot): "Two"
    assert get_schema(f1)['input_schema']['$defs']['Spot'] == get_schema(f2)['input_schema']['$defs']['Spot']
    assert reads == [Spot]

# ---- call_func_async of sync tools: reused worker threads, timeouts per call ----
import asyncio, threading, time
from fncall.call import call_func_async, call_funcs_async
from timing import ends_by

def where(x:int): "Thread id"; return threading.get_ident()
def nap(s:float): "Sleep"; time.sleep(s); return s

def test_sync_tools_reuse_worker_threads():
    "A sync tool runs off the event loop, on a worker thread that the next call reuses (no new thread per call)"
    async def main():
        ids = [await call_func_async(where, {'x': 1}) for _ in range(5)]
        return ids, threading.get_ident()
    ids, loop_thread = asyncio.run(main())
    assert loop_thread not in ids and len(set(ids)) == 1

def test_pool_never_queues_and_timeouts_hold():
    "Calls never wait for a worker: 20 calls that each wait for all the others finish; a hung tool times out alone and the next calls still run"
    meet = threading.Barrier(20, timeout=30)
    def gather(i:int): "Wait for the others"; meet.wait(); return i
    async def many(): return await asyncio.gather(*(call_func_async(gather, {'i': i}) for i in range(20)))
    assert asyncio.run(many()) == list(range(20))
    release = threading.Event()
    def hang(): "Hang until released"; release.wait(60)
    async def hung():
        res = await call_funcs_async([('hang', {}), ('nap', {'s': 0.01})], ns=[hang, nap], timeout=0.5)
        return res, await call_func_async(nap, {'s': 0.01})
    try:
        with ends_by(0.5): res, after = asyncio.run(hung())
    finally: release.set()
    assert 'timed out' in res[0] and res[1] == 0.01 and after == 0.01
