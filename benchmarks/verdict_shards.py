"""verdict-bench for several detectors at once, split by design over many CPU processes, and one merged table.

    python3 benchmarks/verdict_shards.py --data SET --models shipped=resources/models/hangtag_det.onnx cand=C.onnx \
        --bucket nominal --jobs 16 --out DIR

Each (model, design) pair is one `hangtag-inspect verdict-bench --backend onnxruntime-cpu --design D` process
with ONNX Runtime held to one thread (os.cpu_count patched to 1 in that process only, so sixteen processes
fill sixteen cores instead of fighting over them); the per-frame rows are the CLI's own. The merge counts,
per model: good frames (expected OK) OK / REVIEW / NG, planted defects NG / REVIEW / escape (OK), tags found,
false tag boxes, and lists every good frame whose verdict differs between models. Used on the leased H200's
16 cores (issue 17, 2026-12-02 afternoon), where the station's reader runs on CPU onnxruntime as here.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

WORKER = ("import os, sys, runpy; os.cpu_count = lambda: 1; sys.argv = ['hangtag-inspect'] + sys.argv[1:]; "
          "runpy.run_module('inference.cli', run_name='__main__')")


def _designs(data: Path, bucket: str | None) -> list[str]:
    rows = [json.loads(line) for line in (data / "truth.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    return sorted({r.get("design", "") for r in rows if bucket is None or r["bucket"] == bucket})


def _run(job: tuple[str, str, str, Path, argparse.Namespace]) -> tuple[str, str, int, float]:
    name, model, design, out, args = job
    cmd = [sys.executable, "-c", WORKER, "verdict-bench", "--data", str(args.data), "--model", model,
           "--backend", "onnxruntime-cpu", "--design", design, "--json", str(out)]
    if args.bucket:
        cmd += ["--bucket", args.bucket]
    if args.wrong_recipes:
        cmd.append("--wrong-recipes")
    started = time.perf_counter()
    log = out.with_suffix(".log")
    with open(log, "w") as fh:
        rc = subprocess.call(cmd, stdout=fh, stderr=subprocess.STDOUT)
    return name, design, rc, time.perf_counter() - started


def merge(out: Path, names: list[str], designs: list[str]) -> dict:
    per_model: dict[str, dict] = {}
    frames: dict[str, dict[str, dict]] = {}
    for name in names:
        rows, wrong = [], []
        for design in designs:
            path = out / f"{name}__{design}.json"
            if path.is_file():
                doc = json.loads(path.read_text(encoding="utf-8"))
                rows += doc["rows"]
                wrong += doc.get("wrong_recipe_rows") or []
        good = [r for r in rows if r["expected"] == "OK"]
        bad = [r for r in rows if r["expected"] != "OK"]
        g, b = Counter(r["verdict"] for r in good), Counter(r["verdict"] for r in bad)
        per_model[name] = {
            "frames": len(rows), "good": len(good), "good_OK": g["OK"], "good_REVIEW": g["REVIEW"], "good_NG": g["NG"],
            "good_ERROR": g["ERROR"], "defects": len(bad), "defect_NG": b["NG"], "defect_REVIEW": b["REVIEW"],
            "defect_escape": b["OK"], "tags_truth": sum(r["tags_truth"] for r in rows),
            "tags_found": sum(r["tags_found"] for r in rows), "false_tag_boxes": sum(r["false_boxes"] for r in rows),
            "wrong_recipe": dict(Counter("escape" if r["verdict"] == "OK" else r["verdict"] for r in wrong)),
            "good_NG_frames": sorted(f"{r['image']} ({r['design']}): {'; '.join(r['reasons'][:2])}" for r in good
                                     if r["verdict"] == "NG"),
        }
        frames[name] = {r["image"]: r for r in rows}
    changed = []
    if names:
        base = names[0]
        for image, row in sorted(frames[base].items()):
            verdicts = {n: frames[n].get(image, {}).get("verdict") for n in names}
            if len(set(verdicts.values())) > 1:
                changed.append({"image": image, "design": row["design"], "expected": row["expected"], "verdicts": verdicts,
                                "reasons": {n: frames[n].get(image, {}).get("reasons", [])[:2] for n in names}})
    return {"models": per_model, "changed": changed}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--models", nargs="+", required=True, help="NAME=PATH.onnx; the first is the reference")
    parser.add_argument("--bucket", choices=("nominal", "blurred", "small"))
    parser.add_argument("--wrong-recipes", action="store_true", help="passed on to verdict-bench")
    parser.add_argument("--jobs", type=int, default=16)
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    args.out.mkdir(parents=True, exist_ok=True)
    models = [m.split("=", 1) for m in args.models]
    designs = _designs(args.data, args.bucket)
    jobs = [(name, path, d, args.out / f"{name}__{d}.json", args) for d in designs for name, path in models]
    started = time.perf_counter()
    with ThreadPoolExecutor(args.jobs) as pool:
        for name, design, rc, wall in pool.map(_run, jobs):
            print(f"{name} {design}: rc {rc}, {wall:.0f} s", flush=True)
    summary = merge(args.out, [n for n, _ in models], designs)
    summary["wall_s"] = round(time.perf_counter() - started, 1)
    summary["bucket"] = args.bucket
    (args.out / "summary.json").write_text(json.dumps(summary, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    for name, s in summary["models"].items():
        print(f"{name}: good {s['good']} OK/REVIEW/NG {s['good_OK']}/{s['good_REVIEW']}/{s['good_NG']} (ERROR {s['good_ERROR']}); "
              f"defects {s['defects']} NG/REVIEW/escape {s['defect_NG']}/{s['defect_REVIEW']}/{s['defect_escape']}; "
              f"tags {s['tags_found']}/{s['tags_truth']}, false tag boxes {s['false_tag_boxes']}; wrong recipes {s['wrong_recipe']}")
        for f in s["good_NG_frames"]:
            print(f"   good NG: {f}")
    for c in summary["changed"]:
        print(f"changed {c['image']} ({c['design']}, expected {c['expected']}): {c['verdicts']} {c['reasons']}")
    print(f"wall {summary['wall_s']} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
