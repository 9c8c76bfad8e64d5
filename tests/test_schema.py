"Every schema get_schema makes is valid JSON Schema 2020-12 with no dangling $ref; the seed's outputs exactly; the audit's cases"
import enum, functools, json, typing
from collections import deque
from dataclasses import dataclass, InitVar
from pathlib import Path
from typing import Annotated, ClassVar, Union, Optional, List, Dict, NamedTuple, NewType
import pytest
from fastcore.basics import patch
from fastcore.utils import store_attr
from jsonschema import Draft202012Validator
from pydantic import BaseModel, Field
from pydantic.dataclasses import dataclass as pydantic_dataclass
from fncall.schema import get_schema, handle_type
from fncall.call import call_func
from schema_corpus import CORPUS, MORE, User, Tree

def _refs(o):
    if isinstance(o, dict):
        if '$ref' in o: yield o['$ref']
        for v in o.values(): yield from _refs(v)
    elif isinstance(o, list):
        for v in o: yield from _refs(v)

def test_corpus_size(): assert len(CORPUS) >= 40

@pytest.mark.parametrize('f', CORPUS + MORE, ids=lambda f: getattr(f, '__name__', type(f).__name__))
def test_valid_2020_12(f):
    s = get_schema(f, evalable=True)
    assert s['name'] and s['description']
    json.dumps(s, allow_nan=False)  # plain JSON: no objects, no Infinity or NaN
    js = s['input_schema']
    Draft202012Validator.check_schema(js)
    defs = js.get('$defs', {})
    for r in _refs(js):
        assert r == '#' or (r.startswith('#/$defs/') and r.split('/')[-1] in defs), f'dangling {r}'
    assert all('$defs' not in d for d in defs.values()), 'nested $defs not hoisted'
    assert all(k.replace('_', '').replace('.', '').replace('-', '').isalnum() and '__' not in k for k in defs), f'odd $defs names {list(defs)}'

def test_validates_instances():
    "The schemas accept what the functions accept"
    v = Draft202012Validator(get_schema(Tree)['input_schema'])
    v.validate({'value': 1, 'kids': [{'value': 2, 'kids': [{'value': 3}]}]})
    assert not v.is_valid({'value': 'x'})
    u = Draft202012Validator(get_schema(User)['input_schema'])
    u.validate({'name': 'a', 'addrs': [{'city': 'b', 'zip': '12345'}], 'boss': {'name': 'c'}})
    assert not u.is_valid({'name': 'a', 'addrs': [{'city': 'b', 'zip': '1'}]})

def test_cache_returns_copies():
    a = get_schema(CORPUS[0]); a['input_schema']['properties'].clear()
    assert get_schema(CORPUS[0])['input_schema']['properties']

# The seed's examples and their printed outputs, key order included (dict equality ignores order; the printed documentation does not)
def silly_sum(
    a:int, # First thing to sum
    b:int=1, # Second thing to sum
    c:list[int]=None, # A pointless argument
) -> int: # The sum of the inputs
    "Adds a + b."
    return a + b

def f(
    o:object, # the o
    q:tuple[int,str],
    p:str|list[str] = 'a',
): "object function"

class ClassA:
    "I am a class"
    def f(self, a:int): # That is `a`
        "Do a thing"
        return 1
    def __call__(self, b:str): # That is `b`
        "Do another thing"
        return 2
ca = ClassA()

def silly_test(
    a: 'int', # quoted type hint
)->int:
    "Mandatory docstring"
    return a

class Dummy:
    def sums(
        self,
        a:int, # First thing to sum
        b:int=1 # Second thing to sum
    ): # The sum of the inputs
        "Adds a + b."
        print(f"Finding the sum of {a} and {b}")
        return a + b

class Turn:
    "Turn between two speakers"
    def __init__(
        self,
        speaker_a:str, # First speaker's message
        speaker_b:str, # Second speaker's message
    ): store_attr()

class Conversation:
    "A conversation between two speakers"
    def __init__(
        self,
        turns:list[Turn], # Turns of the conversation
    ): store_attr()

class DictConversation:
    "A conversation between two speakers"
    def __init__(
        self,
        turns:dict[str,object], # dictionary of topics and the Turns of the conversation
    ): store_attr()

class SetConversation:
    "A conversation between two speakers"
    def __init__(
        self,
        turns:set[Turn], # the unique Turns of the conversation
    ): store_attr()

IntPair = tuple[int, int]
def _union_test(opt_tup: Union[IntPair, str, int]=None):
    "Mandatory docstring"
    return ""
