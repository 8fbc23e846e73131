"""GPU JPEG decode (inference/gpu/jpeg.py) against the CPU decoder, and a folder of 1080p JPEGs through the GPU
pipeline with each (issue 19: ≥ 2 000 images/s end to end with batching; issue 20: decode off the CPU).

    python benchmarks/gpu_jpeg.py --data DIR --jpegs /tmp/jpegs --out decode.json decode [--batches 1 8 32 64]
    python benchmarks/gpu_jpeg.py --jpegs /tmp/jpegs --out e2e.json folder [--pipeline-batches 8 32] [--frames 4000]

`decode`: writes `--count` 1080p JPEGs (the tag set's one-tag frames, as benchmarks/gpu_serve.py makes them; the
shipped sample scenes where no tag set is given) and times, per batch size, bytes in memory → pixels ready in
device memory (nvImageCodec per backend choice) or in host memory (OpenCV on `--cpu-threads` threads); images/s
over repeated batches for `--seconds` each. Pixels are compared with OpenCV's on the same files.
`folder`: `run_overlapped` over the folder (files read from disk each time) with the CPU decode jobs
(`overlap.jpeg_job`, the station's way today) and with `jpeg.folder_jobs` on the GPU decoder, per pipeline batch;
the detections of both paths are compared frame by frame. The engine alone is timed for the ceiling.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inference.gpu.bench import pct  # noqa: E402
from inference.gpu.jpeg import CpuJpegDecoder, GpuJpegDecoder, folder_jobs, gpu_jpeg_unavailable_reason  # noqa: E402


def write_folder(data: Path | None, folder: Path, count: int, quality: int) -> dict:
    if data is not None and data.is_dir():
        from benchmarks.gpu_serve import write_jpegs

        return write_jpegs(data, folder, count, quality) | {"frames": f"one-tag frames of {data}"}
    from inference.gpu.bench import sample_frames, write_jpegs

    paths = write_jpegs(sample_frames(count), folder, count, quality)
    sizes = [p.stat().st_size for p in paths]
    return {"count": len(paths), "mean_kb": round(sum(sizes) / len(sizes) / 1024, 1), "size": "1920x1080",
            "quality": quality, "frames": "shipped sample scenes in 1080p frames"}


def timed_batches(decoder, blobs: list[bytes], batch: int, seconds: float) -> dict:
    groups = [blobs[i:i + batch] for i in range(0, len(blobs) - batch + 1, batch)] or [blobs[:batch]]
    for group in groups[:2]:
        decoder.decode(group)  # warm-up: allocations, the first batch's planning
    ms, images, t_end = [], 0, time.perf_counter() + seconds
    t_start = time.perf_counter()
    while time.perf_counter() < t_end or not ms:
        group = groups[len(ms) % len(groups)]
        t0 = time.perf_counter_ns()
        out = decoder.decode(group)
        ms.append((time.perf_counter_ns() - t0) / 1e6)
        images += sum(d.image is not None for d in out)
    elapsed = time.perf_counter() - t_start
    row = {"batch": batch, "images_per_s": round(images / elapsed, 1), "batch_ms": pct(ms), "images": images}
    if hasattr(decoder, "on_gpu"):  # nvImageCodec may hand images it cannot take to the CPU: say how many
        row |= {"decoded_on_gpu": decoder.on_gpu, "handed_to_cpu": decoder.on_cpu}
        decoder.on_gpu = decoder.on_cpu = 0
    return row


def pixel_check(decoder, blobs: list[bytes]) -> dict:
    diffs = []
    for blob, decoded in zip(blobs[:8], decoder.decode(blobs[:8])):
        image = decoded.image.to_host() if hasattr(decoded.image, "to_host") else decoded.image
        reference = cv2.imdecode(np.frombuffer(blob, np.uint8), cv2.IMREAD_COLOR)
        diffs.append(np.abs(image.astype(np.int16) - reference.astype(np.int16)))
    stacked = np.stack(diffs)
    return {"mean_abs_diff": round(float(stacked.mean()), 4), "max_abs_diff": int(stacked.max()),
            "share_over_4": round(float((stacked > 4).mean()), 6)}


def decode_section(args, paths: list[Path]) -> dict:
    blobs = [p.read_bytes() for p in paths]
    out: dict = {"cpu": [], "gpu": {}, "gpu_unavailable": gpu_jpeg_unavailable_reason()}
    for threads in args.cpu_threads:
        with CpuJpegDecoder(threads) as cpu:
            for batch in args.batches:
                out["cpu"].append(timed_batches(cpu, blobs, batch, args.seconds) | {"threads": threads})
                print("cpu", out["cpu"][-1], flush=True)
    if out["gpu_unavailable"]:
        return out
    for backend in args.backends:
        rows = []
        try:
            with GpuJpegDecoder(backend=backend) as gpu:
                rows.append({"pixels_vs_opencv": pixel_check(gpu, blobs), "decoder": gpu.name})
                for batch in args.batches:
                    rows.append(timed_batches(gpu, blobs, batch, args.seconds))
                    print(backend, rows[-1], flush=True)
        except Exception as exc:  # one backend refusing (no hardware decoder, say) must not hide the others
            rows.append({"error": f"{type(exc).__name__}: {str(exc)[:400]}"})
            print(backend, rows[-1], flush=True)
        out["gpu"][backend] = rows
    return out


def folder_section(args, paths: list[Path]) -> dict:
    from inference.gpu.bench import jpeg_job, overlapped_fps
    from inference.gpu.overlap import run_overlapped
    from inference.gpu.pipeline import GpuPipeline
    from inference.resources import default_model_path

    model = args.model or default_model_path()
    out: dict = {"model": str(model), "rows": []}
    files = [paths[i % len(paths)] for i in range(args.frames)]
    for batch in args.pipeline_batches:
        with GpuPipeline.open(model, batch=batch, cuda_graph=args.graph) as pipe, \
                GpuJpegDecoder(backend=args.folder_backend) as gpu:
            pipe.sample_memory_every = 0
            engine_ms, _ = pipe.time_engine(100)
            row = {"batch": batch, "backend": pipe.backend,
                   "engine_only_images_per_s": round(batch / float(np.median(engine_ms)) * 1000, 1)}
            warm = files[:4 * batch]
            overlapped_fps(pipe, [jpeg_job(p, i) for i, p in enumerate(warm)], workers=args.cpu_workers)
            row["cpu_decode"] = overlapped_fps(pipe, [jpeg_job(p, i) for i, p in enumerate(files)],
                                               workers=args.cpu_workers)
            print("folder cpu", row["cpu_decode"], flush=True)
            overlapped_fps(pipe, folder_jobs(warm, gpu, batch), workers=args.gpu_workers)
            gpu.on_gpu = gpu.on_cpu = 0
            row["gpu_decode"] = overlapped_fps(pipe, folder_jobs(files, gpu, batch), workers=args.gpu_workers)
            row["gpu_decode"] |= {"decoder": gpu.name, "decoded_on_gpu": gpu.on_gpu, "handed_to_cpu": gpu.on_cpu}
            print("folder gpu", row["gpu_decode"], flush=True)
            row["same_detections"] = compare(pipe, gpu, paths, batch)
            out["rows"].append(row)
    return out


def compare(pipe, gpu, paths: list[Path], batch: int) -> dict:
    """Both decoders on the same files through the same pipeline: boxes per frame and the largest corner move."""
    from inference.gpu.overlap import jpeg_job, run_overlapped

    cpu = list(run_overlapped(pipe, [jpeg_job(p, i) for i, p in enumerate(paths)], workers=4))
    dev = list(run_overlapped(pipe, folder_jobs(paths, gpu, batch), workers=2))
    same_count, worst = 0, 0.0
    for a, b in zip(cpu, dev):
        if len(a.detections) == len(b.detections):
            same_count += 1
            if len(a.detections):
                worst = max(worst, float(np.abs(a.detections.xyxy - b.detections.xyxy).max()))
    return {"frames": len(cpu), "same_box_count": same_count, "max_corner_diff_px": round(worst, 3),
            "boxes_cpu": sum(len(r.detections) for r in cpu), "boxes_gpu": sum(len(r.detections) for r in dev)}


def versions() -> dict:
    out = {"python": platform.python_version(), "opencv": cv2.__version__, "numpy": np.__version__,
           "cpus": os.cpu_count()}
    for name in ("nvidia-nvimgcodec-cu13", "nvidia-nvjpeg", "onnxruntime-gpu", "cuda-bindings", "torch"):
        try:
            from importlib.metadata import version

            out[name] = version(name)
        except Exception:
            out[name] = None
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("what", nargs="+", choices=("decode", "folder"))
    parser.add_argument("--data", type=Path, default=None, help="a tag set folder (truth.jsonl + images/)")
    parser.add_argument("--jpegs", type=Path, required=True, help="the JPEG folder (written when absent)")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--count", type=int, default=64)
    parser.add_argument("--quality", type=int, default=90)
    parser.add_argument("--batches", type=int, nargs="+", default=[1, 8, 32, 64])
    parser.add_argument("--backends", nargs="+", default=["default", "hardware", "gpu"])
    parser.add_argument("--cpu-threads", type=int, nargs="+", default=[os.cpu_count() or 1])
    parser.add_argument("--seconds", type=float, default=1.5)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--pipeline-batches", type=int, nargs="+", default=[8, 32])
    parser.add_argument("--frames", type=int, default=4000)
    parser.add_argument("--cpu-workers", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--gpu-workers", type=int, default=4)
    parser.add_argument("--folder-backend", default="default")
    parser.add_argument("--graph", action=argparse.BooleanOptionalAction, default=True,
                        help="the engine as a CUDA graph (ONNX Runtime's), as gpu-bench's throughput rows")
    args = parser.parse_args()
    if not any(args.jpegs.glob("*.jpg")):
        folder = write_folder(args.data, args.jpegs, args.count, args.quality)
    else:
        sizes = [p.stat().st_size for p in args.jpegs.glob("*.jpg")]
        folder = {"count": len(sizes), "mean_kb": round(sum(sizes) / len(sizes) / 1024, 1), "reused": True}
    paths = sorted(args.jpegs.glob("*.jpg"))
    record = {"date": time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime()), "versions": versions(), "jpegs": folder}
    print(json.dumps(record), flush=True)
    if "decode" in args.what:
        record["decode"] = decode_section(args, paths)
    if "folder" in args.what:
        record["folder"] = folder_section(args, paths)
    args.out.write_text(json.dumps(record, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
