"Typed functions that tests/test_mcp_typed.py serves with `fncall serve`, and with the SDK's own `MCPServer` to compare"
from dataclasses import dataclass
from typing import TypedDict
from pydantic import BaseModel
from fncall.mcp import tool_info

__all__ = ['add', 'ratio', 'stats', 'movie', 'flip', 'shift', 'evens', 'shout', 'nothing', 'untyped', 'liar', 'deep']

@dataclass
class DPt:
    "A point"
    x:float
    y:float=0.

class MPt(BaseModel):
    x:float
    y:float=0.

class Movie(TypedDict):
    title:str
    year:int

@tool_info(title='Add numbers', readOnlyHint=True, idempotentHint=True, openWorldHint=False)
def add(a:int, b:int=1)->int:
    "Add two numbers"
    return a + b

def ratio(a:float, b:float)->float:
    "a / b"
    return a / b

def stats(xs:list[float])->dict[str, float]:
    "Mean and max"
    return {'mean': sum(xs)/len(xs), 'max': max(xs)}

def movie(title:str, year:int)->Movie:
    "A movie record"
    return Movie(title=title, year=year)

def flip(x:float, y:float)->DPt:
    "The point mirrored"
    return DPt(y, x)

def shift(x:float, y:float)->MPt:
    "The point moved one to the right"
    return MPt(x=x+1, y=y)

def evens(n:int)->list[int]:
    "Even numbers below n"
    return list(range(0, n, 2))

@tool_info(destructiveHint=False)
def shout(s:str)->str:
    "Upper case"
    return s.upper()

def nothing()->None:
    "Returns None"

def untyped(x:int):
    "No return annotation"
    return DPt(x, x)

def liar()->int:
    "Says it returns an int"
    return 'not a number'

def deep(n:int):
    "A list nested n deep"
    x = []
    for _ in range(n): x = [x]
    return x
