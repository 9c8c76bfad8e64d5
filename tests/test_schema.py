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
