"The validator `call_func` tries first (pydantic, no repairs, unknown fields refused at any depth) gives what the repairing one gives, whenever it accepts"
import copy, enum, json, math, pytest
from dataclasses import dataclass, field, fields, InitVar, is_dataclass
from pathlib import Path
from typing import Annotated, Literal, NamedTuple, Optional
from uuid import UUID
from hypothesis import given, settings, HealthCheck, strategies as st
from collections import OrderedDict, defaultdict
from typing import Any, NewType
import datetime as dt
from pydantic import AfterValidator, AliasChoices, BaseModel, BeforeValidator, ConfigDict, Field, Strict, field_validator, model_validator, with_config
from typing_extensions import TypedDict
from decimal import Decimal
from fncall.call import call_func, call_func_async, _spec, _coerce

class Color(enum.Enum):
    RED = 'red'
    GREEN = 'green'

class Address(BaseModel):
    street:str = Field(description='Street')
    city:str

class Person(BaseModel):
    name:str
    age:int = Field(ge=0)
    address:Address
    tags:list[str] = Field(default_factory=list)

class Tidy(BaseModel):
    "A model with a validator: its own code, which the first validator never runs"
    name:str
    @field_validator('name')
    @classmethod
    def strip(cls, v): return v.strip()

@dataclass
class Span:
    start:int
    stop:int=10
    size:int = field(init=False, default=0)

@dataclass
class Ordered:
    "A dataclass with a __post_init__: left to the repairs"
    start:int
    stop:int=10
    def __post_init__(self):
        if self.stop < self.start: raise ValueError('stop before start')

@dataclass
class Shift:
    x:int
    by:InitVar[int] = 0
    def __post_init__(self, by): self.x += by

class Opts(TypedDict, total=False):
    mode:Literal['a', 'b']
    limit:int
    ratio:float

class MaybeOpts(TypedDict, total=False):
    limit:Optional[int]  # a null here means "leave it out"

class Defaults(BaseModel):
    model_config = ConfigDict(allow_inf_nan=False)
    n:Optional[int] = 5  # a null here means 5
    m:Optional[int] = None  # and here the default too: the field is left unset

class Exact(BaseModel):
    model_config = ConfigDict(allow_inf_nan=False)
    v:float

class Postal(BaseModel):
    street:str
    zip:Optional[str] = None  # a null here means "leave it unset": the first validator refuses it, the repairs drop it
    note:Annotated[Optional[str], Field(max_length=5)] = 'none'

class Member(BaseModel):
    name:str
    address:Postal
    prev:Optional[Postal] = None
    tags:list[str] = Field(default_factory=list)
    kids:list['Member'] = []

@dataclass
class Range:
    lo:int
    hi:Optional[int] = None

def people(p:Person, others:list[Person]=None, notify:bool=False): "P"; return (p, others, notify)
def enroll(m:Member, r:Range|None=None, opts:MaybeOpts|None=None, d:Defaults|None=None, limit:Optional[int]=None): "E"; return locals()
def loose(m:Member, mode:Literal['a', None]='a', extra:Any=5, n:Optional[int]=None): "L"; return locals()  # nulls the first validator can't refuse: looked for first
def spans(s:Span, more:Optional[list[Span]]=None, table:dict[str, Span]|None=None): "S"; return (s, more, table)
def mixed(name:str, count:int, tags:Optional[list[str]]=None, mode:Literal['fast', 'slow']='fast', color:Color=Color.RED,
          where:Optional[Span]=None, opts:Opts|None=None, path:Path|None=None, uid:UUID|None=None, ratio:float=0.5,
          table:dict[str, int]|None=None, pair:tuple[int, str]|None=None, exact:Exact|None=None): "M"; return locals()

VALID = [(people, {'p': {'name': 'Ann', 'age': 30, 'address': {'street': '1 Main', 'city': 'Oslo'}, 'tags': ['a']},
                   'others': [{'name': 'Bo', 'age': 3, 'address': {'street': 's', 'city': 'c'}}], 'notify': True}),
         (spans, {'s': {'start': 1, 'stop': 4}, 'more': [{'start': 2}], 'table': {'a': {'start': 3}}}),
         (mixed, {'name': 'x', 'count': 3, 'tags': ['a', 'b'], 'mode': 'slow', 'color': 'green', 'where': {'start': 0, 'stop': 2},
                  'opts': {'mode': 'a', 'limit': 2, 'ratio': 1.5}, 'path': '/tmp/x', 'uid': '12345678-1234-5678-1234-567812345678',
                  'ratio': 0.25, 'table': {'a': 1}, 'pair': [1, 'a'], 'exact': {'v': 2.5}}),
         (enroll, {'m': {'name': 'A', 'address': {'street': 's', 'zip': '1'}, 'prev': {'street': 'p', 'note': 'n'}, 'tags': ['t'],
                         'kids': [{'name': 'K', 'address': {'street': 'k', 'zip': '2'}, 'prev': {'street': 'q'}}]},
                   'r': {'lo': 1, 'hi': 2}, 'opts': {'limit': 3}, 'd': {'n': 1, 'm': 2}, 'limit': 4}),
         (loose, {'m': {'name': 'B', 'address': {'street': 's', 'zip': '3'}}, 'mode': 'a', 'extra': [1], 'n': 2})]

