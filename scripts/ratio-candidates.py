#!/usr/bin/env python3
"""Ways to take a ratio's interval, held against the next runs: the table of docs/figures.md.

    scripts/ratio-candidates.py DIR [DIR ...]

Each DIR holds the JSON files of several `bench run --scenario parse` runs made with the same
settings (`--output-dir DIR`). For four ratios (libxml2 ÷ c-libxml2, expat ÷ c-expat,
expat ÷ c-libxml2, Foundation ÷ c-libxml2) and four ways of pairing the two sides — the workers'
medians paired by round (what `bench run` does), the same with each worker paired with the
reference worker nearest in the run's order, each side divided by its own calibration, every parse
its own pair — it computes each run's 95% interval (Hodges–Lehmann with the Wilcoxon signed-rank
test, from the run's parses that kept the CPU) and counts how often it holds the other runs' ratios.
"""
import json, math, sys, glob, statistics as st
from functools import lru_cache

@lru_cache(None)
def signed_rank_cdf(n):
    # counts of T = sum of ranks with positive sign, T in 0..n(n+1)/2
    m = n*(n+1)//2
    c = [0]*(m+1); c[0] = 1
    for k in range(1, n+1):
        for t in range(m, k-1, -1):
            c[t] += c[t-k]
    tot = 2**n; acc = 0; out = []
    for v in c:
        acc += v; out.append(acc/tot)
    return out

def hl_interval(d, level=0.95):
    n = len(d)
    w = sorted((d[i]+d[j])/2 for i in range(n) for j in range(i, n))
    N = len(w); a = (1-level)/2
    if n <= 60:
        cdf = signed_rank_cdf(n)
        # c = the largest t with P(T <= t) <= a; the interval is w[c] .. w[N-1-c] (0-based), as
        # BenchResults' RankStatistics takes it.
        k = 0
        while k+1 < len(cdf) and cdf[k+1] <= a: k += 1
    else:
        z = 1.959963985 if level == 0.95 else 2.5758
        mu = n*(n+1)/4; sd = math.sqrt(n*(n+1)*(2*n+1)/24)
        k = max(0, int(math.floor(mu - z*sd)))
    return st.median(w), w[k], w[N-1-k]

def load(path):
    d = json.load(open(path))
    order = [c['cell']['parser'] for c in d['cells'] if c['cell']['scenario'] == 'parse']
    by = {}
    for s in d['samples']:
        c = s['cell']
        if c['scenario'] != 'parse' or s.get('preempted'): continue
        by.setdefault((c['parser'], s['round']), []).append(s)
    return d, order, by

def worker_value(samples, calibrated):
    if calibrated: return st.median(s['wallNs']/s['calibrationNs'] for s in samples)
    return st.median(s['wallNs'] for s in samples)

def candidates(path, x, ref):
    d, order, by = load(path)
    rounds = sorted({r for (p, r) in by if p == x and by[(p, r)]} & {r for (p, r) in by if p == ref and by[(p, r)]})
    n = len(order)
    out = {}
    out['worker medians (today)'] = [math.log(worker_value(by[(x,r)],0)/worker_value(by[(ref,r)],0)) for r in rounds]
    out['÷ own calibration'] = [math.log(worker_value(by[(x,r)],1)/worker_value(by[(ref,r)],1)) for r in rounds]
    pp = []
    for r in rounds:
        a = {s['iteration']: s['wallNs'] for s in by[(x,r)]}; b = {s['iteration']: s['wallNs'] for s in by[(ref,r)]}
        pp += [math.log(a[i]/b[i]) for i in a if i in b]
    out['parse pairs'] = pp
    # nearest in time: the reference worker closest in the run's order
    def slot(p, r): return (r-1)*n + (order.index(p) - (r-1)) % n
    refslots = {slot(ref, r): r for r in rounds}
    near = []
    for r in rounds:
        sx = slot(x, r)
        best = min(refslots, key=lambda s: (abs(s-sx), s))
        near.append(math.log(worker_value(by[(x,r)],0)/worker_value(by[(ref,refslots[best])],0)))
    out['nearest reference worker'] = near
    return out

def main():
    groups = sys.argv[1:]
    if not groups:
        sys.exit(__doc__)
    pairs = [('libxml2','c-libxml2'), ('expat','c-expat'), ('expat','c-libxml2'), ('foundation','c-libxml2')]
    for g in groups:
        files = sorted(glob.glob(g + '/*.json'))
        files = [f for f in files if not f.endswith('-documents.json') and not f.endswith('latest.json')]
        print(f'== {g}: {len(files)} runs')
        allr = {}
        for f in files:
            for (x, ref) in pairs:
                c = candidates(f, x, ref)
                for name, ds in c.items():
                    if len(ds) < 6:
                        print(f'  (left out: {f}, {x} ÷ {ref}, {name}: {len(ds)} pairs, 6 needed)')
                        continue
                    allr.setdefault((x, ref, name), []).append(hl_interval(ds))
        for (x, ref) in pairs:
            for name in ['worker medians (today)', '÷ own calibration', 'parse pairs', 'nearest reference worker']:
                iv = allr[(x, ref, name)]
                cover = tot = 0
                for i, (e, lo, hi) in enumerate(iv):
                    for j, (e2, _, _) in enumerate(iv):
                        if i != j:
                            tot += 1; cover += lo <= e2 <= hi
                hw = st.median((hi-lo)/2 for _, lo, hi in iv)
                pts = [math.exp(e) for e, _, _ in iv]
                print(f'{x}÷{ref:10s} {name:26s} coverage {cover:3d}/{tot} half-width ±{100*hw:4.1f}%  ratios {min(pts):.3f}–{max(pts):.3f}')

main()
