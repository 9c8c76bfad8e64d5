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

def leave(code:int): "Exits the process it runs in"; import sys; sys.exit(code)

def greet(name:str, # Who to greet
          times:int=1, # How many times
         )->str:
    "Greet someone"
    return ' '.join([f'Hello {name}!'] * times)

class Counter:
    "Its method `bump` can be served bound to an instance (`mcp_demo:counter.bump`), not unbound (`mcp_demo:Counter.bump`)"
    def __init__(self): self.n = 0
    def bump(self,
             by:int=1, # How much to add
            )->int:
        "Add to the counter"
        self.n += by
        return self.n

counter = Counter()
