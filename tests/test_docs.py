"""The pages as the docs build makes them (nbdev's processing, as Quarto gets them): every link resolves, every page opens
with its public API at work, prose names no helper the page doesn't show, test blocks don't bury the examples, and each
page's examples run when copied into a fresh session. `python tests/test_docs.py` prints each page's figures;
FNCALL_PAGES=a.html,b.html checks only those pages."""
import ast, json, os, re, shutil, subprocess, sys, tempfile
from pathlib import Path
import pytest

ROOT = Path(os.environ.get('FNCALL_ROOT') or Path(__file__).parents[1])  # the work tree whose pages are checked
SITE = 'https://fncall.github.io/fncall/'

def processed(dest):
    "nbdev-proc-nbs run on a copy of the work tree in `dest`: {output file: processed cells}"
    files = subprocess.run(['git', 'ls-files', '-co', '--exclude-standard'], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for f in files:
        if (ROOT/f).is_file(): (dest/f).parent.mkdir(parents=True, exist_ok=True); shutil.copy2(ROOT/f, dest/f)
    subprocess.run([str(Path(sys.executable).parent/'nbdev-proc-nbs')], cwd=dest, capture_output=True, text=True, check=True)
    pages = {}
    for p in sorted((dest/'_proc').glob('*.ipynb')):
        cells = json.loads(p.read_text())['cells']
        out = re.search(r'^output-file:\s*(\S+)', ''.join(cells[0]['source']), re.M) if cells and cells[0]['cell_type'] == 'raw' else None
        pages[out[1] if out else p.stem + '.html'] = cells
    return pages

def checked(pages):
    "The pages to check: all, or those FNCALL_PAGES names"
    only = os.environ.get('FNCALL_PAGES')
    return [p for p in pages if not only or p in only.split(',')]

@pytest.fixture(scope='module')
def pages(tmp_path_factory): return processed(tmp_path_factory.mktemp('docs'))

def src(c): return ''.join(c['source'])
def outs(c): return [''.join(o.get('data', {}).get('text/markdown', '')) for o in c.get('outputs', [])]
def markdown(c): return [src(c)] if c['cell_type'] == 'markdown' else outs(c) # what a reader sees as text: prose, and show_doc cards
def visible_code(c): return c['cell_type'] == 'code' and not src(c).startswith(('#| echo: false', '#| eval: false'))
def is_card(c): return c['cell_type'] == 'code' and src(c).startswith('#| echo: false') and 'show_doc' in src(c)

def slug(heading):
    "The id pandoc gives a heading (its auto_identifiers extension, which Quarto uses)"
    h = re.sub(r'\{#([^}\s]+)[^}]*\}\s*$', '', heading).strip()
    if m := re.search(r'\{#([^}\s]+)', heading): return m[1]
    h = re.sub(r'`|\*|\[([^\]]*)\]\([^)]*\)', lambda m: m[1] or '', h) # formatting and links keep their text
    h = re.sub(r'[^\w\s.-]', '', h.lower()).replace(' ', '-')
    return re.sub(r'^[^a-z]+', '', h) or 'section'

def anchors(cells):
    "Every id a page renders: its headings (prose and cards) and explicit ones"
    ids = set()
    for c in cells:
        for t in markdown(c):
            t = re.sub(r'```.*?```', '', t, flags=re.S)
            ids |= {slug(m[1]) for m in re.finditer(r'^#{1,6}\s+(.+)$', t, re.M)}
            ids |= set(re.findall(r'\{#([\w.-]+)', t)) | set(re.findall(r'<a (?:id|name)="([^"]+)"', t))
    return ids

def links(cells):
    "(page, anchor) of each link to a page of this site, from prose and cards"
    for c in cells:
        for t in markdown(c):
            for url in re.findall(r'\]\(([^)\s]+)\)', re.sub(r'```.*?```', '', t, flags=re.S)):
                if url.startswith(SITE): url = url[len(SITE):]
                elif re.match(r'\w+:', url): continue
                page, _, anchor = url.partition('#')
                if page.endswith(('.html', '.md')) or not page: yield page, anchor

def dead_links(pages):
    "Links that point at a page or an anchor the docs don't render, as 'from-page -> target'"
    ids = {p: anchors(cs) for p, cs in pages.items()}
    bad = []
    for p in checked(pages):
        for page, anchor in links(pages[p]):
            target = page.replace('.md', '.html') if page else p
            if target not in ids or (anchor and anchor not in ids[target]): bad.append(f'{p} -> {page}#{anchor}')
    return bad

def test_no_dead_links(pages):
    bad = dead_links(pages)
    assert not bad, f'{len(bad)} dead links:\n' + '\n'.join(sorted(set(bad)))

def misread_cards(pages):
    "Cards whose signature or source link reads wrong: a type nbdev guessed from a `None` default, a class of `__main__`, a dataclass factory, a source line nbdev couldn't find"
    bad = []
    for p in checked(pages):
        for c in pages[p]:
            if not is_card(c): continue
            for t in outs(c):
                head = re.search(r'^#+\s+(.+)$', t, re.M)
                for pat in ('NoneType=None', '__main__.', '=<factory>', '#LNone'):
                    if pat in t: bad.append(f"{p}: {head[1] if head else '?'}: {pat}")
    return bad

def test_cards_read_right(pages):
    bad = misread_cards(pages)
    assert not bad, f'{len(bad)} cards read wrong:\n' + '\n'.join(bad)

MODULES = {'schema.html', 'call.html', 'python.html', 'mktool.html', 'providers.html', 'pycall.html', 'parse.html', 'tools.html', 'mcp.html', 'loop.html'}

def public_names():
    import fncall
    return set(fncall.__all__) if hasattr(fncall, '__all__') else {n for n in dir(fncall) if not n.startswith('_')}

def test_pages_open_with_public_api(pages):
    "The first code cell that shows an output uses a public name"
    api, bad = public_names(), []
    for p in MODULES & set(checked(pages)):
        first = next((c for c in pages[p] if visible_code(c) and c.get('outputs')), None)
        used = {n.id for n in ast.walk(ast.parse(src(first))) if isinstance(n, ast.Name)} if first else set()
        if not used & api: bad.append(p)
    assert not bad, bad

def shown_privates(cells):
    "Private names whose code the page shows (a visible cell defines them)"
    names = set()
    for c in cells:
        if visible_code(c):
            try: tree = ast.parse(src(c))
            except SyntaxError: continue
            names |= {n.name for n in ast.walk(tree) if isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))}
            names |= {t.id for n in ast.walk(tree) if isinstance(n, ast.Assign) for t in n.targets if isinstance(t, ast.Name)}
    return {n for n in names if n.startswith('_')}

