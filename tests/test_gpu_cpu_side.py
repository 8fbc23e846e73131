"""The GPU pipeline's host-side logic, on a machine without a GPU (CI).

What needs a GPU is in test_gpu_device.py (marked `gpu`). Here: the fallback to CPU preprocessing, the
allocator's bookkeeping (against a recording stand-in for the CUDA runtime: it checks our counting and
freeing, not CUDA), the numpy reference of the letterbox kernel against OpenCV, kernel argument packing,
the compact-row helpers, and the synthetic benchmark model.
"""

from __future__ import annotations

import ctypes
import importlib.util
import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

import inference.gpu.cuda as gpu_cuda
import inference.gpu.memory as gpu_memory
from inference.engines.base import TensorSpec
from inference.errors import BackendUnavailableError, EngineStateError, ModelError
from inference.gpu.engine import resolve_input_shape
from inference.gpu.fallback import open_pipeline
from inference.gpu.nvrtc import KernelArgs
from inference.gpu.postprocess import FrameCandidates, rows_to_candidates
from inference.gpu.reference import area_weights, linear_weights, reference_letterbox
from inference.pipeline import Pipeline
from inference.preprocess import Letterboxer
from tests.factories import blob_detector, scene_with_squares

ROOT = Path(__file__).resolve().parents[1]


# -- fallback ------------------------------------------------------------------------------------
def _without_cuda_python(monkeypatch):
    def missing(name):
        raise BackendUnavailableError("cuda-python is not installed", expected="the cuda.bindings package",
                                      found="No module named 'cuda'")
    monkeypatch.setattr(gpu_cuda, "_import", missing)
    monkeypatch.setattr(gpu_cuda, "_probe_cache", {})


def test_without_cuda_python_the_reason_names_the_package(monkeypatch):
    _without_cuda_python(monkeypatch)
    reason = gpu_cuda.gpu_unavailable_reason()
    assert reason is not None and "cuda-python" in reason


def test_without_cuda_python_open_pipeline_falls_back_to_cpu_preprocessing(monkeypatch, tmp_path):
    _without_cuda_python(monkeypatch)
    choice = open_pipeline(blob_detector(tmp_path / "m.onnx"), backend="onnxruntime-cpu", batch=4,
                           postprocess="gpu")
    with choice.pipeline as pipe:
        assert not choice.gpu and "cuda-python" in choice.reason
        assert isinstance(pipe, Pipeline) and isinstance(pipe.letterbox, Letterboxer)
        result = pipe.process(scene_with_squares(64, 64, [(16, 16, 24)]))
    assert result.ok and len(result.detections.of_class("bright")) >= 1


def test_without_a_gpu_the_reason_is_the_runtime_status(monkeypatch):
    class NoDevice:
        def cudaGetDeviceCount(self):
            return (35, None)  # cudaErrorInsufficientDriver, as cuda.bindings returns it with no driver

    monkeypatch.setattr(gpu_cuda, "_import", lambda name: NoDevice())
    monkeypatch.setattr(gpu_cuda, "_probe_cache", {})
    reason = gpu_cuda.gpu_unavailable_reason()
    assert reason is not None and reason.startswith("no CUDA device")


def test_gpu_not_requested_opens_cpu_pipeline(tmp_path):
    choice = open_pipeline(blob_detector(tmp_path / "m.onnx"), prefer_gpu=False, backend="onnxruntime-cpu")
    with choice.pipeline:
        assert not choice.gpu and choice.reason == "GPU pipeline not requested"


