"Functions that tests/test_mcp.py serves with `fncall serve`"
from dataclasses import dataclass

@dataclass
class Point:
    "A point"
    x:float # Horizontal
    y:float=0. # Vertical

def add(a:int, # First number
        b:int=1, # Second number
       )->int:
    "Add two numbers"
    return a + b

def norm(p:Point, # The point
        )->float:
    "Distance of a point from the origin"
    return (p.x**2 + p.y**2) ** .5

def boom(msg:str): "Always fails"; raise ValueError(msg)
