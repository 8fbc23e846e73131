"""Slow-answer episodes in `serve`'s request log (issue 20; 2026-12-05c): runs of 100 ms bins in which >= 5 answers
took > 25 ms inside the service, as (start s, length s, slow answers, answers), counted from the log's first answer;
and the gaps between a benchmark's steps (100 ms bins with no answer), which mark where each step began.

    python benchmarks/serve-h200-2026-12-05c/episodes.py LOG.gz [LOG.gz ...]

ab.sh's logs (.serve05c/ab_logs.tgz, git-ignored) and diag.sh's (.serve05c/diag_*.log.gz) were read with it.
"""
import gzip, json, sys
import numpy as np


def runs(mask):
    out, start = [], None
    for i, m in enumerate(list(mask) + [False]):
        if m and start is None:
            start = i
        elif not m and start is not None:
            out.append((start, i - start)); start = None
    return out


for path in sys.argv[1:]:
    ev = [json.loads(l) for l in gzip.open(path, 'rt', errors='replace') if l.startswith('{') and '"event":"request"' in l]
    ev = [e for e in ev if e.get('code') == 200]
    ts = np.array([e['ts'] for e in ev]); tot = np.array([e['total_ms'] for e in ev])
    t0 = ts.min()
    bins = np.floor((ts - t0) * 10).astype(int)
    slow_bins = np.bincount(bins[tot > 25], minlength=bins.max() + 1)
    all_bins = np.bincount(bins, minlength=bins.max() + 1)
    eps = [(s / 10, n / 10, int(slow_bins[s:s + n].sum()), int(all_bins[s:s + n].sum())) for s, n in runs(slow_bins >= 5)]
    gaps = [(s / 10, n / 10) for s, n in runs(all_bins == 0)]
    print(f"{path}: {len(ev)} answers over {ts.max()-t0:.1f} s; p50 {np.median(tot):.1f} p99 {np.percentile(tot, 99):.1f}")
    print("   episodes (start s, length s, slow, all):", eps)
    print("   gaps with no answer (start s, length s):", gaps)
