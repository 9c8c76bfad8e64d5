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

# The API's replies are canned: anthropic.Anthropic becomes a client whose httpx transport answers as the API would
# (as nbs/index.ipynb does in a hidden cell); the README's code is not changed.
_CANNED = '''
import httpx, anthropic
def _reply(*content):
    blocks = [{'type': 'text', 'text': c} if isinstance(c, str) else {'type': 'tool_use', 'id': f'toolu_{c[1]}', 'name': c[0], 'input': {'city': c[1]}}
              for c in content]
    return {'id': 'msg', 'type': 'message', 'role': 'assistant', 'model': 'claude-sonnet-4-5', 'content': blocks, 'stop_sequence': None,
            'stop_reason': 'end_turn' if len(blocks) == 1 else 'tool_use', 'usage': {'input_tokens': 1, 'output_tokens': 1}}
_replies = [_reply("I'll check both.", ('get_weather', 'Paris'), ('get_weather', 'Rome')), _reply('Sunny and 25°C in both.')]
class _Canned(anthropic.Anthropic):
    def __init__(self, **kw):
        super().__init__(api_key='sk-...', http_client=httpx.Client(transport=httpx.MockTransport(lambda r: httpx.Response(200, json=_replies.pop(0)))))
anthropic.Anthropic = _Canned
'''

# Runs each block like a notebook cell in one namespace: statements, then the last expression's value, shown as IPython shows it;
# its source goes in `linecache` as IPython puts a cell's, so docments can read the comments
_RUN = '''
import ast, io, json, linecache, sys, contextlib
from IPython.lib.pretty import pretty
exec(compile(sys.argv[1], '<canned>', 'exec'), {})
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
    try: p = subprocess.run([sys.executable, '-c', _RUN, _CANNED], input=json.dumps([c for c,_ in snips]), capture_output=True,
                            text=True, timeout=120, cwd=tmp_path)
    except subprocess.TimeoutExpired: pytest.fail("README's python blocks did not finish within 120 s")
    assert p.returncode == 0, f"a README block failed:\n{p.stderr[-3000:]}"
    for (code, want), got in zip(snips, json.loads(p.stdout)):
        if want is not None: assert got.strip() == want.strip(), f"README block\n{code}\nprints\n{got}\nnot the output README shows:\n{want}"

def test_index_in_step():
    "README's python blocks are nbs/index.ipynb's shown code cells (the page README mirrors), line for line"
    nb = json.loads((README.parent/'nbs'/'index.ipynb').read_text())
    shown = [''.join(c['source']) for c in nb['cells'] if c['cell_type'] == 'code' and not ''.join(c['source']).startswith('#| hide')]
    lines = lambda codes: [l for c in codes for l in c.splitlines() if l.strip()]
    assert lines(c for c,_ in snippets(README.read_text())) == lines(shown)