# -- allocator bookkeeping ---------------------------------------------------------------------------
class RecordingRuntime:
    """Stands in for cuda.bindings.runtime: hands out addresses and records every call (no CUDA)."""

    cudaHostAllocPortable = 1
    cudaStreamNonBlocking = 1
    cudaEventDefault = 0

    def __init__(self) -> None:
        self.calls: list[tuple[str, int]] = []
        self.priorities: list[int] = []
        self._next = 0x10000
        self._host: dict[int, ctypes.Array] = {}

    def _handle(self, kind: str, size: int = 16) -> tuple[int, int]:
        self._next += max(size, 16)
        self.calls.append((kind, self._next))
        return (0, self._next)

    def cudaMalloc(self, nbytes):
        return self._handle("malloc", nbytes)

    def cudaFree(self, ptr):
        self.calls.append(("free", ptr))
        return (0,)

    def cudaHostAlloc(self, nbytes, flags):
        buffer = ctypes.create_string_buffer(nbytes)
        address = ctypes.addressof(buffer)
        self._host[address] = buffer
        self.calls.append(("host_alloc", address))
        return (0, address)

    def cudaFreeHost(self, ptr):
        self.calls.append(("host_free", ptr))
        return (0,)

    def cudaStreamCreateWithPriority(self, flags, priority):
        self.priorities.append(priority)
        return self._handle("stream")

    def cudaDeviceGetStreamPriorityRange(self):
        return (0, 0, -5)  # least, greatest: a lower number is more urgent

    def cudaStreamDestroy(self, handle):
        self.calls.append(("stream_destroy", handle))
        return (0,)

    def cudaEventCreateWithFlags(self, flags):
        return self._handle("event")

    def cudaEventDestroy(self, handle):
        self.calls.append(("event_destroy", handle))
        return (0,)


def recording_allocator(monkeypatch) -> tuple[gpu_memory.Allocator, RecordingRuntime]:
    fake = RecordingRuntime()
    monkeypatch.setattr(gpu_memory, "runtime", lambda: fake)
    monkeypatch.setattr(gpu_memory, "make_current", lambda device_id: None)
    return gpu_memory.Allocator(0), fake


def test_allocator_counts_each_kind_and_live_bytes(monkeypatch):
    alloc, _ = recording_allocator(monkeypatch)
    alloc.device((2, 3, 8, 8), np.float32, "input")
    alloc.pinned((4, 100), np.uint8, "staging")
    alloc.stream("s")
    alloc.event("e")
    counts = alloc.counts()
    assert (counts.device, counts.pinned, counts.streams, counts.events) == (1, 1, 1, 1)
    assert counts.live_device_bytes == 2 * 3 * 8 * 8 * 4 and counts.live_pinned_bytes == 400
    assert counts.allocations == 4 and alloc.live == 4


def test_the_engine_stream_gets_the_highest_priority_and_the_others_the_default(monkeypatch):
    alloc, fake = recording_allocator(monkeypatch)
    engine, uploads = alloc.stream("pipeline", urgent=True), alloc.stream("uploads")
    assert (engine.priority, uploads.priority) == (-5, 0) and fake.priorities == [-5, 0]


def test_free_is_idempotent_and_use_after_free_is_an_error(monkeypatch):
    alloc, fake = recording_allocator(monkeypatch)
    buffer = alloc.device((16,), np.float32, "x")
    buffer.free()
    buffer.free()
    assert [c for c in fake.calls if c[0] == "free"] == [("free", fake.calls[0][1])]
    assert alloc.live == 0
    with pytest.raises(EngineStateError):
        _ = buffer.ptr


def test_free_all_frees_newest_first_and_only_what_is_live(monkeypatch):
    alloc, fake = recording_allocator(monkeypatch)
    first = alloc.device((4,), np.uint8, "first")
    alloc.pinned((4,), np.uint8, "second")
    alloc.stream("third")
    first.free()
    fake.calls.clear()
    alloc.free_all()
    assert [kind for kind, _ in fake.calls] == ["stream_destroy", "host_free"]
    assert alloc.live == 0 and alloc.counts().allocations == 3  # counts what was made, not what is live


def test_pinned_buffer_is_a_writable_numpy_view_of_its_memory(monkeypatch):
    alloc, _ = recording_allocator(monkeypatch)
    pinned = alloc.pinned((2, 5), np.float32, "p")
    pinned.array[:] = 3.5
    raw = (ctypes.c_float * 10).from_address(pinned.ptr)
    assert list(raw) == [3.5] * 10


