"""The reader's Python share per tag, and a regression dump that must not move when it is made faster.

Runs the station (detector, reader, recipe) over a tag test set's nominal frames (or `--bucket`'s) and writes every
TagReading and verdict, at full float precision, to a JSON file; `--compare` checks a run against an
earlier dump. With `--memo DIR` every engine call's outputs are kept on disk keyed by its inputs, so a
second run spends its time in Python only: the Python share of a tag is then measured directly, and
a changed input to any engine (a miss) shows a change of behaviour before the dump is even compared.

    .venv/bin/python -m training.tagsets --out /tmp/speedset --count 60 --seed 777
    nice .venv/bin/python benchmarks/reader_python.py --data /tmp/speedset --out /tmp/base.json --memo /tmp/memo
    nice .venv/bin/python benchmarks/reader_python.py --data /tmp/speedset --out /tmp/new.json --memo /tmp/memo \
        --compare /tmp/base.json --profile 25
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import json
import pstats
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


class Memo:
    """Wraps an engine's `infer`: outputs stored per hash of (engine, inputs)."""

    def __init__(self, engine, name: str, folder: Path) -> None:
        self.run, self.name, self.folder = engine.infer, name, folder
        self.hits = self.misses = 0
        self.infer_s = self.infer_cpu_s = 0.0
        folder.mkdir(parents=True, exist_ok=True)

    def infer(self, feeds: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        start, cpu = time.perf_counter(), time.process_time()
        digest = hashlib.sha1(self.name.encode())
        for key in sorted(feeds):
            array = np.ascontiguousarray(feeds[key])
            digest.update(f"{key}{array.dtype}{array.shape}".encode())
            digest.update(array.tobytes())
        path = self.folder / f"{self.name}-{digest.hexdigest()}.npz"
        if path.is_file():
            self.hits += 1
            with np.load(path) as stored:
                out = {k: stored[k] for k in stored.files}
        else:
            self.misses += 1
            out = self.run(feeds)
            np.savez(path, **out)
        self.infer_s += time.perf_counter() - start
        self.infer_cpu_s += time.process_time() - cpu
        return out


def _memoize(inspector, folder: Path) -> list[Memo]:
    memos = []
    for name, owner in (("det", inspector.pipeline), ("ocrdet", inspector.reader.detector),
                        ("ocrrec", inspector.reader.recognizer)):
        memo = Memo(owner.engine, name, folder)
        owner.engine.infer = memo.infer  # the instance attribute shadows the method for this run only
        memos.append(memo)
    return memos


def _exact(value):
    """Everything a reading holds except timings, floats unrounded (JSON keeps their every digit)."""
    if isinstance(value, (float, np.floating)):
        return float(value)
    if isinstance(value, (tuple, list)):
        return [_exact(v) for v in value]
    if isinstance(value, dict) or hasattr(value, "items"):
        return {str(k): _exact(v) for k, v in value.items() if k != "timings_ms"}
    if hasattr(value, "__dataclass_fields__"):
        return {k: _exact(getattr(value, k)) for k in value.__dataclass_fields__ if k not in ("timings_ms", "posteriors")}
    if isinstance(value, np.ndarray):
        return _exact(value.tolist())
    if hasattr(value, "value"):  # enums
        return str(value.value)
    return value if isinstance(value, (str, int, bool, type(None))) else repr(value)


def _same(a, b) -> bool:
    """Equal, floats within 1e-9 relative: a tag's angle moves in its 11th digit from run to run (OpenCV
    and NumPy kernels) and the boxes rotated by it with it; every text, confidence and verdict is exact."""
    if isinstance(a, float) and isinstance(b, float):
        return abs(a - b) <= 1e-9 * max(abs(a), abs(b), 1.0)
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--limit", type=int, default=40, help="frames to read")
    parser.add_argument("--bucket", default="nominal", choices=("nominal", "blurred", "small"), help="the set's camera condition")
    parser.add_argument("--memo", type=Path, help="folder for engine outputs (reused across runs)")
    parser.add_argument("--compare", type=Path, help="an earlier --out: every reading and verdict must be equal")
    parser.add_argument("--judged", action="store_true",
                        help="with --compare: only what the tags are judged on must be equal (each frame's verdict and "
                             "reasons, each tag's field values); counts the readings that differ otherwise")
    parser.add_argument("--profile", type=int, default=0, help="print the top N functions by own time")
    parser.add_argument("--stats", type=Path, help="write the profile (pstats) here, e.g. to compare two trees")
    args = parser.parse_args()

    from inference.imageio import read_image
    from inference.inspection import Inspector
    from inference.reading.recipe import load_recipe
    from inference.resources import default_model_path

    rows = [json.loads(line) for line in (args.data / "truth.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if r["bucket"] == args.bucket][: args.limit]
    dump, read_ms, tags, cpu_s = [], [], 0, 0.0
    outside: list[float] = []  # per frame: CPU seconds per tag outside the engines' infer calls
    profiler = cProfile.Profile() if args.profile or args.stats else None
    with Inspector.open(default_model_path(), None, read=True) as inspector:
        memos = _memoize(inspector, args.memo) if args.memo else []
        recipes: dict[str, object] = {}
        for row in rows:
            if row["job"] not in recipes:
                recipes[row["job"]] = load_recipe(args.data / row["recipe"])
            inspector.recipe = recipes[row["job"]]
            image = read_image(args.data / row["image"])
            if profiler:
                profiler.enable()
            cpu, engines = time.process_time(), sum(m.infer_cpu_s for m in memos)
            result = inspector.inspect_image(image, source_name=row["image"])
            frame_cpu = time.process_time() - cpu
            cpu_s += frame_cpu
            frame_tags = sum(1 for r in result.readings if r.is_tag)
            if frame_tags:
                outside.append((frame_cpu - (sum(m.infer_cpu_s for m in memos) - engines)) / frame_tags)
            if profiler:
                profiler.disable()
            read_ms.append(result.timings.stages_ms.get("read", 0.0) + result.timings.stages_ms.get("judge", 0.0))
            tags += sum(1 for r in result.readings if r.is_tag)
            dump.append({"image": row["image"], "readings": [_exact(r) for r in result.readings],
                         "records": [{k: v for k, v in r.to_record().items() if k != "timings_ms"} for r in result.readings],
                         "verdict": _exact(result.verdict)})
    args.out.write_text(json.dumps(dump, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
    total = sum(read_ms)
    print(f"{len(rows)} frames, {tags} tags; read+judge {total / 1000:.2f} s, {total / max(tags, 1):.1f} ms per tag; "
          f"whole frame {cpu_s:.2f} s of this process's CPU, {1000 * cpu_s / max(tags, 1):.1f} ms per tag")
    if memos:
        print(f"outside the engines (Python, OpenCV, zxing): {1000 * sum(outside) / len(outside):.1f} ms CPU per tag mean, "
              f"{1000 * float(np.median(outside)):.1f} p50 over frames")
    for memo in memos:
        print(f"  engine {memo.name}: {memo.hits} stored, {memo.misses} run, {memo.infer_s:.2f} s in infer (incl. memo I/O), {memo.infer_cpu_s:.2f} s CPU")
    if args.stats:
        profiler.dump_stats(args.stats)
    if args.profile:
        pstats.Stats(profiler).sort_stats("tottime").print_stats(args.profile)
    if args.compare:
        before = json.loads(args.compare.read_text(encoding="utf-8"))
        now = json.loads(json.dumps(dump, ensure_ascii=False))
        if args.judged:
            return _compare_judged(before, now, args.compare)
        differ = [b["image"] for b, n in zip(before, now) if not _same(b, n)]
        if differ or len(before) != len(now):
            print(f"DIFFERENT from {args.compare}: {differ or 'frame count'}")
            return 1
        print(f"identical to {args.compare}: {len(now)} frames")
    return 0


def _judged(frame: dict) -> tuple:
    """What a frame is judged on: its verdict and reasons, and each tag's field values."""
    verdict = frame["verdict"] or {}
    fields = [{k: f["value"] for k, f in (r.get("fields") or {}).items()} for r in frame["readings"]]
    return verdict.get("verdict"), verdict.get("reasons"), fields


def _compare_judged(before: list[dict], now: list[dict], path: Path) -> int:
    if len(before) != len(now):
        print(f"DIFFERENT from {path}: {len(before)} frames there, {len(now)} here")
        return 1
    differ = [b["image"] for b, n in zip(before, now) if _judged(b) != _judged(n)]
    otherwise = sum(1 for b, n in zip(before, now) if not _same(b, n))
    if differ:
        print(f"DIFFERENT from {path} in verdict, reasons or field values: {differ}")
        return 1
    print(f"judged the same as {path}: {len(now)} frames (verdicts, reasons, field values); "
          f"{otherwise} frames differ in other details (confidences, lines read again)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
