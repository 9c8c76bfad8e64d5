"The Python-style calls page's longer test lists (nbs/05_pycall.ipynb keeps one example a behaviour): what parse_function_call(s) read and refuse"
from fastcore.test import test_eq as eq, test_fail as fail  # aliased: pytest would collect test_* names
from fncall.pycall import parse_function_call, parse_function_calls, map_positional_args

def test_parse_function_call():
    eq(parse_function_call('search(query="AI", limit=5)'), {'tool': 'search', 'arguments': {'query': 'AI', 'limit': 5}})
    eq(parse_function_call('add(1, 2, 3)'), {'tool': 'add', 'arguments': {'_pos_0': 1, '_pos_1': 2, '_pos_2': 3}})
    eq(parse_function_call('create("user", "Alice", age=30)'),
            {'tool': 'create', 'arguments': {'_pos_0': 'user', '_pos_1': 'Alice', 'age': 30}})
    eq(parse_function_call('client.search(query="test")'), {'tool': 'search', 'arguments': {'query': 'test'}})
    eq(parse_function_call('config(settings={"debug": true, "timeout": 30})'),
            {'tool': 'config', 'arguments': {'settings': {'debug': True, 'timeout': 30}}})
    eq(parse_function_call('client.config(settings={"debug": true, "timeout": 30})'),
            {'tool': 'config', 'arguments': {'settings': {'debug': True, 'timeout': 30}}})

def test_not_a_call():
    fail(parse_function_call, args=['not a function call'], contains='Not a function call')
    fail(parse_function_call, args=['func(**kwargs)'], contains='**kwargs not supported')
    fail(parse_function_call, args=['search(**options)'], contains='**kwargs not supported')
    fail(parse_function_call, args=['create(*items)'], contains='Invalid function call syntax: *args `*items` in positional argument 0')
    fail(parse_function_call, args=['search(query=get_query())'], contains="Invalid function call syntax: a call `get_query()` in argument 'query'")
    fail(parse_function_call, args=['search(query=user_input)'], contains="Invalid function call syntax: unknown variable 'user_input' in argument 'query'")

def test_literals():
    eq(parse_function_call('f((1, 2), -3, +4.5, k=None, j=True)')['arguments'], {'_pos_0': [1, 2], '_pos_1': -3, '_pos_2': 4.5, 'k': None, 'j': True})
    fail(parse_function_call, args=['f()(1)'], contains='unsupported function `f()`')
    fail(parse_function_call, args=['x = f(1)'], contains='Not a function call: found an assignment')
    fail(parse_function_call, args=['1 + 2'], contains='Not a function call: found an operator expression `1 + 2`')

def test_keyword_names_and_escapes():
    eq(parse_function_call('send(to="a", from="b", class_=1)')['arguments'], {'to': 'a', 'from': 'b', 'class_': 1})
    eq(parse_function_call(r'f(p="C:\users\bob", q="C:\data\x")')['arguments'], {'p': r'C:\users\bob', 'q': r'C:\data\x'})
    eq(parse_function_call(r'f(p="a\\b\"c\n")')['arguments'], {'p': 'a\\b"c\n'})
    eq(parse_function_calls('[send(from=1), recv(to=2)]'), [{'tool': 'send', 'arguments': {'from': 1}}, {'tool': 'recv', 'arguments': {'to': 2}}])
    fail(parse_function_call, args=['f(from 1)'], contains='invalid syntax')

def test_surroundings_removed():
    eq(parse_function_call('  \n```python\nsearch(query="AI");\n```\n '), {'tool': 'search', 'arguments': {'query': 'AI'}})
    eq(parse_function_call('\ufeffsearch(query="AI")'), {'tool': 'search', 'arguments': {'query': 'AI'}})
    eq(parse_function_call('f(\n  a=1,\n  b=[2,\n     3],\n)')['arguments'], {'a': 1, 'b': [2, 3]})
    fail(parse_function_call, args=['search(key=value'], contains='unexpected EOF while parsing', exc=SyntaxError)
    fail(parse_function_call, args=['f(a=1, 2)'], contains='positional argument follows keyword argument', exc=SyntaxError)
    fail(parse_function_call, args=['f(a=1, a=2)'], contains="keyword argument 'a' repeated")
    fail(parse_function_call, args=['f(1); g(2)'], contains='found 2 statements; use parse_function_calls')
    fail(parse_function_call, args=['   '], contains='the text is empty')

def test_given_twice():
    fail(map_positional_args, args=(parse_function_call('search("AI", query="ML")')['arguments'], ['query']),
              contains="Got multiple values for argument 'query'")
    eq(map_positional_args({'_pos_1': 1, '_pos_0': 2}, ['a', 'b']), {'a': 2, 'b': 1})
    fail(map_positional_args, args=({'_pos_0': 1, '_pos_2': 2}, ['a', 'b', 'c']), contains='_pos_1 missing')
    eq(map_positional_args({'_position': 1, '_pos_01': 2, '_pos_0': 3}, ['a']), {'a': 3, '_position': 1, '_pos_01': 2})
    eq(list(map_positional_args({'k': 1, '_pos_0': 2}, ['a'])), ['a', 'k'])

def test_invalid_in_prose():
    eq(parse_function_calls('f(x) and g(y)'), [])
    eq(parse_function_calls('It uses max(a, b) or f(1, 2]'), [])
    for s, err in [('Do this:\nf(x)', "unknown variable 'x'"), ('f(a=1]', 'has `]` where `)` was expected'), ('Go:\nf(a=[1, 2', 'is never closed'),
                   ("<|python_tag|>f(a='x)", 'string that is never closed'), ('f(a=1, 2)', 'positional argument follows keyword argument'),
                   ('x; f(a=1 +)', 'invalid syntax')]:
        fail(parse_function_calls, args=[s], contains=err)

def test_mentions_are_not_calls():
    eq(parse_function_calls('Do not run "delete_all()" ever, or x = \'delete_all(force=True)\'.'), [])
    eq(parse_function_calls('Use `search(q=1)` now'), [{'tool': 'search', 'arguments': {'q': 1}}])
    sq = [{'tool': 'search', 'arguments': {'q': 'y'}}]
    eq(parse_function_calls("# delete_all(confirm=True)\nsearch(q='y')"), sq)
    eq(parse_function_calls("See issue #3: search(q='y')"), sq)