# -- letterbox kernel arithmetic ------------------------------------------------------------------
SIZES = [(1080, 1920), (720, 1280), (480, 640), (300, 200), (640, 640), (1, 4000), (37, 1013), (1000, 750),
         (2, 2)]


@pytest.mark.parametrize("source_hw", SIZES)
@pytest.mark.parametrize("content", ["noise", "gradient"])
def test_kernel_reference_agrees_with_opencv_within_one_grey_level(source_hw, content):
    rng = np.random.default_rng(source_hw[0] * 31 + source_hw[1])
    if content == "noise":
        image = rng.integers(0, 256, (*source_hw, 3), dtype=np.uint8)
    else:
        y, x = np.mgrid[0:source_hw[0], 0:source_hw[1]]
        image = np.stack([(x * 7 + y * 3) % 256, (x * 2) % 256, (y * 5) % 256], -1).astype(np.uint8)
    cpu = Letterboxer((640, 640))
    cpu_transform = cpu(image)
    ref, ref_transform = reference_letterbox(image, (640, 640))
    assert ref_transform == cpu_transform
    assert np.abs(ref - cpu.tensor[0]).max() <= 1 / 255 + 1e-6


@pytest.mark.parametrize("src,dst", [(1920, 640), (1080, 360), (1000, 427), (7, 3)])
def test_area_weights_are_an_exact_average(src, dst):
    weights = area_weights(src, dst)
    assert np.allclose(weights.sum(axis=1), 1.0)
    assert np.isclose(weights.sum(), dst)  # every output pixel averages; every source pixel is used in full
    assert np.allclose(weights.sum(axis=0) * src / dst, 1.0)


@pytest.mark.parametrize("src,dst,expected_first_row", [(2, 4, {0: 1.0}), (4, 8, {0: 1.0}), (3, 6, {0: 1.0})])
def test_linear_weights_clamp_at_the_edge_like_opencv(src, dst, expected_first_row):
    weights = linear_weights(src, dst)
    assert np.allclose(weights.sum(axis=1), 1.0)
    assert {int(i): float(weights[0, i]) for i in np.flatnonzero(weights[0])} == expected_first_row


# -- kernel arguments and compact rows -----------------------------------------------------------------
def test_kernel_args_pointer_array_points_at_the_values_set():
    args = KernelArgs([ctypes.c_void_p, ctypes.c_int, ctypes.c_float]).set(0xDEAD000, -7, 0.25)
    pointers = (ctypes.c_void_p * 3).from_address(args.address)
    assert ctypes.c_void_p.from_address(pointers[0]).value == 0xDEAD000
    assert ctypes.c_int.from_address(pointers[1]).value == -7
    assert ctypes.c_float.from_address(pointers[2]).value == 0.25
    args.set(1, 2, 3.0)
    assert ctypes.c_int.from_address(pointers[1]).value == 2  # rewritten in place: no new array per frame


@pytest.mark.parametrize("shape", [(2, 2, 3), (3, 4000, 3), (1080, 1920, 3), (1001, 700, 3)])
def test_parallel_staging_copy_copies_every_row(shape):
    from inference.gpu.staging import parallel_copy

    src = np.random.default_rng(0).integers(0, 256, shape, dtype=np.uint8)
    dst = np.zeros_like(src)
    parallel_copy(dst, src)
    assert np.array_equal(dst, src)


def test_rows_become_the_candidates_the_cpu_decoder_gives():
    from inference.decode import decode_yolov8

    rng = np.random.default_rng(3)
    raw = np.concatenate([rng.uniform(10, 600, (1, 4, 50)), rng.uniform(0, 1, (1, 3, 50))], axis=1).astype(np.float32)
    expected = decode_yolov8(raw, 3, 0.3)
    score = raw[0, 4:].max(0)
    keep = np.flatnonzero(score >= 0.3)
    shuffled = rng.permutation(keep)  # device rows arrive in atomic order
    rows = np.stack([*raw[0, :4, shuffled].T, score[shuffled], raw[0, 4:, shuffled].T.argmax(0), shuffled],
                    axis=1).astype(np.float32)
    order = np.argsort(rows[:, 6], kind="stable")
    frame = FrameCandidates(rows[order], order)
    got = rows_to_candidates(frame.rows)
    assert np.allclose(got.xyxy, expected.xyxy) and np.array_equal(got.class_id, expected.class_id)
    assert np.allclose(got.score, expected.score)
    device_rows = np.array([0, 5, 2])
    assert np.array_equal(frame.rows[frame.sorted_positions(device_rows)], rows[device_rows])