def unseen_privates(pages):
    "Private helpers of fncall's modules that a page's prose names in code spans without showing their code"
    from fncall._modidx import d
    names = {k.rsplit('.', 1)[-1] for m in d['syms'].values() for k in m}
    private = {n for n in names if n.startswith('_') and not n.startswith('__')}
    bad = []
    for p in checked(pages):
        cs = pages[p]
        shown = shown_privates(cs)
        for c in cs:
            if c['cell_type'] != 'markdown': continue
            for n in re.findall(r'`([\w.]+)`', re.sub(r'```.*?```', '', src(c), flags=re.S)):
                n = n.split('.')[-1].rstrip('()')
                if n in private and n not in shown: bad.append(f'{p}: {n}')
    return sorted(set(bad))

def test_prose_names_no_unseen_helper(pages):
    bad = unseen_privates(pages)
    assert not bad, f'{len(bad)} private helpers named but not shown:\n' + '\n'.join(bad)

def is_test(c):
    "A code cell that only checks (its statements are test_* calls and asserts), with no output for the reader"
    try: body = ast.parse(src(c)).body
    except SyntaxError: return False
    check = lambda s: isinstance(s, ast.Assert) or (isinstance(s, ast.Expr) and isinstance(s.value, ast.Call) and isinstance(s.value.func, ast.Name) and s.value.func.id.startswith('test_'))
    return bool(body) and all(check(s) or isinstance(s, (ast.Assign, ast.For, ast.With, ast.Import, ast.ImportFrom)) for s in body) and any(check(s) for s in ast.walk(ast.Module(body=body, type_ignores=[]))) and not c.get('outputs')

def figures(cells):
    "A page's shape: code and prose cells, words per prose cell (median), API cards, visible test blocks, screens (~45 lines each)"
    code = [c for c in cells if visible_code(c)]
    prose = [c for c in cells if c['cell_type'] == 'markdown' and src(c).strip() and not src(c).startswith('<!--')]
    words = sorted(len(src(c).split()) for c in prose)
    lines = sum(len(src(c).splitlines()) + 1 for c in code + prose) + sum(len(t.splitlines()) for c in cells if is_card(c) for t in outs(c))
    return dict(code=len(code), prose=len(prose), words=words[len(words)//2] if words else 0, cards=sum(map(is_card, cells)),
                tests=sum(map(is_test, code)), screens=round(lines/45))

def test_tests_do_not_bury_examples(pages):
    "Visible test blocks are at most 30% of a module page's visible code cells"
    bad = {p: f(pages[p]) for p in MODULES & set(checked(pages)) if (f := figures)(pages[p])['tests'] > 0.3*f(pages[p])['code']}
    assert not bad, bad

SETUP = 'from fncall import *\n'

def test_examples_run(pages, tmp_path):
    "Each page's visible code cells, run in order in a fresh process after `from fncall import *`, as a reader copying them would"
    bad = {}
    for p in checked(pages):
        cells = [src(c) for c in pages[p] if visible_code(c) and not src(c).lstrip().startswith(('!', '%'))]
        if not cells: continue
        runner = ('import json, sys, ast\nfrom IPython.core.interactiveshell import InteractiveShell\nsh = InteractiveShell.instance()\n'
                  f'sh.run_cell({SETUP!r})\n'
                  'for i, code in enumerate(json.load(sys.stdin)):\n'
                  '    r = sh.run_cell(code, silent=True)\n'
                  '    if not r.success: print(json.dumps([i, code[:300], repr(r.error_before_exec or r.error_in_exec)[:500]])); sys.exit(1)\n')
        r = subprocess.run([sys.executable, '-c', runner], input=json.dumps(cells), capture_output=True, text=True, timeout=600, cwd=tmp_path)
        if r.returncode: bad[p] = (r.stdout.strip().splitlines() or [''])[-1] or r.stderr[-500:]
    assert not bad, '\n'.join(f'{p}: {e}' for p, e in bad.items())

if __name__ == '__main__':
    with tempfile.TemporaryDirectory() as d:
        ps = processed(Path(d))
        print(f"{'page':20} " + ' '.join(f'{k:>7}' for k in figures([])))
        for p in checked(ps): print(f'{p:20} ' + ' '.join(f'{v:>7}' for v in figures(ps[p]).values()))
        print(f'dead links: {len(dead_links(ps))}; private helpers named, not shown: {len(unseen_privates(ps))}; cards read wrong: {len(misread_cards(ps))}')