def _new_union_test(opt_tup: IntPair | str | int =None):
    "Mandatory docstring"
    pass
def _optional_test(opt_tup: Optional[IntPair]=None):
    "Mandatory docstring"
    pass
def _param_union_test(items: list[str] | None = None):
    "Test parameterized container in union"
    pass
def _list_test(l: List[int]):
    "Mandatory docstring"
    pass
def _raw_list_test(l: List):
    "Mandatory docstring"
    pass
def _dict_test(d: Dict[str, int]):
    "Mandatory docstring"
    pass
def _raw_dict_test(d: Dict):
    "Mandatory docstring"
def _path_test(path: Path = Path('.')):
    "Mandatory docstring"
def test_hidden(a: int, _internal: str = "x"):
    "Test func"
    pass
test_hidden.__test__ = False  # the seed's name, not a pytest test
def _ret_list_test(a: int) -> list[str]:
    "Mandatory docstring"
Cmd = str | list[str]
def _cust_type(a: Cmd): "Mandatory docstring"


cases = [
("handle_type(int, None), handle_type(Path, None)", "({'type': 'integer'}, {'type': 'string', 'format': 'Path'})"),
("handle_type(list, None), handle_type(tuple[str], None), handle_type(set[str], None)", """({'type': 'array', 'items': {}},
{'type': 'array',
'prefixItems': [{'type': 'string'}],
'items': {'type': 'string'},
'minItems': 1,
'maxItems': 1},
{'type': 'array', 'items': {'type': 'string'}, 'uniqueItems': True})"""),
("handle_type(dict, None), handle_type(dict[str,str], None)", """({'type': 'object'},
{'type': 'object', 'additionalProperties': {'type': 'string'}})"""),
("handle_type(tuple[int, ...], {})", "{'type': 'array', 'items': {'type': 'integer'}}"),
("get_schema(f)", """{'name': 'f',
'description': 'object function',
'input_schema': {'type': 'object',
'properties': {'o': {'description': 'the o', 'type': 'object'},
'q': {'description': '',
'type': 'array',
'prefixItems': [{'type': 'integer'}, {'type': 'string'}],
'items': {'anyOf': [{'type': 'integer'}, {'type': 'string'}]},
'minItems': 2,
'maxItems': 2},
'p': {'description': '',
'default': 'a',
'anyOf': [{'type': 'string'},
{'type': 'array', 'items': {'type': 'string'}}]}},
'required': ['o', 'q']}}"""),
("get_schema(ca.f)", """{'name': 'f',
'description': 'Do a thing',
'input_schema': {'type': 'object',
'properties': {'a': {'description': 'That is `a`', 'type': 'integer'}},
'required': ['a']}}"""),
("get_schema(ca)", """{'name': '__call__',
'description': 'Do another thing',
'input_schema': {'type': 'object',
'properties': {'b': {'description': 'That is `b`', 'type': 'string'}},
'required': ['b']}}"""),
("get_schema(silly_sum)", """{'name': 'silly_sum', 'description': 'Adds a + b.\\n\\nReturns:\\n- The sum of the inputs (type: integer)',
'input_schema': {'type': 'object',
'properties': {'a': {'description': 'First thing to sum', 'type': 'integer'},
'b': {'description': 'Second thing to sum',
'default': 1,
'type': 'integer'},
'c': {'description': 'A pointless argument',
'default': None,
'type': 'array',
'items': {'type': 'integer'}}},
'required': ['a']}}"""),
("get_schema(silly_test)", """{'name': 'silly_test',
'description': 'Mandatory docstring\\n\\nReturns:\\n- type: integer',
'input_schema': {'type': 'object',
'properties': {'a': {'description': 'quoted type hint', 'type': 'integer'}},
'required': ['a']}}"""),
("get_schema(Dummy.sums)", """{'name': 'sums',
'description': 'Adds a + b.',
'input_schema': {'type': 'object',
'properties': {'a': {'description': 'First thing to sum', 'type': 'integer'},
'b': {'description': 'Second thing to sum',
'default': 1,
'type': 'integer'}},
'required': ['a']}}"""),
("get_schema(Conversation)", """{'name': 'Conversation',
'description': 'A conversation between two speakers',
'input_schema': {'type': 'object',
'properties': {'turns': {'description': 'Turns of the conversation',
'type': 'array',
'items': {'$ref': '#/$defs/Turn'}}},
'title': 'Conversation',
'required': ['turns'],
'$defs': {'Turn': {'type': 'object',
'properties': {'speaker_a': {'description': "First speaker's message",
'type': 'string'},
'speaker_b': {'description': "Second speaker's message",
'type': 'string'}},
'title': 'Turn',
'required': ['speaker_a', 'speaker_b']}}}}"""),
("get_schema(DictConversation)", """{'name': 'DictConversation',
'description': 'A conversation between two speakers',
'input_schema': {'type': 'object',
'properties': {'turns': {'description': 'dictionary of topics and the Turns of the conversation',
'type': 'object',
'additionalProperties': {'type': 'object'}}},
'title': 'DictConversation',
'required': ['turns']}}"""),
("get_schema(SetConversation)", """{'name': 'SetConversation',
'description': 'A conversation between two speakers',
'input_schema': {'type': 'object',
'properties': {'turns': {'description': 'the unique Turns of the conversation',
'type': 'array',
'items': {'$ref': '#/$defs/Turn'},
'uniqueItems': True}},
'title': 'SetConversation',
'required': ['turns'],
'$defs': {'Turn': {'type': 'object',
'properties': {'speaker_a': {'description': "First speaker's message",
'type': 'string'},
'speaker_b': {'description': "Second speaker's message",
'type': 'string'}},
'title': 'Turn',
'required': ['speaker_a', 'speaker_b']}}}}"""),
("get_schema(_union_test)", """{'name': '_union_test',
'description': 'Mandatory docstring',
'input_schema': {'type': 'object',
'properties': {'opt_tup': {'description': '',
'default': None,
'anyOf': [{'type': 'array',
'prefixItems': [{'type': 'integer'}, {'type': 'integer'}],
'items': {'type': 'integer'},
'minItems': 2,
'maxItems': 2},
{'type': 'string'},
{'type': 'integer'}]}}}}"""),
("get_schema(_new_union_test)", """{'name': '_new_union_test',
'description': 'Mandatory docstring',
'input_schema': {'type': 'object',
'properties': {'opt_tup': {'description': '',
'default': None,
'anyOf': [{'type': 'array',
'prefixItems': [{'type': 'integer'}, {'type': 'integer'}],
'items': {'type': 'integer'},
'minItems': 2,
'maxItems': 2},
{'type': 'string'},
{'type': 'integer'}]}}}}"""),
("get_schema(_optional_test)", """{'name': '_optional_test',
'description': 'Mandatory docstring',
'input_schema': {'type': 'object',
'properties': {'opt_tup': {'description': '',
'default': None,
'anyOf': [{'type': 'array',
'prefixItems': [{'type': 'integer'}, {'type': 'integer'}],
'items': {'type': 'integer'},
'minItems': 2,
'maxItems': 2},
{'type': 'null'}]}}}}"""),
("get_schema(_param_union_test)", """{'name': '_param_union_test',
'description': 'Test parameterized container in union',
'input_schema': {'type': 'object',
'properties': {'items': {'description': '',
'default': None,
'anyOf': [{'type': 'array', 'items': {'type': 'string'}},
{'type': 'null'}]}}}}"""),
("get_schema(_list_test)", """{'name': '_list_test',
'description': 'Mandatory docstring',
'input_schema': {'type': 'object',
'properties': {'l': {'description': '',
'type': 'array',
'items': {'type': 'integer'}}},
'required': ['l']}}"""),
("get_schema(_raw_list_test)", """{'name': '_raw_list_test',
'description': 'Mandatory docstring',
'input_schema': {'type': 'object',
'properties': {'l': {'description': '', 'type': 'array', 'items': {}}},
'required': ['l']}}"""),
("get_schema(_dict_test)", """{'name': '_dict_test',
'description': 'Mandatory docstring',
'input_schema': {'type': 'object',
'properties': {'d': {'description': '',
'type': 'object',
'additionalProperties': {'type': 'integer'}}},
'required': ['d']}}"""),
("get_schema(_raw_dict_test)", """{'name': '_raw_dict_test',
'description': 'Mandatory docstring',
'input_schema': {'type': 'object',
'properties': {'d': {'description': '', 'type': 'object'}},
'required': ['d']}}"""),
("get_schema(_path_test)", """{'name': '_path_test',
'description': 'Mandatory docstring',
'input_schema': {'type': 'object',
'properties': {'path': {'description': '',
'default': Path('.'),
'type': 'string',
'format': 'Path'}}}}"""),
("get_schema(_path_test, evalable=True)", """{'name': '_path_test',
'description': 'Mandatory docstring',
'input_schema': {'type': 'object',
'properties': {'path': {'description': '',
'default': '.',
'type': 'string',
'format': 'Path'}}}}"""),
("get_schema(test_hidden, skip_hidden=True)", """{'name': 'test_hidden',
'description': 'Test func',
'input_schema': {'type': 'object',
'properties': {'a': {'description': '', 'type': 'integer'}},
'required': ['a']}}"""),
("get_schema(test_hidden)", """{'name': 'test_hidden',
'description': 'Test func',
'input_schema': {'type': 'object',
'properties': {'a': {'description': '', 'type': 'integer'},
'_internal': {'description': '', 'default': 'x', 'type': 'string'}},
'required': ['a']}}"""),
("get_schema(_cust_type)", """{'name': '_cust_type',
'description': 'Mandatory docstring',
'input_schema': {'type': 'object',
'properties': {'a': {'description': '',
'anyOf': [{'type': 'string'},
{'type': 'array', 'items': {'type': 'string'}}]}},
'required': ['a']}}"""),
]