@pytest.mark.parametrize("count,classes,disabled", [(0, 1, ()), (1, 1, ()), (60, 3, ()), (300, 3, ("code",)),
                                                     (700, 2, ())])  # 700: past the matrix limit
def test_host_bitmask_nms_selects_exactly_what_select_does(count, classes, disabled):
    from inference.decode import Candidates
    from inference.gpu.host_nms import select_fast
    from inference.postprocess import Thresholds, select

    rng = np.random.default_rng(count + classes)
    xy = rng.uniform(0, 600, (count, 2))
    boxes = np.concatenate([xy, xy + rng.uniform(5, 90, (count, 2))], axis=1).astype(np.float32)
    candidates = Candidates(boxes, rng.uniform(0.01, 1, count).astype(np.float32),
                            rng.integers(0, classes, count).astype(np.int32))
    names = ("tag", "code", "label")[:classes]
    thresholds = Thresholds(confidence=0.2, iou=0.45, max_detections=80, disabled_classes=frozenset(disabled))
    want, got = select(candidates, names, thresholds), select_fast(candidates, names, thresholds)
    assert np.array_equal(got.xyxy, want.xyxy) and np.array_equal(got.class_id, want.class_id)
    assert np.array_equal(got.confidence, want.confidence)


@pytest.mark.parametrize("shape,batch,input_hw,expected", [
    ((1, 3, 640, 640), 1, None, (1, 3, 640, 640)),
    ((-1, 3, 640, 640), 8, None, (8, 3, 640, 640)),
    ((-1, 3, -1, -1), 2, (480, 640), (2, 3, 480, 640)),
    ((-1, 3, -1, -1), 1, None, (1, 3, 320, 320)),
])
def test_input_shape_resolution(shape, batch, input_hw, expected):
    spec = TensorSpec("images", shape, np.dtype(np.float32))
    assert resolve_input_shape(spec, batch, input_hw, (320, 320)) == expected


def test_fixed_batch_model_refuses_another_batch_with_a_hint():
    with pytest.raises(ModelError) as info:
        resolve_input_shape(TensorSpec("images", (1, 3, 640, 640), np.dtype(np.float32)), 8, None, (640, 640))
    assert "dynamic batch" in str(info.value) and "hint" in str(info.value)


def test_kernel_source_compiles_with_nvrtc_when_present():
    """NVRTC needs no GPU; CI has no NVRTC library, so this runs where the nvidia-cuda-nvrtc wheel is."""
    try:
        gpu_cuda.nvrtc().nvrtcVersion()
    except Exception as exc:
        pytest.skip(f"NVRTC not available here: {str(exc).splitlines()[0]}")
    from inference.gpu.kernels import SOURCE
    from inference.gpu.nvrtc import compile_cubin

    assert compile_cubin(SOURCE, "sm_90", "hangtag_kernels.cu")[:4] == b"\x7fELF"


# -- the benchmark's stand-in model and CLI -------------------------------------------------------------
def test_synthetic_detector_has_the_real_interface_and_a_realistic_candidate_count(tmp_path):
    import onnxruntime as ort

    from inference.gpu.synthetic import build_onnx

    from inference.gpu.bench import make_frames

    session = ort.InferenceSession(str(build_onnx(tmp_path / "syn.onnx")), providers=["CPUExecutionProvider"])
    letterbox = Letterboxer((640, 640))
    letterbox(make_frames(1)[0])
    out = session.run(None, {"images": np.repeat(letterbox.tensor, 2, axis=0)})[0]
    assert out.shape == (2, 7, 8400)
    count = int((out[0, 4:].max(0) >= 0.01).sum())
    assert 20 <= count <= 2000, count  # a trained detector keeps tens to hundreds above the 0.01 floor
    assert np.array_equal(out[0], out[1])  # the batch axis is real: frames do not mix


