"""Where a tag's verdict latency goes on a live replay: each tag's own timeline, from the line's own events.

Runs line-bench's `run_recording` and records, per track, when (perf_counter) each of these happened:
the tag's first and last detection, each shot sent to the reader (attempt, leaving or in view), each read's start and
end (wall and the reading thread's CPU seconds), the line's "left" (`_leave`), and the verdict (`verdict_of`). It
also records every detection step (start, duration, whether the belt's speed was known then). Each track is matched to
its truth tag as line-bench matches verdicts, and every time is given relative to when the tag fully left the view
(the source's delivery of the frame after its last visible one): negative is before it left.

Usage, from a tree copy (nice -n 10, one run at a time; PYTHONPATH=. or the venv's editable install runs
/work/main's code, not the copy's):

    PYTHONPATH=. python benchmarks/line-latency-2026-12-05b/timeline_probe.py camera:REC/line.avi OUT.json \
        [--belt-px-per-s V]
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from inference.cli import line_bench
from inference.inspection import Inspector
from inference.pipeline import Pipeline
from inference.reading.recipe import load_recipe
from inference.resources import default_model_path
from inference.tracking import line as line_module
from inference.tracking import worker as worker_module


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("source")
    parser.add_argument("out", type=Path)
    parser.add_argument("--belt-px-per-s", type=float, default=None)
    args = parser.parse_args()
    video = Path(args.source.split(":", 1)[-1])
    truth = line_bench.load_truth(video.parent / "truth.json")
    recipe = load_recipe(video.parent / "recipe.toml")
    events: dict[int, dict] = {}
    steps: list[dict] = []

    def tag(track_id: int) -> dict:
        return events.setdefault(track_id, {"sent": [], "reads": [], "seen": []})

    submit, read_shot = worker_module.ReadWorker.submit, worker_module.read_shot
    inspector_class = line_module.LineInspector
    leave, seen, step = inspector_class._leave, inspector_class._seen, inspector_class.step
    verdict_of = line_module.verdict_of
    lines: list = []

    def submit_(self, shot):
        tag(shot.track_id)["sent"].append({"t": time.perf_counter(), "frame": shot.frame, "attempt": shot.attempt,
                                           "leaving": shot.leaving, "focus": round(shot.focus, 1)})
        return submit(self, shot)

    def read_shot_(reader, recipe_, shot):
        t0, c0 = time.perf_counter(), time.thread_time()
        read = read_shot(reader, recipe_, shot)
        tag(shot.track_id)["reads"].append({"start": t0, "end": time.perf_counter(), "frame": shot.frame,
                                            "cpu_s": time.thread_time() - c0, "attempt": shot.attempt,
                                            "verdict": read.verdict.verdict.value})
        return read

    def leave_(self, track_id, now):
        if track_id in self._live:
            tag(track_id)["left"] = time.perf_counter()
        return leave(self, track_id, now)

    def seen_(self, track_id, frame, *a, **kw):
        tag(track_id)["seen"].append(frame)
        return seen(self, track_id, frame, *a, **kw)

    def step_(self, frame, image, detections=None):
        if not lines:
            lines.append(self)
        t0 = time.perf_counter()
        known = self.tracker is not None and self.tracker.belt_known
        out = step(self, frame, image, detections)
        steps.append({"frame": frame, "t": t0, "s": time.perf_counter() - t0, "belt_known": known})
        return out

    def verdict_of_(record, **kw):
        v = verdict_of(record, **kw)
        tag(record.track_id)["verdict"] = {"t": time.perf_counter(), "object": v}
        return v

    worker_module.ReadWorker.submit, worker_module.read_shot = submit_, read_shot_
    line_module.LineInspector._leave, line_module.LineInspector._seen = leave_, seen_
    line_module.LineInspector.step, line_module.verdict_of = step_, verdict_of_
    delivered: dict = {}
    grabber = line_bench._Newest.__init__

    def newest_init(self, *a, **kw):
        grabber(self, *a, **kw)
        self.delivered = delivered

    line_bench._Newest.__init__ = newest_init
    with Inspector.around(Pipeline.open(default_model_path()), read=True, recipe=recipe) as inspector:
        inspector.reader.read(np.full((720, 1280, 3), 128, np.uint8))
        result = line_bench.run_recording(inspector, args.source, truth, look_frames=3,
                                          belt_px_per_s=args.belt_px_per_s)
    fps = float(truth["fps"])
    start = min((t - i / fps for i, t in delivered.items()), default=0.0)
    first_known = next((s for s in steps if s["belt_known"]), None)
    rows = []
    for track_id, e in sorted(events.items()):
        v = e.get("verdict")
        if v is None:
            continue
        t = line_bench.match_verdict(truth, v["object"])
        if t is None:
            continue
        gone = delivered.get(t["last_frame"] + 1, start + (t["last_frame"] + 1) / fps)
        rel = lambda x: None if x is None else round(x - gone, 3)  # noqa: E731
        rows.append({
            "tag": t["id"], "track": track_id, "expected": t["expected_verdict"], "verdict": v["object"].verdict.value,
            "truth_frames": [min(t["by_frame"]), t["last_frame"]], "seen_frames": [min(e["seen"]), max(e["seen"])]
            if e["seen"] else None, "detections": len(e["seen"]),
            "left": rel(e.get("left")), "verdict_at": rel(v["t"]),
            "sent": [{**s, "t": rel(s["t"])} for s in e["sent"]],
            "reads": [{**r, "start": rel(r["start"]), "end": rel(r["end"]), "wall_s": round(r["end"] - r["start"], 3),
                       "cpu_s": round(r["cpu_s"], 3)} for r in e["reads"]],
        })
    summary = {"source": args.source, "belt_px_per_s": args.belt_px_per_s,
               "belt_known_from": None if first_known is None else {"frame": first_known["frame"],
                                                                     "t": round(first_known["t"] - start, 3)},
               "steps": len(steps), "step_s_p50": float(np.median([s["s"] for s in steps])) if steps else None,
               "line_bench": {k: v for k, v in result.items() if k not in ("rows", "false")}, "tags": rows,
               "step_frames": [s["frame"] for s in steps]}
    args.out.write_text(json.dumps(summary, indent=1) + "\n", encoding="utf-8")
    for r in rows:
        reads = " ".join(f"[{x['attempt']}:{x['start']:+.2f}..{x['end']:+.2f} w{x['wall_s']:.2f} c{x['cpu_s']:.2f}"
                         f" {x['verdict']}]" for x in r["reads"])
        sent = " ".join(f"{s['t']:+.2f}{'L' if s['leaving'] else ''}" for s in r["sent"])
        print(f"#{r['tag']:2d} {r['expected']:6s}->{r['verdict']:6s} det {r['detections']:3d} left {r['left']} "
              f"verdict {r['verdict_at']} sent {sent} reads {reads}")
    lb = summary["line_bench"]
    print(json.dumps({k: lb[k] for k in ("latency_s", "frames_inspected", "frames_followed", "reader_cpu_share",
                                         "load_average", "correct", "missed", "duplicates")}),
          "belt known from", summary["belt_known_from"])


if __name__ == "__main__":
    main()