def _json(o): return json.dumps(o, default=repr)

def test_seed_cases(): assert len(cases) == 26

@pytest.mark.parametrize('expr,want', cases, ids=[c[0] for c in cases])
def test_seed_output_in_order(expr, want):
    for _ in range(2):  # cold, then from the cache
        assert _json(eval(expr)) == _json(eval(want))

def test_seed_return_line(): assert 'type: array[string]' in get_schema(_ret_list_test)['description']

# 1, 2, 10, 11: classes with the same name, pydantic's definitions
def _mk_dc(t):
    @dataclass
    class Thing: v:t
    return Thing
T1, T2 = _mk_dc(int), _mk_dc(str)
class HasThing(BaseModel): t:T2

def _mk_model(t):
    class Item(BaseModel): v:t
    return Item
M1, M2 = _mk_model(int), _mk_model(str)
class Holder(BaseModel):
    "Holds two models with the same name"
    a:M1
    b:M2

def _types(s): return {k: d['properties']['v']['type'] for k,d in s['$defs'].items() if 'v' in d.get('properties', {})}

def test_same_name_through_pydantic():
    def g(h:HasThing, a:T1, b:T2): "g"
    s = get_schema(g)['input_schema']
    assert s['properties']['a']['$ref'] != s['properties']['b']['$ref']
    assert s['$defs']['HasThing']['properties']['t'] == {'$ref': s['properties']['b']['$ref']}
    types = _types(s)
    assert types[s['properties']['a']['$ref'].split('/')[-1]] == 'integer'
    assert types[s['properties']['b']['$ref'].split('/')[-1]] == 'string'

