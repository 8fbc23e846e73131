"""The GPU pipeline: frames in, the same immutable FrameResults as the CPU Pipeline out.

Per batch, on three streams ordered by events, with no host synchronization until the end:
    copy stream:    host → device (one copy per frame, from pinned memory) → letterbox kernel into the
                    slot's own input buffer                                              (`stage`)
    compute stream: that input copied into the engine's bound input → engine → output copied aside
                                                                                         (`compute`)
    post stream:    compact-decode kernel (+ NMS) on the copy → small copy of candidate rows back
                                                                                         (`decode`)
and one event wait (`finish`). Split so, the upload and letterbox of batch n+1 and the decode of batch
n-1 run while the engine works on batch n; `run_overlapped` calls the four from three threads, and
`enqueue` is the first three in a row.
Every buffer, the stream and the events are made once, through one Allocator, at open; a frame
allocates nothing on the device or in pinned memory (tests count it through the allocator).
Stage times come from CUDA events; host stages (staging copy, NMS) from perf_counter_ns.
"""

from __future__ import annotations

import importlib.util
import threading
import time
from contextlib import ExitStack
from pathlib import Path
from typing import Any, Sequence

import numpy as np

from inference.decode import Candidates, decode, infer_layout, num_classes_for
from inference.detections import Detections
from inference.errors import ConfigError
from inference.gpu.cuda import check, compute_capability, device_memory_used_mb, runtime
from inference.gpu.engine import DeviceEngine
from inference.gpu.host_nms import select_fast
from inference.gpu.kernels import SOURCE
from inference.gpu.memory import Allocator, AllocationCounts, is_page_locked, page_locked_array
from inference.gpu.nvrtc import Module, compile_cubin
from inference.gpu.postprocess import POSTPROCESS_MODES, CompactDecoder, FrameCandidates, GpuNms, rows_to_candidates
from inference.gpu.preprocess import GpuLetterboxer
from inference.gpu.staging import UPLOAD_MODES, FrameInfo, FramePool, Slot, grow, make_slots
from inference.model_info import ModelSpec, read_model_spec
from inference.pipeline import FrameResult
from inference.postprocess import CANDIDATE_FLOOR, Thresholds
from inference.preprocess import LetterboxTransform
from inference.telemetry import MemorySample, RollingStats, StageTimings, process_rss_mb, process_vram_mb

IN_FLIGHT = 4  # one slot filling and uploading, one waiting for the engine, one in it, one being finished
DEFAULT_MAX_FRAME_HW = (1080, 1920)


