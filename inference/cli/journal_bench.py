"""`hangtag-inspect journal-bench`: journal write latency per frame, and a 10,000-frame session export.

Rows are synthetic but shaped like the station's (2 detections, one tag with 6 fields, 6 checks,
per-stage timings, memory); flagged frames get real 1280×960 JPEGs archived as the station does.
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import shutil
import sqlite3
import tempfile
import time
from pathlib import Path

import numpy as np

from inference.records.archive import Archive
from inference.records.export import export_session
from inference.records.journal import Journal
from inference.records.synthetic import build_session, synthetic_result


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("journal-bench", help="measure journal writes per frame and a large session export")
    parser.add_argument("--frames", type=int, default=5000, help="frames to journal for the write timing")
    parser.add_argument("--durability", choices=("normal", "full", "both"), default="both")
    parser.add_argument("--export-frames", type=int, default=10_000, help="frames in the exported session (0: skip)")
    parser.add_argument("--flagged-rate", type=float, default=0.10, help="share of NG/REVIEW frames in that session")
    parser.add_argument("--image-size", default="1280x960", help="WxH of the flagged frames' images")
    parser.add_argument("--work", type=Path, default=None, help="work folder (default: a temporary one, removed)")
    parser.add_argument("--json", type=Path, default=None, help="write the result here")
    parser.set_defaults(func=journal_bench)


def _percentiles(samples_ms: list[float]) -> dict[str, float]:
    arr = np.asarray(samples_ms)
    p50, p95, p99 = np.percentile(arr, [50, 95, 99])
    return {"p50": round(float(p50), 4), "p95": round(float(p95), 4), "p99": round(float(p99), 4),
            "max": round(float(arr.max()), 3), "n": int(arr.size)}


def write_latency(work: Path, frames: int, durability: str) -> dict:
    rng = np.random.default_rng(1)
    flagged = rng.random(frames) < 0.1
    now = time.time()
    results = [synthetic_result(i, rng, flagged=bool(flagged[i]), image_hw=(960, 1280), source_name=f"tag_{i:06d}.jpg",
                                source_path=f"/line/cam0/tag_{i:06d}.jpg", timestamp=now + i / 8) for i in range(frames)]
    gc.collect()
    gc.freeze()  # the pre-built results are the bench's stock, not the station's garbage
    samples, cpu = [], []
    with Journal.open(work / f"write-{durability}.sqlite3", durability=durability) as journal:
        session = journal.start_session(job="bench", recipe_path="bench.toml", source="synthetic", backend="none")
        for result in results:
            t0, c0 = time.perf_counter_ns(), time.thread_time_ns()
            journal.record(session, result, image_hash="sha256:" + "0" * 64)
            samples.append((time.perf_counter_ns() - t0) / 1e6)
            cpu.append((time.thread_time_ns() - c0) / 1e6)
    gc.unfreeze()
    # Wall time is what the operator waits; CPU time tells the journal's cost from a busy machine's.
    return {**_percentiles(samples), "cpu": _percentiles(cpu)}


def environment() -> dict:
    import cv2

    return {"python": platform.python_version(), "platform": platform.platform(), "cpu": platform.processor() or platform.machine(),
            "cores": os.cpu_count(), "sqlite": sqlite3.sqlite_version, "opencv": cv2.__version__,
            "numpy": np.__version__, "load_average_1m": round(os.getloadavg()[0], 2)}


def journal_bench(args: argparse.Namespace) -> int:
    w, h = (int(v) for v in args.image_size.lower().split("x"))
    work = args.work or Path(tempfile.mkdtemp(prefix="hangtag-journal-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    out: dict = {"environment": environment(), "date": time.strftime("%Y-%m-%d"), "write_ms": {}}
    try:
        modes = ("normal", "full") if args.durability == "both" else (args.durability,)
        for mode in modes:
            out["write_ms"][mode] = stats = write_latency(work, args.frames, mode)
            print(f"journal write ({mode:>6}): p50 {stats['p50']:.3f} ms  p95 {stats['p95']:.3f} ms  "
                  f"p99 {stats['p99']:.3f} ms  max {stats['max']:.2f} ms  ({stats['n']} frames; "
                  f"CPU p50 {stats['cpu']['p50']:.3f} p95 {stats['cpu']['p95']:.3f} ms; "
                  f"load average {os.getloadavg()[0]:.1f})")
        if args.export_frames:
            t0 = time.perf_counter()
            with Journal.open(work / "journal.sqlite3") as journal:
                session = build_session(journal, Archive(work / "archive"), frames=args.export_frames,
                                        flagged_rate=args.flagged_rate, image_dir=work / "images", image_hw=(h, w))
            setup = time.perf_counter() - t0
            with Journal.open(work / "journal.sqlite3") as journal:
                result = export_session(journal, session, work / "reports")
            out["export"] = {"frames": result.frames, "flagged": result.flagged, "images": result.images_written,
                             "seconds": round(result.seconds, 2), "setup_seconds": round(setup, 1),
                             "image_size": f"{w}x{h}", "bytes": sum(p.stat().st_size for p in result.path.rglob("*") if p.is_file())}
            print(f"export of {result.frames} frames ({result.flagged} NG/REVIEW thumbnails, HTML + CSV + JSON + COCO): "
                  f"{result.seconds:.1f} s  [{out['export']['bytes'] / 2**20:.1f} MiB; session built in {setup:.0f} s]")
            if args.work:
                print(f"kept: {work} (journal.sqlite3, session {session}; reports/)")
    finally:
        if args.work is None:
            shutil.rmtree(work, ignore_errors=True)
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
    return 0