def test_same_name_plain_dict():
    defs = {}
    assert handle_type(T1, defs) == {'$ref': '#/$defs/Thing'}
    assert handle_type(T2, defs) == {'$ref': '#/$defs/Thing_2'}
    assert handle_type(T1, defs) == {'$ref': '#/$defs/Thing'}
    assert handle_type(list[T2], defs) == {'type': 'array', 'items': {'$ref': '#/$defs/Thing_2'}}
    assert list(defs) == ['Thing', 'Thing_2'] and defs['Thing_2']['properties']['v']['type'] == 'string'

def test_pydantic_defs_named_and_shared():
    def h(x:Holder, y:M1, z:M2): "h"
    s = get_schema(h)['input_schema']
    assert sorted(s['$defs']) == ['Holder', 'Item', 'Item_2']  # no `__main____mk_model___locals___Item__1`, nothing twice
    hp = s['$defs']['Holder']['properties']
    assert (hp['a'], hp['b']) == ({'$ref': s['properties']['y']['$ref']}, {'$ref': s['properties']['z']['$ref']})
    assert _types(s) == {'Item': 'integer', 'Item_2': 'string'}

@dataclass
class Inner:
    "Inner"
    q:int # The q
class Size(str, enum.Enum): S='s'; L='l'
class Outer(BaseModel):
    "Outer"
    inner:Inner
    size:Size = Size.S

def test_pydantic_nested_style():
    "Classes inside a model are described as they are elsewhere: comments, title, our key order; enums in place"
    def k(o:Outer, i:Inner): "k"
    s = get_schema(k)['input_schema']
    assert json.dumps(s['$defs']['Inner']) == json.dumps({'type': 'object', 'properties': {'q': {'description': 'The q', 'type': 'integer'}},
        'title': 'Inner', 'required': ['q'], 'description': 'Inner'})
    assert s['$defs']['Outer']['properties']['size'] == {'type': 'string', 'enum': ['s', 'l'], 'default': 's'}
    assert sorted(s['$defs']) == ['Inner', 'Outer']

