"The schema-to-function page's longer checks (nbs/03_mktool.ipynb shows one example a behaviour): definitions, signatures, tool forms, untrusted schemas"
import inspect, json
from inspect import Parameter
from fastcore.test import test_eq as eq, test_fail as fail  # aliased: pytest would collect test_* names
from fastcore.utils import dict2obj
from fncall.schema import get_schema
from fncall.call import call_func
from fncall.mktool import mk_tool, schema2sig, mk_param

def dispatch(name, **kwargs): return f"Called {name} with {kwargs}"
def disp_po(name, /, **kwargs): return name, kwargs

d7 = {'name': 'plot', 'description': 'Plot', 'inputSchema': {'type': 'object', 'required': ['p'],
      'properties': {'p': {'$ref': '#/definitions/Point'}, 'q': {'allOf': [{'$ref': '#/definitions/Point'}], 'description': 'Another'}},
      'definitions': {'Point': {'type': 'object', 'properties': {'x': {'type': 'integer'}}, 'required': ['x']}}}}
tool_hy = dict2obj(dict(name='run', description='Run command', inputSchema=dict(type='object', properties={'cmd': {'type': 'string'}, 'approval-policy': {'type': 'string', 'default': 'never'}}, required=['cmd'])))
tool = dict2obj(dict(description='Find real-…', name='searchGitHub', inputSchema={'$schema': 'http://json-schema.org/draft-07/schema#',
    'additionalProperties': False, 'required': ['query'], 'type': 'object', 'properties': dict(
        language=dict(description='Filter by …', items={'type': 'string'}, type='array'),
        matchCase=dict(default=False, description='Whether th…', type='boolean'),
        path=dict(description='Filter by …', type='string'),
        query=dict(description='The litera…', type='string'),
        useRegexp=dict(default=False, description='Whether to…', type='boolean'))}))
props, req = tool.inputSchema['properties'], tool.inputSchema['required']

def test_definitions_inlined():
    fn = mk_tool(dispatch, d7)
    eq([(p.name, p.annotation.__name__, p.default) for p in inspect.signature(fn).parameters.values()], [('p', 'Point', Parameter.empty), ('q', 'Point', None)])
    assert call_func('plot', {'p': {'x': 'one'}}, ns=[fn], raise_on_err=False).startswith("Error: invalid arguments for tool 'plot':\np: x: expected integer")
    eq(call_func('plot', {'p': {'x': '1'}}, ns=[fn]), "Called plot with {'p': {'x': 1}}")
    s = get_schema(fn, pname='inputSchema')['inputSchema']
    eq(s['properties']['q'], {'description': 'Another', 'default': None, '$ref': '#/$defs/Point'})
    eq(s['$defs']['Point'], {'type': 'object', 'properties': {'x': {'description': '', 'type': 'integer'}}, 'title': 'Point', 'required': ['x']})
    assert '_site' not in json.dumps(get_schema(mk_tool(dispatch, {'name': 'n', 'input_schema': {'type': 'object', 'properties': {
        'v': {'not': {'$ref': '#/$defs/P'}}}, '$defs': {'P': {'type': 'integer'}}}}))), 'no internal markers'

def test_schema2sig_mcp_tool():
    eq(str(schema2sig(tool)), '(query: str, *, language: list[str] = None, matchCase: bool = False, path: str = None, useRegexp: bool = False)')

def test_schema2sig_renames():
    sig = schema2sig(tool_hy)
    eq(list(sig.parameters), ['cmd', 'approval_policy'])
    eq(sig.parameters['approval_policy'].default, 'never')
    eq(sig.parameters['approval_policy'].kind, Parameter.KEYWORD_ONLY)

def test_mk_param():
    eq(str(mk_param('query', props.query, req)), 'query: str')
    eq(str(mk_param('language', props.language, req)), 'language: list[str] = None')

def test_tool_forms_openai():
    oai = {'type': 'function', 'function': {'name': 'pick', 'description': 'Pick', 'parameters': {'type': 'object',
           'properties': {'class': {'type': 'integer', 'minimum': 1, 'maximum': 5}, '2nd': {'type': 'string', 'format': 'email'}}, 'required': ['class']}}}
    fn = mk_tool(dispatch, oai)
    eq(str(inspect.signature(fn)), '(class_: int, *, _2nd: str = None)')
    eq(fn(2, _2nd='a@b.c'), "Called pick with {'class': 2, '2nd': 'a@b.c'}")
    eq(get_schema(fn, pname='parameters')['parameters']['properties']['class'], {'description': '', 'type': 'integer', 'minimum': 1, 'maximum': 5})
    eq(get_schema(fn)['input_schema']['properties']['2nd']['format'], 'email')
    assert call_func('pick', {'class': 9}, ns=[fn], raise_on_err=False).startswith("Error: invalid arguments")

def test_big_schema_refused():
    big = {'name': 'big', 'input_schema': {'type': 'object', 'properties': {f'p{i}': {'type': 'object', 'properties': {}} for i in range(10_000)}}}
    fail(lambda: mk_tool(dispatch, big), contains="Tool 'big': its schema expands to over 10000 schemas once its $refs are written out")

def test_backtracking_pattern_left_to_server():
    redos = {'name': 'r', 'input_schema': {'type': 'object', 'properties': {'s': {'type': 'string', 'pattern': '^(?=.)(a+)+$'}, 't': {'type': 'string', 'pattern': '^[a-z]+$'}}}}
    fn = mk_tool(disp_po, redos)
    eq(call_func(fn, {'s': 'a' * 28 + '!'}), ('r', {'s': 'a' * 28 + '!'}))  # at once: left to the server
    fail(lambda: call_func(fn, {'t': 'A'}), contains="t: string should match pattern '^[a-z]+$'")
    eq(get_schema(fn)['input_schema']['properties']['s']['pattern'], '^(?=.)(a+)+$')

def test_empty_property_name():
    fn = mk_tool(disp_po, {'name': 'e', 'input_schema': {'type': 'object', 'properties': {'': {'type': 'string', 'description': 'Empty'}}, 'required': ['']}})
    eq(fn('x'), ('e', {'': 'x'}))
    eq(fn.__annotations__['_'].__metadata__[:1], ('Empty',))
    eq(fn.__annotations__['_'].__metadata__[1].alias, '')

def test_renamed_collision():
    tool_collision = dict2obj(dict(name='run', description='Run command', inputSchema=dict(type='object', properties={'approval-policy': {'type': 'string'}, 'approval_policy': {'type': 'string'}})))
    fail(lambda: schema2sig(tool_collision), contains='collision')
