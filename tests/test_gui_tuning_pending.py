"""An engine choice in the Tuning dock says it is not applied until Apply: thresholds act at once, so INT8 picked in
the Precision list (or another backend or input size) looked in use while the FP32 engine went on inspecting."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from app.widgets.tuning_panel import TuningPanel  # noqa: E402
from inference.engines.registry import BackendStatus  # noqa: E402
from inference.postprocess import Thresholds  # noqa: E402

BACKENDS = [BackendStatus("onnxruntime-cpu", "ONNX Runtime CPU", True, ""),
            BackendStatus("onnxruntime-cuda", "ONNX Runtime CUDA", True, "")]


def make_panel(qtbot) -> TuningPanel:
    panel = TuningPanel(Thresholds())
    qtbot.addWidget(panel)
    panel.set_backends(BACKENDS, "onnxruntime-cpu")
    panel.set_precision("fp32")
    return panel


@pytest.mark.parametrize("change", [lambda p: p.precision.setCurrentIndex(2), lambda p: p.backend.setCurrentIndex(1),
                                    lambda p: p.input_size.setCurrentIndex(3)])
def test_an_engine_choice_says_it_waits_for_apply_until_applied(qtbot, change):
    panel = make_panel(qtbot)
    assert panel.engine_note.text() == ""
    change(panel)
    assert "Not applied yet" in panel.engine_note.text()
    with qtbot.waitSignal(panel.engine_requested):
        panel.apply_engine.click()
    assert panel.engine_note.text() == ""


def test_going_back_to_the_engine_in_use_clears_the_note(qtbot):
    panel = make_panel(qtbot)
    panel.precision.setCurrentIndex(2)
    panel.precision.setCurrentIndex(0)
    assert panel.engine_note.text() == ""
    panel.confidence.slider.setValue(60)  # a threshold acts at once: nothing to apply
    assert panel.engine_note.text() == ""


def test_after_a_failed_build_the_lists_show_the_engine_still_in_use(qtbot, tmp_path):
    """Apply with INT8, the build fails: 'Engine not changed', but the Precision list went on saying INT8."""
    from tests.test_gui_station import make_window

    window = make_window(qtbot, tmp_path)
    window.tuning.precision.setCurrentIndex(2)
    window._on_engine_failed("INT8 calibration failed\n  expected: …\n  hint:     …")
    assert window.tuning.precision.currentText() == "FP32" and window.precision == "fp32"
    assert window.errors_panel.title.text().startswith("⚠ Engine not changed")