def test_gpu_bench_without_a_gpu_writes_the_reason_and_exits_2(tmp_path, monkeypatch):
    out = tmp_path / "bench.json"
    env = {"PATH": "/usr/bin:/bin", "PYTHONPATH": str(ROOT), "HANGTAG_FORCE_NO_GPU": "1"}
    result = subprocess.run([sys.executable, "-m", "inference.cli", "gpu-bench", "--json", str(out), "--quick"],
                            cwd=ROOT, capture_output=True, text=True, env=env)
    assert result.returncode == 2, result.stdout + result.stderr
    record = json.loads(out.read_text())
    assert record["skipped"] and "GPU" in record["skipped"]


def test_tensorrt_backend_asks_the_gpu_pipeline_for_the_tensorrt_engine():
    from inference.gpu.fallback import device_engine_for

    assert device_engine_for("tensorrt") == "tensorrt"
    assert device_engine_for("onnxruntime-cuda") == "onnxruntime"
    assert device_engine_for(None) == "onnxruntime"


@pytest.mark.skipif(importlib.util.find_spec("tensorrt") is not None, reason="TensorRT is installed here")
def test_tensorrt_without_a_gpu_pipeline_reaches_the_tensorrt_backend_and_its_message(tmp_path):
    """No silent swap to another engine: the host-preprocessing TensorRT backend is asked, and says why not."""
    from inference.errors import BackendUnavailableError

    with pytest.raises(BackendUnavailableError) as caught:
        open_pipeline(blob_detector(tmp_path / "m.onnx"), backend="tensorrt")
    assert "TensorRT" in str(caught.value)


def test_doctor_matches_detections_by_class_and_overlap():
    from inference.cli.doctor import matching_detections
    from inference.detections import Detections

    names = ("hangtag", "barcode")
    ref = Detections(np.array([[0, 0, 100, 100], [200, 200, 260, 240]], np.float32), np.array([0.9, 0.8], np.float32),
                     np.array([0, 1]), names)
    near = Detections(ref.xyxy[::-1] + 1, ref.confidence[::-1], ref.class_id[::-1], names)
    assert matching_detections(ref, near) == []
    wrong_class = Detections(ref.xyxy, ref.confidence, np.array([1, 1]), names)
    assert matching_detections(ref, wrong_class) == ["detection 0 (hangtag) has no match (best IoU 1.00)"]
    assert matching_detections(ref, Detections(ref.xyxy[:1], ref.confidence[:1], ref.class_id[:1], names)) == \
        ["1 detections against 2"]


class _HostBuffer:
    """Ordinary numpy memory in the place of pinned memory: the placement logic needs addresses, not CUDA."""

    def __init__(self, shape, dtype=np.uint8) -> None:
        self.array = np.zeros(shape, dtype)
        self.ptr, self.nbytes, self.freed = self.array.ctypes.data, self.array.nbytes, False


class _HostAllocator:
    def pinned(self, shape, dtype, name):
        return _HostBuffer(shape, dtype)


def test_a_slot_uploads_pool_frames_in_place_and_copies_the_rest_into_staging():
    from inference.gpu.staging import FrameInfo, FramePool, Slot

    capacity = 4 * 5 * 3
    slot = Slot(0, _HostBuffer((3, capacity)), capacity, {})
    pool = FramePool(_HostAllocator(), 2, (4, 5))
    start, end = pool.buffer.ptr, pool.buffer.ptr + pool.buffer.nbytes  # the pipeline asks CUDA; here: the range
    slot.in_place = lambda image: image.flags.c_contiguous and start <= image.ctypes.data < end
    pool.frames[1][...] = 7
    assert slot.place(pool.frames[1], FrameInfo("pooled")) is None  # nothing to copy
    ordinary = np.full((4, 5, 3), 9, np.uint8)
    view, frame = slot.place(ordinary, FrameInfo("copied"))
    assert frame is ordinary and view.shape == (4, 5, 3)
    cropped = pool.frames[0][:, 1:4]  # not contiguous: copied like any other frame
    assert slot.place(cropped, FrameInfo("cropped")) is not None
    assert slot.source_of(0) == pool.frames[1].ctypes.data
    assert slot.source_of(1) == slot.staging.ptr + capacity
    assert slot.source_of(2) == slot.staging.ptr + 2 * capacity
    assert slot.held == [pool.frames[1]]
    slot.clear()
    assert slot.sources == [] and slot.held == []


