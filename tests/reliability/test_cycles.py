"""Item 4 (headless part): a frame leaves no reference cycles. Objects in cycles are freed only by a garbage
collection, which CPython runs on its oldest generation ever more rarely as a process grows: a station that left
cycles every frame would hold more of them the longer it ran. `tests/reliability/cycles.py` runs the real station
(reading, the recipe, the journal, the archive) over a folder once to warm up, then again keeping everything the
collector finds unreachable."""

from __future__ import annotations

import re
import shutil

from tests.reliability.helpers import SAMPLES, run_user_command

# Under the example recipe: a lone tag judged REVIEW, a tag with a barcode and a QR code judged NG, two tags judged
# REVIEW (the verdicts the soak's journal gives these samples): the reading paths that differ most, archived too.
FRAMES = ("090000008.jpg", "090000011.jpg", "090000015.jpg")


def test_a_frame_with_reading_leaves_no_objects_in_reference_cycles(tmp_path) -> None:
    folder = tmp_path / "frames"
    folder.mkdir()
    for name in FRAMES:
        shutil.copy(SAMPLES / name, folder / name)
    proc = run_user_command(["-m", "tests.reliability.cycles", "--source", str(folder)], data_dir=tmp_path / "data",
                            timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    found = re.search(r"cycles: (\d+) objects in cycles over (\d+) frames", proc.stdout)
    assert found and int(found[2]) == len(FRAMES), proc.stdout[-3000:] + proc.stderr[-2000:]
    assert int(found[1]) == 0, proc.stdout  # by type and by where each was made


def test_the_cycle_finder_finds_a_cycle_a_frame_leaves(tmp_path, monkeypatch) -> None:
    """The check above can fail: a station whose frames each leave an exception caught with its traceback (the
    commonest cycle: the exception's frames hold a local that holds the exception) is caught, and named."""
    import inference.inspection
    from tests.reliability.cycles import find_cycles

    real = inference.inspection.Inspector.inspect

    def inspect(self, item, should_stop=None):
        try:
            raise ValueError("kept with its traceback")
        except ValueError as exc:
            kept = exc  # noqa: F841  the frame holds the exception, its traceback holds the frame
        return real(self, item, should_stop)

    monkeypatch.setattr(inference.inspection.Inspector, "inspect", inspect)
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    folder = tmp_path / "frames"
    folder.mkdir()
    shutil.copy(SAMPLES / FRAMES[0], folder / FRAMES[0])
    left, checked, report = find_cycles(folder, None, read=False)
    text = "\n".join(report)
    assert checked == 1 and left > 0, text
    assert "builtins.ValueError" in text and "builtins.traceback" in text, text
    assert "test_cycles.py" in text, text  # where it was made
