"""Measurements behind `hangtag-inspect gpu-bench`, one function per question the issue asks.

Each returns a plain dict for the JSON record. Timings are milliseconds; p50 is the headline.
Frames are 1920×1080: the shipped demo scenes scaled into the frame (synthetic rectangles on textured
ground where none are shipped), the same list for every path.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Callable

import cv2
import numpy as np

from inference.gpu.overlap import frame_job, jpeg_job, run_overlapped
from inference.gpu.pipeline import GpuPipeline
from inference.postprocess import Thresholds
from inference.telemetry import process_rss_mb

FRAME_HW = (1080, 1920)


def make_frames(count: int, hw: tuple[int, int] = FRAME_HW, seed: int = 0) -> list[np.ndarray]:
    rng = np.random.default_rng(seed)
    frames = []
    for _ in range(count):
        image = cv2.GaussianBlur(rng.integers(60, 140, (*hw, 3), dtype=np.uint8), (0, 0), 3)
        for _ in range(10):
            x, y = int(rng.integers(0, hw[1] - 320)), int(rng.integers(0, hw[0] - 320))
            w, h = (int(v) for v in rng.integers(60, 320, 2))
            cv2.rectangle(image, (x, y), (x + w, y + h), tuple(int(c) for c in rng.integers(0, 256, 3)), -1)
            cv2.putText(image, "HANGTAG 42", (x + 5, y + h // 2), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (255, 255, 255), 2)
        frames.append(image)
    return frames


def sample_frames(count: int, hw: tuple[int, int] = FRAME_HW) -> list[np.ndarray]:
    """The shipped demo scenes as full-HD camera frames (scaled to the frame height, centred on grey);
    the synthetic scenes where no samples are shipped."""
    from inference.imageio import list_images
    from inference.resources import samples_dir

    paths = list_images(samples_dir()) if samples_dir().is_dir() else []
    if not paths:
        return make_frames(count, hw)
    frames = []
    for path in paths[:count]:
        image = cv2.imread(str(path), cv2.IMREAD_COLOR)
        scale = min(hw[0] / image.shape[0], hw[1] / image.shape[1])
        h, w = int(round(image.shape[0] * scale)), int(round(image.shape[1] * scale))
        frame = np.full((*hw, 3), 114, np.uint8)
        top, left = (hw[0] - h) // 2, (hw[1] - w) // 2
        frame[top:top + h, left:left + w] = cv2.resize(image, (w, h), interpolation=cv2.INTER_LINEAR)
        frames.append(frame)
    return frames


def pool_frames(pipe: GpuPipeline, frames: list[np.ndarray]) -> list[np.ndarray]:
    """The frames written once into the pipeline's pinned frame pool, as a machine-vision camera writes into
    the buffers announced to it; processing them uploads from there, with no host copy."""
    pool = pipe.frame_pool(len(frames), frames[0].shape[:2])
    for dst, src in zip(pool.frames, frames):
        np.copyto(dst, src)
    return pool.frames


def write_jpegs(frames: list[np.ndarray], folder: Path, count: int, quality: int = 90) -> list[Path]:
    folder.mkdir(parents=True, exist_ok=True)
    paths = []
    for i in range(count):
        path = folder / f"tag_{i:04d}.jpg"
        ok, data = cv2.imencode(".jpg", frames[i % len(frames)], [cv2.IMWRITE_JPEG_QUALITY, quality])
        data.tofile(str(path))
        paths.append(path)
    return paths


def pct(values: np.ndarray | list[float]) -> dict[str, float]:
    values = np.asarray(values, dtype=np.float64)
    if values.size == 0:
        return {"n": 0}
    p50, p95, p99 = np.percentile(values, [50, 95, 99])
    return {"p50": round(float(p50), 4), "p95": round(float(p95), 4), "p99": round(float(p99), 4),
            "mean": round(float(values.mean()), 4), "n": int(values.size)}


def engine_only(pipe: GpuPipeline, iterations: int) -> dict:
    pipe.time_engine(min(50, iterations))  # warm
    gpu, wall = pipe.time_engine(iterations)
    return {"event_ms": pct(gpu), "wall_ms": pct(wall),
            "throughput_fps": round(pipe.batch * 1000.0 / float(np.median(gpu)), 1)}


def end_to_end(pipe: GpuPipeline, frames: list[np.ndarray], iterations: int, *, sample_memory: bool) -> dict:
    """Synchronous per-frame latency: raw BGR in host memory → Detections on the host."""
    pipe.sample_memory_every = 1 if sample_memory else 0
    for i in range(20):
        pipe.process(frames[i % len(frames)])
    pipe.stats = type(pipe.stats)(window=iterations)
    wall = np.empty(iterations)
    for i in range(iterations):
        t0 = time.perf_counter_ns()
        pipe.process(frames[i % len(frames)])
        wall[i] = (time.perf_counter_ns() - t0) / 1e6
    return {"wall_ms": pct(wall), "stages_ms": pipe.stats.summary()}


def write_video(frames: list[np.ndarray], path: Path, count: int, fps: float = 30.0) -> Path:
    """An MJPG recording of `count` frames (cycling `frames`): what the station's camera source reads here."""
    h, w = frames[0].shape[:2]
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), fps, (w, h))
    if not writer.isOpened():
        raise RuntimeError(f"OpenCV cannot write MJPG video to {path}")
    for i in range(count):
        writer.write(frames[i % len(frames)])
    writer.release()
    return path


