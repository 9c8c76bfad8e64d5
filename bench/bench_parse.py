"""Speed of fncall.parse. Throughput on the corpus of real model output and on a 1 MB response (ratios to json.loads of the same
payloads, measured alongside), then time per char from 1 KB to 10 MB, parsed whole and streamed in 256-char chunks, for the
calls of every dialect and for adversarial inputs: linear time is a flat row, and `x` (how much the time per char grew from
a smaller size to a larger one) should stay under 1.5; where it does not, the row is timed again with CPython's GC off. A last
row times json.loads the same way, on JSON as dense in objects as the densest rows: the growth that live objects cost CPython. The rows time CPU,
not wall-clock, time (all timings here do), so other processes on a loaded machine count less. Run: python bench/bench_parse.py [--quick] [--before DIR] [--only PART] [--rows REGEX]
--quick stops at 1 MB; --before DIR also times, side by side, the fncall package in DIR/fncall (e.g. `git archive OLD fncall`)."""
import argparse, gc, importlib.util, json, pathlib, re, sys, time, tracemalloc
from fncall import parse as NEW
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent/'tests'))
from test_corpus import CORPUS, load
from test_parse import GROWING

def timed(f):
    "CPU seconds one run of `f` takes, after collecting earlier garbage"
    gc.collect()
    t = time.process_time(); f()
    return time.process_time()-t

def interleaved(fs, n=9):
    "Per-round seconds of each of `fs`, run in turn for `n` rounds so machine noise hits them alike"
    ts = [[] for _ in fs]
    for _ in range(n):
        for f,t in zip(fs, ts): t.append(timed(f))
    return ts

def streamed(P, parser, text, n=256, result=True):
    sp = P.StreamParser(parser=parser)
    for i in range(0, len(text), n): sp.feed(text[i:i+n])
    sp.close()
    return sp.result() if result else sp

def load_before(d):
    "The fncall package in directory `d`, imported as `fncall_before`"
    spec = importlib.util.spec_from_file_location('fncall_before', pathlib.Path(d)/'fncall'/'__init__.py', submodule_search_locations=[str(pathlib.Path(d)/'fncall')])
    m = importlib.util.module_from_spec(spec); sys.modules['fncall_before'] = m; spec.loader.exec_module(m)
    return importlib.import_module('fncall_before.parse')

def corpus(mods):
    "Throughput on real model output: parse, and StreamParser fed 7-char chunks, against json.loads of the texts as JSON strings"
    if CORPUS is None: return print('corpus: ../shared/corpus/toolcall_corpus.json not found (set FNCALL_CORPUS); skipped')
    texts = [c['text'] for c in load()]
    js,n = [json.dumps(t) for t in texts],sum(map(len, texts))/1e6
    runs = {'json.loads (the texts as JSON strings)': lambda: [json.loads(s) for s in js]}
    for tag,P in mods.items():
        p = P.ToolCallParser()
        runs[f'{tag} ToolCallParser.parse'] = lambda p=p: [p.parse(t) for t in texts]
        runs[f'{tag} StreamParser, 7-char chunks'] = lambda P=P, p=p: [streamed(P, p, t, 7) for t in texts]
    ts = dict(zip(runs, interleaved(list(runs.values()), n=9)))
    tj = min(ts['json.loads (the texts as JSON strings)'])
    print(f'corpus: {len(texts)} texts, {n*1e3:.0f}k chars; best of 9 interleaved rounds')
    for k,t in ts.items(): print(f'  {k:46} {n/min(t):7.2f} M chars/s   {min(t)/tj:6.1f}x json.loads\'s time')

def response(target=1_000_000, wraps=('TOOL_CALL\n{}', '<tool_call>\n{}\n</tool_call>', '```json\n{}\n```', '[TOOL_CALLS][{}]')):
    "A ~1 MB model response: prose and calls in several formats (`wraps`), with code-like arguments; and the payloads"
    code = 'def f(x):\n    return {"a": [x, "it\'s"], "b": "\\\\n"}  # {braces} in strings\n' * 200
    payloads,parts,i = [],[],0
    while sum(map(len, parts)) < target:
        p = json.dumps({'name': 'write_file', 'arguments': {'path': f'src/m{i}.py', 'content': code, 'tags': [f't{j}' for j in range(30)], 'sizes': list(range(50))}})
        payloads.append(p)
        wrap = wraps[i % len(wraps)]
        parts.append(f'Step {i}: I will now write the module, explaining why at some length. ' * 3 + '\n' + wrap.format(p) + '\n')
        i += 1
    return ''.join(parts), payloads