def test_pydantic_other_defs():
    "What only pydantic can describe keeps pydantic's schema, under a short name; a `RootModel` keeps its own shape"
    from typing_extensions import TypeAliasType
    from pydantic import RootModel
    Js = TypeAliasType('Js', Union[dict[str, 'Js'], list['Js'], str, int, None])
    class M(BaseModel):
        "m"
        data:Js
        more:Js = None
    class R(RootModel[list[int]]): "r"
    def f(m:M, r:R): "f"
    s = get_schema(f)['input_schema']
    assert sorted(s['$defs']) == ['Js', 'M', 'R']
    assert s['$defs']['M']['properties']['data'] == {'$ref': '#/$defs/Js'}
    assert s['$defs']['Js']['anyOf'][0] == {'additionalProperties': {'$ref': '#/$defs/Js'}, 'type': 'object'}
    assert s['$defs']['R'] == {'description': 'r', 'items': {'type': 'integer'}, 'type': 'array'}
    Draft202012Validator(s).validate({'m': {'data': {'a': [1, 'x', None]}}, 'r': [1]})

# 3, 4: docstring sections of classes; other sections kept
class GClass:
    """A google class.

    Args:
        a: The a
        b: The b
    """
    def __init__(self, a:int, b:str='x'): store_attr()

@dataclass
class GDC:
    """A google dataclass.

    Attributes:
        a: The a
        b: The b
    """
    a:int
    b:str='x' # The comment wins

class NT(NamedTuple):
    """A numpy namedtuple.

    Parameters
    ----------
    a : int
        The a
    """
    a:int

class RestModel(BaseModel):
    """A reST model.

    :ivar a: The a
    """
    a:int

def test_class_docstring_sections():
    for c in GClass, GDC, NT, RestModel:
        s = get_schema(c)
        assert s['description'] == c.__doc__.strip().split('\n')[0], s
        assert s['input_schema']['properties']['a']['description'] == 'The a', s
    assert get_schema(GClass)['input_schema']['properties']['b']['description'] == 'The b'
    assert get_schema(GDC)['input_schema']['properties']['b']['description'] == 'The comment wins'
    def f(x:GDC): "f"
    assert get_schema(f)['input_schema']['$defs']['GDC']['description'] == 'A google dataclass.'

def test_other_sections_kept():
    def f(a:int)->int:
        """Thing.

        More about the thing.

        Args:
            a: The a

        Raises:
            ValueError: when bad

        Returns:
            The result

        Example:
            f(1)
        """
    s = get_schema(f)
    assert s['description'] == 'Thing.\n\nMore about the thing.\n\nRaises:\n    ValueError: when bad\n\nExample:\n    f(1)\n\nReturns:\n- The result (type: integer)'
    def r(a:int, b:int):
        """Thing.

        :param a: The a,
            on two lines
        :param b: The b
        :raises ValueError: when bad
        """
    s = get_schema(r)
    assert s['description'] == 'Thing.\n\n:raises ValueError: when bad'
    assert s['input_schema']['properties']['a']['description'] == 'The a,\non two lines'

# 5: classes redefined in notebook cells
def test_notebook_redefined_class_comments():
    from execnb.shell import CaptureShell
    sh = CaptureShell()
    cells = ["""from dataclasses import dataclass
from fncall.schema import get_schema
@dataclass
class Item:
    "first"
    x:int # Old comment
class Twin:
    "twin"
    a:int # First twin
    def m(self): pass
Old, OldTwin = Item, Twin
def use_old(i:Old, t:OldTwin): "old" """, """@dataclass
class Item:
    "second"
    x:int # New comment
class Twin:
    "twin"
    a:int # Second twin
    def m(self): pass
def use_new(i:Item, t:Twin): "new" """,
        "s = get_schema(use_old)['input_schema']['$defs']; n = get_schema(use_new)['input_schema']['$defs']"]
    for c in cells:
        sh.run(c)
        assert not sh.exc, sh.exc
    s, n = sh.user_ns['s'], sh.user_ns['n']
    assert (s['Item']['properties']['x']['description'], s['Twin']['properties']['a']['description']) == ('Old comment', 'First twin')
    assert (n['Item']['properties']['x']['description'], n['Twin']['properties']['a']['description']) == ('New comment', 'Second twin')

# 6: what used to crash
class P:
    "d"
    a:int # the a
    k:ClassVar[str] = 'x'