def camera_source(pipe: GpuPipeline, video: Path, *, lend: bool, grabber: bool = True, passes: int = 1,
                  warmup: int = 20) -> dict:
    """The station's own camera path, frame by frame as its worker runs it: VideoSource (OpenCV reading the
    recording, on a grabber thread as the station reads a camera; with `grabber=False` on this thread between
    frames) → Inspector.inspect (no reader) → the GPU pipeline. `lend`: the source reads into the pipeline's
    page-locked frames (uploaded in place); else into ordinary memory (staged copy). Timed: the inspection
    of a frame already read (what the pipeline's end-to-end means); the read itself apart.
    `beside_engine_ms`: per frame, that time minus the frame's own engine time (CUDA events): the engine
    after the camera's idle gaps is not always as quick as back to back, which the p50 difference mixes in."""
    from inference.inspection import Inspector
    from inference.live import LatestFrameGrabber
    from inference.sources import Frame, open_source

    inspector = Inspector(pipe)
    wall, read_ms, beside_engine, in_place = [], [], [], 0
    own = lent = dropped = 0
    measuring = False
    for n in range(passes):
        source = open_source(video)
        source.lend_frames(inspector.frame_memory if lend else None)
        live = LatestFrameGrabber(source) if grabber else None
        items = _grabbed(live) if live is not None else source.frames()
        try:
            for item in items:
                if not isinstance(item, Frame):
                    raise RuntimeError(f"the recording did not read back: {item}")
                timed = n > 0 or item.index >= warmup  # by index: the grabber may drop any frame
                if timed and not measuring:  # stage statistics from the first timed frame on
                    pipe.stats, measuring = type(pipe.stats)(window=100_000), True
                t0 = time.perf_counter_ns()
                result = inspector.inspect(item)
                elapsed = (time.perf_counter_ns() - t0) / 1e6
                if not timed:
                    continue
                wall.append(elapsed)
                read_ms.append(item.decode_ms)
                beside_engine.append(elapsed - result.timings.get("infer"))  # this frame's own engine events
                in_place += pipe.slots[0].sources[0] == item.image.ctypes.data
        finally:
            if live is not None:
                dropped += live.dropped
                live.close()
            else:
                source.close()
        own += source.frames_in_own_memory
        lent += source.lender.lent if source.lender is not None else 0
    return {"end_to_end_ms": pct(wall), "beside_engine_ms": pct(beside_engine), "read_ms": pct(read_ms),
            "stages_ms": pipe.stats.summary(), "frames": len(wall), "dropped_by_grabber": dropped,
            "uploaded_in_place": in_place, "frames_in_own_memory": own, "frames_lent": lent}


