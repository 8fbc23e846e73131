"""Crops of the current frame's hangtags, side by side, so the operator sees each tag up close."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from PySide6.QtCore import Qt
from PySide6.QtGui import QPixmap
from PySide6.QtWidgets import QHBoxLayout, QLabel, QSizePolicy, QWidget

from app.widgets.image_view import bgr_to_qimage
from inference.detections import Detections, within

MAX_CROPS = 4


class CropsStrip(QWidget):
    def __init__(self, height: int = 96, parent=None) -> None:
        super().__init__(parent)
        self.crop_height = height
        self.labels = [QLabel() for _ in range(MAX_CROPS)]
        layout = QHBoxLayout(self)
        layout.setContentsMargins(0, 0, 0, 0)
        for label in self.labels:
            label.setAlignment(Qt.AlignmentFlag.AlignCenter)
            layout.addWidget(label)
        layout.addStretch(1)
        self.setFixedHeight(height + 6)
        # never wider than the window gives: four wide tags (a 6:1 sticker's crop is ~580 px at this height), or a
        # long file name in the note, asked for 2300 px and widened the window past the screen; what does not fit
        # is cut at the right edge
        self.setSizePolicy(QSizePolicy.Policy.Ignored, QSizePolicy.Policy.Fixed)
        self.shown = 0

    def show_crops(self, image: np.ndarray | None, detections: Detections | None, *, note: str = "",
                   not_tags: Sequence[Sequence[float]] = ()) -> None:
        """`note` says why there are no crops when it is not "no hangtag found" (an error frame, no source);
        `not_tags`: boxes the reader found not to be tags, left out (a tag's blue edge cut off beside it was shown
        as a second and third tag)."""
        tags = detections.of_class("hangtag") if detections is not None else None
        if tags is not None and len(not_tags) and len(tags):
            # the reader grows a box before it reads it: a dropped box is the detector's box within it, as the view
            # greys it (an exact match kept the crop of a box the view called "not a tag")
            keep = np.array([not any(within(tuple(box), outer) for outer in not_tags) for box in tags.xyxy], bool)
            tags = tags[keep]
        self.shown = 0
        if not note:
            note = "no hangtag found on this frame" if image is not None else "no image to crop"
        for i, label in enumerate(self.labels):
            if image is None or tags is None or i >= len(tags):
                label.clear()
                label.setVisible(i == 0)
                if i == 0:
                    label.setText(note)
                continue
            x1, y1, x2, y2 = (int(round(v)) for v in tags.xyxy[i])
            crop = image[max(0, y1):max(y1 + 1, y2), max(0, x1):max(x1 + 1, x2)]
            if crop.size == 0:
                continue
            pixmap = QPixmap.fromImage(bgr_to_qimage(crop)).scaledToHeight(self.crop_height,
                                                                           Qt.TransformationMode.SmoothTransformation)
            label.setPixmap(pixmap)
            label.setToolTip(f"hangtag {i + 1}: {tags.confidence[i]:.2f}")
            label.setVisible(True)
            self.shown += 1
