"""JPEG decode for the GPU pipeline (inference/gpu/jpeg.py): the CPU fallback and the "absent" message run
everywhere; decoding on the GPU and the pipeline fed from device memory are marked `gpu` and skipped with the
probe's reason where nvImageCodec, a GPU or ONNX Runtime's CUDA provider is missing (CI).
Run on the H200 with `pytest -m gpu tests/test_gpu_jpeg.py` (nvImageCodec carried as in BENCHMARKS.md)."""

from __future__ import annotations

import importlib.util
from pathlib import Path

import cv2
import numpy as np
import pytest

from inference.errors import BackendUnavailableError
from inference.gpu.jpeg import (CpuJpegDecoder, DeviceFrame, GpuJpegDecoder, ends_as_jpeg, folder_jobs,
                                gpu_jpeg_unavailable_reason, is_device_frame, open_jpeg_decoder)

GPU_REASON = gpu_jpeg_unavailable_reason()


def scene(seed: int, hw=(1080, 1920)) -> np.ndarray:
    rng = np.random.default_rng(seed)
    image = cv2.GaussianBlur(rng.integers(60, 140, (*hw, 3), dtype=np.uint8), (0, 0), 3)
    cv2.rectangle(image, (300 + 40 * seed, 200), (900, 700), (20, 200, 240), -1)
    cv2.putText(image, f"TAG {seed}", (350, 450), cv2.FONT_HERSHEY_SIMPLEX, 3.0, (255, 255, 255), 6)
    return image


def jpeg(image: np.ndarray, quality: int = 90) -> bytes:
    ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return data.tobytes()


