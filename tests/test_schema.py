"Every schema get_schema makes is valid JSON Schema 2020-12 with no dangling $ref"
import pytest
from jsonschema import Draft202012Validator
from fncall.schema import get_schema
from schema_corpus import CORPUS, User, Tree

def _refs(o):
    if isinstance(o, dict):
        if '$ref' in o: yield o['$ref']
        for v in o.values(): yield from _refs(v)
    elif isinstance(o, list):
        for v in o: yield from _refs(v)

def test_corpus_size(): assert len(CORPUS) >= 40

@pytest.mark.parametrize('f', CORPUS, ids=lambda f: getattr(f, '__name__', type(f).__name__))
def test_valid_2020_12(f):
    s = get_schema(f, evalable=True)
    assert s['name'] and s['description']
    js = s['input_schema']
    Draft202012Validator.check_schema(js)
    defs = js.get('$defs', {})
    for r in _refs(js):
        assert r == '#' or (r.startswith('#/$defs/') and r.split('/')[-1] in defs), f'dangling {r}'
    assert all('$defs' not in d for d in defs.values()), 'nested $defs not hoisted'

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

# The seed's printed outputs, key order included (dict equality ignores order; the printed documentation does not)
import json
from pathlib import Path
from typing import Union, Optional, List, Dict

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

class Turn:
    "Turn between two speakers"
    def __init__(
        self,
        speaker_a:str, # First speaker's message
        speaker_b:str, # Second speaker's message
    ): pass

class Conversation:
    "A conversation between two speakers"
    def __init__(
        self,
        turns:list[Turn], # Turns of the conversation
    ): pass

IntPair = tuple[int, int]
def _union_test(opt_tup: Union[IntPair, str, int]=None):
    "Mandatory docstring"

def _path_test(path: Path = Path('.')):
    "Mandatory docstring"

SEED = [
    (silly_sum, {}, {'name': 'silly_sum', 'description': 'Adds a + b.\n\nReturns:\n- The sum of the inputs (type: integer)',
      'input_schema': {'type': 'object', 'properties': {'a': {'description': 'First thing to sum', 'type': 'integer'},
        'b': {'description': 'Second thing to sum', 'default': 1, 'type': 'integer'},
        'c': {'description': 'A pointless argument', 'default': None, 'type': 'array', 'items': {'type': 'integer'}}}, 'required': ['a']}}),
    (f, {}, {'name': 'f', 'description': 'object function', 'input_schema': {'type': 'object', 'properties': {
        'o': {'description': 'the o', 'type': 'object'},
        'q': {'description': '', 'type': 'array', 'prefixItems': [{'type': 'integer'}, {'type': 'string'}],
              'items': {'anyOf': [{'type': 'integer'}, {'type': 'string'}]}, 'minItems': 2, 'maxItems': 2},
        'p': {'description': '', 'default': 'a', 'anyOf': [{'type': 'string'}, {'type': 'array', 'items': {'type': 'string'}}]}},
      'required': ['o', 'q']}}),
    (Conversation, {}, {'name': 'Conversation', 'description': 'A conversation between two speakers', 'input_schema': {'type': 'object',
      'properties': {'turns': {'description': 'Turns of the conversation', 'type': 'array', 'items': {'$ref': '#/$defs/Turn'}}},
      'title': 'Conversation', 'required': ['turns'], '$defs': {'Turn': {'type': 'object', 'properties': {
        'speaker_a': {'description': "First speaker's message", 'type': 'string'},
        'speaker_b': {'description': "Second speaker's message", 'type': 'string'}}, 'title': 'Turn', 'required': ['speaker_a', 'speaker_b']}}}}),
    (_union_test, {}, {'name': '_union_test', 'description': 'Mandatory docstring', 'input_schema': {'type': 'object', 'properties': {
      'opt_tup': {'description': '', 'default': None, 'anyOf': [{'type': 'array', 'prefixItems': [{'type': 'integer'}, {'type': 'integer'}],
        'items': {'type': 'integer'}, 'minItems': 2, 'maxItems': 2}, {'type': 'string'}, {'type': 'integer'}]}}}}),
    (_path_test, {'evalable': True}, {'name': '_path_test', 'description': 'Mandatory docstring', 'input_schema': {'type': 'object',
      'properties': {'path': {'description': '', 'default': '.', 'type': 'string', 'format': 'Path'}}}}),
]

@pytest.mark.parametrize('fn,kw,want', SEED, ids=lambda o: getattr(o, '__name__', ''))
def test_seed_output_in_order(fn, kw, want): assert json.dumps(get_schema(fn, **kw)) == json.dumps(want)