def test_types_that_crashed():
    assert list(get_schema(P)['input_schema']['properties']) == ['a']
    assert handle_type(NewType('UserId', int), None) == {'type': 'integer'}
    assert handle_type(NewType('Tags', list[str]), None) == {'type': 'array', 'items': {'type': 'string'}}
    assert handle_type(typing.Deque[int], None) == handle_type(deque[int], None) == {'type': 'array', 'items': {'type': 'integer'}}
    assert handle_type(deque, None) == {'type': 'array', 'items': {}}
    def f(glb:Optional=None): "bare Optional"
    assert get_schema(f)['input_schema']['properties']['glb'] == {'description': '', 'default': None, 'anyOf': [{}, {'type': 'null'}]}

# 7: partials and methods from their class
def fetch(
    url:str, # Page to get
    api_key:str, # Secret
    timeout:int=10, # Seconds to wait
)->str: # The text
    "Fetch a page"
    return f'{url} {api_key} {timeout}'

class K:
    def m(self, a:int, # The a
          b:int=2):
        "Add"
        return a + b

def test_partial():
    p = functools.partial(fetch, api_key='s3cret')
    s = get_schema(p)
    assert (s['name'], s['description']) == ('fetch', 'Fetch a page\n\nReturns:\n- The text (type: string)')
    assert list(s['input_schema']['properties']) == ['url', 'timeout'] and s['input_schema']['required'] == ['url']
    assert 's3cret' not in json.dumps(s)
    assert call_func(p, {'url': 'u', 'timeout': 3}) == 'u s3cret 3'
    assert list(get_schema(functools.partial(fetch, 'u', 'k'))['input_schema']['properties']) == ['timeout']
    s = get_schema(functools.partial(K().m, 1))
    assert (s['name'], list(s['input_schema']['properties'])) == ('m', ['b'])
    assert get_schema(p) == get_schema(p)  # cached
    assert get_schema(functools.partial(fetch, timeout=1))['input_schema']['required'] == ['url', 'api_key']

def test_method_from_class():
    "The seed leaves `self` out; calling needs a bound method, and call_func says so for the class's function"
    s = get_schema(K.m)
    assert list(s['input_schema']['properties']) == ['a', 'b']
    assert call_func(K().m, {'a': 1}) == 3
    with pytest.raises(Exception, match='self: missing required argument'): call_func(K.m, {'a': 1})

# 8: the cache
def test_cache_sees_edits():
    def f(a:int): "f"
    assert get_schema(f)['input_schema']['properties']['a']['type'] == 'integer'
    f.__annotations__['a'] = str
    assert get_schema(f)['input_schema']['properties']['a']['type'] == 'string'
    f.__annotations__['b'] = int  # not a parameter: no change, but no error either
    assert list(get_schema(f)['input_schema']['properties']) == ['a']
    class Ref:
        def __init__(self, a:int): pass
    class Sub(Ref): "sub"
    def uses(r:Ref, s:Sub): "uses"
    assert list(get_schema(uses)['input_schema']['$defs']['Ref']['properties']) == ['a']
    @patch
    def __init__(self:Ref, b:str): pass
    s = get_schema(uses)['input_schema']['$defs']
    assert list(s['Ref']['properties']) == list(s['Sub']['properties']) == ['b']
    assert list(get_schema(Sub)['input_schema']['properties']) == ['b']

def test_cache_clear():
    @dataclass
    class Knob:
        "k"
        turns:int=0
    def turn(k:Knob): "turn"
    assert get_schema(turn)['input_schema']['$defs']['Knob']['properties']['turns']['default'] == 0
    Knob.__dataclass_fields__['turns'].default = 5
    get_schema.cache_clear()
    assert get_schema(turn)['input_schema']['$defs']['Knob']['properties']['turns']['default'] == 5

# 9: defaults
@dataclass
class DC:
    "dc"
    x:int # the x

def test_defaults():
    def f(a:Annotated[int, Field(default=5)], b:Annotated[list[int], Field(default_factory=list)]):
        "Field defaults"
        return a, b
    s = get_schema(f)['input_schema']
    assert (s['properties']['a']['default'], s['properties']['b']['default']) == (5, []) and 'required' not in s
    assert call_func(f, {}) == (5, [])
    def g(d:DC=DC(1), x:float=float('inf'), y:float=float('nan'), b:bytes=b'\xff', t:bytes=b'ok'): "g"
    for ev in False, True:
        p = get_schema(g, evalable=ev)['input_schema']['properties']
        assert p['d']['default'] == {'x': 1}
        assert not any('default' in p[k] for k in 'xyb')
        assert p['t']['default'] == 'ok'
    json.dumps(get_schema(g), allow_nan=False)