def test_a_jpeg_cut_short_is_told_from_a_whole_one_and_the_cpu_decoder_refuses_it():
    """A body cut short in transit has no end-of-image marker; the GPU decoder hands such a JPEG to the CPU
    decoder (nvJPEG would decode the part that came and leave the rest grey), which refuses it with the reason."""
    whole = jpeg(scene(1, (480, 640)))
    cut = whole[: len(whole) // 3]
    assert ends_as_jpeg(whole) and ends_as_jpeg(whole + b"\x00" * 16)  # padding after the marker is still whole
    assert not ends_as_jpeg(cut)
    (decoded,) = CpuJpegDecoder(threads=1).decode([cut], ["cut.jpg"])
    assert decoded.image is None and "could not be decoded" in decoded.error


# -- everywhere: the fallback and the message ----------------------------------------------------------
def test_forced_off_gives_the_cpu_decoder_and_says_why(monkeypatch):
    monkeypatch.setenv("HANGTAG_FORCE_NO_GPU", "1")
    assert gpu_jpeg_unavailable_reason() == "GPU decode disabled by HANGTAG_FORCE_NO_GPU"
    choice = open_jpeg_decoder()
    with choice.decoder:
        assert not choice.gpu and isinstance(choice.decoder, CpuJpegDecoder)
        assert "HANGTAG_FORCE_NO_GPU" in choice.reason
    with pytest.raises(BackendUnavailableError) as caught:
        GpuJpegDecoder()
    assert caught.value.expected == "nvImageCodec and a CUDA GPU"
    assert "HANGTAG_FORCE_NO_GPU" in caught.value.found
    assert "nvidia-nvimgcodec-cu13" in caught.value.hint


@pytest.mark.skipif(importlib.util.find_spec("nvidia") is not None
                    and importlib.util.find_spec("nvidia.nvimgcodec") is not None,
                    reason="nvImageCodec is installed here")
def test_missing_library_is_named_with_how_to_install(monkeypatch):
    monkeypatch.delenv("HANGTAG_FORCE_NO_GPU", raising=False)
    reason = gpu_jpeg_unavailable_reason()
    assert reason.startswith("nvImageCodec is not installed")
    with pytest.raises(BackendUnavailableError) as caught:
        GpuJpegDecoder()
    assert "nvImageCodec is not installed" in caught.value.found
    assert "pip install nvidia-nvimgcodec-cu13" in caught.value.hint
    choice = open_jpeg_decoder()
    with choice.decoder:
        assert not choice.gpu and "nvImageCodec is not installed" in choice.reason


def test_not_requested_is_the_cpu_decoder():
    choice = open_jpeg_decoder(prefer_gpu=False, cpu_threads=2)
    with choice.decoder:
        assert (choice.gpu, choice.reason, choice.decoder.threads) == (False, "GPU decode not requested", 2)


def test_cpu_decoder_keeps_each_position_and_says_what_failed():
    images = [scene(1), scene(2, (480, 640))]
    good = [jpeg(image) for image in images]
    truncated = good[0][: len(good[0]) // 3]
    ok, png = cv2.imencode(".png", images[1])
    with CpuJpegDecoder(2) as decoder:
        out = decoder.decode([good[0], b"", truncated, png.tobytes(), good[1]],
                             ["a.jpg", "empty.jpg", "cut.jpg", "b.png", "c.jpg"])
    assert [o.image is not None for o in out] == [True, False, False, True, True]
    assert out[0].image.shape == (1080, 1920, 3) and out[4].image.shape == (480, 640, 3)
    np.testing.assert_array_equal(out[0].image, cv2.imdecode(np.frombuffer(good[0], np.uint8), cv2.IMREAD_COLOR))
    np.testing.assert_array_equal(out[3].image, images[1])  # PNG is lossless
    assert "empty.jpg is empty" in out[1].error and "expected:" in out[1].error and "hint:" in out[1].error
    assert "cut.jpg could not be decoded" in out[2].error and "truncated or corrupt image" in out[2].error


def test_folder_jobs_decode_each_group_once_and_keep_bad_files_in_place(tmp_path: Path):
    paths = []
    for i in range(5):
        path = tmp_path / f"{i:02d}.jpg"
        path.write_bytes(jpeg(scene(i, (240, 320))))
        paths.append(path)
    (tmp_path / "02.jpg").write_bytes(b"\xff\xd8 not really")
    paths.append(tmp_path / "missing.jpg")

    class Counting(CpuJpegDecoder):
        calls: list[int] = []

        def decode(self, data, names=None):
            self.calls.append(len(data))
            return super().decode(data, names)

    with Counting(2) as decoder:
        jobs = folder_jobs(paths, decoder, batch=4, start_index=10)
        assert len(jobs) == 6
        outcomes = [job() for job in reversed(jobs)]  # any order: the group's first job decodes for all
        outcomes.reverse()
        assert decoder.calls == [2, 4]  # groups of 4 and 2, each decoded in one call
        again = jobs[0]()
    images, infos = zip(*outcomes)
    assert [info.index for info in infos] == [10, 11, 12, 13, 14, 15]
    assert [info.name for info in infos] == ["00.jpg", "01.jpg", "02.jpg", "03.jpg", "04.jpg", "missing.jpg"]
    assert [image is None for image in images] == [False, False, True, False, False, True]
    assert "02.jpg could not be decoded" in infos[2].error
    assert "cannot read missing.jpg" in infos[5].error and "hint:" in infos[5].error
    assert all(info.decode_ms > 0 for info in infos if info.error is None)
    assert again[0] is None and again[1].error == "frame already taken"  # a frame is handed out once, then dropped


def test_a_device_frame_is_placed_without_a_host_copy():
    from inference.gpu.staging import FrameInfo, Slot

    frame = DeviceFrame(0x7F0000000000, (1080, 1920, 3), 5888, 0, owner=object())
    assert is_device_frame(frame) and not is_device_frame(np.zeros((2, 2, 3), np.uint8))
    assert frame.__cuda_array_interface__ == {"shape": (1080, 1920, 3), "typestr": "|u1",
                                              "data": (0x7F0000000000, False), "strides": (5888, 3, 1),
                                              "version": 3, "stream": None}
    slot = Slot(0, staging=None, frame_capacity=0, events={})
    assert slot.place(frame, FrameInfo("a.jpg")) is None  # nothing to copy on the host
    assert slot.on_device == {0: (0x7F0000000000, 5888)}
    assert slot.shapes == [(1080, 1920)] and slot.held == [frame] and slot.sources == [0]
    slot.clear()
    assert slot.on_device == {} and slot.held == []


# -- on a GPU ---------------------------------------------------------------------------------------------
@pytest.mark.gpu
@pytest.mark.skipif(GPU_REASON is not None, reason=f"no GPU JPEG decode here: {GPU_REASON}")
def test_gpu_decode_gives_opencvs_pixels_in_device_memory():
    blobs = [jpeg(scene(i)) for i in range(4)] + [jpeg(scene(9, (480, 640)))]
    with GpuJpegDecoder() as decoder:
        out = decoder.decode(blobs + [b"\xff\xd8 broken", blobs[0][: len(blobs[0]) // 3]])
    assert all(is_device_frame(o.image) for o in out[:5])
    assert out[5].image is None and "could not be decoded" in out[5].error
    assert out[6].image is None and "could not be decoded" in out[6].error  # cut short: refused, not decoded in part
    for blob, decoded in zip(blobs, out):
        reference = cv2.imdecode(np.frombuffer(blob, np.uint8), cv2.IMREAD_COLOR)
        host = decoded.image.to_host()
        assert host.shape == reference.shape
        assert np.abs(host.astype(np.int16) - reference).mean() < 1.0  # IDCT rounding at most


@pytest.mark.gpu
@pytest.mark.skipif(GPU_REASON is not None, reason=f"no GPU JPEG decode here: {GPU_REASON}")
def test_pipeline_fed_from_device_memory_finds_what_host_frames_give(tmp_path: Path):
    from inference.gpu.fallback import gpu_pipeline_unavailable_reason

    reason = gpu_pipeline_unavailable_reason()
    if reason is not None:
        pytest.skip(f"ORT CUDA provider unavailable: {reason}")
    from inference.gpu.overlap import jpeg_job, run_overlapped
    from inference.gpu.pipeline import GpuPipeline
    from inference.gpu.synthetic import build_onnx

    paths = []
    for i in range(6):
        paths.append(tmp_path / f"{i}.jpg")
        paths[-1].write_bytes(jpeg(scene(i)))
    with GpuPipeline.open(build_onnx(tmp_path / "synthetic.onnx"), batch=4) as pipe, GpuJpegDecoder() as decoder:
        host = list(run_overlapped(pipe, [jpeg_job(p, i) for i, p in enumerate(paths)], workers=2))
        device = list(run_overlapped(pipe, folder_jobs(paths, decoder, 4), workers=2))
    assert [r.index for r in device] == list(range(6))
    for a, b in zip(host, device):
        assert a.image_hw == b.image_hw == (1080, 1920)
        assert len(a.candidates.score) == len(b.candidates.score)
        np.testing.assert_allclose(a.candidates.xyxy, b.candidates.xyxy, atol=0.5)