def _grabbed(live):
    while not live.exhausted:
        item = live.take(1.0)
        if item is not None:
            yield item


def overlapped_fps(pipe: GpuPipeline, jobs: list[Callable], *, workers: int) -> dict:
    t0 = time.perf_counter()
    count = errors = detections = 0
    decode_ms = []
    for result in run_overlapped(pipe, jobs, workers=workers):
        count += 1
        errors += not result.ok
        detections += len(result.detections)
        decode_ms.append(result.timings.get("decode"))
    elapsed = time.perf_counter() - t0
    return {"frames": count, "errors": errors, "seconds": round(elapsed, 3), "fps": round(count / elapsed, 1),
            "ms_per_frame": round(1000 * elapsed / max(count, 1), 4), "decode_ms": pct(decode_ms),
            "detections_per_frame": round(detections / max(count, 1), 2), "workers": workers, "batch": pipe.batch}


def raw_stream(pipe: GpuPipeline, frames: list[np.ndarray], count: int, workers: int = 8) -> dict:
    overlapped_fps(pipe, [frame_job(frames[i % len(frames)], i) for i in range(4 * pipe.batch)], workers=workers)
    return overlapped_fps(pipe, [frame_job(frames[i % len(frames)], i) for i in range(count)], workers=workers)


def jpeg_stream(pipe: GpuPipeline, paths: list[Path], count: int, workers: int) -> dict:
    return overlapped_fps(pipe, [jpeg_job(paths[i % len(paths)], i) for i in range(count)], workers=workers)


def decode_only_fps(paths: list[Path], count: int, workers: int) -> dict:
    """How fast the CPU alone decodes these JPEGs: the ceiling for the JPEG source."""
    from concurrent.futures import ThreadPoolExecutor

    from inference.imageio import read_image

    t0 = time.perf_counter()
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for _ in pool.map(read_image, [paths[i % len(paths)] for i in range(count)]):
            pass
    elapsed = time.perf_counter() - t0
    return {"workers": workers, "fps": round(count / elapsed, 1)}


def drift(pipe: GpuPipeline, frames: list[np.ndarray], count: int, warmup: int = 300) -> dict:
    """VRAM and host RSS across `count` frames after warm-up, sampled every frame by the pipeline."""
    pipe.sample_memory_every = 1
    for i in range(warmup):
        pipe.process(frames[i % len(frames)])
    allocations_before = pipe.allocation_counts().allocations
    vram, rss, wall = np.empty(count), np.empty(count), np.empty(count)
    t_start = time.perf_counter()
    for i in range(count):
        t0 = time.perf_counter_ns()
        result = pipe.process(frames[i % len(frames)])
        wall[i] = (time.perf_counter_ns() - t0) / 1e6
        vram[i] = result.memory.vram_mb if result.memory and result.memory.vram_mb is not None else np.nan
        rss[i] = result.memory.rss_mb if result.memory else np.nan
    seconds = time.perf_counter() - t_start

    def summary(values: np.ndarray) -> dict:
        values = values[np.isfinite(values)]
        if values.size == 0:
            return {"available": False}
        head, tail = float(np.median(values[:100])), float(np.median(values[-100:]))
        return {"first_mb": round(float(values[0]), 3), "last_mb": round(float(values[-1]), 3),
                "min_mb": round(float(values.min()), 3), "max_mb": round(float(values.max()), 3),
                "drift_mb": round(tail - head, 3), "max_minus_min_mb": round(float(values.max() - values.min()), 3)}

    return {"frames": count, "seconds": round(seconds, 2), "wall_ms": pct(wall), "vram": summary(vram),
            "rss": summary(rss), "allocations_during_run": pipe.allocation_counts().allocations - allocations_before}


