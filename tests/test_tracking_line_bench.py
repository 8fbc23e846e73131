"""line-bench end to end on a tiny conveyor recording: the shipped detector and reader, the real tracker and
reading worker, the real scoring. Frame by frame (a plain video, every 3rd frame), so what is asserted does
not depend on how fast this machine is; the live replay's timing is a benchmark (BENCHMARKS.md)."""

from __future__ import annotations

import json

import pytest

from inference.cli import main
from tests.factories import conveyor_recording


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    out = tmp_path_factory.mktemp("line")
    return out, conveyor_recording(out)


def test_the_recording_has_truth_for_every_tag(recording):
    out, truth = recording
    assert (out / "line.avi").stat().st_size > 0 and (out / "recipe.toml").is_file()
    assert truth["frames"] == 144 and truth["fps"] == 30 and len(truth["tags"]) == 2
    for tag in truth["tags"]:
        frames = [row[0] for row in tag["boxes"]]
        assert frames == list(range(tag["first_frame"], tag["last_frame"] + 1))  # a box in every frame it shows
        assert tag["whole_frames"] > 0 and tag["expected_verdict"] == "OK"
        assert tag["last_frame"] < truth["frames"] - 1  # it leaves before the recording ends


def test_line_bench_gives_every_tag_exactly_one_verdict(recording, capsys):
    out, truth = recording
    report = out / "bench.json"
    assert main(["line-bench", "--source", str(out / "line.avi"), "--stride", "3", "--backend", "onnxruntime-cpu",
                 "--json", str(report)]) == 0
    printed = capsys.readouterr().out
    assert "frame by frame" in printed and "duplicates 0" in printed
    (run,) = json.loads(report.read_text(encoding="utf-8"))["runs"]
    assert run["tags"] == 2 and run["tags_with_verdict"] == 2
    assert (run["missed"], run["duplicates"], run["false_verdicts"]) == (0, 0, 0)
    assert run["frames_inspected"] == 48
    assert all(row["reads"] >= 1 and row["verdict"] in ("OK", "REVIEW", "NG") for row in run["rows"])


def test_line_bench_reads_on_the_reader_backend_asked_for_and_records_it(recording):
    out, _ = recording
    report = out / "bench-cpu-reader.json"
    assert main(["line-bench", "--source", str(out / "line.avi"), "--stride", "3", "--backend", "onnxruntime-cpu",
                 "--reader-backend", "onnxruntime-cpu", "--json", str(report)]) == 0
    written = json.loads(report.read_text(encoding="utf-8"))
    machine = written["machine"]
    assert machine["detector_backend"] == "onnxruntime-cpu" and machine["reader_device"] == "cpu"
    assert machine["reader"] == ["TextDetector", "TextRecognizer"]
    (run,) = written["runs"]
    assert (run["missed"], run["duplicates"]) == (0, 0)


def test_line_bench_says_why_the_gpu_reader_cannot_run_here(recording, capsys):
    torch = pytest.importorskip("torch")
    if torch.cuda.is_available():
        pytest.skip("this machine has a GPU: the PyTorch reader would run")
    out, _ = recording
    assert main(["line-bench", "--source", str(out / "line.avi"), "--backend", "onnxruntime-cpu",
                 "--reader-backend", "torch-cuda"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "PyTorch sees no GPU" in err and "CPU reader" in err


def test_line_bench_says_what_is_wrong_with_a_bad_truth_file(tmp_path, capsys):
    bad = tmp_path / "truth.json"
    bad.write_text('{"fps": 30}', encoding="utf-8")
    assert main(["line-bench", "--source", "camera:" + str(tmp_path / "line.avi"), "--truth", str(bad)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error:") and "truth" in err and "regenerate" in err


def test_a_preloaded_replay_hands_over_every_frame_at_the_recordings_rate(recording):
    from inference.cli.line_bench import PreloadedReplay

    out, truth = recording
    replay = PreloadedReplay(str(out / "line.avi"))
    frames = list(replay.frames())
    replay.close()
    assert [f.index for f in frames] == list(range(truth["frames"]))
    assert frames[0].image.shape == (360, 640, 3) and frames[0].decode_ms == 0.0  # raw, as a camera hands them


def test_a_preloaded_replay_of_nothing_says_what_to_do(tmp_path):
    from inference.cli.line_bench import PreloadedReplay
    from inference.errors import HangtagError

    with pytest.raises(HangtagError, match="regenerate"):
        PreloadedReplay(str(tmp_path / "missing.avi"))


def test_a_row_about_a_part_of_a_tag_is_matched_to_that_tag_and_nothing_else():
    """A lone symbol's row (the barcode of a tag the detector never outlined) overlaps its tag's box by IoU ~0.1: it is
    that tag's row where its box lies inside the tag's, and no tag's where it lies on none."""
    from types import SimpleNamespace

    from inference.cli.line_bench import match_verdict

    truth = {"tags": [{"id": 1, "by_frame": {7: (100.0, 0.0, 400.0, 300.0)}},
                      {"id": 2, "by_frame": {7: (600.0, 0.0, 900.0, 300.0)}}]}

    def row(box):
        return SimpleNamespace(read_frame=None, read_box=None, last_frame=7, last_box=box)

    assert match_verdict(truth, row((120.0, 200.0, 220.0, 260.0)))["id"] == 1  # a barcode on tag 1
    assert match_verdict(truth, row((610.0, 10.0, 890.0, 290.0)))["id"] == 2  # a tag box: by IoU as before
    assert match_verdict(truth, row((450.0, 200.0, 550.0, 260.0))) is None  # between the tags: about neither
    assert match_verdict(truth, row((350.0, 200.0, 450.0, 260.0))) is None  # half on tag 1: not inside it
