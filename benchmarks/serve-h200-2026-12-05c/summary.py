"""The A/B of ab.sh (issue 20; 2026-12-05c) as tables: one row per gpu_serve.py run, then the batching ratio and
the overload test, read from the JSON lines the call brought back.

    python benchmarks/serve-h200-2026-12-05c/summary.py ab_runs.jsonl

Per run: the rate served at 3 000/s offered (and how many requests left late: a late generator measures itself),
each step of the search (rate, P50/P99, share refused), the rate found and whether it held P99 <= 25 ms with < 1 %
refused, and the 5 s at 80 % of it (rate, P50/P95/P99, codes). Issue 20 asks, on the H200: >= 1 500/s sustainable
with P99 <= 25 ms at 80 %, and batching >= 2.5x batch 1 at the same bound.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path


def run_rows(runs: list[dict]) -> list[str]:
    out = ["| arm | batch | round | served at 3 000/s | late sends | search steps: rate (P50 / P99 ms, refused) | "
           "rate found | bound met | at 80 %: rate, P50 / P95 / P99 ms | codes at 80 % |",
           "|---|---|---|---|---|---|---|---|---|---|"]
    for run in runs:
        for row in run.get("rows", []):
            sat, at80 = row["saturated"], row.get("at_80pct", {})
            ok = at80.get("ok_latency_ms", {})
            steps = "; ".join(f"{s['rate']:.0f} ({s['p50_ms']} / {s['p99_ms']}, {s['refused_share']:.1%})"
                              for s in row.get("search", []))
            out.append(f"| {run['arm']} | {run['batch']} | {run['round']} | {sat['ok_rate']:.0f}/s | "
                       f"{sat['late_sends']} of {sat['sent']} | {steps} | {row['sustainable']:.0f}/s | "
                       f"{row['bound_met']} | {at80.get('ok_rate', 0):.0f}/s, {ok.get('p50')} / {ok.get('p95')} / "
                       f"{ok.get('p99')} | {at80.get('codes')} |")
        if "error" in run:
            out.append(f"| {run['arm']} | {run['batch']} | {run['round']} | {run['error']} |||||||")
    return out


def batching(runs: list[dict]) -> list[str]:
    found: dict[tuple[str, int], list[float]] = {}
    for run in runs:
        for row in run.get("rows", []):
            if row.get("bound_met"):
                found.setdefault((run["arm"], run["batch"]), []).append(row["sustainable"])
    out = []
    for arm in sorted({a for a, _ in found}):
        b8, b1 = found.get((arm, 8), []), found.get((arm, 1), [])
        ratio = f"{max(b8) / max(b1):.2f}x" if b8 and b1 else "not known (a batch held no bound)"
        out.append(f"- {arm}: rate found within the bound, batch 8 {b8}, batch 1 {b1}: best batch 8 / best batch 1 = {ratio}")
    return out


def overload(runs: list[dict]) -> list[str]:
    out = []
    for run in runs:
        over = run.get("overload")
        if not over:
            continue
        client, inside = over["client"], over["rejected_in_service_ms"]
        ok = client.get("ok_latency_ms", {})
        out.append(f"- {run['arm']}: offered {over['offered']:.0f}/s at batch {over['max_batch']}: codes {client['codes']}, "
                   f"served {client['ok_rate']}/s; accepted P50 {ok.get('p50')} P99 {ok.get('p99')} ms "
                   f"(P99 <= 2x P50: {bool(ok) and ok['p99'] <= 2 * ok['p50']}); 503s in the service {inside}; "
                   f"503s at the client {client.get('rejected_latency_ms')}; exit {over['exit_code']}")
    return out


def main() -> int:
    runs = [json.loads(line) for line in Path(sys.argv[1]).read_text().splitlines() if line.strip()]
    print("\n".join(run_rows(runs)))
    print("\n".join(["", "Batching at the bound:", *batching(runs), "", "Overload:", *(overload(runs) or ["- not run"])]))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
