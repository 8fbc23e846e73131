"""The live view: the frame with boxes in class colours, labels and scores; zoom and pan."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QGraphicsPixmapItem, QGraphicsRectItem, QGraphicsScene, QGraphicsSimpleTextItem, QGraphicsView

from app.theme import class_color
from inference.detections import Detections


def bgr_to_qimage(image: np.ndarray) -> QImage:
    """Wrap BGR pixels without a channel swap (Qt reads BGR888 directly), then own a copy."""
    bgr = np.ascontiguousarray(image)
    h, w = bgr.shape[:2]
    return QImage(bgr.data, w, h, 3 * w, QImage.Format.Format_BGR888).copy()


class ImageView(QGraphicsView):
    """Shows one frame and its detections. `fit()` and `actual_size()`; wheel zooms, drag pans."""

    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.setScene(QGraphicsScene(self))
        self.setRenderHint(QPainter.RenderHint.SmoothPixmapTransform)
        self.setDragMode(QGraphicsView.DragMode.ScrollHandDrag)
        self.setTransformationAnchor(QGraphicsView.ViewportAnchor.AnchorUnderMouse)
        self.setBackgroundBrush(QBrush(QColor("#202124")))
        self._pixmap = QGraphicsPixmapItem()
        self.scene().addItem(self._pixmap)
        self._overlay: list = []
        self._fit_mode = True
        self.placeholder = self.scene().addSimpleText("No frame yet — open a source and press Start (Space).")
        self.placeholder.setBrush(QBrush(QColor("#bdc1c6")))
        self.box_count = 0

    def show_frame(self, image: np.ndarray | None, detections: Detections | None) -> None:
        if image is not None:
            self.placeholder.setVisible(False)
            self._pixmap.setPixmap(QPixmap.fromImage(bgr_to_qimage(image)))
            self.scene().setSceneRect(QRectF(self._pixmap.pixmap().rect()))
        self.show_detections(detections)
        if self._fit_mode:
            self.fit()

    def show_message(self, text: str) -> None:
        self._pixmap.setPixmap(QPixmap())
        self.show_detections(None)
        self.placeholder.setText(text)
        self.placeholder.setVisible(True)

    def show_detections(self, detections: Detections | None) -> None:
        for item in self._overlay:
            self.scene().removeItem(item)
        self._overlay.clear()
        self.box_count = 0
        if detections is None or len(detections) == 0:
            return
        size = max(self._pixmap.pixmap().width(), self._pixmap.pixmap().height(), 1)
        pen_width = max(2.0, size / 400)
        font = QFont()
        font.setPixelSize(int(max(12, size / 60)))
        for box, score, cid, label in zip(detections.xyxy, detections.confidence, detections.class_id,
                                          detections.labels):
            color = class_color(label, int(cid))
            x1, y1, x2, y2 = (float(v) for v in box)
            rect = QGraphicsRectItem(x1, y1, x2 - x1, y2 - y1)
            rect.setPen(QPen(color, pen_width))
            self.scene().addItem(rect)
            text = QGraphicsSimpleTextItem(f"{label} {score:.2f}")
            text.setFont(font)
            text.setBrush(QBrush(QColor("white")))
            bounds = text.boundingRect()
            tag = QGraphicsRectItem(x1, max(0.0, y1 - bounds.height()), bounds.width() + 6, bounds.height())
            tag.setBrush(QBrush(color))
            tag.setPen(QPen(Qt.PenStyle.NoPen))
            text.setPos(x1 + 3, max(0.0, y1 - bounds.height()))
            self.scene().addItem(tag)
            self.scene().addItem(text)
            self._overlay += [rect, tag, text]
            self.box_count += 1

    def fit(self) -> None:
        self._fit_mode = True
        if not self._pixmap.pixmap().isNull():
            self.fitInView(self._pixmap, Qt.AspectRatioMode.KeepAspectRatio)

    def actual_size(self) -> None:
        self._fit_mode = False
        self.resetTransform()

    def wheelEvent(self, event) -> None:  # noqa: N802 - Qt naming
        self._fit_mode = False
        factor = 1.25 if event.angleDelta().y() > 0 else 0.8
        self.scale(factor, factor)

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        if self._fit_mode:
            self.fit()
