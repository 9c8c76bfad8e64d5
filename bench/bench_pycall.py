"Throughput of parse_function_call against ast.literal_eval of the same argument values. Run: python bench/bench_pycall.py"
import ast, random, time
from fncall.pycall import parse_function_call, parse_function_calls

def mk_args(rnd, size):
    "Keyword arguments of roughly `size` leaves: strings, numbers, booleans, None, lists and dicts"
    def val(d):
        r = rnd.random()
        if d < 2 and r < .15: return [val(d+1) for _ in range(rnd.randint(1, 4))]
        if d < 2 and r < .3: return {f'k{i}': val(d+1) for i in range(rnd.randint(1, 4))}
        return rnd.choice([rnd.randint(-10**6, 10**6), rnd.random() * 100, True, None, f'text {rnd.random():.6f} "quoted"'])
    return {f'arg{i}': val(0) for i in range(size)}

def race(fa, xa, fb, xb, reps=7):
    "Best times of `fa` over items `xa` and `fb` over `xb`, measured alternately so machine load hits both alike"
    ta, tb = [], []
    for _ in range(reps):
        for f, xs, ts in ((fa, xa, ta), (fb, xb, tb)):
            t = time.perf_counter()
            for x in xs: f(x)
            ts.append(time.perf_counter() - t)
    return min(ta), min(tb)

def main():
    rnd = random.Random(0)
    print(f"{'workload':<24}{'pycall calls/s':>16}{'literal_eval/s':>16}{'ratio':>8}")
    for label, size, n in [('small (3 args)', 3, 3000), ('medium (12 args)', 12, 1000), ('large (60 args)', 60, 200)]:
        argss = [mk_args(rnd, size) for _ in range(n)]
        calls = [f"tool({', '.join(f'{k}={v!r}' for k, v in a.items())})" for a in argss]
        lits = [repr(a) for a in argss] # the same values as one dict display, for ast.literal_eval
        assert all(parse_function_call(c)['arguments'] == ast.literal_eval(l) for c, l in zip(calls, lits))
        tp, tl = race(parse_function_call, calls, ast.literal_eval, lits)
        print(f"{label:<24}{n/tp:>16,.0f}{n/tl:>16,.0f}{tl/tp:>8.2f}")
    many = '[' + ', '.join(calls[:20]) + ']'
    tm, ts = race(parse_function_calls, [many], parse_function_call, calls[:20], 20)
    print(f"parse_function_calls on a list of 20 large calls: {tm*1e3:.1f} ms; 20 separate parse_function_call: {ts*1e3:.1f} ms")
    print("ratio = pycall throughput / ast.literal_eval throughput (1.00 = as fast; pycall also checks, names and reports positions)")

if __name__ == '__main__': main()