def test_fast_validators_made():
    for f,_ in VALID: assert _spec(f).fast is not None and (_spec(f).fast_json is None) == (f is loose), f.__name__
    assert _spec(loose).nulls == ('mode', 'extra')  # nulls a first validator can't refuse: looked for in the arguments first

def test_nulls_for_defaults_refused_first():
    "The first validator refuses a null wherever a field has a default, at any depth (the repairs read it as the default), and the classes' own schemas are left as they were"
    before = repr(Member.__pydantic_core_schema__), repr(Postal.__pydantic_core_schema__)
    fast = _spec(enroll).fast
    ok = {'m': {'name': 'A', 'address': {'street': 's'}, 'kids': [{'name': 'K', 'address': {'street': 'k', 'zip': 'z'}}]}}
    assert fast(ok)['m'].kids[0].address.model_fields_set == {'street', 'zip'}
    for where in ([], ['address'], ['prev'], ['kids', 0, 'address'], ['kids', 0, 'prev']):
        args = copy.deepcopy(ok) | {'limit': None} if not where else copy.deepcopy(ok)
        o = args['m']
        for k in where: o = o.setdefault(k, {'street': 'p'}) if isinstance(k, str) else o[k]
        if where: o['zip' if where[-1] != 'prev' else 'note'] = None
        with pytest.raises(Exception): fast(args)
        assert call_func(enroll, args)['m'] is not None  # the repairs take it
    assert (repr(Member.__pydantic_core_schema__), repr(Postal.__pydantic_core_schema__)) == before
    @dataclass
    class Odd:
        x:Any = 1  # takes null in a way the first validator can't refuse: left to the repairs
    def g(o:Odd): "G"
    assert _spec(g).fast is None

def test_json_left_to_python():
    "JSON text is read by Python's `json` where pydantic would read it differently (a Decimal: every digit kept; and the repairs bound its digits, so no first validator); a null still means the default"
    def pay(amount:Decimal): "Pay"
    def note(text:Optional[str]='-'): "Note"; return text
    assert _spec(pay).fast is None and _spec(pay).fast_json is None
    assert call_func(pay, '{"amount": 0.1000000000000000055511151231257827}') == call_func(pay, {'amount': 0.1000000000000000055511151231257827})
    assert call_func(note, '{"text": null}') == '-'  # null means the default

ODD = ['5', 5, 5.5, '5.5', -1, True, 'true', '', ' x ', [], {}, '[1, 2]', '{"x": 1}', '["a"]', 'nan', float('nan'), float('inf'), '1e400',
       'a', ['a'], [1, 'a'], {'key': 'a', 'value': 1}, [{'key': 'a', 'value': 1}], 'red', 'GREEN', '/tmp', 0, 10]

@st.composite
def mutated(draw, v, odds=None):
    "`v` with some of its leaves and containers swapped for values models send, keys dropped, and unknown keys added; one in `odds` of each"
    if odds is None: odds = draw(st.sampled_from([1000, 40, 12, 4]))  # from nearly untouched to mostly odd
    if draw(st.integers(0, odds)) == 0: return None if draw(st.integers(0, 3)) == 0 else draw(st.sampled_from(ODD))  # a null, often: it means "the default"
    if isinstance(v, dict):
        out = {k: draw(mutated(x, odds)) for k,x in v.items() if draw(st.integers(0, odds))}
        if draw(st.integers(0, odds)) == 0: out['zz'] = draw(st.sampled_from(ODD))
        return out
    if isinstance(v, list): return [draw(mutated(x, odds)) for x in v]
    return v

def _same(a, b):
    "Equal, with NaNs equal to NaNs (a NaN must never come out of either, but if one did, say so by value), and each model with the same fields set"
    return json.dumps(_canon(a), default=repr, sort_keys=True) == json.dumps(_canon(b), default=repr, sort_keys=True)

