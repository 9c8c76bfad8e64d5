"""Tests of parse_function_call moved from nbs/05_pycall.ipynb, so the page's examples are not buried (issue 30): every assertion, as it was"""
from fastcore.test import test_eq as eq, test_fail as fails  # renamed: pytest would collect test_*
from fncall.pycall import parse_function_call

def test_one_call():
    "A call: its name (the last part of a dotted one), keyword and positional arguments, JSON literals"
    eq(parse_function_call('search(query="AI", limit=5)'), {'tool': 'search', 'arguments': {'query': 'AI', 'limit': 5}})
    eq(parse_function_call('add(1, 2, 3)'), {'tool': 'add', 'arguments': {'_pos_0': 1, '_pos_1': 2, '_pos_2': 3}})
    eq(parse_function_call('create("user", "Alice", age=30)'),
            {'tool': 'create', 'arguments': {'_pos_0': 'user', '_pos_1': 'Alice', 'age': 30}})
    eq(parse_function_call('client.search(query="test")'), {'tool': 'search', 'arguments': {'query': 'test'}})
    eq(parse_function_call('config(settings={"debug": true, "timeout": 30})'),
            {'tool': 'config', 'arguments': {'settings': {'debug': True, 'timeout': 30}}})
    eq(parse_function_call('client.config(settings={"debug": true, "timeout": 30})'),
            {'tool': 'config', 'arguments': {'settings': {'debug': True, 'timeout': 30}}})

def test_refused_syntax():
    "**kwargs, *args, calls and unknown names as arguments are refused, each saying where"
    fails(parse_function_call, args=['not a function call'], contains='Not a function call')
    fails(parse_function_call, args=['func(**kwargs)'], contains='**kwargs not supported')
    fails(parse_function_call, args=['search(**options)'], contains='**kwargs not supported')
    fails(parse_function_call, args=['create(*items)'], contains='Invalid function call syntax: *args `*items` in positional argument 0')
    fails(parse_function_call, args=['search(query=get_query())'], contains="Invalid function call syntax: a call `get_query()` in argument 'query'")
    fails(parse_function_call, args=['search(query=user_input)'], contains="Invalid function call syntax: unknown variable 'user_input' in argument 'query'")

def test_nothing_is_evaluated():
    "What only running code could give (powers, comprehensions, f-strings, imports, lambdas, attributes) is refused, never run"
    for s in ['f(x=10**10**10)', 'f([i for i in range(9)])', 'f(f"{secret}")', 'f({1, 2})', 'f(b"raw")', 'f(1j)', 'f(...)',
              'f(x=1e999)', 'f(__import__("os").system("ls"))', 'f(lambda: 0)', 'f(x=a.b)', 'f(x={1: "a"})']:
        fails(parse_function_call, args=[s], contains='Invalid function call syntax')

def test_literals_and_non_calls():
    "Tuples, signs, None and True read as values; what is not a call is refused, naming what it is"
    eq(parse_function_call('f((1, 2), -3, +4.5, k=None, j=True)')['arguments'], {'_pos_0': [1, 2], '_pos_1': -3, '_pos_2': 4.5, 'k': None, 'j': True})
    fails(parse_function_call, args=['f()(1)'], contains='unsupported function `f()`')
    fails(parse_function_call, args=['x = f(1)'], contains='Not a function call: found an assignment')
    fails(parse_function_call, args=['1 + 2'], contains='Not a function call: found an operator expression `1 + 2`')

def test_text_around_a_call():
    "Fences, a byte order mark and newlines around a call are read; a cut-off, invalid or second statement is an error"
    eq(parse_function_call('  \n```python\nsearch(query="AI");\n```\n '), {'tool': 'search', 'arguments': {'query': 'AI'}})
    eq(parse_function_call('\ufeffsearch(query="AI")'), {'tool': 'search', 'arguments': {'query': 'AI'}})
    eq(parse_function_call('f(\n  a=1,\n  b=[2,\n     3],\n)')['arguments'], {'a': 1, 'b': [2, 3]})
    fails(parse_function_call, args=['search(key=value'], contains='unexpected EOF while parsing', exc=SyntaxError)
    fails(parse_function_call, args=['f(a=1, 2)'], contains='positional argument follows keyword argument', exc=SyntaxError)
    fails(parse_function_call, args=['f(a=1, a=2)'], contains="keyword argument 'a' repeated")
    fails(parse_function_call, args=['f(1); g(2)'], contains='found 2 statements; use parse_function_calls')
    fails(parse_function_call, args=['   '], contains='the text is empty')
