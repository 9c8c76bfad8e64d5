"""Python functions all the way through LLM tool calls and back.
`import fncall` loads none of its modules: a name loads the module it comes from on first use (`fncall.call_func`,
`from fncall import call_func`), and `from fncall import *` loads them all. Written by hand: nbdev writes the modules."""
__version__ = "0.0.1"

import os, re, sys, types

_modules = ('schema', 'call', 'python', 'mktool', 'providers', 'pycall', 'parse', 'tools', 'mcp', 'loop')  # each uses only those before it
_along = {'tools': ('loop',)}  # modules that add methods to another's classes (`FunctionRegistry.loop`): loaded with it, however it loads
_where = {}  # public name -> the module it comes from, read on first use

def _exports(m):
    "The names module `m` exports: the `__all__` nbdev writes at the top of its source, read without running it; else (no source) from the module loaded"
    try:
        with open(os.path.join(os.path.dirname(__file__), f'{m}.py'), encoding='utf-8') as f: a = re.search(r'^__all__ = \[(.*?)\]', f.read(8192), re.M | re.S)
        if a: return re.findall(r"'(\w+)'", a[1])
    except OSError: pass
    return _load(m).__all__

def _load(m):
    "Module `m` of fncall, loaded through `__import__`, so `python -X importtime` sees it (`importlib.import_module` goes around what it times)"
    __import__(name := f'{__name__}.{m}')
    return sys.modules[name]

def _names():
    if not _where: _where.update((n, m) for m in _modules for n in _exports(m))
    return _where

def __getattr__(name):
    "A public name of one of the modules (which loads now), `__all__` (which loads them all), or a module"
    if name == '__all__': res = [n for m in _modules for n in _load(m).__all__]
    elif (m := _names().get(name)) is not None: res = getattr(_load(m), name)
    else:
        try: return _load(name)
        except ModuleNotFoundError as e:
            if e.name != f'{__name__}.{name}': raise
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    globals()[name] = res
    return res

def __dir__(): return sorted({*globals(), *_names(), *_modules})

class _Package(types.ModuleType):
    "`fncall` itself, which the import system tells of each module loaded. One named as a name a module exports (`fncall.python`) is not bound here: `fncall.python` is the function, as `from fncall import *` has always given it"
    def __setattr__(self, name, value):
        if not isinstance(value, types.ModuleType): return super().__setattr__(name, value)
        if name not in _names(): super().__setattr__(name, value)
        for m in _along.get(name, ()): _load(m)

sys.modules[__name__].__class__ = _Package