def test_initvar():
    @dataclass
    class W:
        "w"
        a:int
        b:ClassVar[int] = 3
        c:InitVar[str] = 'c' # For post init
        def __post_init__(self, c): pass
    p = get_schema(W)['input_schema']['properties']
    assert p == {'a': {'description': '', 'type': 'integer'}, 'c': {'description': 'For post init', 'default': 'c', 'type': 'string'}}
    @pydantic_dataclass
    class PW:  # its __init__ takes *args, **kwargs: the class's signature says what it takes
        "pw"
        a:int
        b:ClassVar[int] = 3
        c:InitVar[str] = 'c' # For post init
        def __post_init__(self, c): pass
    assert get_schema(PW)['input_schema']['properties'] == p

def test_nested_defaults():
    def f(a:list[float]=[1., float('inf')], b:dict[str, tuple[int, int]]={'x': (1, 2)}, c:list[Path]=[Path('p')]): "f"
    for ev in False, True:
        p = get_schema(f, evalable=ev)['input_schema']['properties']
        assert 'default' not in p['a'] and p['b']['default'] == {'x': [1, 2]}
    assert get_schema(f, evalable=True)['input_schema']['properties']['c']['default'] == ['p']

# review 1
def test_nothing_left_required():
    "A partial binding every required field, or skip_hidden skipping them, leaves no `required` (not `required: None`), which strict providers take"
    from fncall.providers import tool_schema
    @dataclass
    class Pt:
        "A point"
        x:int
        y:int = 0
    s = get_schema(functools.partial(Pt, x=1))['input_schema']
    assert 'required' not in s and list(s['properties']) == ['y']
    assert tool_schema(functools.partial(Pt, x=1), 'openai', strict=True)['function']['parameters']['required'] == ['y']
    @dataclass
    class Q:
        "Q"
        _x:int
        y:int = 0
    assert 'required' not in get_schema(Q, skip_hidden=True)['input_schema']
    assert get_schema(Q)['input_schema']['required'] == ['_x']
    def f(_a:int, b:int=0): "f"
    assert get_schema(f, skip_hidden=True)['input_schema'] == {'type': 'object', 'properties': {'b': {'description': '', 'default': 0, 'type': 'integer'}}}

def test_root_model():
    "A RootModel works as a parameter's type; as a tool's input (which needs named fields) it is a clear error, not a KeyError"
    from pydantic import RootModel
    class Tags(RootModel[list[str]]): "Tags"
    with pytest.raises(TypeError, match="Tags has no named fields, so it can't be a tool's input"): get_schema(Tags)
    def label(t:Tags): "Label"; return t.root
    assert get_schema(label)['input_schema']['$defs']['Tags'] == {'description': 'Tags', 'items': {'type': 'string'}, 'type': 'array'}
    assert call_func(label, {'t': ['a', 'b']}) == ['a', 'b']

def test_returns_section_without_args():
    "A Returns section is taken out of the text and its description put in the Returns line, with or without parameter sections"
    def google(x:int)->int:
        """Compute.

        Returns:
            the doubled value
        """
    def google_args(x:int)->int:
        """Compute.

        Args:
            x: the x
        Returns:
            the doubled value
        """
    def rest(x:int)->int:
        """Compute.

        :returns: the doubled value
        """
    def numpy(x:int)->int:
        """Compute.

        Returns
        -------
        int
            the doubled value
        """
    for f in google, google_args, rest, numpy:
        assert get_schema(f)['description'] == 'Compute.\n\nReturns:\n- the doubled value (type: integer)', f.__name__
    def commented(x:int)->int: # the comment wins
        """Compute.

        Returns:
            the doubled value
        """
    assert get_schema(commented)['description'] == 'Compute.\n\nReturns:\n- the comment wins (type: integer)'

def test_bound_and_unbound_cached_apart():
    "A bound method's schema (no `this`) is not served for the function from the class, nor the other way round"
    class A:
        def m(this, x:int)->int:
            "M"
            return x
    a = A()
    for _ in range(2):
        assert list(get_schema(a.m)['input_schema']['properties']) == ['x']
        with pytest.raises(TypeError, match="Parameter 'this' of .*A.m has no type annotation"): get_schema(A.m)
    class B:
        def m(this:object, x:int): "M"
    for _ in range(2):
        assert list(get_schema(B().m)['input_schema']['properties']) == ['x']
        assert list(get_schema(B.m)['input_schema']['properties']) == ['this', 'x']
    class C:
        "A C"
        def __call__(self, x:int): pass  # no docstring: a C instance is described by its class's
    c = C()
    for _ in range(2):
        assert get_schema(c)['description'] == 'A C'
        with pytest.raises(ValueError, match='no docstring'): get_schema(c.__call__)

