"""Item 4 (headless part): the headless station's memory stays flat over a long run. The full soak is a
benchmark (tests/reliability/soak.py, BENCHMARKS.md); this release check runs a short one and fails
on a leak the size of the one the window had (every result kept: ~40 MiB per 1000 frames)."""

from __future__ import annotations

import re

import pytest

from tests.reliability.helpers import run_user_command


@pytest.mark.release
@pytest.mark.timeout(900)
def test_the_headless_station_does_not_grow_over_a_looping_run(tmp_path) -> None:
    proc = run_user_command(["-m", "tests.reliability.soak", "--frames", "600", "--every", "20", "--warmup", "200",
                             "--no-read", "--csv", str(tmp_path / "rss.csv")], data_dir=tmp_path, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    match = re.search(r"soak: (\d+) frames .*? RSS after warm-up .*? last - first ([+-][\d.]+) MiB", proc.stdout)
    assert match and int(match[1]) == 600, proc.stdout[-1000:]
    assert float(match[2]) <= 10.0, proc.stdout[-1000:]  # 400 frames after warm-up; the window's leak was ~16 MiB


def test_the_ocr_sessions_keep_no_memory_plan_per_input_shape() -> None:
    """ONNX Runtime's memory pattern keeps a plan for every input shape a session has seen (about 50 KB per
    recognizer width, BENCHMARKS.md): text crops and line batches bring new shapes for as long as the line
    runs, so the OCR sessions run without it; the detector's input is one fixed size and keeps it."""
    from inference.engines.onnxrt import OnnxRuntimeEngine
    from inference.reading.ocr.detector import TextDetector
    from inference.reading.ocr.models import find_ocr_models
    from inference.reading.ocr.recognizer import TextRecognizer
    from tests.reliability.helpers import MODEL

    models = find_ocr_models()
    detector, recognizer = TextDetector.open(models.det), TextRecognizer.open(models.rec)
    try:
        for engine in (detector.engine, recognizer.engine):
            assert engine.load()._session.get_session_options().enable_mem_pattern is False
    finally:
        detector.close()
        recognizer.close()
    with OnnxRuntimeEngine(MODEL) as engine:
        assert engine._session.get_session_options().enable_mem_pattern is True


def test_a_bounded_soak_says_its_drift_per_1000_frames_and_labels_the_extrapolation(tmp_path) -> None:
    from tests.reliability.soak import CSV_HEADER, OLD_HEADER, PYMALLOC_HEADER, drift_record, read_csv

    csv = tmp_path / "soak.csv"
    samples = [(f, f * 2.0, 300.0 + 0.0005 * f, 100.0) for f in range(100, 1100, 100)]  # 0.5 MiB per 1 000 frames
    csv.write_text(CSV_HEADER + "".join(f"{f},{s},{r},{h},1,2,3,4,5,6,7\n" for f, s, r, h in samples) + "1100,2200,30")
    rows, heap = read_csv(csv)  # the last line was cut short when the soak was stopped: left out
    assert len(rows) == 10 and rows[-1] == (1000, 2000.0, 300.5)
    record = drift_record(rows, heap, warmup=300)
    assert "frames 400-1000 (600 frames)" in record[0] and "+0.500 MiB per 1 000 frames" in record[0]
    assert "heap in use +0.00 MiB, +0.000 MiB per 1 000 frames" in record[0]
    assert record[1].startswith("soak: extrapolation, not measured:")
    added = float(re.search(r"would add ([+-][\d.]+) MiB after warm-up", record[1])[1])
    assert added == pytest.approx(0.0005 * (100_000 - 300), abs=0.06)
    assert drift_record(rows, heap, warmup=1000)[0].startswith("soak: fewer than two samples")
    # a CSV from before the pymalloc columns (docs/soak_read_100min.csv) still gives its record
    old = tmp_path / "old.csv"
    old.write_text(OLD_HEADER + "".join(f"{f},{s},{r},{h},1,2,3,4\n" for f, s, r, h in samples))
    assert read_csv(old) == (rows, heap)
    before_free_lists = tmp_path / "pymalloc.csv"  # and one from before the free-lists column (docs/soak_read_bisect.csv)
    before_free_lists.write_text(PYMALLOC_HEADER + "".join(f"{f},{s},{r},{h},1,2,3,4,5,6\n" for f, s, r, h in samples))
    assert read_csv(before_free_lists) == (rows, heap)
