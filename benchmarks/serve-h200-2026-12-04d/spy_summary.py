"""Who holds the GIL, from `py-spy record --gil --threads --format raw` (issue 20; 2026-12-04d): only a thread holding
the GIL is sampled, so a thread's samples over the window's (seconds x rate) are its share of holding it.

    python spy_summary.py gil_owner.txt[.gz] [--seconds 4 --rate 200]"""

from __future__ import annotations

import argparse
import collections
import gzip
import re

parser = argparse.ArgumentParser()
parser.add_argument("path")
parser.add_argument("--seconds", type=float, default=4.0)
parser.add_argument("--rate", type=float, default=200.0)
args = parser.parse_args()
opener = gzip.open if args.path.endswith(".gz") else open
threads: collections.Counter = collections.Counter()
leaves: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
with opener(args.path, "rt") as f:
    for line in f:
        stack, _, count = line.rstrip("\n").rpartition(" ")
        if not stack.startswith("thread ("):
            continue
        frames = stack.split(";")
        name = re.sub(r"^thread \(\d+\): ", "", frames[0])
        name = re.sub(r"_\d+$", "", name)  # executor threads: inference-0_0 -> inference-0
        threads[name] += int(count)
        leaf = next((fr for fr in reversed(frames[1:]) if "(inference/" in fr or "(benchmarks/" in fr), frames[-1])
        leaves[name][re.sub(r" \(.*", "", leaf)] += int(count)
possible = args.seconds * args.rate
total = sum(threads.values())
print(f"GIL held in {total} of ~{possible:.0f} samples ({total / possible:.0%}); free ~{1 - total / possible:.0%}")
for name, n in threads.most_common():
    top = ", ".join(f"{k} {v}" for k, v in leaves[name].most_common(4))
    print(f"  {name}: {n} ({n / possible:.0%}); {top}")
