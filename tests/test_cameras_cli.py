"""`hangtag-inspect cameras`: what the producers see, the spec to open each, and errors without tracebacks."""

from __future__ import annotations

import pytest

from inference.cameras.producers import simulated_producer
from inference.cli import main


@pytest.mark.skipif(simulated_producer() is None,
                    reason="the genicam wheel's viky.cti is missing (pip install genicam)")
def test_the_simulated_producers_cameras_are_listed_with_the_spec_that_opens_them(capsys):
    pytest.importorskip("harvesters.core", reason="harvesters is not installed")
    assert main(["cameras", "--simulated", "--no-aravis"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0].split() == ["BACKEND", "VENDOR", "MODEL", "SERIAL", "INTERFACE", "STATUS", "OPEN", "AS"]
    rows = [line.split() for line in lines[1:] if line.startswith("genicam")]
    assert [(r[-4], r[-2]) for r in rows] == [("0", "reachable"), ("1", "reachable"), ("2", "reachable")]
    assert rows[1][-1] == f"genicam:1?cti={simulated_producer()}"


def test_a_producer_that_is_not_there_is_an_error_not_a_traceback(tmp_path, capsys):
    assert main(["cameras", "--cti", str(tmp_path / "vendor.cti"), "--no-aravis"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: no GenTL producer at") and "hint:" in err and "Traceback" not in err


def test_the_fake_gige_camera_is_listed_for_aravis(capsys):
    from inference.errors import BackendUnavailableError

    try:
        from inference.cameras.fake import FakeGigECamera

        fake = FakeGigECamera("GV29").start()
    except BackendUnavailableError as exc:
        pytest.skip(f"{exc.message} ({exc.hint})")
    try:
        assert main(["cameras", *(["--simulated"] if simulated_producer() else [])]) == 0
    finally:
        fake.stop()
    rows = [line.split() for line in capsys.readouterr().out.splitlines() if line.startswith("aravis")]
    assert rows == [["aravis", "Aravis", "Fake", "GV29", "GigEVision", "127.0.0.1", "reachable", "aravis:GV29"]]


@pytest.mark.skipif(simulated_producer() is None,
                    reason="the genicam wheel's viky.cti is missing (pip install genicam)")
def test_a_broken_producer_is_noted_and_the_others_still_listed(tmp_path, capsys):
    pytest.importorskip("harvesters.core", reason="harvesters is not installed")
    broken = tmp_path / "vendor.cti"
    broken.write_bytes(b"not a shared library")
    assert main(["cameras", "--cti", str(broken), "--simulated", "--no-aravis"]) == 0
    out = capsys.readouterr().out
    assert sum(line.startswith("genicam") for line in out.splitlines()) == 3
    assert f"note: GenICam: the GenTL producer {broken} could not be loaded" in out
