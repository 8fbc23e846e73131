"""Two trees' readers in one process, frame by frame: the same results, and the time of one against the other.

The old tree (any commit) is unpacked under --work with its package renamed `inference_old`, so both import side by
side; this tree is the new one. Frames alternate which reader goes first (A B B A …), so a shared machine's load falls
on both alike: only the ratios mean anything. Results are compared whole (verdict, reasons, every reading's fields,
lines, spotted values, notes and boxes; times left out); CPU is split into the engines' `infer` and the rest.

    nice .venv/bin/python benchmarks/reader_ab.py --old 9971ce7 --sets s5150,sixth,eleventh --per-set 10 --out /tmp/ab.json
"""

from __future__ import annotations

import argparse
import dataclasses
import enum
import importlib
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
OLD = "inference_old"


def unpack_old(rev: str, work: Path) -> Path:
    """The tree at `rev` (its inference package and resources) under `work`, the package renamed OLD."""
    root = work / f"{OLD}-{rev}"
    if not (root / OLD).is_dir():
        root.mkdir(parents=True, exist_ok=True)
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev, "inference", "resources"], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(root)], input=archive, check=True)
        (root / "inference").rename(root / OLD)
        for path in (root / OLD).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            text = re.sub(r"\binference\.(?=[a-z_])", f"{OLD}.", text)
            text = text.replace("from inference import", f"from {OLD} import").replace('"inference"', f'"{OLD}"')
            path.write_text(re.sub(r"^import inference\b", f"import {OLD}", text, flags=re.M), encoding="utf-8")
    return root


def canon(value):
    """A result as plain values, times left out, floats by repr (every bit)."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: canon(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.name not in ("timings_ms", "timings", "memory", "timestamp", "posteriors")}
    if isinstance(value, enum.Enum):
        return value.value
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): canon(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [canon(v) for v in value]
    if isinstance(value, np.ndarray):
        return [list(value.shape), value.tobytes().hex()]
    if isinstance(value, float):
        return repr(value)
    return value if isinstance(value, (str, int, bool, type(None))) else repr(value)


class EngineClock:
    """CPU spent in the engines' `infer` (on whichever thread runs it), and the recognizer rows run."""

    def __init__(self) -> None:
        self.cpu_s, self.rows = 0.0, 0
        self._lock = threading.Lock()

    def watch(self, engine, rows: bool) -> None:
        run = engine.infer

        def infer(feeds):
            start = time.thread_time()
            out = run(feeds)
            with self._lock:
                self.cpu_s += time.thread_time() - start
                self.rows += next(iter(feeds.values())).shape[0] if rows else 0
            return out

        engine.infer = infer  # the instance attribute shadows the method for this run only


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--old", required=True, help="the commit to compare this tree against")
    parser.add_argument("--sets", required=True, help="test sets under --root, comma separated")
    parser.add_argument("--root", type=Path, default=Path("/tmp/sets"))
    parser.add_argument("--per-set", type=int, default=10, help="nominal frames of each set")
    parser.add_argument("--work", type=Path, default=Path("/tmp/reader_ab"), help="where the old tree is unpacked")
    parser.add_argument("--out", type=Path, required=True, help="per-frame rows (JSON)")
    args = parser.parse_args()

    sys.path.insert(1, str(unpack_old(args.old, args.work)))
    packages = {}
    for name in (OLD, "inference"):
        packages[name] = tuple(importlib.import_module(f"{name}.{module}") for module in ("inspection", "resources", "reading.recipe", "imageio"))
    load_truth = importlib.import_module("inference.cli.verdict_bench").load_truth

    frames = []
    for name in args.sets.split(","):
        _manifest, truth = load_truth(args.root / name)
        frames += [(name, row) for row in truth if row["bucket"] == "nominal"][: args.per_set]
    inspectors, clocks, recipes = {}, {}, {}
    for name, (inspection, resources, _recipe, _io) in packages.items():
        inspectors[name] = inspection.Inspector.open(resources.default_model_path(), None, read=True)
        clocks[name] = clock = EngineClock()
        reader = inspectors[name].reader
        clock.watch(inspectors[name].pipeline.engine, rows=False)
        clock.watch(reader.detector.engine, rows=False)
        for recognizer in (reader.recognizer, reader.rereader):
            if recognizer is not None:
                clock.watch(recognizer.engine, rows=True)
    rows = []
    try:
        for k, (set_name, row) in enumerate(frames):
            found = {}
            for name in ((OLD, "inference") if k % 2 == 0 else ("inference", OLD)):
                _inspection, _resources, recipe_module, imageio = packages[name]
                key = (name, set_name, row["job"])
                if key not in recipes:
                    recipes[key] = recipe_module.load_recipe(args.root / set_name / row["recipe"])
                inspector, clock = inspectors[name], clocks[name]
                inspector.recipe = recipes[key]
                image = imageio.read_image(args.root / set_name / row["image"])
                engines, rows_run = clock.cpu_s, clock.rows
                cpu, wall = time.process_time(), time.perf_counter()
                result = inspector.inspect_image(image, source_name=row["image"])
                wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
                found[name] = {"result": (canon(result.verdict), canon(result.readings)), "ms": 1000 * wall, "cpu": 1000 * cpu,
                               "engines": 1000 * (clock.cpu_s - engines), "rows": clock.rows - rows_run}
            same = found[OLD]["result"] == found["inference"]["result"]
            rows.append({"set": set_name, "image": row["image"], "same": same, "load": os.getloadavg()[0],
                         **{f"{side}_{m}": found[name][m] for side, name in (("old", OLD), ("new", "inference"))
                            for m in ("ms", "cpu", "engines", "rows")}})
            print(f"{set_name} {row['image']} {'same' if same else 'DIFFERENT'} {found[OLD]['ms']:.0f} {found['inference']['ms']:.0f} ms",
                  file=sys.stderr)
    finally:
        for inspector in inspectors.values():
            inspector.close()
    args.out.write_text(json.dumps(rows, indent=0) + "\n", encoding="utf-8")
    timed = rows[1:]  # the first frame warms both
    print(f"{sum(r['same'] for r in rows)} of {len(rows)} frames the same; load {min(r['load'] for r in rows):.1f}-{max(r['load'] for r in rows):.1f}")
    print(f"recognizer rows run: old {sum(r['old_rows'] for r in rows)}, new {sum(r['new_rows'] for r in rows)}")
    for m in ("ms", "cpu", "engines", "outside"):
        pick = (lambda r, side: r[f"{side}_cpu"] - r[f"{side}_engines"]) if m == "outside" else (lambda r, side, m=m: r[f"{side}_{m}"])
        old = np.array([pick(r, "old") for r in timed])
        new = np.array([pick(r, "new") for r in timed])
        print(f"{m:8} p50 {np.median(old):7.1f} -> {np.median(new):7.1f} ({np.median(new) / np.median(old):.3f})   "
              f"mean {old.mean():7.1f} -> {new.mean():7.1f} ({new.mean() / old.mean():.3f})")
    return 0 if all(r["same"] for r in rows) else 1


if __name__ == "__main__":
    raise SystemExit(main())
