"""The line station over the real detector: each trigger inspects the next sample image (detection only)."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from inference.line.handshake import Ack, Trigger, Verdict
from inference.line.jobs import FrameInspection
from inference.line.station import LineStation

ROOT = Path(__file__).resolve().parents[1]


def wait_until(predicate, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


def test_each_trigger_inspects_the_next_frame_with_the_job_recipe(tmp_path):
    from inference.inspection import Inspector
    from inference.reading import load_recipe
    from inference.resources import default_model_path

    samples = tmp_path / "frames"
    samples.mkdir()
    for name in sorted(p.name for p in (ROOT / "resources" / "samples").glob("*.jpg"))[:2]:
        (samples / name).write_bytes((ROOT / "resources" / "samples" / name).read_bytes())
    inspector = Inspector.open(default_model_path(), "onnxruntime-cpu", read=False,
                               recipe_path=ROOT / "resources" / "recipes" / "example.toml")
    inspection = FrameInspection(inspector, str(samples))
    answers = []
    try:
        with LineStation(inspection, inspect_budget_s=120).start(job=(1, inspector.recipe_name)) as station:
            for n in range(1, 4):
                station.pulse(Trigger)
                wait_until(lambda: station.signals().result_trigger_id == n)
                sig = station.signals()
                answers.append((sig.verdict, dict(sig.result_fields)))
                station.pulse(Ack)
    finally:
        inspection.close()
        inspector.close()
    frames = [fields["frame"].split("#trigger-") for _, fields in answers]  # the frame's name carries its trigger
    assert [int(trigger) for _, trigger in frames] == [1, 2, 3]
    files = [name for name, _ in frames]
    assert files[0] != files[1] and files[2] == files[0]  # the folder starts over at its end
    assert all(verdict in (Verdict.OK, Verdict.NG, Verdict.REVIEW) for verdict, _ in answers)
    assert all(int(fields["tags"]) > 0 and float(fields["inspect_ms"]) > 0 for _, fields in answers)
    assert load_recipe(ROOT / "resources" / "recipes" / "example.toml").name == inspector.recipe_name


def test_the_line_package_imports_without_any_transport_library():
    code = ("import sys\n"
            "for name in ('pymodbus', 'asyncua', 'paho', 'paho.mqtt'):\n"
            "    sys.modules[name] = None\n"
            "import inference.line.handshake, inference.line.station, inference.line.modbus, "
            "inference.line.modbus_client, inference.line.opcua, inference.line.mqtt, inference.line.plc, "
            "inference.line.jobs\n"
            "print('ok')\n")
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.stdout.strip() == "ok", done.stderr