def test_uploading_pageable_keeps_each_frame_alive_and_copies_nothing():
    from inference.gpu.staging import FrameInfo, Slot

    slot = Slot(0, _HostBuffer((1, 60)), 60, {})
    slot.upload = "pageable"
    image = np.ones((4, 5, 3), np.uint8)
    assert slot.place(image, FrameInfo()) is None
    assert slot.source_of(0) == image.ctypes.data and slot.held[0] is image
    big = np.ones((40, 50, 3), np.uint8)  # larger than the staging capacity: no growth needed either
    assert slot.place(big, FrameInfo()) is None and slot.oversize == {}


def test_an_unknown_upload_mode_is_refused_with_the_choices():
    from inference.errors import ConfigError
    from inference.gpu.pipeline import GpuPipeline

    with pytest.raises(ConfigError) as caught:
        GpuPipeline(engine=None, upload="mapped")
    assert "staged | pageable" in str(caught.value)


# -- overlap orchestration (threads and queues; the GPU work is a host stand-in) ---------------------
class _HostStagePipeline:
    """What run_overlapped needs of a GpuPipeline, done on the host: each step records the thread it ran on
    and the frames' first pixel stands for the frame's detections."""

    def __init__(self, batch=2, slots=4, fail_compute_at=None):
        from inference.gpu.staging import Slot
        from inference.postprocess import Thresholds

        self.batch, self.thresholds, self.class_names = batch, Thresholds(), ("hangtag",)
        self.slots = [Slot(n, _HostBuffer((batch, 4 * 4 * 3)), 4 * 4 * 3, {}) for n in range(slots)]
        self.threads: dict[str, set[str]] = {"stage": set(), "compute": set(), "decode": set(), "finish": set()}
        self.computed = 0
        self.fail_compute_at = fail_compute_at
        self.idle_waits = 0

    def _note(self, step):
        import threading

        self.threads[step].add(threading.current_thread().name)

    def stage(self, slot):
        self._note("stage")
        slot.transforms = [slot.staging.array[i, 0] for i in range(slot.frames)]

    def compute(self, slot):
        self._note("compute")
        self.computed += 1
        if self.computed == self.fail_compute_at:
            raise RuntimeError("engine failed on this batch")

    def decode(self, slot):
        self._note("decode")

    def finish(self, slot, t0):
        from inference.pipeline import error_result

        self._note("finish")
        return [error_result(info.index, info.name, None, f"pixel {int(value)}", self.thresholds)
                for info, value in zip(slot.infos, slot.transforms)]

    def wait_idle(self):
        self.idle_waits += 1


def _jobs(count, bad=()):
    from inference.gpu.overlap import frame_job
    from inference.gpu.staging import FrameInfo

    def broken(i):
        return lambda: (None, FrameInfo(f"bad_{i}", None, i, error="not a JPEG"))

    return [broken(i) if i in bad else frame_job(np.full((4, 4, 3), i % 251, np.uint8), i, f"f{i}") for i in range(count)]


def _gpu_threads():
    import threading

    return [t for t in threading.enumerate() if t.name.startswith("gpu-")]