def test_returns_kept_when_not_merged():
    "A Returns block with no parsed text (the one get_schema writes, as mk_tool hands back) and a Yields section stay in the text"
    def made(): "Greet someone\n\nReturns:\n- type: string"
    assert get_schema(made)['description'] == 'Greet someone\n\nReturns:\n- type: string'
    def gen(n:int):
        """Count.

        Args:
            n: how far
        Yields:
            the numbers
        """
    assert get_schema(gen)['description'] == 'Count.\n\nYields:\n    the numbers'

def test_signature_comments_match_docments():
    "`_sig_comments` (the def line(s) alone, for speed) reads the same parameter and return comments as fastcore's `docments`, over fncall's, fastcore's and the corpus's functions"
    import importlib, inspect
    from fastcore.docments import docments
    from fncall.schema import _sig_comments
    mods = [importlib.import_module(m) for m in ('fncall.schema', 'fncall.call', 'fncall.providers', 'fncall.tools', 'fncall.parse',
                                                 'fncall.pycall', 'fncall.mktool', 'schema_corpus', 'fastcore.basics', 'fastcore.xtras')]
    n = 0
    for m in mods:
        for o in list(vars(m).values()):
            fs = [o] if inspect.isfunction(o) else [v for v in vars(o).values() if inspect.isfunction(v)] if inspect.isclass(o) else []
            for f in fs:
                if f.__module__ != m.__name__ or (mine := _sig_comments(f)) is None: continue
                try: ref = {k: v.docment for k,v in docments(f, full=True, args_kwargs=True).items() if v.docment is not None}
                except Exception: continue
                # docments also gives an `Annotated` string as a comment (get_schema reads those itself), and a comment after a body on the def line
                if _one_liner(f): continue
                ref = {k: v for k,v in ref.items() if k in mine or not (k == 'a' and f.__name__ == 'f31')}
                assert mine == ref, (m.__name__, f.__qualname__)
                n += 1
    assert n > 500

def _one_liner(f):
    "Is `f`'s body on its `def` line?"
    import ast, inspect, textwrap
    node = ast.parse(textwrap.dedent(inspect.getsource(f))).body[0]
    return node.body[0].col_offset > node.col_offset + 8  # not indented on a line of its own

# moved from nbs/00_schema.ipynb: tests of the module's internals
class Described:
    "Test class"
    def __init__(
        self,
        x: int, # First thing
        y: list[float], # Second thing
        z: str = "default", # Third thing
    ): store_attr()

def test_process_property():
    "`_process_property` adds one parameter: its type, its default, and to `req` if it has none"
    from fastcore.docments import docments
    from fncall.schema import _process_property
    props, req, defs = {}, {}, {}
    d = docments(Described, full=True)
    _process_property('x', d.x, props, req, defs)
    assert props['x']['type'] == 'integer' and 'x' in req
    _process_property('y', d.y, props, req, defs)
    assert props['y']['type'] == 'array' and props['y']['items']['type'] == 'number' and 'y' in req
    _process_property('z', d.z, props, req, defs)
    assert props['z']['type'] == 'string' and props['z']['default'] == 'default' and 'z' not in req

def pinned_fetch(url:str, api_key:str, timeout:int=10): "Fetch"

def test_call_params():
    "What `call_func` reads from here: the parameters a call gives, what a `partial` pins, and the cache's fingerprint"
    from fncall.schema import call_params, target, fingerprint, unchanged, empty
    cp = call_params(functools.partial(pinned_fetch, api_key='k'))
    assert (list(cp.params), cp.pinned) == (['url', 'timeout'], {'api_key'})
    def spread(a:int, *nums:int, n:int=Field(3, ge=0), **opts:str): "Spread"
    cp = call_params(spread)
    assert (cp.params['nums'], cp.params['opts'], cp.varpos, cp.varkw, cp.posonly) == ((list[int], True), (dict[str, str], True), 'nums', 'opts', [('a', empty)])
    assert cp.params['n'][1] is True
    assert call_params(functools.partial(pinned_fetch, 'u'))[3] == {'url'}
    assert unchanged(fingerprint(pinned_fetch, target(pinned_fetch)), fingerprint(pinned_fetch, target(pinned_fetch)))