class GpuPipeline:
    """One engine, one stream, fixed buffers. Not thread-safe: one pipeline per worker thread (a lock guards misuse)."""

    def __init__(self, engine: DeviceEngine, *, batch: int = 1, thresholds: Thresholds | None = None,
                 input_hw: tuple[int, int] | None = None, layout: str | None = None, postprocess: str = "auto",
                 max_frame_hw: tuple[int, int] = DEFAULT_MAX_FRAME_HW, device_id: int = 0,
                 sample_memory_every: int = 1, warmup: int = 3, upload: str = "staged") -> None:
        if postprocess not in (*POSTPROCESS_MODES, "auto"):
            raise ConfigError("unknown postprocess mode", expected="auto | " + " | ".join(POSTPROCESS_MODES),
                              found=postprocess)
        if upload not in UPLOAD_MODES:
            raise ConfigError("unknown upload mode", expected=" | ".join(UPLOAD_MODES), found=upload)
        if not 1 <= batch <= 64:
            raise ConfigError("batch size out of range", expected="1 … 64", found=str(batch))
        self.engine = engine
        self.batch = batch
        self.device_id = device_id
        self.thresholds = thresholds or Thresholds()
        self.postprocess = postprocess
        self.upload = upload
        self.sample_memory_every = max(0, sample_memory_every)
        self.stats = RollingStats()
        self._lock = threading.Lock()
        self._frames = 0
        self._page_locked: dict[tuple[int, int], bool] = {}  # (address, bytes) → page-locked?
        self._last: tuple[Candidates, LetterboxTransform] | None = None
        self._stack = ExitStack()
        try:
            self._open(input_hw, layout, max_frame_hw, warmup)
        except BaseException:
            self._stack.close()
            raise

    def _open(self, input_hw, layout, max_frame_hw, warmup) -> None:
        self.allocator = Allocator(self.device_id)
        self._stack.callback(self.allocator.free_all)
        self._stack.callback(self.engine.close)
        major, minor = compute_capability(self.device_id)
        self.module = Module(compile_cubin(SOURCE, f"sm_{major}{minor}", "hangtag_kernels.cu"), self.device_id)
        self._stack.callback(self.module.free)
        self.stream = self.allocator.stream("pipeline", urgent=True)  # the engine first when kernels queue
        self.copy_stream = self.allocator.stream("uploads")
        self.post_stream = self.allocator.stream("post")
        in_spec, out_specs = self.engine.describe(self.batch, input_hw)
        self.input_name = in_spec.name
        self.input_hw = (in_spec.shape[2], in_spec.shape[3])
        self.input_buffer = self.allocator.device(in_spec.shape, in_spec.dtype, f"input:{in_spec.name}")
        self.output_buffers = {o.name: self.allocator.device(o.shape, o.dtype, f"output:{o.name}") for o in out_specs}
        # Each slot letterboxes into its own input and decodes from its own copy of the output, so the engine's
        # bound buffers are busy only for the engine call (two device-to-device copies, microseconds).
        self.slot_inputs = [self.allocator.device(in_spec.shape, in_spec.dtype, f"slot_input_{i}")
                            for i in range(IN_FLIGHT)]
        first_out = out_specs[0]
        self.slot_outputs = [self.allocator.device(first_out.shape, first_out.dtype, f"slot_output_{i}")
                             for i in range(IN_FLIGHT)]
        self.engine.bind(self.stream, {in_spec.name: self.input_buffer}, self.output_buffers)
        self.spec: ModelSpec = read_model_spec(self.engine.model_path, self.engine.metadata)
        out = self.output_buffers[out_specs[0].name]
        self.layout = layout or self.spec.layout or infer_layout(out.shape, len(self.spec.class_names) or None)
        n_classes = len(self.spec.class_names) or num_classes_for(self.layout, out.shape)
        self.class_names = self.spec.class_names or tuple(f"class_{i}" for i in range(n_classes))
        self.num_classes = len(self.class_names)
        self.max_frame_hw = (int(max_frame_hw[0]), int(max_frame_hw[1]))
        frame_capacity = self.max_frame_hw[0] * self.max_frame_hw[1] * 3
        self.letterbox = GpuLetterboxer(self.allocator, self.module, self.input_buffer, frame_capacity, IN_FLIGHT)
        self.slots = make_slots(self.allocator, IN_FLIGHT, self.batch, frame_capacity)
        for slot in self.slots:
            slot.upload = self.upload
            slot.in_place = self._uploads_in_place
        self._output = out
        if self.layout == "yolov8":
            self.decoder: CompactDecoder | None = CompactDecoder(self.allocator, self.module, out, self.num_classes,
                                                                 in_flight=IN_FLIGHT)
            self._raw_host = None
        else:  # other layouts: the whole raw output comes back and the CPU decoders run, as in Pipeline
            self.decoder = None
            self._raw_host = [self.allocator.pinned(out.shape, out.dtype, f"raw_host_{i}") for i in range(IN_FLIGHT)]
        self.nms: GpuNms | None = None
        self.set_postprocess(self.postprocess)
        blank = np.full((*max_frame_hw, 3), 114, np.uint8)
        for _ in range(max(1, warmup)):
            self.process_batch([blank] * self.batch, record=False)

    # -- construction -----------------------------------------------------------------------
    @classmethod
    def open(cls, model_path: Path | str, *, engine: str = "onnxruntime", cuda_graph: bool = False,
             device_id: int = 0, **options: Any) -> GpuPipeline:
        """The pipeline around a device engine: ONNX Runtime's CUDA provider (the default) or TensorRT, both
        bound to this pipeline's buffers and stream; only the engine call differs."""
        if engine == "tensorrt":
            from inference.gpu.trt_engine import TrtDeviceEngine

            device_engine: DeviceEngine = TrtDeviceEngine(Path(model_path), device_id=device_id,
                                                          max_batch=max(8, int(options.get("batch", 1))))
        elif engine == "onnxruntime":
            from inference.gpu.ort_engine import OrtDeviceEngine

            device_engine = OrtDeviceEngine(Path(model_path), device_id=device_id, cuda_graph=cuda_graph)
        else:
            raise ConfigError("unknown device engine", expected="onnxruntime | tensorrt", found=engine)
        return cls(device_engine, device_id=device_id, **options)

    def __enter__(self) -> GpuPipeline:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def close(self) -> None:
        """Free every buffer, event and stream (after the stream is idle), unload kernels, close the engine."""
        if self._stack is None:
            return
        stack, self._stack = self._stack, None
        try:
            self.wait_idle()
        finally:
            stack.close()

    # -- running ---------------------------------------------------------------------------------
    def wait_idle(self) -> None:
        """Block until the GPU has done everything queued on this pipeline's streams."""
        for stream in (self.copy_stream, self.stream, self.post_stream):
            if not stream.freed:
                stream.synchronize()

    def process(self, image_bgr: np.ndarray, *, source_name: str = "frame", source_path: str | None = None,
                index: int | None = None, decode_ms: float = 0.0) -> FrameResult:
        return self.process_batch([image_bgr], [FrameInfo(source_name, source_path, index, decode_ms)])[0]

    def process_batch(self, images: Sequence[np.ndarray], infos: Sequence[FrameInfo] | None = None, *,
                      record: bool = True) -> list[FrameResult]:
        """Synchronous: stage, run and finish up to `batch` frames; returns one FrameResult per frame."""
        if not 1 <= len(images) <= self.batch:
            raise ConfigError("wrong number of frames for this pipeline", expected=f"1 … {self.batch}",
                              found=str(len(images)))
        with self._lock:
            slot = self.slots[0]
            slot.clear()
            t0 = time.perf_counter_ns()
            for i, image in enumerate(images):
                slot.add(image, infos[i] if infos else FrameInfo())
            self.enqueue(slot)
            return self.finish(slot, t0, record=record)

    def enqueue(self, slot: Slot) -> None:
        """Queue a staged slot's whole GPU work; returns before the GPU finishes it (the engine call itself
        may block, as ONNX Runtime's does)."""
        self.stage(slot)
        self.compute(slot)
        self.decode(slot)

    def stage(self, slot: Slot) -> None:
        """Copy stream: upload the slot's frames and letterbox them into the slot's own input buffer. Queued
        for batch n+1 while the engine runs batch n, the upload overlaps the engine. Grows the slot's
        buffers when a frame is larger than any before: the thread that stages is the one that allocates."""
        ev, copies = slot.events, self.copy_stream
        if slot.oversize:
            grow(self.allocator, slot, max(slot.frame_capacity, *(im.nbytes for im in slot.oversize.values())))
        largest = max((h * w * 3 for i, (h, w) in enumerate(slot.shapes) if i not in slot.on_device),
                      default=0)  # pageable/pool frames may exceed staging; device frames need no store
        self.letterbox.reserve(slot.number, max(slot.frame_capacity, largest))
        copies.wait(ev["infer"])  # this slot's input was last read before its previous engine call
        ev["start"].record(copies)
        for i, (h, w) in enumerate(slot.shapes):
            if i not in slot.on_device:  # a GPU-decoded frame is read where it lies
                self.letterbox.upload(copies, slot.source_of(i), slot.number, i, h * w * 3)
        ev["h2d"].record(copies)
        target = self.slot_inputs[slot.number]
        slot.transforms = [self.letterbox.launch(copies, hw, slot.number, i, target, slot.on_device.get(i))
                           for i, hw in enumerate(slot.shapes)]
        ev["letterbox"].record(copies)

    def compute(self, slot: Slot) -> None:
        """Compute stream: the slot's input into the engine's bound input, the engine, its output copied
        aside into the slot's own buffer. Nothing else, so a thread that only computes keeps the engine busy."""
        ev, stream, n = slot.events, self.stream, slot.number
        stream.wait(ev["letterbox"])
        ev["compute"].record(stream)
        _copy_on_device(self.input_buffer, self.slot_inputs[n], slot.frames * self.letterbox.position_bytes, stream)
        self.engine.enqueue()
        ev["infer"].record(stream)
        aside = self.slot_outputs[n]
        _copy_on_device(aside, self._output, aside.nbytes, stream)
        ev["output"].record(stream)

    def decode(self, slot: Slot) -> None:
        """Post stream: decode (and NMS, in "gpu" mode) the slot's copy of the output and bring the
        candidates back; runs beside the engine's next batch."""
        ev, post, n = slot.events, self.post_stream, slot.number
        post.wait(ev["output"])
        aside = self.slot_outputs[n]
        if self.decoder is not None:
            self.decoder.enqueue(post, n, aside)
            slot.gpu_nms = self.postprocess == "gpu" and self.nms is not None
            if slot.gpu_nms:
                self.nms.enqueue(post, n, self.thresholds, self.class_names)
            ev["decode_gpu"].record(post)
            self.decoder.enqueue_download(post, n)
        else:
            ev["decode_gpu"].record(post)
            raw = self._raw_host[n]
            check(runtime().cudaMemcpyAsync(raw.ptr, aside.ptr, aside.nbytes,
                                            runtime().cudaMemcpyKind.cudaMemcpyDeviceToHost, post.handle),
                  "copying the raw output")
        ev["d2h"].record(post)

    def finish(self, slot: Slot, t0_ns: int, *, record: bool = True) -> list[FrameResult]:
        """Wait for a slot's GPU work, then NMS on the host (or read GPU keep-lists) and build results."""
        ev = slot.events
        ev["d2h"].synchronize()
        slot.held.clear()  # uploaded long since (d2h follows h2d through the event chain): lent frames go back
        t_host = time.perf_counter_ns()
        frames = slot.frames
        if self.decoder is not None:
            per_frame = self.decoder.collect(self.post_stream, slot.number, frames)
            keeps = self.nms.keep_lists(slot.number, frames) if slot.gpu_nms else None
        else:
            raw = self._raw_host[slot.number].array
            per_frame = [decode(raw[b:b + 1], self.layout, self.num_classes, CANDIDATE_FLOOR) for b in range(frames)]
            keeps = None
        results = []
        gpu_ms = self._gpu_stage_ms(slot)
        for b in range(frames):
            transform = slot.transforms[b]
            candidates = self._to_original(per_frame[b], transform)
            if keeps is not None:
                pos = per_frame[b].sorted_positions(keeps[b])
                detections = Detections(candidates.xyxy[pos], candidates.score[pos], candidates.class_id[pos],
                                        self.class_names)
            else:
                detections = select_fast(candidates, self.class_names, self.thresholds)
            results.append((candidates, detections, transform))
        host_post_ms = (time.perf_counter_ns() - t_host) / 1e6
        total_ms = (time.perf_counter_ns() - t0_ns) / 1e6
        stage_ms = slot.stage_ns / 1e6
        out = []
        for b, (candidates, detections, transform) in enumerate(results):
            info = slot.infos[b]
            stages = {"decode": info.decode_ms, "preprocess": stage_ms + gpu_ms["letterbox"], "h2d": gpu_ms["h2d"],
                      "infer": gpu_ms["infer"], "postprocess": gpu_ms["decode_gpu"] + host_post_ms,
                      "d2h": gpu_ms["d2h"], "stage_host": stage_ms, "letterbox_gpu": gpu_ms["letterbox"],
                      "decode_gpu": gpu_ms["decode_gpu"], "nms_host": host_post_ms}
            if not info.decode_ms:
                del stages["decode"]
            timings = StageTimings(stages, total_ms + info.decode_ms)
            index = self._frames if info.index is None else info.index
            if record:
                self.stats.add(timings)
                self._frames += 1
            memory = self._sample_memory() if record and self.sample_memory_every and \
                self._frames % self.sample_memory_every == 0 else None
            out.append(FrameResult(index, info.name, info.path, slot.shapes[b], detections, candidates,
                                   self.thresholds, timings, memory))
        if out:
            self._last = (out[-1].candidates, slot.transforms[frames - 1])
        return out

    def _gpu_stage_ms(self, slot: Slot) -> dict[str, float]:
        ev = slot.events
        return {"h2d": ev["h2d"].ms_since(ev["start"]), "letterbox": ev["letterbox"].ms_since(ev["h2d"]),
                "infer": ev["infer"].ms_since(ev["compute"]), "decode_gpu": ev["decode_gpu"].ms_since(ev["output"]),
                "d2h": ev["d2h"].ms_since(ev["decode_gpu"])}

    def _to_original(self, found: FrameCandidates | Candidates, transform: LetterboxTransform) -> Candidates:
        c = rows_to_candidates(found.rows) if isinstance(found, FrameCandidates) else found
        return Candidates(transform.to_original(c.xyxy), c.score, c.class_id, c.already_suppressed)

    def _sample_memory(self) -> MemorySample:
        vram = process_vram_mb(self.device_id)
        if not vram:  # NVML may not list processes inside a VM; the device-wide figure still shows drift
            vram = device_memory_used_mb(self.device_id)
        return MemorySample(process_rss_mb(), vram)

    # -- measuring -----------------------------------------------------------------------------
    def time_engine(self, iterations: int) -> tuple[np.ndarray, np.ndarray]:
        """Engine alone, inputs already on the device: (event ms, wall ms) per call."""
        start, end = self.slots[1].events["start"], self.slots[1].events["infer"]
        gpu, wall = np.empty(iterations), np.empty(iterations)
        with self._lock:
            for i in range(iterations):
                t0 = time.perf_counter_ns()
                start.record(self.stream)
                self.engine.enqueue()
                end.record(self.stream)
                end.synchronize()
                wall[i] = (time.perf_counter_ns() - t0) / 1e6
                gpu[i] = end.ms_since(start)
        return gpu, wall

    def frame_pool(self, count: int, hw: tuple[int, int] | None = None) -> FramePool:
        """`count` pinned frames of `hw` (default: the largest frame) for a source to write into; frames taken
        from it are uploaded with no host copy. Allocated now, freed with the pipeline."""
        h, w = hw or self.max_frame_hw
        return FramePool(self.allocator, count, (h, w), f"frame_pool_{count}x{h}x{w}")

    def _uploads_in_place(self, image: np.ndarray) -> bool:
        """Whether a frame lies in page-locked memory, remembered per (address, size): frames recur at the
        same addresses (a camera's lent frames, a decoder's reused buffers), and asking the driver costs
        ~0.02 ms per end of the frame, on the thread that must keep the engine fed. A stale answer costs
        speed only, never correctness: a pageable source is staged by the driver itself, and page-locked
        memory taken for ordinary is copied like any other frame."""
        if not image.flags.c_contiguous:
            return False
        key = (int(image.ctypes.data), image.nbytes)
        known = self._page_locked.get(key)
        if known is None:
            if len(self._page_locked) >= 256:
                self._page_locked.clear()
            known = self._page_locked[key] = is_page_locked(image)
        return known

    @staticmethod
    def frame_memory(shape: tuple[int, ...]) -> np.ndarray:
        """Memory for a source to read a frame into (the station's camera source takes its lent frames from
        here): page-locked, so the frame is uploaded from where it lies with no host copy. Owned by reference
        counting, not by this pipeline: a frame the window still shows outlives a closed pipeline safely."""
        return page_locked_array(shape, np.uint8)

    def allocation_counts(self) -> AllocationCounts:
        return self.allocator.counts()

    # -- the CPU Pipeline's interface ----------------------------------------------------------
    def refilter_last(self, thresholds: Thresholds) -> Detections:
        """Re-apply thresholds to the last frame's candidates (kept down to the candidate floor)."""
        if self._last is None:
            return Detections.empty(self.class_names)
        return select_fast(self._last[0], self.class_names, thresholds)

    def set_thresholds(self, thresholds: Thresholds) -> None:
        self.thresholds = thresholds

    def set_postprocess(self, mode: str) -> None:
        """"gpu": NMS on the device (made on first use; needs CuPy for the sort); "cpu": bitmask NMS on the
        host over the compact rows; "auto" (default): "gpu" where CuPy is installed: on the H200 it ties with
        "cpu" at batch 1 and leaves the finisher thread 40–50 % less host work per batch of 8, which is what keeps
        overlapped runs at the engine's pace (BENCHMARKS.md). Layouts other than yolov8 always decode on the host."""
        if mode == "auto":
            mode = "gpu" if importlib.util.find_spec("cupy") is not None else "cpu"
        if mode not in POSTPROCESS_MODES:
            raise ConfigError("unknown postprocess mode", expected="auto | " + " | ".join(POSTPROCESS_MODES),
                              found=mode)
        if mode == "gpu" and self.nms is None and self.decoder is not None:
            self.nms = GpuNms(self.allocator, self.module, self.decoder, in_flight=IN_FLIGHT)
        self.postprocess = mode

    @property
    def backend(self) -> str:
        variant = getattr(self.engine, "variant", "")
        return f"{self.engine.backend_name}+gpu-pre" + (f" ({variant})" if variant else "")

    @property
    def frames_processed(self) -> int:
        return self._frames


def _copy_on_device(dst, src, nbytes: int, stream) -> None:
    check(runtime().cudaMemcpyAsync(dst.ptr, src.ptr, int(nbytes), runtime().cudaMemcpyKind.cudaMemcpyDeviceToDevice,
                                    stream.handle), f"copying {src.name} to {dst.name}")
