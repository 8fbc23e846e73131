"""The Camera settings dialog drawn from a read-back alone (no camera): what it says about a value the camera
refused."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
from app.widgets.camera_settings import CameraSettingsDialog  # noqa: E402
from inference.cameras.settings import NODES, CameraSettings, Readback, SettingValue  # noqa: E402


def readback(notes: dict[str, str]) -> Readback:
    """Every node present, holding 1; `notes`: setting → why the value asked for was not applied."""
    return Readback(tuple(SettingValue(name, nodes[0], 1, notes.get(name, "")) for name, nodes in NODES.items()))


@pytest.mark.parametrize(("notes", "shown"), [
    ({"frame_rate": "500.0 not applied: out of range"}, "Not applied — Frame rate: 500.0 not applied: out of range"),
    ({"exposure_us": "9.0 not applied: locked", "trigger_activation": "'Up' not applied: no such entry"},
     "Not applied — Exposure: 9.0 not applied: locked\nNot applied — Trigger edge: 'Up' not applied: no such entry"),
    ({"width": "not applied: the camera has no Width node"}, "Not applied — ROI width: not applied: the camera has no Width node"),
    ({}, ""),
])
def test_a_setting_not_applied_is_named_by_its_label_not_its_key(qtbot, notes, shown):
    dialog = CameraSettingsDialog("cam", CameraSettings(frame_rate=500.0), readback(notes))
    qtbot.addWidget(dialog)
    assert dialog.notes.text() == shown