def throughput(mods):
    text,payloads = response()
    runs = {'json.loads of the payloads': lambda: [json.loads(s) for s in payloads]}
    for tag,P in mods.items():
        p = P.ToolCallParser(max_payload_chars=100_000)
        assert len(p.parse(text).tool_calls) == len(payloads)
        runs[f'{tag} ToolCallParser.parse'] = lambda p=p: p.parse(text)
        runs[f'{tag} StreamParser, 256-char chunks'] = lambda P=P, p=p: streamed(P, p, text)
    ts = dict(zip(runs, interleaved(list(runs.values()), n=5)))
    tj,mb = min(ts['json.loads of the payloads']),len(text)/1e6
    print(f'\na {mb:.2f} MB response, {len(payloads)} calls; best of 5 interleaved rounds')
    for k,t in ts.items(): print(f'  {k:46} {mb/min(t):7.1f} MB/s   {min(t)/tj:5.2f}x json.loads\'s time')

def hermes(target=1_000_000):
    "~1 MB of Hermes calls with short arguments, a sentence before each"
    one = 'Checking {0}.\n<tool_call>\n{{"name": "get_weather", "arguments": {{"city": "City {0}", "days": {1}, "units": ["C"]}}}}\n</tool_call>\n'
    return ''.join(one.format(i, i % 7) for i in range(target // 110))

def peak(f, n):
    "Peak memory `f()` allocates (tracemalloc), as a multiple of `n` bytes"
    gc.collect(); tracemalloc.start()
    try: f(); return tracemalloc.get_traced_memory()[1] / n
    finally: tracemalloc.stop()

def stream(mods):
    "StreamParser in 64-char chunks against parse of the whole text, interleaved, on Hermes text; and the peak memory of each"
    texts = {'1 MB response, Hermes calls with code': response(wraps=('<tool_call>\n{}\n</tool_call>',))[0], '1 MB of short Hermes calls': hermes()}
    for name,text in texts.items():
        mb,runs = len(text)/1e6,{}
        for tag,P in mods.items():
            p = P.ToolCallParser(max_payload_chars=100_000)
            assert streamed(P, p, text, 64) == p.parse(text)
            runs[f'{tag} ToolCallParser.parse'] = lambda p=p: p.parse(text)
            runs[f'{tag} StreamParser, 64-char chunks'] = lambda P=P, p=p: streamed(P, p, text, 64, result=False)
        ts = dict(zip(runs, interleaved(list(runs.values()), n=5)))
        print(f'\n{name}: {mb:.2f} MB; best of 5 interleaved rounds; peak memory (tracemalloc) as a multiple of the text')
        for k,t in ts.items():
            tw = min(ts[k.split()[0] + ' ToolCallParser.parse'])
            print(f'  {k:46} {mb/min(t):7.1f} MB/s  {min(t)/tw:5.1f}x parse\'s time   peak {peak(runs[k], len(text)):4.2f}x', flush=True)
        for tag,P in mods.items():
            p = P.ToolCallParser(max_payload_chars=100_000)
            print(f'  {tag} StreamParser, 64-char chunks, then result(): peak {peak(lambda: streamed(P, p, text, 64), len(text)):4.2f}x')

CALLS = [('get_weather', {'city': 'São Paulo, BR', 'days': 3, 'units': ['C', 'F'], 'detail': {'hourly': True, 'alerts': None}}),
         ('write_note', {'title': 'Plan', 'body': 'Line one: it is "done".\nLine two, with {braces} and a # sign.', 'score': 4.5})]

def dialect_texts():
    "{dialect name: one message of its calls, with an answer and (where it writes one) reasoning}"
    out = {}
    for d in (*NEW._DIALECTS, NEW._marker('TOOL_CALL')):
        for reasoning in ('I should check the weather first, then write it down.', ''):
            try: out[d.name] = d.render(CALLS, 'Let me look that up for you.', reasoning) + '\n'; break
            except (ValueError, NotImplementedError): pass
    return out

ADVERSARIAL = GROWING  # the inputs of tests/test_parse.py's linear-time test: text of about n chars built to make a parser go back over it

SIZES = (1_000, 10_000, 100_000, 1_000_000, 10_000_000)

def row(name, mk, P, sizes, cap=20.0, rounds=3):
    "µs per char of `parse` and of a 256-char stream at each size; where it grows over 1.5x, timed again with CPython's cyclic GC off"
    p,out = P.ToolCallParser(),[]
    for how in ('whole', 'stream'):
        f = (lambda t: p.parse(t)) if how == 'whole' else (lambda t: streamed(P, p, t))
        texts = [mk(n) for n in sizes]
        us = sizes_per_char(f, texts, cap, rounds)
        g = f'{_growth(us):4.2f}'
        if _growth(us) > 1.5: g += f' (GC off: x{_growth(sizes_per_char(f, texts, cap, rounds, gc_off=True)):4.2f})'
        out.append(' '.join('      —' if u is None else f'{u:7.3f}' for u in us) + f'  x{g}')
    print(f'  {name:30} ' + '  | '.join(out), flush=True)

def sizes_per_char(f, texts, cap, rounds, gc_off=False):
    "µs per char of `f` on each text: the best of `rounds` rounds, each timing every text in turn (a batch of runs that takes 20 ms, or one"
    "long run), so machine load hits them alike; once a run would take over `cap` seconds, longer texts are skipped (None). With `gc_off`"
    "CPython's cyclic GC is off while timing: the millions of objects a big text's results make can slow it, not the parser"
    best,k = [None]*len(texts),[1]*len(texts)
    for r in range(rounds):
        for j,t in enumerate(texts):
            if (r == 0 and j and (best[j-1] is None or best[j-1]*len(t) > cap)) or (r and best[j] is None): continue  # too long (quadratic)
            if len(t) >= 100_000 or gc_off: gc.collect()  # its garbage; a small run's batch would come cache-cold after it
            if gc_off: gc.disable()
            try:
                t0 = time.process_time()  # CPU time: the time others' processes take the CPU is not the parser's
                for _ in range(k[j]): f(t)
                dt = (time.process_time()-t0)/k[j]
            finally: gc.enable()
            if r == 0: k[j] = max(1, int(0.02/dt))
            best[j] = dt/len(t) if best[j] is None else min(best[j], dt/len(t))
    return [b*1e6 if b is not None else None for b in best]

def _growth(us):
    "How much the time per char grew: the largest ratio of a size's to the least at any size up to it (a cost per char that falls is 1)"
    ok = [u for u in us if u is not None]
    return max(u/min(ok[:i+1]) for i,u in enumerate(ok))

def reference(sizes):
    "The same measure for the standard library's C JSON parser on text as dense in objects as the densest rows (an object every 19 chars):"
    "what CPython's cyclic GC and memory make of millions of live objects, with no parser of ours in it"
    unit = '{"f": [1], "g": 2},'
    texts = ['[' + unit * max(1, n // len(unit)) + '{}]' for n in sizes]
    on,off = (sizes_per_char(json.loads, texts, 20.0, 3, gc_off=g) for g in (False, True))
    print(f'  {"json.loads, [{...}, ...]":30} ' + ' '.join(f'{u:7.3f}' for u in on) + f'  x{_growth(on):4.2f} (GC off: x{_growth(off):4.2f})', flush=True)

def scaling(mods, sizes, rows=None):
    head = ' '.join(f'{n:>7,}'.replace(',000,000', 'M').replace(',000', 'k') for n in sizes)
    for tag,P in mods.items():
        print(f'\n{tag}: µs per char, parsed whole | streamed in 256-char chunks; x: how much it grew (linear: near 1)')
        print(f'  {"dialect":30} {head}        | {head}')
        for name,unit in dialect_texts().items():
            if not rows or re.search(rows, name): row(name, lambda n, u=unit: u * max(1, n // len(u)), P, sizes)
        print(f'  {"adversarial":30}')
        for name,mk in ADVERSARIAL.items():
            if not rows or re.search(rows, name): row(name, mk, P, sizes)
    print(f'\nreference, parsed whole')
    reference(sizes)

if __name__ == '__main__':
    a = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    a.add_argument('--quick', action='store_true'); a.add_argument('--before'); a.add_argument('--rows', help='a regex: only the scaling rows it finds')
    a.add_argument('--only', choices=['corpus', 'throughput', 'stream', 'scaling'])
    o = a.parse_args()
    mods = {'now': NEW} | ({'before': load_before(o.before)} if o.before else {})
    if o.only in (None, 'corpus'): corpus(mods)
    if o.only in (None, 'throughput'): throughput(mods)
    if o.only in (None, 'stream'): stream(mods)
    if o.only in (None, 'scaling'): scaling(mods, SIZES[:4] if o.quick else SIZES, o.rows)