def cpu_gpu_letterbox_diff(pipe: GpuPipeline, frames: list[np.ndarray]) -> dict:
    """Max |GPU − CPU| over the engine input for a few frames, in grey levels (the 1/255 contract)."""
    from inference.gpu.cuda import check, runtime
    from inference.preprocess import Letterboxer

    cpu = Letterboxer(pipe.input_hw, dtype=pipe.input_buffer.dtype)
    host = np.empty(pipe.input_buffer.shape, pipe.input_buffer.dtype)
    worst = 0.0
    for frame in frames:
        pipe.process(frame)
        check(runtime().cudaMemcpy(host.ctypes.data, pipe.input_buffer.ptr, host.nbytes,
                                   runtime().cudaMemcpyKind.cudaMemcpyDeviceToHost), "reading the input buffer")
        cpu(frame)
        worst = max(worst, float(np.abs(host[0].astype(np.float32) - cpu.tensor[0].astype(np.float32)).max()) * 255)
    return {"max_diff_grey_levels": round(worst, 4), "frames": len(frames)}


def naive_ort(model: Path, frames: list[np.ndarray], iterations: int, thresholds: Thresholds) -> dict:
    """What a Python user writes first: cv2 letterbox, session.run with numpy in and out, numpy NMS."""
    import onnxruntime as ort

    from inference.decode import decode
    from inference.postprocess import select
    from inference.preprocess import Letterboxer

    session = ort.InferenceSession(str(model), providers=["CUDAExecutionProvider"])
    name = session.get_inputs()[0].name
    letterbox = Letterboxer((640, 640))
    wall = []
    for i in range(iterations + 20):
        t0 = time.perf_counter_ns()
        transform = letterbox(frames[i % len(frames)])
        raw = session.run(None, {name: letterbox.tensor})[0]
        found = decode(raw, "yolov8", raw.shape[1] - 4, 0.01)
        from inference.decode import Candidates

        mapped = Candidates(transform.to_original(found.xyxy), found.score, found.class_id)
        select(mapped, (), thresholds)
        if i >= 20:
            wall.append((time.perf_counter_ns() - t0) / 1e6)
    return {"wall_ms": pct(wall), "providers": session.get_providers()}


def torch_eager(frames: list[np.ndarray], iterations: int, thresholds: Thresholds, model=None) -> dict:
    """cv2 letterbox → torch forward (eager) → torchvision NMS: what a Python user writes first. `model`: a
    torch module on the GPU with the ONNX model's (B, 4 + C, A) output (training/eager_baseline.py builds the
    shipped detector's); default: the synthetic stand-in's weights."""
    import torch
    import torchvision

    from inference.preprocess import Letterboxer

    if model is None:
        from inference.gpu.synthetic import torch_model

        model = torch_model().cuda()
    letterbox = Letterboxer((640, 640))
    wall, kept_per_frame = [], []
    with torch.inference_mode():
        for i in range(iterations + 20):
            t0 = time.perf_counter_ns()
            transform = letterbox(frames[i % len(frames)])
            raw = model(torch.from_numpy(letterbox.tensor).cuda())[0]
            scores, classes = raw[4:].max(0)
            keep = scores >= thresholds.confidence
            cxcywh = raw[:4, keep].T
            boxes = torch.cat([cxcywh[:, :2] - cxcywh[:, 2:] / 2, cxcywh[:, :2] + cxcywh[:, 2:] / 2], 1)
            kept = torchvision.ops.batched_nms(boxes, scores[keep], classes[keep], thresholds.iou)
            kept = kept[:thresholds.max_detections]
            transform.to_original(boxes[kept].cpu().numpy())
            if i >= 20:
                wall.append((time.perf_counter_ns() - t0) / 1e6)
                kept_per_frame.append(int(kept.numel()))
    return {"wall_ms": pct(wall), "detections_per_frame": round(float(np.mean(kept_per_frame)), 2),
            "torch": torch.__version__, "torchvision": torchvision.__version__,
            "tf32_conv": bool(torch.backends.cudnn.allow_tf32)}


def rss_now() -> float:
    return round(process_rss_mb(), 2)
