"""How often a tag's reads feed an OCR network the same pixels twice: every text-detector, recognizer and small-print
recognizer call of each frame logged (its input's hash, shape, calling stages, time), and the repeats counted.

A call repeats when its whole input is one the frame fed that network before; a recognizer row repeats when the
same line at the same padded width was read before in the frame (a row's read depends on nothing else in its call);
"same content" counts a line's pixels read again at any width (the padding stripped).

    nice .venv/bin/python benchmarks/read_repeats.py --sets s5150,sixth,eleventh --per-set 10 --log /tmp/calls.jsonl

`--log` keeps the raw calls (one JSON line each) for a closer look. A tag memo that answered such repeats without a
call was measured on branch speed20 (twentieth session, BENCHMARKS.md) and not merged: repeats were 1.2 % of lines.
"""

from __future__ import annotations

import argparse
import collections
import concurrent.futures
import hashlib
import json
import sys
import threading
import time
import traceback
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

_local = threading.local()


def _stages() -> str:
    """The reading stages above this point (inference/reading modules, not the OCR package), outermost first."""
    names = [f.name for f in traceback.extract_stack() if "/inference/reading/" in f.filename and "/ocr/" not in f.filename]
    return ">".join(names[-6:])


def _content(row: np.ndarray) -> str:
    """A recognizer row's hash without its right padding (zeros: no pixel normalizes to exactly 0)."""
    used = np.flatnonzero(np.any(row != 0, axis=(0, 1)))
    width = int(used[-1]) + 1 if used.size else 0
    return hashlib.sha1(np.ascontiguousarray(row[:, :, :width]).tobytes()).hexdigest()[:16]


class CallLog:
    def __init__(self) -> None:
        self.calls: list[dict] = []
        self.frame = ""
        self._lock = threading.Lock()

    def watch(self, engine, model: str) -> None:
        run = engine.infer

        def infer(feeds):
            (x,) = feeds.values()
            stages = getattr(_local, "stages", None) or _stages()
            start = time.perf_counter()
            out = run(feeds)
            ms = (time.perf_counter() - start) * 1000
            rows = [] if model == "det" else [hashlib.sha1(x[i].tobytes()).hexdigest()[:16] for i in range(x.shape[0])]
            content = [] if model == "det" else [_content(x[i]) for i in range(x.shape[0])]
            with self._lock:
                self.calls.append({"frame": self.frame, "model": model, "hash": hashlib.sha1(x.tobytes()).hexdigest()[:16],
                                   "shape": list(x.shape), "rows": rows, "content": content, "stages": stages, "ms": round(ms, 2)})
            return out

        engine.infer = infer  # the instance attribute shadows the method for this run only


def _stages_into_pool_threads() -> None:
    """The recognizer runs its calls on a pool: the calling stages are handed to the pool's threads."""
    from inference.reading.ocr import recognizer

    recognize_only = recognizer.TextRecognizer.recognize_only

    def traced(self, *args, **kwargs):
        _local.stages = _stages()
        try:
            return recognize_only(self, *args, **kwargs)
        finally:
            _local.stages = None

    recognizer.TextRecognizer.recognize_only = traced
    pool_map = concurrent.futures.ThreadPoolExecutor.map

    def mapped(pool, fn, *iterables, **kwargs):
        stages = getattr(_local, "stages", None)

        def with_stages(*args):
            _local.stages = stages
            try:
                return fn(*args)
            finally:
                _local.stages = None

        return pool_map(pool, with_stages, *iterables, **kwargs)

    concurrent.futures.ThreadPoolExecutor.map = mapped


def summarize(calls: list[dict]) -> dict:
    frames: dict[str, list[dict]] = collections.defaultdict(list)
    for call in calls:
        frames[call["frame"]].append(call)
    out: collections.Counter = collections.Counter()
    by_stage: collections.Counter = collections.Counter()
    for frame_calls in frames.values():
        seen: set = set()
        for call in frame_calls:
            model = call["model"]
            out[f"{model} calls"] += 1
            out[f"{model} ms"] += call["ms"]
            by_stage[(model, ">".join(call["stages"].split(">")[-2:]))] += len(call["rows"]) or 1
            if (model, call["hash"]) in seen:
                out[f"{model} calls repeated"] += 1
                out[f"{model} ms repeated"] += call["ms"]
            seen.add((model, call["hash"]))
            for row, content in zip(call["rows"], call["content"]):
                out[f"{model} rows"] += 1
                out[f"{model} rows repeated"] += (model, row, call["shape"][3]) in seen
                out[f"{model} rows same content"] += (model, "content", content) in seen
                seen.update({(model, row, call["shape"][3]), (model, "content", content)})
        out["frames with a repeated call"] += len({(c["model"], c["hash"]) for c in frame_calls}) < len(frame_calls)
    return {"frames": len(frames), **{k: round(v, 1) for k, v in sorted(out.items())},
            "rows or calls by stage": {f"{m} {s}": n for (m, s), n in by_stage.most_common()}}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sets", required=True, help="test sets under --root, comma separated")
    parser.add_argument("--root", type=Path, default=Path("/tmp/sets"))
    parser.add_argument("--per-set", type=int, default=10, help="nominal frames of each set")
    parser.add_argument("--log", type=Path, help="write every call here (JSON lines)")
    args = parser.parse_args()

    from inference.cli.verdict_bench import load_truth
    from inference.imageio import read_image
    from inference.inspection import Inspector
    from inference.reading.recipe import load_recipe
    from inference.resources import default_model_path

    _stages_into_pool_threads()
    log = CallLog()
    with Inspector.open(default_model_path(), None, read=True) as inspector:
        reader = inspector.reader
        log.watch(reader.recognizer.engine, "rec")
        log.watch(reader.detector.engine, "det")
        if reader.rereader is not None:
            log.watch(reader.rereader.engine, "reread")
        for name in args.sets.split(","):
            data = args.root / name
            _manifest, truth = load_truth(data)
            recipes: dict[str, object] = {}
            for row in [r for r in truth if r["bucket"] == "nominal"][: args.per_set]:
                if row["job"] not in recipes:
                    recipes[row["job"]] = load_recipe(data / row["recipe"])
                inspector.recipe = recipes[row["job"]]
                log.frame = f"{name}/{row['image']}"
                inspector.inspect_image(read_image(data / row["image"]), source_name=row["image"])
    if args.log:
        args.log.write_text("".join(json.dumps(c) + "\n" for c in log.calls), encoding="utf-8")
    print(json.dumps(summarize(log.calls), ensure_ascii=False, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
