"""fncall.parse on real model output: the corpus of ../shared/corpus/toolcall_corpus.json (other projects' test data,
read where it lies, never copied here). Run as a script for the per-format table: python tests/test_corpus.py"""
import json, os, pathlib, re
from collections import defaultdict
import pytest
from fncall.parse import ToolCallParser, StreamParser

_HERE = pathlib.Path(__file__).resolve().parent.parent
_CANDIDATES = [os.environ.get('FNCALL_CORPUS', ''), _HERE.parent/'shared/corpus/toolcall_corpus.json',
               _HERE.parent.parent/'shared/corpus/toolcall_corpus.json']
CORPUS = next((pathlib.Path(p) for p in _CANDIDATES if p and pathlib.Path(p).is_file()), None)

def load():
    return json.loads(CORPUS.read_text()) if CORPUS else []

def _same(a, b):
    "JSON values equal: numbers by value (1 == 1.0), but true is not 1"
    if isinstance(a, bool) or isinstance(b, bool): return type(a) is type(b) and a == b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)): return a == b
    if isinstance(a, dict) and isinstance(b, dict): return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list): return len(a) == len(b) and all(map(_same, a, b))
    return type(a) is type(b) and a == b

def _calls_ok(case, calls):
    want = case['expected']
    if len(calls) != len(want): return False
    for c,w in zip(calls, want):
        if c.tool_name != w['name']: return False
        args = w['arguments']
        if case.get('args_exact') is False:
            if not all(k in c.parameters and _same(c.parameters[k], v) for k,v in args.items()): return False
        elif not _same(c.parameters, args): return False
    return True

def _type(v):
    if isinstance(v, bool): return {'type': 'boolean'}
    if isinstance(v, int): return {'type': 'integer'}
    if isinstance(v, float): return {'type': 'number'}
    if isinstance(v, str): return {'type': 'string'}
    if isinstance(v, list): return {'type': 'array'}
    if isinstance(v, dict): return {'type': 'object'}
    return {}

def tools_for(case):
    "Where the source types values by its tool schema, the schema it used (read back from the expected values), else None"
    if not re.search(r'schema|tools\(', case.get('note') or ''): return None
    ts = {}
    for c in case['expected']:
        props = ts.setdefault(c['name'], {'name': c['name'], 'parameters': {'type': 'object', 'properties': {}}})['parameters']['properties']
        props.update({k: _type(v) for k,v in c['arguments'].items()})
    return list(ts.values())

def right(case, res):
    "Whether ParseResult `res` is what the source expects: its calls; no error unless the source calls the text malformed"
    if not _calls_ok(case, res.tool_calls): return False
    return case['kind'] == 'malformed' or not res.errors

def streamed(text, n, tools=None):
    sp = StreamParser(tools=tools)
    evs = []
    for i in range(0, len(text), n): evs += sp.feed(text[i:i+n])
    evs += sp.close()
    return sp.result(), evs

def _key(res): return ([(c.tool_name, json.dumps(c.parameters, sort_keys=True)) for c in res.tool_calls], [str(e) for e in res.errors],
                       getattr(res, 'content', None), getattr(res, 'reasoning', None))

def _norm(s): return (s or '').strip()

def score(cases):
    "{format: counters} and the list of failing ids per check"
    P = ToolCallParser()
    tab,fails = defaultdict(lambda: defaultdict(int)),defaultdict(list)
    for c in cases:
        t,tools = tab[c['format']],tools_for(c)
        r = P.parse(c['text'], tools=tools)
        s7,_ = streamed(c['text'], 7, tools)
        s1,_ = streamed(c['text'], 1, tools)
        checks = dict(parse=right(c, r), stream7=right(c, s7), stream1=right(c, s1), agree=_key(r) == _key(s7) == _key(s1))
        if c['content'] is not None:
            checks['content'] = _norm(getattr(r, 'content', None)) == _norm(c['content'])
        t['n'] += 1
        for k,v in checks.items():
            t[k+'_n'] += 1; t[k] += v
            if not v: fails[k].append(c['id'])
    return tab, fails

def table(tab):
    cols = ['parse', 'stream7', 'stream1', 'agree', 'content']
    lines = [f"{'format':18}{'cases':>6}" + ''.join(f'{c:>10}' for c in cols)]
    tot = defaultdict(int)
    for f in sorted(tab):
        t = tab[f]
        for k,v in t.items(): tot[k] += v
        lines.append(f'{f:18}{t["n"]:>6}' + ''.join(f'{t[c]:>6}/{t[c+"_n"]:<3}' if t[c+'_n'] else f'{"":>10}' for c in cols))
    lines.append(f'{"all":18}{tot["n"]:>6}' + ''.join(f'{tot[c]:>6}/{tot[c+"_n"]:<3}' for c in cols))
    return '\n'.join(lines), tot

@pytest.fixture(scope='module')
def scored():
    if CORPUS is None: pytest.skip('the corpus ../shared/corpus/toolcall_corpus.json is not here (it is other projects\' test data, '
                                   'kept outside the repository); set FNCALL_CORPUS to its path to run this test')
    tab,fails = score(load())
    txt,tot = table(tab)
    print('\n' + txt)
    return tot, fails

@pytest.mark.parametrize('check', ['parse', 'stream7', 'stream1'])
def test_right(scored, check):
    tot,fails = scored
    assert tot[check] >= 0.99 * tot[check+'_n'], f'{check}: {tot[check]}/{tot[check+"_n"]} right; wrong: {fails[check]}'

def test_agree(scored):
    tot,fails = scored
    assert tot['agree'] == tot['agree_n'], f'parse and StreamParser disagree on {fails["agree"]}'

def test_content(scored):
    tot,fails = scored
    assert tot['content'] >= 0.95 * tot['content_n'], f'content: {tot["content"]}/{tot["content_n"]}; wrong: {fails["content"]}'

if __name__ == '__main__':
    import sys
    tab,fails = score(load())
    print(table(tab)[0])
    if '-v' in sys.argv:
        for k,v in fails.items(): print(k, ' '.join(v))