def test_overlapped_run_gives_every_frame_in_order_with_one_thread_per_stream():
    from inference.gpu.overlap import run_overlapped

    pipe = _HostStagePipeline(batch=3)
    results = list(run_overlapped(pipe, _jobs(25, bad={4, 13}), workers=3))
    assert [r.index for r in results] == list(range(25))
    for r in results:  # each frame's own pixels came back with it; a bad file keeps its place and its reason
        assert r.error == ("not a JPEG" if r.index in (4, 13) else f"pixel {r.index}")
    assert pipe.threads == {"stage": {"gpu-stager"}, "compute": {"gpu-engine"}, "decode": {"gpu-finisher"},
                            "finish": {"gpu-finisher"}}
    assert pipe.idle_waits == 1 and _gpu_threads() == []


def test_stopping_early_joins_every_thread_and_leaves_the_gpu_idle():
    import sys

    from inference.gpu.overlap import run_overlapped

    pipe = _HostStagePipeline(batch=2)
    interval = sys.getswitchinterval()
    run = run_overlapped(pipe, _jobs(400), workers=2)
    first = [next(run) for _ in range(5)]
    assert sys.getswitchinterval() <= 0.0002  # the GPU thread gets the GIL back quickly while running
    run.close()
    assert [r.index for r in first] == list(range(5))
    assert pipe.idle_waits == 1 and _gpu_threads() == []
    assert sys.getswitchinterval() == interval


def test_an_engine_failure_reaches_the_caller_and_stops_the_run():
    from inference.gpu.overlap import run_overlapped

    pipe = _HostStagePipeline(batch=2, fail_compute_at=3)
    seen = []
    with pytest.raises(RuntimeError, match="engine failed"):
        for result in run_overlapped(pipe, _jobs(40), workers=2):
            seen.append(result.index)
    assert seen == [0, 1, 2, 3]  # the two batches before the failing one
    assert _gpu_threads() == []


class _SlotRecordingPipeline(Pipeline):
    """The CPU Pipeline offering frame memory and keeping the GPU pipeline's record of where the last frame
    was uploaded from (in place: its own address), so gpu-bench's camera measurement runs here."""

    def __init__(self, *args, **kwargs) -> None:
        super().__init__(*args, **kwargs)
        from types import SimpleNamespace

        self.slots = [SimpleNamespace(sources=[0])]

    @staticmethod
    def frame_memory(shape):
        return np.zeros(shape, np.uint8)

    def process(self, image_bgr, **kwargs):
        from inference.lending import is_lent

        self.slots[0].sources[0] = image_bgr.ctypes.data if is_lent(image_bgr) else 0
        return super().process(image_bgr, **kwargs)


def test_the_camera_benchmark_counts_frames_read_into_lent_memory(tmp_path):
    from inference.gpu.bench import camera_source, write_video

    model = blob_detector(tmp_path / "blob.onnx")
    pipe = _SlotRecordingPipeline.open(model, "onnxruntime-cpu")
    video = write_video([scene_with_squares(48, 64, [(8 + 4 * i, 10, 16)]) for i in range(5)], tmp_path / "c.avi", 30)
    lent = camera_source(pipe, video, lend=True, grabber=False, passes=2, warmup=5)
    assert lent["frames"] == 55 and lent["uploaded_in_place"] == 54  # all but the first frame of the first pass...
    assert lent["frames_in_own_memory"] == 2  # ...and of the second: each reading tells its lender the shape
    ordinary = camera_source(pipe, video, lend=False, grabber=False, passes=1, warmup=0)
    assert ordinary["frames"] == 30 and ordinary["uploaded_in_place"] == 0 and ordinary["frames_lent"] == 0
    assert ordinary["end_to_end_ms"]["p50"] > 0 and ordinary["read_ms"]["n"] == ordinary["beside_engine_ms"]["n"] == 30
    grabbed = camera_source(pipe, video, lend=True, grabber=True, passes=1, warmup=0)  # as the station reads
    assert grabbed["frames"] + grabbed["dropped_by_grabber"] == 30 and grabbed["frames"] > 0
    assert grabbed["uploaded_in_place"] >= grabbed["frames"] - 1 and grabbed["stages_ms"]["total"]["n"] > 0
    pipe.close()
