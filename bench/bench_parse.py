"""Throughput of `ToolCallParser.parse` and `StreamParser` against `json.loads` of the same payloads,
and scaling on adversarial inputs at 10k, 100k and 1M characters. Prints ratios; run: python bench/bench_parse.py"""
import gc, json, pathlib, statistics, sys, time
from fncall.parse import ToolCallParser, StreamParser
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent.parent/'tests'))
from test_corpus import CORPUS, load

_gc = [0.0, 0.0]  # seconds spent in CPython's cyclic GC so far; start of the current collection
def _gc_clock(phase, info):
    if phase == 'start': _gc[1] = time.perf_counter()
    else: _gc[0] += time.perf_counter()-_gc[1]
gc.callbacks.append(_gc_clock)

def timed(f):
    "Seconds one run of `f` takes, and how many of them CPython's cyclic GC took; earlier garbage is collected first"
    gc.collect()
    g,t = _gc[0],time.perf_counter(); f()
    return time.perf_counter()-t, _gc[0]-g

def best(f, n=3):
    "(seconds, GC seconds) of the fastest of `n` runs of `f`"
    return min(timed(f) for _ in range(n))

def interleaved(fs, n=9):
    "Per-round seconds of each of `fs`, run in turn for `n` rounds so machine noise hits them alike"
    ts = [[] for _ in fs]
    for _ in range(n):
        for f,t in zip(fs, ts): t.append(timed(f)[0])
    return ts

def response(target=1_000_000):
    "A ~1 MB model response: prose and several calls in several formats, with code-like arguments; and the payloads"
    code = 'def f(x):\n    return {"a": [x, "it\'s"], "b": "\\\\n"}  # {braces} in strings\n' * 200
    payloads,parts,i = [],[],0
    while sum(map(len, parts)) < target:
        p = json.dumps({'name': f'write_file', 'arguments': {'path': f'src/m{i}.py', 'content': code,
                                                             'tags': [f't{j}' for j in range(30)], 'sizes': list(range(50))}})
        payloads.append(p)
        wrap = ['TOOL_CALL\n{}', '<tool_call>\n{}\n</tool_call>', '```json\n{}\n```', '[TOOL_CALLS][{}]'][i % 4]
        parts.append(f'Step {i}: I will now write the module, explaining why at some length. ' * 3 + '\n' + wrap.format(p) + '\n')
        i += 1
    return ''.join(parts), payloads

def throughput():
    text,payloads = response()
    p = ToolCallParser(max_payload_chars=100_000)
    assert len(p.parse(text).tool_calls) == len(payloads)
    ts_parse,ts_json = interleaved([lambda: p.parse(text), lambda: [json.loads(s) for s in payloads]])
    t_parse,t_json = min(ts_parse),min(ts_json)
    med = statistics.median(a/b for a,b in zip(ts_parse, ts_json))
    def streamed(n=256):
        sp = StreamParser(parser=p)
        for i in range(0, len(text), n): sp.feed(text[i:i+n])
        sp.close()
    t_stream = best(streamed)[0]
    mb = len(text)/1e6
    print(f'clean input: {mb:.2f} MB, {len(payloads)} calls')
    print(f'  json.loads of the payloads  {mb/t_json:7.1f} MB/s')
    print(f'  ToolCallParser.parse        {mb/t_parse:7.1f} MB/s   ratio vs json.loads {t_parse/t_json:.2f}x (target <= 3x)')
    print(f'    (best of {len(ts_parse)} interleaved rounds each; median of the per-round ratios {med:.2f}x)')
    print(f'  StreamParser, 256-char feed {mb/t_stream:7.1f} MB/s   ratio vs json.loads {t_stream/t_json:.2f}x')

def corpus():
    "Throughput on real model output: parse, and StreamParser fed 7-char chunks, against json.loads of the same texts as JSON strings"
    if CORPUS is None: return print('corpus: ../shared/corpus/toolcall_corpus.json not found (set FNCALL_CORPUS); skipped')
    texts = [c['text'] for c in load()]
    js = [json.dumps(t) for t in texts]
    n = sum(map(len, texts))/1e6
    p = ToolCallParser()
    def streamed():
        for t in texts:
            sp = StreamParser(parser=p)
            for i in range(0, len(t), 7): sp.feed(t[i:i+7])
            sp.close()
    ts_json,ts_parse,ts_stream = interleaved([lambda: [json.loads(s) for s in js], lambda: [p.parse(t) for t in texts], streamed], n=9)
    t_json,t_parse,t_stream = min(ts_json),min(ts_parse),min(ts_stream)
    print(f'corpus: {len(texts)} texts, {n*1e3:.0f}k chars')
    print(f'  json.loads (the texts as JSON strings) {n/t_json:7.2f} M chars/s')
    print(f'  ToolCallParser.parse                   {n/t_parse:7.2f} M chars/s   {t_parse/t_json:6.1f}x json.loads\'s time')
    print(f'  StreamParser, 7-char chunks            {n/t_stream:7.2f} M chars/s   {t_stream/t_json:6.1f}x json.loads\'s time')

ADVERSARIAL = {
    '{ repeated': lambda n: '{' * n,
    '[ repeated': lambda n: '[' * n,
    '"TOOL_CALL {" repeated': lambda n: 'TOOL_CALL {' * (n // 11),
    '<tool_call> repeated': lambda n: '<tool_call>' * (n // 11),
    'unclosed string': lambda n: 'TOOL_CALL {"tool_name": "x", "parameters": {"a": "' + 'x' * n,
    'deep valid nesting': lambda n: 'TOOL_CALL {"tool_name": "x", "parameters": {"a": ' + '[' * (n // 2) + ']' * (n // 2) + '}}',
    '{" repeated': lambda n: '{"' * (n // 2),
    'backslashes in a string': lambda n: '{"a": "' + '\\' * n,
    '{"a": "\\ (bad escape)': lambda n: '{"a": "\\' * (n // 8),
    'paths with bad escapes': lambda n: 'Path {"p": "C:\\data\\x"} ok\n' * (n // 27),
    'broken JSON, 2k calls': lambda n: ('TOOL_CALL {"tool_name": "f", "parameters": {' + 'a: b, ' * 330 + '}}\n') * (n // 2025),
    'prose braces {x} [y]': lambda n: '{x} [y] ' * (n // 8),
}

def scaling():
    p = ToolCallParser()
    print('\nadversarial scaling (time at 10k / 100k / 1M chars; linear means ratios near 10;'
          '\n  then the share of the 1M time in CPython\'s cyclic GC, and the 100k->1M ratio without it)')
    for name,mk in ADVERSARIAL.items():
        (t0,_),(t1,g1),(t2,g2) = [best(lambda: p.parse(s), n=2 if n == 1_000_000 else 3) for n in (10_000, 100_000, 1_000_000) for s in [mk(n)]]
        print(f'  {name:26} {t0*1e3:8.2f} ms {t1*1e3:8.2f} ms {t2*1e3:9.2f} ms   x{t1/t0:5.1f} x{t2/t1:5.1f}'
              f'   GC {g2/t2:4.0%}, x{(t2-g2)/(t1-g1):5.1f} without')

if __name__ == '__main__':
    corpus()
    throughput()
    scaling()
