"""Why the CUDA-graph engine and GPU JPEG decode failed together (issue 20; BENCHMARKS 2026-12-02 04:53), on the H200.

    python3 benchmarks/gpu-2026-12-03b/graph_decode.py --data .gpubench/tagset --out graph_decode.json

ONNX Runtime's CUDA provider keeps its CUDA graph per calling thread (PerThreadContext) and captures it on that
thread's second run with the stream in global capture mode. Each scenario runs in its own process (a failed capture
may leave the context unusable): the GPU pipeline (batch 8, CUDA graph) opened and warmed on the main thread, then

  capture_beside_decode  a new thread runs the engine (so ORT captures again there) while another thread decodes
                         batches of 8 JPEGs with nvImageCodec: what `run_overlapped`'s new compute thread met in
                         gpu_jpeg.py's folder run, and what a serve worker met on its runner thread under load;
  captured_first         the new thread runs the engine twice before the decoding thread starts (serve's
                         prepare_thread), then both run side by side;
  one_thread             one new thread decodes a batch and runs it, in turn (a single serve worker), its
                         captures between its own decodes;
  fresh_threads          30 fresh threads one after another, each running the engine three times while decoding
                         goes on: each run's ms by its place in its thread (a capture on the second run shows as a
                         slower second run), and the failures.

Each scenario says how many engine runs and decodes failed, with the first error of each.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

SCENARIOS = ("capture_beside_decode", "captured_first", "one_thread", "fresh_threads")


def scenario(name: str, jpegs: Path, seconds: float) -> dict:
    import numpy as np

    from inference.gpu.jpeg import GpuJpegDecoder
    from inference.gpu.pipeline import GpuPipeline
    from inference.resources import default_model_path

    blobs = [p.read_bytes() for p in sorted(jpegs.glob("*.jpg"))][:32]
    groups = [blobs[i:i + 8] for i in range(0, len(blobs), 8)]
    out: dict = {"scenario": name, "engine_runs": 0, "engine_failed": 0, "decodes": 0, "decode_failed": 0,
                 "engine_error": None, "decode_error": None}
    pipe = GpuPipeline.open(default_model_path(), batch=8, cuda_graph=True, warmup=2)  # captured on this thread
    decoder = GpuJpegDecoder()
    blank = [np.full((1080, 1920, 3), 114, np.uint8)] * 8
    stop = threading.Event()

    def run_engine(frames) -> None:
        out["engine_runs"] += 1
        try:
            pipe.process_batch(frames, record=False)
        except Exception as exc:
            out["engine_failed"] += 1
            out["engine_error"] = out["engine_error"] or f"{type(exc).__name__}: {str(exc)[:300]}"

    def decode(k: int):
        out["decodes"] += 1
        try:
            frames = [d.image for d in decoder.decode(groups[k % len(groups)])]
            if any(f is None for f in frames):
                raise RuntimeError("an image did not decode")
            return frames
        except Exception as exc:
            out["decode_failed"] += 1
            out["decode_error"] = out["decode_error"] or f"{type(exc).__name__}: {str(exc)[:300]}"
            return None

    def decoding() -> None:
        k = 0
        while not stop.is_set():
            decode(k)
            k += 1

    def engine_thread(prepare: int, runs: int) -> None:
        for _ in range(prepare):
            run_engine(blank)
        ready.set()
        for _ in range(runs):
            run_engine(blank)

    ready = threading.Event()
    t0 = time.perf_counter()
    if name == "fresh_threads":
        by_place: list[list[float]] = [[], [], []]

        def three_runs() -> None:
            for place in range(3):
                t = time.perf_counter()
                run_engine(blank)
                by_place[place].append((time.perf_counter() - t) * 1000)

        decoder_thread = threading.Thread(target=decoding)
        decoder_thread.start()
        time.sleep(0.2)
        for _ in range(30):
            fresh = threading.Thread(target=three_runs)
            fresh.start()
            fresh.join()
        stop.set()
        decoder_thread.join()
        out["run_ms_by_place_in_thread"] = {f"run {i + 1}": {"p50": round(float(np.median(v)), 2), "max": round(max(v), 2)}
                                            for i, v in enumerate(by_place)}
        main_ms = []
        for _ in range(20):
            t = time.perf_counter()
            run_engine(blank)
            main_ms.append((time.perf_counter() - t) * 1000)
        out["run_ms_on_main_thread"] = {"p50": round(float(np.median(main_ms)), 2), "max": round(max(main_ms), 2)}
    elif name == "one_thread":
        def serial() -> None:
            end = time.perf_counter() + seconds
            k = 0
            while time.perf_counter() < end:
                frames = decode(k)
                if frames is not None:
                    run_engine(frames)
                k += 1
        worker = threading.Thread(target=serial)
        worker.start()
        worker.join()
    else:
        prepare = 2 if name == "captured_first" else 0
        worker = threading.Thread(target=engine_thread, args=(prepare, 200))
        if prepare:
            worker.start()
            ready.wait(60)
            decoder_thread = threading.Thread(target=decoding)
            decoder_thread.start()
        else:
            decoder_thread = threading.Thread(target=decoding)
            decoder_thread.start()
            time.sleep(0.2)  # decoding in full swing before the new thread's first (regular) and second (capture) run
            worker.start()
        worker.join()
        stop.set()
        decoder_thread.join()
    out["seconds"] = round(time.perf_counter() - t0, 2)
    try:
        failed = out["engine_failed"]
        run_engine(blank)  # does the engine still run afterwards, on the main thread (whose graph was captured at open)?
        out["engine_after_on_main"] = "ran" if out["engine_failed"] == failed else "failed"
    finally:
        decoder.close()
        pipe.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--jpegs", type=Path, default=Path("/tmp/jpegs1080"))
    parser.add_argument("--seconds", type=float, default=4.0)
    parser.add_argument("--scenario", choices=SCENARIOS, default=None, help="run one scenario here (internal)")
    args = parser.parse_args()
    if args.scenario:
        print(json.dumps(scenario(args.scenario, args.jpegs, args.seconds)), flush=True)
        return 0
    if not any(args.jpegs.glob("*.jpg")):
        from benchmarks.gpu_serve import write_jpegs

        write_jpegs(args.data, args.jpegs, 32, 90)
    results = []
    for name in SCENARIOS:
        try:
            proc = subprocess.run([sys.executable, __file__, "--data", str(args.data), "--out", "-", "--jpegs",
                                   str(args.jpegs), "--seconds", str(args.seconds), "--scenario", name],
                                  capture_output=True, text=True, timeout=50)
        except subprocess.TimeoutExpired as exc:  # a scenario that hangs (a wedged context) is a result too
            proc = subprocess.CompletedProcess(exc.cmd, -9, exc.stdout or "", f"timed out after 50 s: {exc.stderr or ''}")
            proc.stdout = proc.stdout.decode() if isinstance(proc.stdout, bytes) else proc.stdout
            proc.stderr = proc.stderr if isinstance(proc.stderr, str) else str(proc.stderr)
        lines = [line for line in proc.stdout.splitlines() if line.startswith("{")]
        row = json.loads(lines[-1]) if lines else {"scenario": name}
        row["returncode"] = proc.returncode
        if proc.returncode != 0 or not lines:
            row["stderr_tail"] = proc.stderr[-1500:]
        results.append(row)
        print(json.dumps(row), flush=True)
    args.out.write_text(json.dumps({"date": time.strftime("%Y-%m-%d %H:%M:%S"), "scenarios": results}, indent=1) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
