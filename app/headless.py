"""The station without a screen: the same inspection over a source, results printed as lines."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np

from inference.errors import HangtagError
from inference.inspection import Inspector
from inference.sources import open_source


def run_headless(source: str, model: Path, backend: str | None, recipe: Path | None, *, read: bool = True,
                 out=sys.stdout, err=sys.stderr) -> int:
    """0 when the source was inspected to its end; 2, with the reason on `err`, when the model, recipe or
    source cannot be used (results printed before a source broke off stay printed)."""
    try:
        return _inspect(source, model, backend, recipe, read, out)
    except HangtagError as exc:
        print(f"error: {exc}", file=err)
        return 2


def _inspect(source: str, model: Path, backend: str | None, recipe: Path | None, read: bool, out) -> int:
    with Inspector.open(model, backend, recipe_path=recipe, read=read) as inspector:
        print(f"Hangtag Station (headless) — model {model.name}, backend {inspector.pipeline.backend}, "
              f"recipe {inspector.recipe_name or 'none'}", file=out)
        counts: dict[str, int] = {}
        totals: list[float] = []
        for result in inspector.run(open_source(source)):
            print(inspector.describe(result), file=out)
            key = inspector.verdict_text(result)
            counts[key] = counts.get(key, 0) + 1
            if result.ok:
                totals.append(result.timings.total_ms)
        detect = inspector.pipeline.stats.summary().get("total", {})
        p50, p95 = (float(v) for v in np.percentile(totals, [50, 95])) if totals else (0.0, 0.0)
        print("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
              + f"; per frame p50 {p50:.0f} ms, p95 {p95:.0f} ms"
              + (f" (detection alone p50 {detect.get('p50', 0):.0f} ms)" if inspector.reader else ""), file=out)
    return 0
