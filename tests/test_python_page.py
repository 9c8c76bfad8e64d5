"The python tool page's longer checks (nbs/02_python.ipynb keeps one example a behaviour)"
import pytest
from fastcore.test import test_eq as eq, test_fail as fail  # aliased: pytest would collect test_* names
from fncall.python import python

def test_errors_in_the_users_terms():
    r = python('def g(x): return 1/x\ng(0)')
    eq(r.splitlines()[-1], 'ZeroDivisionError: division by zero')
    assert 'fncall' not in r and '_exec' not in r
    eq(python('1+').splitlines()[-1], 'SyntaxError: invalid syntax')
    eq(python('import sys; sys.exit(1)').splitlines()[-1], 'SystemExit: 1')
    with pytest.raises(KeyboardInterrupt): python('raise KeyboardInterrupt')
    fail(lambda: python('1', timeout=-1), contains='timeout must be a number of seconds >= 0')
    fail(lambda: python(b'1'), contains='code must be a str')
