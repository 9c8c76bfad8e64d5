"README.md's python blocks, run in order in a fresh process as a newcomer would copy them; each printed value checked against the output block after it"
import json, re, subprocess, sys
from pathlib import Path
import pytest

README = Path(__file__).parents[1]/'README.md'

def blocks(text):
    "(language, code) of each fenced block in `text`, in order"
    return [(m[1], m[2]) for m in re.finditer(r'^```(\w*)\n(.*?)^```$', text, re.S | re.M)]

def snippets(text):
    "(code, expected) for each python block; expected is the plain block right after it, or None"
    bs = blocks(text)
    return [(code, nxt[1] if (nxt := bs[i+1] if i+1 < len(bs) else None) and nxt[0] == '' else None)
            for i, (lang, code) in enumerate(bs) if lang == 'python']

# Runs each block like a notebook cell in one namespace: statements, then the last expression's value, shown as IPython shows it;
# its source goes in `linecache` as IPython puts a cell's, so docments can read the comments
_RUN = '''
import ast, io, json, linecache, sys, contextlib
from IPython.lib.pretty import pretty
ns, outs = {'__name__': '__main__'}, []
for i, code in enumerate(json.loads(sys.stdin.read())):
    fn = f'<README block {i+1}>'
    linecache.cache[fn] = (len(code), None, code.splitlines(True), fn)
    tree, val = ast.parse(code), None
    last = tree.body.pop() if tree.body and isinstance(tree.body[-1], ast.Expr) else None
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        exec(compile(tree, fn, 'exec'), ns)
        if last: val = eval(compile(ast.Expression(last.value), fn, 'eval'), ns)
    outs.append(buf.getvalue() + (pretty(val) if val is not None else ''))
print(json.dumps(outs))
'''

def test_snippets_parse():
    text = '```python\nx = 1\n```\n\n```\n1\n```\n\n```sh\nls\n```\n\n```python\ny\n```\n'
    assert snippets(text) == [('x = 1\n', '1\n'), ('y\n', None)]

def test_readme_runs(tmp_path):
    snips = snippets(README.read_text())
    assert len(snips) >= 5, 'README has fewer python blocks than expected'
    try: p = subprocess.run([sys.executable, '-c', _RUN], input=json.dumps([c for c,_ in snips]), capture_output=True,
                            text=True, timeout=120, cwd=tmp_path)
    except subprocess.TimeoutExpired: pytest.fail("README's python blocks did not finish within 120 s")
    assert p.returncode == 0, f"a README block failed:\n{p.stderr[-3000:]}"
    for (code, want), got in zip(snips, json.loads(p.stdout)):
        if want is not None: assert got.strip() == want.strip(), f"README block\n{code}\nprints\n{got}\nnot the output README shows:\n{want}"

def test_index_in_step():
    "README's python blocks are nbs/index.ipynb's shown code cells (the page README mirrors), line for line, less the cells' `#|` directives"
    nb = json.loads((README.parent/'nbs'/'index.ipynb').read_text())
    shown = [''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'code' and not ''.join(c['source']).startswith('#| hide')]
    lines = lambda codes: [l for c in codes for l in c.splitlines() if l.strip() and not l.startswith('#|')]
    assert lines(c for c,_ in snippets(README.read_text())) == lines(shown)
