"""How much sooner a leaving tag's verdict comes now that the reading thread gives it as its read lands
(LineInspector(on_verdict=...)) than at the detection loop's next step, on a live replay.

Runs line-bench's own `run_recording` (with the line-bench patch of this folder: on_verdict passed) and records, for
every verdict given on the reading thread, when it was given and when the loop's next `step`/`follow` returned
(when the verdict would have come before). Usage, from a tree with the patch applied:

    nice -n 10 python benchmarks/line-lone-symbols-2026-12-05/wake_probe.py camera:REC/line.avi OUT.json
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

import numpy as np

from inference.cli.line_bench import load_truth, run_recording
from inference.inspection import Inspector
from inference.pipeline import Pipeline
from inference.reading.recipe import load_recipe
from inference.resources import default_model_path
from inference.tracking import line as line_module


def main(spec: str, out: Path) -> None:
    video = Path(spec.split(":", 1)[-1])
    truth = load_truth(video.parent / "truth.json")
    recipe = load_recipe(video.parent / "recipe.toml")
    returns: list[float] = []  # when each step/follow of the loop returned
    woken: list[tuple[float, str]] = []  # when a verdict was given on the reading thread
    original_init, step, follow = (line_module.LineInspector.__init__, line_module.LineInspector.step,
                                   line_module.LineInspector.follow)

    def init(self, *args, on_verdict=None, **kw):
        def given(verdict):
            woken.append((time.perf_counter(), threading.current_thread().name))
            on_verdict(verdict)
        original_init(self, *args, on_verdict=given if on_verdict else None, **kw)

    def timed(method):
        def call(self, *args, **kw):
            try:
                return method(self, *args, **kw)
            finally:
                returns.append(time.perf_counter())
        return call

    line_module.LineInspector.__init__ = init
    line_module.LineInspector.step, line_module.LineInspector.follow = timed(step), timed(follow)
    with Inspector.around(Pipeline.open(default_model_path()), read=True, recipe=recipe) as inspector:
        inspector.reader.read(np.full((720, 1280, 3), 128, np.uint8))
        result = run_recording(inspector, spec, truth, look_frames=3)
    on_reader = [t for t, name in woken if name == "tag-reader"]
    saved = [next((r for r in returns if r >= t), t) - t for t in on_reader]
    summary = {"source": spec, "verdicts": len(woken), "given_on_the_reading_thread": len(on_reader),
               "sooner_s": {"p50": float(np.percentile(saved, 50)) if saved else None,
                            "p95": float(np.percentile(saved, 95)) if saved else None,
                            "max": max(saved) if saved else None, "all": [round(s, 3) for s in saved]},
               "line_bench": {k: result[k] for k in ("tags", "tags_seen", "correct", "duplicates", "missed",
                                                      "false_verdicts", "latency_s", "load_average",
                                                      "frames_inspected", "step_ms_p50")}}
    out.write_text(json.dumps(summary, indent=2) + "\n", encoding="utf-8")
    print(json.dumps({k: v for k, v in summary.items() if k != "sooner_s"} | {"sooner_s": {
        k: v for k, v in summary["sooner_s"].items() if k != "all"}}, indent=1))


if __name__ == "__main__":
    main(sys.argv[1], Path(sys.argv[2]))
