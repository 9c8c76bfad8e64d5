"Forty-odd varied functions, shared by the schema tests (and later the provider tests)"
import datetime as dt, enum
from collections import deque
from dataclasses import dataclass, field, InitVar
from functools import partial
from decimal import Decimal
from pathlib import Path
from typing import Annotated, Any, ClassVar, Deque, Literal, NamedTuple, NewType, Optional, TypedDict, Union
from uuid import UUID
from pydantic import BaseModel, Field
from typing_extensions import NotRequired

class Color(str, enum.Enum): RED='red'; BLUE='blue'
class Prio(enum.IntEnum): LOW=1; HIGH=2

@dataclass
class Point:
    "A point"
    x:float # Horizontal
    y:float=0. # Vertical

@dataclass
class Shape:
    "A shape"
    points:list[Point] # Corners
    color:Color=Color.RED # Fill
    tags:set[str]=field(default_factory=set) # Labels

@dataclass
class Tree:
    "A tree"
    value:int # Value
    kids:list['Tree']=field(default_factory=list) # Subtrees

class Opts(TypedDict):
    verbose:bool # Talk more
    depth:NotRequired[int] # How deep

class Pair(NamedTuple):
    a:int # First
    b:str='x' # Second

class Addr(BaseModel):
    "An address"
    city:str = Field(description='City')
    zip:Annotated[str, Field(pattern=r'^\d{5}$')] = '00000'

class User(BaseModel):
    "A user"
    name:str
    addrs:list[Addr] = []
    boss:Optional['User'] = None

class Plain:
    "Plain class"
    def __init__(self, a:int, # An int
                 b:list[Point]=None): # Points
        self.a,self.b = a,b

def f01(a:int): "ints"
def f02(a:float, b:bool=True): "floats and bools"
def f03(s:str='x', n:None=None): "str and None"
def f04(l:list): "raw list"
def f05(l:list[int]): "int list"
def f06(d:dict): "raw dict"
def f07(d:dict[str, list[float]]): "nested dict"
def f08(t:tuple[int, str]): "tuple"
def f09(t:tuple[int, ...]): "var tuple"
def f10(t:tuple): "raw tuple"
def f11(s:set[str]): "set"
def f12(s:frozenset[int]): "frozenset"
def f13(u:int|str): "union"
def f14(u:Optional[list[str]]=None): "optional"
def f15(u:Union[Point, Pair, None]=None): "union of classes"
def f16(l:Literal['a', 'b']='a'): "literal"
def f17(l:Literal[1, 2, None]=None): "mixed literal"
def f18(c:Color=Color.BLUE, p:Prio=Prio.LOW): "enums"
def f19(d:dt.datetime, e:dt.date, t:dt.time, td:dt.timedelta): "dates"
def f20(p:Path=Path('.'), b:bytes=b'', d:Decimal=Decimal(1), u:UUID=None): "custom types"
def f21(a:Any, o:object): "any and object"
def f22(p:Point): "dataclass"
def f23(s:Shape): "nested dataclasses"
def f24(t:Tree): "recursive dataclass"
def f25(o:Opts): "typeddict"
def f26(p:Pair): "namedtuple"
def f27(u:User): "pydantic, recursive"
def f28(a:Addr, u:User): "two pydantic models"
def f29(p:Plain): "plain class"
def f30(a:Annotated[int, Field(ge=0, le=9)]=0): "constrained"
def f31(a:Annotated[str, 'described', Field(min_length=1)]): "annotated str"
def f32(a:Annotated[list[int], Field(max_length=3)]): "annotated list"
def f33(a:list[dict[str, Union[int, list[Point]]]]): "deep nesting"
def f34(a:int, *args, b:str='x', **kwargs): "variadic"
def f35(n=3, s='x', fl=1.5): "inferred"
def f36(a:'Point', b:'list[Tree]'): "string annotations"
def f37(a:list[Shape], b:dict[str, Shape]): "shared defs"
def f38(x:list[list[list[int]]]): "3d"
def f39(a:int)->list[str]:
    "returns"
def f40(a:int, # with comment
        b:str='y', # another
       )->int: # the result
    "documented"
def f41(m:dict[str, Any]=None): "free dict"
def f42(t:tuple[Point, Pair]): "tuple of records"
def f43(a:Optional[Tree]=None, b:list[Opts]=None): "optional records"

class Tools:
    "A class with methods"
    def m(self, a:int): "method"
    async def am(self, a:str): "async method"
    def __call__(self, q:str): "callable instance"

async def af(a:int, b:list[str]=None): "async function"

CORPUS = [v for k,v in sorted(globals().items()) if k.startswith('f') and k[1:].isdigit()] + [
    Point, Shape, Tree, User, Plain, Tools().m, Tools.am, Tools(), af]

# More kinds of parameter, from the audit of issue 2; kept out of CORPUS, which other modules' tests run over too
UserId = NewType('UserId', int)

@dataclass
class Job:
    "A job"
    name:str # What to call it
    retries:ClassVar[int] = 3
    secret:InitVar[Optional[str]] = None # Not kept
    def __post_init__(self, secret): pass

class Limits:
    "Annotated class attributes"
    cpu:int = 1 # CPUs
    unit:ClassVar[str] = 'cores'

class Order(BaseModel):
    """An order

    Attributes:
        point: Where to deliver
    """
    point:Point
    color:Color = Color.RED
    shape:Optional[Shape] = None

def g01(u:UserId, d:Deque[int], q:deque): "newtype and deques"
def g02(glb:Optional=None): "bare Optional"
def g03(x:float=float('inf'), y:float=float('nan'), b:bytes=b'\xff', c:bytes=b'ok'): "defaults with no JSON form"
def g04(p:Point=Point(1.), s:Shape=Shape([Point(0.)]), when:dt.date=dt.date(2024, 1, 1)): "record and date defaults"
def g05(level:Annotated[int, Field(default=3)]): "Field default"
def g06(j:Job, l:Limits): "ClassVar and InitVar"
def g07(o:Order, p:Point, a:Addr): "pydantic model using a dataclass and an enum"
def g08(a:list[Pair]=[Pair(1)], c:Color=Color.BLUE): "namedtuple default in a list"

def base(a:int, # An int
         key:str, b:str='x'): "Wrapped by partials"

MORE = [v for k,v in sorted(globals().items()) if k.startswith('g') and k[1:].isdigit()] + [
    partial(base, key='k'), partial(base, 1), Job, Limits, Order]

# Appended for the provider tests: no parameters at all, a recursion that unrolling leaves empty, defaults JSON can't hold
@dataclass
class Link:
    "A link that may lead on"
    next:Optional['Link']=None # The next link

class Clock:
    "A clock"
    def __init__(self): pass

def no_params()->str: "Current time"
def kw_only(**kw): "keywords only"
def link_hop(x:Link=None): "recursion with nothing else in it"
def inf_defaults(lo:float=-float('inf'), hi:float=float('inf')): "infinite defaults"

CORPUS += [no_params, kw_only, link_hop, inf_defaults, Link, Clock]
