"""Same detections before and after the overlap (issue 20; 2026-12-04c), on the GPU: run from each tree in turn.

    python same_results.py --jpegs DIR --out answers_VARIANT.json     # starts the service itself, on port 8190
    python same_results.py --compare answers_old.json answers_new.json

One service (`--jpeg-decode gpu --cuda-graph --frontends 2 --workers 2 --max-batch 8`): every JPEG sent alone, one
after another (each a batch of 1), then all of them four times over from 16 threads at once (batches of up to 8,
mixed), with a cut JPEG among them that must be answered 400 while the rest are answered 200. The answers'
detections are kept per image; --compare says whether they are the same, exactly (alone) and after rounding to
0.01 px and 1e-4 in score (in batches, where the engine of another batch size may differ in the last bits)."""

from __future__ import annotations

import argparse
import json
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

PORT = 8190


def post(body: bytes) -> tuple[int, dict]:
    request = urllib.request.Request(f"http://127.0.0.1:{PORT}/detect", data=body,
                                     headers={"Content-Type": "image/jpeg"})
    try:
        with urllib.request.urlopen(request, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as exc:
        return exc.code, json.loads(exc.read() or b"{}")


def rounded(detections: list[dict]) -> list:
    return [(round(d["x1"], 2), round(d["y1"], 2), round(d["x2"], 2), round(d["y2"], 2), round(d["score"], 4),
             d["class_id"]) for d in detections]


def measure(jpegs: Path, out: Path, backend: str, decode: list[str]) -> None:
    bodies = [p.read_bytes() for p in sorted(jpegs.glob("*.jpg"))]
    server = subprocess.Popen([sys.executable, "-m", "inference.cli", "serve", "--backend", backend,
                               "--no-read", "--port", str(PORT), "--max-batch", "8", "--queue", "64",
                               *decode, "--frontends", "2", "--workers", "2"],
                              stdout=open(out.with_suffix(".log"), "w"), stderr=subprocess.STDOUT)
    try:
        for _ in range(360):
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{PORT}/ready", timeout=2) as r:
                    if r.status == 200:
                        break
            except Exception:
                time.sleep(0.5)
        alone = [post(b) for b in bodies]
        cut = bodies[0][: len(bodies[0]) // 3]
        mixed = [*bodies * 4]
        at = len(mixed) // 2 + 1
        mixed.insert(at, cut)
        with ThreadPoolExecutor(16) as pool:
            together = list(pool.map(post, mixed))
    finally:
        server.send_signal(signal.SIGTERM)
        code = server.wait(60)
    cut_answer = together.pop(at)
    result = {"alone": [a[1].get("detections") for a in alone], "alone_codes": [a[0] for a in alone],
              "together": [a[1].get("detections") for a in together], "together_codes": [a[0] for a in together],
              "together_batches": [a[1].get("batch") for a in together],
              "cut": [cut_answer[0], cut_answer[1].get("error"), cut_answer[1].get("found")], "exit": code}
    out.write_text(json.dumps(result) + "\n")
    print(out.name, "alone codes", set(result["alone_codes"]), "together codes", set(result["together_codes"]),
          "batches", sorted(set(result["together_batches"])), "cut", result["cut"], "exit", code)


def compare(a: Path, b: Path) -> None:
    x, y = json.loads(a.read_text()), json.loads(b.read_text())
    n = len(x["alone"])
    exact = sum(x["alone"][i] == y["alone"][i] for i in range(n))
    per_image = lambda r: [sorted(map(tuple, (tuple(rounded(r["together"][k])) for k in range(i, len(r["together"]), n))))  # noqa: E731
                           for i in range(n)]
    same_rounded = sum(p == q for p, q in zip(per_image(x), per_image(y)))
    inside = sum(len(set(p)) == 1 for p in per_image(y))
    boxes = sum(len(d) for d in x["alone"])
    print(f"alone: {exact} of {n} images with exactly the same detections ({boxes} boxes); in batches: {same_rounded} "
          f"of {n} the same after rounding; new: {inside} of {n} images gave one answer in all 4 sends")


if __name__ == "__main__":
    parser = argparse.ArgumentParser()
    parser.add_argument("--jpegs", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--compare", type=Path, nargs=2)
    parser.add_argument("--backend", default="onnxruntime-cuda")
    parser.add_argument("--decode", default="--jpeg-decode gpu --cuda-graph", help="more serve options (the GPU's)")
    args = parser.parse_args()
    if args.compare:
        compare(*args.compare)
    else:
        measure(args.jpegs, args.out, args.backend, args.decode.split())
