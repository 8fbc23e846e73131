"""The engineer's raw view shows what verification found that can only confirm a value (issue 14): a value read
beside a label the text detector boxed alone, a price whose cents were measured raised. Without it, a size judged OK
from a strip no raw line shows could not be traced."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("PySide6")

from inference.decode import Candidates  # noqa: E402
from inference.detections import Detections  # noqa: E402
from inference.pipeline import FrameResult  # noqa: E402
from inference.postprocess import Thresholds  # noqa: E402
from inference.reading import OcrLine, TagReading  # noqa: E402
from inference.telemetry import StageTimings  # noqa: E402


def test_the_raw_view_lists_lines_found_while_verifying(qapp) -> None:
    from app.widgets.text_panel import TextPanel

    tag = TagReading(0, (10.0, 10.0, 200.0, 300.0), ocr_lines=(OcrLine("规格", 0.99, (0, 0, 1, 1)),),
                     confirm_only_lines=(OcrLine("规格 L", 0.93, (0, 0, 1, 1)),))
    detections = Detections(np.array([[10, 10, 200, 300]], np.float32), np.array([0.9], np.float32), np.array([0]),
                            ("hangtag", "barcode", "qr_code"))
    none = Candidates(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int32))
    result = FrameResult(0, "frame", None, (400, 300), detections, none, Thresholds(), StageTimings({}, 0.0), readings=(tag,))
    panel = TextPanel()
    panel.show_result(result, reader_on=True)
    assert "规格 L" not in panel.view.toPlainText()  # raw lines are the engineer's, on request
    panel.show_raw.setChecked(True)
    text = panel.view.toPlainText()
    assert "Found while verifying (can only confirm the expected value)" in text
    assert "0.93  规格 L" in text
