"""The GPU pipeline on a real GPU: kernels against the CPU path, buffer ownership, overlap, batches.

Marked `gpu` and skipped with the probe's reason where cuda-python, a GPU, NVRTC or ORT's CUDA provider
is missing (CI). Run on the H200 with `pytest -m gpu tests/test_gpu_device.py`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from inference.gpu.cuda import gpu_unavailable_reason
from inference.gpu.fallback import gpu_pipeline_unavailable_reason

KERNEL_REASON = gpu_unavailable_reason()
PIPELINE_REASON = KERNEL_REASON or gpu_pipeline_unavailable_reason()
pytestmark = [pytest.mark.gpu, pytest.mark.skipif(KERNEL_REASON is not None, reason=f"no GPU here: {KERNEL_REASON}")]
needs_engine = pytest.mark.skipif(PIPELINE_REASON is not None, reason=f"ORT CUDA provider unavailable: {PIPELINE_REASON}")

SIZES = [(1080, 1920), (720, 1280), (480, 640), (400, 600), (300, 200), (1, 4000), (37, 1013), (3000, 4000), (2, 2)]


# -- helpers -------------------------------------------------------------------------------------
def synthetic_model(tmp_path: Path) -> Path:
    from inference.gpu.synthetic import build_onnx

    return build_onnx(tmp_path / "synthetic.onnx")


def frames(count: int, hw=(1080, 1920), seed: int = 0) -> list[np.ndarray]:
    from inference.gpu.bench import make_frames

    return make_frames(count, hw, seed)


def download(buffer) -> np.ndarray:
    from inference.gpu.cuda import check, runtime

    host = np.empty(buffer.shape, buffer.dtype)
    check(runtime().cudaMemcpy(host.ctypes.data, buffer.ptr, host.nbytes,
                               runtime().cudaMemcpyKind.cudaMemcpyDeviceToHost), "download")
    return host


def letterbox_on_gpu(image: np.ndarray, input_hw: tuple[int, int], dtype) -> np.ndarray:
    """The kernel alone: stage, upload, launch into a fresh input buffer, read it back."""
    from inference.gpu.cuda import compute_capability
    from inference.gpu.kernels import SOURCE
    from inference.gpu.memory import Allocator
    from inference.gpu.nvrtc import Module, compile_cubin
    from inference.gpu.preprocess import GpuLetterboxer
    from inference.gpu.staging import FrameInfo, make_slots

    allocator = Allocator(0)
    major, minor = compute_capability(0)
    module = Module(compile_cubin(SOURCE, f"sm_{major}{minor}"))
    try:
        stream = allocator.stream("test")
        target = allocator.device((1, 3, *input_hw), dtype, "input")
        slot = make_slots(allocator, 1, 1, image.nbytes)[0]
        slot.add(image, FrameInfo())
        box = GpuLetterboxer(allocator, module, target, image.nbytes)
        box.upload(stream, slot.source_of(0), 0, 0, image.nbytes)
        box.launch(stream, image.shape[:2], 0, 0)
        stream.synchronize()
        return download(target)[0].astype(np.float32)
    finally:
        module.free()
        allocator.free_all()


# -- preprocessing -------------------------------------------------------------------------------
@pytest.mark.parametrize("source_hw", SIZES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16])
def test_gpu_letterbox_agrees_with_cpu_within_one_grey_level(source_hw, dtype):
    from inference.gpu.reference import reference_letterbox
    from inference.preprocess import Letterboxer

    rng = np.random.default_rng(source_hw[0] + 7 * source_hw[1])
    image = rng.integers(0, 256, (*source_hw, 3), dtype=np.uint8)  # noise: the hardest case for resampling
    gpu = letterbox_on_gpu(image, (640, 640), dtype)
    cpu = Letterboxer((640, 640))
    cpu(image)
    ref, _ = reference_letterbox(image, (640, 640))
    half_ulp = 1 / 2048 if dtype == np.float16 else 1e-6
    assert np.abs(gpu - cpu.tensor[0]).max() <= 1 / 255 + half_ulp
    assert np.abs(gpu - ref).max() <= 1e-4 + half_ulp  # the kernel is the reference's arithmetic


# -- postprocessing ------------------------------------------------------------------------------
@needs_engine
def test_compact_decode_and_cpu_nms_equal_the_cpu_path_on_the_same_raw_output(tmp_path):
    from inference.decode import Candidates, decode
    from inference.gpu.pipeline import GpuPipeline
    from inference.postprocess import select

    with GpuPipeline.open(synthetic_model(tmp_path), postprocess="cpu") as pipe:
        for frame in frames(3):
            result = pipe.process(frame)
            raw = download(pipe.output_buffers["output0"])
            found = decode(raw, "yolov8", 3, 0.01)
            transform = pipe.slots[0].transforms[0]
            expected = Candidates(transform.to_original(found.xyxy), found.score, found.class_id)
            assert len(expected) > 50
            assert np.allclose(result.candidates.xyxy, expected.xyxy, atol=1e-3)
            assert np.array_equal(result.candidates.class_id, expected.class_id)
            assert np.allclose(result.candidates.score, expected.score)
            want = select(expected, pipe.class_names, pipe.thresholds)
            assert len(result.detections) == len(want) > 0
            assert np.allclose(result.detections.xyxy, want.xyxy, atol=1e-3)


@needs_engine
def test_gpu_nms_keeps_what_cpu_nms_keeps(tmp_path):
    from inference.decode import decode
    from inference.gpu.pipeline import GpuPipeline
    from inference.postprocess import select

    with GpuPipeline.open(synthetic_model(tmp_path), postprocess="gpu") as pipe:
        for frame in frames(3, seed=3):
            result = pipe.process(frame)
            raw = download(pipe.output_buffers["output0"])
            # Same space as the GPU (input pixels, unclipped), so only float32 vs float64 IoU differs.
            want = select(decode(raw, "yolov8", 3, 0.01), pipe.class_names, pipe.thresholds)
            assert len(want) > 0
            assert np.allclose(np.sort(result.detections.confidence), np.sort(want.confidence), atol=1e-6)
            assert sorted(result.detections.class_id.tolist()) == sorted(want.class_id.tolist())
            assert np.all(np.diff(result.detections.confidence) <= 0)  # best first, like the CPU path


# -- ownership -----------------------------------------------------------------------------------
@needs_engine
@pytest.mark.parametrize("postprocess", ["cpu", "gpu"])
def test_no_device_or_pinned_allocation_per_frame(tmp_path, postprocess):
    from inference.gpu.cuda import device_memory_used_mb
    from inference.gpu.pipeline import GpuPipeline
    from inference.telemetry import process_vram_mb

    def vram() -> float:  # this process's VRAM (NVML); device-wide only where NVML lists no processes
        return process_vram_mb() or device_memory_used_mb()

    batch = frames(4)
    with GpuPipeline.open(synthetic_model(tmp_path), postprocess=postprocess) as pipe:
        for frame in batch * 5:
            pipe.process(frame)
        before, vram_before = pipe.allocation_counts(), vram()
        for i in range(200):
            pipe.process(batch[i % 4])
        after, vram_after = pipe.allocation_counts(), vram()
    assert after == before
    assert abs(vram_after - vram_before) <= 1.0


@needs_engine
def test_a_frame_larger_than_the_staging_capacity_grows_it_once(tmp_path):
    from inference.gpu.pipeline import GpuPipeline

    small, big = frames(1, (480, 640))[0], frames(1, (1080, 1920))[0]
    with GpuPipeline.open(synthetic_model(tmp_path), max_frame_hw=(480, 640)) as pipe:
        pipe.process(small)
        start = pipe.allocation_counts()
        first = pipe.process(big)
        grown = pipe.allocation_counts()
        again = pipe.process(big)
        assert grown.allocations > start.allocations and pipe.allocation_counts() == grown
        assert np.allclose(first.detections.xyxy, again.detections.xyxy)


@needs_engine
def test_close_frees_everything_and_is_idempotent(tmp_path):
    from inference.gpu.pipeline import GpuPipeline

    pipe = GpuPipeline.open(synthetic_model(tmp_path))
    pipe.process(frames(1)[0])
    pipe.close()
    pipe.close()
    assert pipe.allocator.live == 0


# -- batches, overlap, graphs, fallback ------------------------------------------------------------------
@needs_engine
def test_a_batch_gives_what_single_frames_give(tmp_path):
    from inference.gpu.pipeline import GpuPipeline

    images = frames(4, seed=9)
    with GpuPipeline.open(synthetic_model(tmp_path), batch=4) as pipe:
        together = pipe.process_batch(images)
        alone = [pipe.process_batch([image])[0] for image in images]
    for a, b in zip(together, alone):
        assert len(a.detections) == len(b.detections) > 0
        assert np.allclose(a.detections.confidence, b.detections.confidence, atol=1e-3)


@needs_engine
def test_overlapped_jpeg_run_keeps_order_and_records_bad_files(tmp_path):
    from inference.gpu.bench import write_jpegs
    from inference.gpu.overlap import jpeg_job, run_overlapped
    from inference.gpu.pipeline import GpuPipeline
    from inference.imageio import read_image

    paths = write_jpegs(frames(5), tmp_path / "jpeg", 7)
    bad = tmp_path / "jpeg" / "tag_0003.jpg"
    bad.write_bytes(bad.read_bytes()[:200])  # truncated: decodes to nothing
    with GpuPipeline.open(synthetic_model(tmp_path), batch=2) as pipe:
        results = list(run_overlapped(pipe, [jpeg_job(p, i) for i, p in enumerate(paths)], workers=3))
        assert [r.index for r in results] == list(range(7))
        assert [r.ok for r in results] == [True, True, True, False, True, True, True]
        direct = pipe.process(read_image(paths[5]))
    assert len(results[5].detections) == len(direct.detections)
    assert np.allclose(results[5].detections.confidence, direct.detections.confidence, atol=1e-4)


@needs_engine
@pytest.mark.parametrize("where", ["frame_pool", "pageable"])
def test_frames_uploaded_in_place_give_what_staged_frames_give(tmp_path, where):
    """A frame-pool frame (or any frame, uploading pageable) goes to the GPU from where it lies: no staging
    copy, no allocation per frame, the same detections; overlapped batches keep their order."""
    from inference.gpu.overlap import frame_job, run_overlapped
    from inference.gpu.pipeline import GpuPipeline

    images = frames(6, seed=11)
    model = synthetic_model(tmp_path)
    with GpuPipeline.open(model, batch=2) as staged:
        want = [staged.process(image) for image in images]
    with GpuPipeline.open(model, batch=2, upload="staged" if where == "frame_pool" else "pageable") as pipe:
        if where == "frame_pool":
            pool = pipe.frame_pool(len(images))
            for dst, src in zip(pool.frames, images):
                dst[...] = src
            images = pool.frames
        for image in images:  # warm, then count
            pipe.process(image)
        before = pipe.allocation_counts()
        alone = [pipe.process(image) for image in images]
        assert pipe.slots[0].sources[0] == images[-1].ctypes.data  # uploaded from the frame itself
        together = list(run_overlapped(pipe, [frame_job(image, i) for i, image in enumerate(images * 3)], workers=2))
        assert pipe.allocation_counts() == before
    assert [r.index for r in together] == list(range(18))
    for a, b, c in zip(want, alone, together):
        assert len(a.detections) == len(b.detections) == len(c.detections) > 0
        assert np.allclose(a.detections.xyxy, b.detections.xyxy, atol=1e-3)
        assert np.allclose(a.detections.xyxy, c.detections.xyxy, atol=1e-3)


def test_page_locked_memory_is_told_from_ordinary_memory():
    from inference.gpu.memory import Allocator, is_page_locked, page_locked_array

    frame = page_locked_array((1080, 1920, 3))
    assert is_page_locked(frame) and is_page_locked(frame[10:20])  # whole rows: still one block
    assert not is_page_locked(frame[:, 1:5])  # not contiguous: it must be copied
    assert not is_page_locked(np.zeros((1080, 1920, 3), np.uint8))
    allocator = Allocator(0)
    try:
        assert is_page_locked(allocator.pinned((4, 16), np.uint8, "pool").array)
    finally:
        allocator.free_all()


@needs_engine
def test_a_camera_reads_into_page_locked_frames_the_pipeline_uploads_in_place(tmp_path):
    """The station's camera path on the GPU: OpenCV reads each frame into a lent page-locked frame, the
    pipeline uploads it from there (no staging copy), detections match ordinary memory, every frame goes
    back to the lender, and a frame kept after the pipeline is closed is still valid memory."""
    import cv2

    from inference.gpu.memory import is_page_locked
    from inference.gpu.pipeline import GpuPipeline
    from inference.inspection import Inspector
    from inference.lending import is_lent
    from inference.sources import open_source

    video = tmp_path / "camera.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 30, (1920, 1080))
    for image in frames(6, seed=13):
        writer.write(image)
    writer.release()
    plain = [item.image for item in open_source(video).frames()]
    with GpuPipeline.open(synthetic_model(tmp_path)) as pipe:
        want = [pipe.process(image) for image in plain]
        inspector = Inspector(pipe)
        source = open_source(video)
        source.lend_frames(inspector.frame_memory)
        got, kept = [], None
        for item in source.frames():
            got.append(inspector.inspect(item))
            in_place = pipe.slots[0].sources[0] == item.image.ctypes.data
            assert in_place == is_lent(item.image) == (item.index > 0)  # the first frame tells the shape
            assert is_page_locked(item.image) == in_place
            kept = item.image
        del item
        assert source.lender.available == source.lender.count - 1  # only `kept` is still out
        before = pipe.allocation_counts()
        again = open_source(video)
        again.lend_frames(inspector.frame_memory)
        for item in again.frames():  # the pipeline allocates nothing for lent frames
            inspector.inspect(item)
        assert pipe.allocation_counts() == before
    for a, b in zip(want, got):
        assert len(a.detections) == len(b.detections) > 0
        assert np.allclose(a.detections.xyxy, b.detections.xyxy, atol=1e-3)
    assert is_page_locked(kept) and np.array_equal(kept, plain[-1])  # outlives the pipeline


@needs_engine
def test_cuda_graph_gives_the_same_detections_as_plain_iobinding(tmp_path):
    from inference.gpu.pipeline import GpuPipeline

    model, image = synthetic_model(tmp_path), frames(1, seed=4)[0]
    with GpuPipeline.open(model, cuda_graph=False) as plain:
        want = plain.process(image)
    with GpuPipeline.open(model, cuda_graph=True) as graph:
        got = [graph.process(image) for _ in range(3)][-1]  # replayed, not the capture run
    assert len(got.detections) == len(want.detections) > 0
    assert np.allclose(got.detections.confidence, want.detections.confidence, atol=1e-4)


@needs_engine
def test_open_pipeline_takes_the_gpu_path_here(tmp_path):
    from inference.gpu.fallback import open_pipeline
    from inference.gpu.pipeline import GpuPipeline

    choice = open_pipeline(synthetic_model(tmp_path))
    with choice.pipeline as pipe:
        assert choice.gpu and choice.reason == "" and isinstance(pipe, GpuPipeline)
        assert pipe.process(frames(1)[0]).ok


def test_torch_mirror_of_the_synthetic_model_equals_the_onnx(tmp_path):
    torch = pytest.importorskip("torch")
    import onnxruntime as ort

    from inference.gpu.synthetic import torch_model

    x = np.random.default_rng(0).uniform(0, 1, (1, 3, 640, 640)).astype(np.float32)
    session = ort.InferenceSession(str(synthetic_model(tmp_path)), providers=["CPUExecutionProvider"])
    want = session.run(None, {"images": x})[0]
    with torch.inference_mode():
        got = torch_model()(torch.from_numpy(x)).numpy()
    assert got.shape == want.shape and np.allclose(got, want, rtol=1e-3, atol=1e-2)


TRT_REASON = KERNEL_REASON or gpu_pipeline_unavailable_reason(0, "tensorrt")


@pytest.mark.tensorrt
@pytest.mark.skipif(TRT_REASON is not None, reason=f"TensorRT GPU pipeline unavailable: {TRT_REASON}")
def test_tensorrt_in_the_gpu_pipeline_finds_what_the_cpu_pipeline_finds(tmp_path):
    """Only the engine call differs: the same upload, letterbox, decode and NMS around execute_async_v3."""
    from inference.cli.doctor import matching_detections
    from inference.gpu.pipeline import GpuPipeline
    from inference.pipeline import Pipeline

    model = synthetic_model(tmp_path)
    frame = frames(1)[0]
    with Pipeline.open(model, "onnxruntime-cpu") as cpu:
        want = cpu.process(frame).detections
    with GpuPipeline.open(model, engine="tensorrt", batch=2) as pipe:
        assert pipe.backend.startswith("tensorrt-device")
        got = pipe.process_batch([frame, frame])
    assert len(want) > 0
    for result in got:
        assert matching_detections(want, result.detections) == []
