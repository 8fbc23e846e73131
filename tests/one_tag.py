"""One hangtag boxed whole, as the detector gives it to the verdict: shared by the tests that judge one tag's lines
against a recipe (colour codes, compositions, printed options, disagreeing reads, merged letters)."""

from __future__ import annotations

import numpy as np

from inference.detections import Detections

TAG_BOX = (10.0, 10.0, 200.0, 300.0)


def one_tag() -> Detections:
    """A frame's detections holding one hangtag at TAG_BOX."""
    return Detections(np.array([TAG_BOX], dtype=np.float32), np.array([0.9], dtype=np.float32),
                      np.array([0], dtype=np.int32), ("hangtag", "barcode", "qr_code"))