def _canon(o):
    "`o` as plain data: a model as its class, the fields it was given and its fields' values; a dataclass as its class and fields"
    if isinstance(o, BaseModel): return [type(o).__name__, sorted(o.model_fields_set), {k: _canon(getattr(o, k)) for k in type(o).model_fields}]
    if is_dataclass(o) and not isinstance(o, type): return [type(o).__name__, {f.name: _canon(getattr(o, f.name)) for f in fields(o)}]
    if isinstance(o, dict): return {repr(k): _canon(v) for k,v in o.items()}
    if isinstance(o, (list, tuple, set, frozenset)): return [type(o).__name__, [_canon(v) for v in o]]
    return repr(o)

def _result(sp, args):
    "What `call_func` makes of `args` with the validators of `sp`: the arguments, or the error text"
    try: return True, _coerce(sp, args)
    except Exception as e: return False, f'{type(e).__name__}: {e}'

@pytest.mark.parametrize('f,valid', VALID, ids=[f.__name__ for f,_ in VALID])
@settings(max_examples=400, deadline=None, suppress_health_check=list(HealthCheck))
@given(data=st.data())
def test_fast_agrees_with_repairs(f, valid, data):
    "With the first validators or without them, a dict or its JSON text: the same arguments, or the same error"
    sp = _spec(f)
    repairs = sp._replace(fast=None, fast_json=None)
    args = data.draw(mutated(valid))
    want, got = _result(repairs, copy.deepcopy(args)), _result(sp, copy.deepcopy(args))
    assert want[0] == got[0] and _same(got[1], want[1]), (args, got, want)
    text = json.dumps(args)
    assert _same(_result(sp, text), _result(repairs, text)), text
    for a in (args, text):  # `call_func` by name, the short way
        w = _result(repairs, copy.deepcopy(a))
        assert _same(_called(f, copy.deepcopy(a)), (w[0], f(**w[1]) if w[0] else w[1])), a

def _called(f, args):
    "What `call_func` makes of `args` for `f`, by name in a list: the result, or the error text"
    try: return True, call_func(f.__name__, args, ns=[f])
    except Exception as e: return False, f'{type(e).__name__}: {e}'

def test_valid_examples_agree():
    for f,args in VALID:
        sp = _spec(f)
        assert _same(sp.fast(dict(args)), sp.validate(dict(args))), f.__name__

class Named(NamedTuple):
    a:int

class Plain:
    def __init__(self, a:int): self.a = a

@dataclass(init=False)
class OwnInit:
    x:int
    def __init__(self, x): self.x = x + 100

class Before(BaseModel):
    a:int
    @model_validator(mode='before')
    @classmethod
    def pre(cls, d): return d

class Loose(BaseModel):
    v:float  # pydantic's default takes 'nan'; the repairs don't

class Checked(BaseModel):
    a:Annotated[int, BeforeValidator(lambda v: v)]

@pytest.mark.parametrize('t', [object, Named, Plain, OwnInit, Before, Loose, list[Loose], Checked, Tidy, Ordered, Shift, int|str, list[int]|int])
def test_no_fast_validator_where_it_could_differ(t):
    def f(x:t, y:list[int]=None): "F"
    assert _spec(f).fast is None

# Cases where a first validator once gave another answer than the repairs (a review's findings): each must agree now
@dataclass
class OwnInit2:
    x:int
    def __init__(self, x): self.x = x + 100

class TA(TypedDict):
    x:int

class MA(BaseModel):
    x:int

class Patch(BaseModel):
    name:Optional[str] = None
    age:Optional[int] = None

class Bang(BaseModel):
    xs:list[Annotated[str, AfterValidator(lambda s: s + '!')]]

@with_config(ConfigDict(extra='ignore', str_strip_whitespace=True, allow_inf_nan=True))
class WithConfig(TypedDict):
    s:str
    v:float

class InNewType(BaseModel):
    r:NewType('Ratio', float)

class B64(BaseModel):
    model_config = ConfigDict(val_json_bytes='base64')
    data:bytes

class Pop(BaseModel):
    model_config = ConfigDict(populate_by_name=True)
    x:int = Field(alias='X')

class Choices(BaseModel):
    x:int = Field(validation_alias=AliasChoices('a', 'b'))

class TDAlias(TypedDict):
    x:Annotated[int, Field(alias='X')]

@dataclass
class Unresolved:
    x:'Nowhere'

