"The schema page's longer test lists (nbs/00_schema.ipynb keeps one example a behaviour): what handle_type makes of each kind of annotation"
import enum, typing
from collections import deque
from pathlib import Path
from typing import Annotated, Any, Literal, NewType, Optional, Union
import annotated_types as at
from fastcore.test import test_eq as eq, test_fail as fail  # aliased: pytest would collect test_* names
from pydantic import Field
from fncall.schema import get_schema, handle_type, custom_types
from fncall.call import call_func

class Color(str, enum.Enum): RED='red'; GREEN='green'
class Level(enum.IntEnum): LOW=1; HIGH=2

def test_scalars():
    eq([handle_type(t, None)['type'] for t in (bool, int, float, str, type(None))], ['boolean', 'integer', 'number', 'string', 'null'])
    eq(handle_type(Any, None), {})
    eq(handle_type(object, None), {'type': 'object'})
    eq(handle_type(NewType('UserId', int), None), {'type': 'integer'})
    fail(lambda: handle_type(complex, None), contains="Can't make a JSON schema for <class 'complex'>")

def test_containers():
    defs = {}
    eq(handle_type(list[int], defs), {'type': 'array', 'items': {'type': 'integer'}})
    eq(handle_type(tuple[str], defs), {'type': 'array', 'prefixItems': [{'type': 'string'}], 'items': {'type': 'string'}, 'minItems': 1, 'maxItems': 1})
    eq(handle_type(tuple[int, ...], {}), {'type': 'array', 'items': {'type': 'integer'}})
    eq(handle_type(set[str], defs), dict(type='array', items={'type': 'string'}, uniqueItems=True))
    eq(handle_type(frozenset[int], None), {'type': 'array', 'items': {'type': 'integer'}, 'uniqueItems': True})
    eq(handle_type(dict[str,bool], defs), {'type': 'object', 'additionalProperties': {'type': 'boolean'}})
    eq(handle_type(typing.Deque[int], None), {'type': 'array', 'items': {'type': 'integer'}})
    eq(handle_type(deque[str], None), {'type': 'array', 'items': {'type': 'string'}})

def test_enums_and_literals():
    eq(handle_type(Color, None), {'type': 'string', 'enum': ['red', 'green']})
    eq(handle_type(Level, None), {'type': 'integer', 'enum': [1, 2]})
    eq(handle_type(Literal['fast', 'slow'], None), {'type': 'string', 'enum': ['fast', 'slow']})
    eq(handle_type(Literal[1, 2, None], None), {'type': ['integer', 'null'], 'enum': [1, 2, None]})
    eq(handle_type(Literal[Color.RED], None), {'type': 'string', 'enum': ['red']})
    fail(lambda: handle_type(enum.Enum('T', {'A': (1,2)}), None), contains='enum values must be')

def test_unions():
    eq(handle_type(str | None, None), handle_type(Union[str, type(None)], None))
    eq(handle_type(Union[int, int, str], None), {'anyOf': [{'type': 'integer'}, {'type': 'string'}]})
    eq(handle_type(Optional, None), {'anyOf': [{}, {'type': 'null'}]})

def test_annotated_constraints():
    eq(handle_type(Annotated[str, 'A name'], None), {'type': 'string', 'description': 'A name'})
    eq(handle_type(Annotated[str, Field(min_length=2, pattern='^[a-z]+$')], None),
            {'type': 'string', 'minLength': 2, 'pattern': '^[a-z]+$'})
    eq(handle_type(Annotated[list[int], at.MaxLen(3)], None), {'type': 'array', 'items': {'type': 'integer'}, 'maxItems': 3})
    eq(handle_type(Annotated[float, at.Gt(0), at.Lt(1)], None), {'type': 'number', 'exclusiveMinimum': 0, 'exclusiveMaximum': 1})

class Semver:
    "A version like `1.2.3`"
    def __init__(self, s:str): self.parts = tuple(map(int, s.split('.')))

def test_custom_type_added():
    "A type added to `custom_types` is a string with its name as `format`, and `call_func` builds it from the string sent"
    def pin(version:Semver): "Pin a version"; return version.parts
    custom_types.add(Semver)
    try:
        eq(get_schema(pin)['input_schema']['properties']['version'], {'description': '', 'type': 'string', 'format': 'Semver'})
        eq(call_func(pin, {'version': '1.2.3'}), (1, 2, 3))
    finally: custom_types.discard(Semver)
    assert 'format' not in get_schema(pin)['input_schema']['properties']['version']
