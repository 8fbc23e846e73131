"""The station without a screen: the same inspection over a source, results printed as lines."""

from __future__ import annotations

import sys
from pathlib import Path

from inference.inspection import Inspector
from inference.sources import open_source


def run_headless(source: str, model: Path, backend: str | None, recipe: Path | None, *, read: bool = True,
                 out=sys.stdout) -> int:
    with Inspector.open(model, backend, recipe_path=recipe, read=read) as inspector:
        print(f"Hangtag Station (headless) — model {model.name}, backend {inspector.pipeline.backend}, "
              f"recipe {inspector.recipe_name or 'none'}", file=out)
        counts: dict[str, int] = {}
        for result in inspector.run(open_source(source)):
            print(inspector.describe(result), file=out)
            key = inspector.verdict_text(result)
            counts[key] = counts.get(key, 0) + 1
        stats = inspector.pipeline.stats.summary().get("total", {})
        print("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
              + f"; latency p50 {stats.get('p50', 0):.1f} ms, p95 {stats.get('p95', 0):.1f} ms", file=out)
    return 0