REVIEW = [(str|int, 5.0), (str|bool, 1), (str|dt.datetime, 1700000000), (list[int]|int, 5), (list[int]|str, '[1,2]'), (Span|str, '{"start":1}'),
          (Span|dict[str, int], {'start': 1}), (TA|MA, {'x': 1}), (Any|list[int], 5), (dt.datetime|str, '5'), (bytes|str, ''), (Path|str, ''),
          (UUID|str, '12345678-1234-5678-1234-567812345678'), (Patch, {'name': None, 'age': 3}), (OwnInit2, {'x': 1}), (Bang, {'xs': ['a']}),
          (WithConfig, {'s': ' a ', 'v': 1}), (WithConfig, {'s': 'a', 'v': 'nan'}), (WithConfig, {'s': 'a', 'v': 1, 'zz': 1}), (InNewType, {'r': 'nan'}),
          (B64, {'data': 'aGVsbG8='}), (Annotated[UUID, Strict()], '12345678-1234-5678-1234-567812345678'), (Pop, {'x': 1}), (Choices, {'a': 1}),
          (TDAlias, {'X': 1}), (OrderedDict[str, int], {'a': 1}), (defaultdict[str, int], {'a': 1}), (Optional[int], None), (type[Unresolved], None),
          (NewType('Money', Decimal), 12345678901234567890.5)]

@pytest.mark.parametrize('t,v', REVIEW, ids=[str(i) for i in range(len(REVIEW))])
def test_review_cases_agree(t, v):
    def f(x:t=None, y:int=0): "F"; return x
    sp = _spec(f)
    repairs = sp._replace(fast=None, fast_json=None)
    for args in ({'x': v}, json.dumps({'x': v}, default=str)):
        got, want = _result(sp, copy.deepcopy(args)), _result(repairs, copy.deepcopy(args))
        assert got[0] == want[0] and repr(got[1]) == repr(want[1]), (args, got, want)

def test_null_field_left_unset():
    "A null for a nested field whose default is None leaves it unset, as the repairs do (a PATCH-style tool sees what was sent)"
    def update(p:Patch): "Apply a partial update"; return p.model_dump(exclude_unset=True)
    assert call_func(update, {'p': {'name': None, 'age': 3}}) == call_func(update, '{"p": {"name": null, "age": 3}}') == {'age': 3}

def test_records_code_runs_once():
    "The first validator runs none of the user's code, so a call that needs the repairs runs a record's own checks once"
    seen = []
    @dataclass
    class Item:
        name:str
        def __post_init__(self): seen.append(self.name)
    def add(items:list[Item]): "Add"; return len(items)
    call_func(add, {'items': [{'name': 'a'}, {'name': 5}]})
    assert seen == ['a', '5']

def test_stop_iteration_is_an_error():
    "A sync tool raising StopIteration (which an asyncio future can't hold) fails, rather than hanging the awaiting call"
    import asyncio
    def stop(x:int): "Stop"; raise StopIteration
    out = asyncio.run(asyncio.wait_for(call_func_async(stop, {'x': 1}, raise_on_err=False), 5))
    assert 'in stop' in out and 'RuntimeError: the tool raised StopIteration' in out, out

def test_nulls_for_nested_defaults():
    "A null for a field with a default means the default, at any depth: such records are left to the repairs"
    def h(d:Defaults, o:MaybeOpts|None=None): "H"; return d, o
    assert call_func(h, {'d': {'n': None, 'm': None}, 'o': {'limit': None}}) == (Defaults(n=5, m=None), {})

def test_nested_unknown_fields_and_nan_refused():
    r = call_func(people, {'p': {'name': 'A', 'age': 1, 'address': {'street': 's', 'city': 'c', 'zip': 1}}}, raise_on_err=False)
    assert 'address: zip: unknown argument' in r, r
    def g(l:Loose, e:Exact|None=None): "G"; return l.v
    assert 'finite' in call_func(g, {'l': {'v': 'nan'}}, raise_on_err=False)
    assert 'finite' in call_func(g, {'l': {'v': 1}, 'e': {'v': float('inf')}}, raise_on_err=False)

def test_repairs_still_apply():
    "What the first validator refuses is repaired: JSON strings, bare values, numbers as strings"
    p, others, notify = call_func(people, {'p': '{"name": "A", "age": "3", "address": {"street": 1, "city": "c"}, "tags": "x"}', 'notify': 'true'})
    assert (p.age, p.address.street, p.tags, notify) == (3, '1', ['x'], True)
    assert call_func(spans, {'s': {'start': '1'}, 'more': '[{"start": 2, "stop": 3}]'})[1] == [Span(2, 3)]
    def order(s:Ordered): "O"; return s
    assert 'stop before start' in call_func(order, {'s': {'start': 5, 'stop': 1}}, raise_on_err=False)

def test_typing_typeddict():
    "pydantic takes no `typing.TypedDict` before Python 3.12: such a tool has no first validator, and its calls work through the repairs"
    import typing
    class Movie(typing.TypedDict):
        title:str
        year:int
    def add(m:Movie, tags:list[str]=None): "Add"; return m, tags
    assert call_func(add, {'m': {'title': 'Alien', 'year': '1979'}, 'tags': ['sf']}) == ({'title': 'Alien', 'year': 1979}, ['sf'])
