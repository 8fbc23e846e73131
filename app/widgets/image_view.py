"""The live view: the frame with boxes in class colours, labels and scores; zoom and pan."""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPixmapItem, QGraphicsScene, QGraphicsView

from app.theme import class_color
from inference.detections import Detections


def bgr_to_qimage(image: np.ndarray) -> QImage:
    """Wrap BGR pixels without a channel swap (Qt reads BGR888 directly), then own a copy."""
    bgr = np.ascontiguousarray(image)
    h, w = bgr.shape[:2]
    return QImage(bgr.data, w, h, 3 * w, QImage.Format.Format_BGR888).copy()


class BoxesItem(QGraphicsItem):
    """All boxes and labels of one frame, painted by one item: no scene items are created or
    destroyed per frame, which kept the view from repainting at camera rates."""

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[tuple[QRectF, QColor, str]] = []
        self._bounds = QRectF()
        self._pen_width = 2.0
        self._font = QFont()

    def set_detections(self, detections: Detections | None, image_size) -> None:
        self.prepareGeometryChange()
        self._rows = []
        if detections is not None:
            for box, score, cid, label in zip(detections.xyxy, detections.confidence, detections.class_id,
                                              detections.labels):
                x1, y1, x2, y2 = (float(v) for v in box)
                self._rows.append((QRectF(x1, y1, x2 - x1, y2 - y1), class_color(label, int(cid)), f"{label} {score:.2f}"))
        size = max(image_size.width(), image_size.height(), 1)
        self._pen_width = max(2.0, size / 400)
        self._font.setPixelSize(int(max(12, size / 60)))
        self._bounds = QRectF(-50, -100, image_size.width() + 100, image_size.height() + 150)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt naming
        return self._bounds

    def paint(self, painter: QPainter, option, widget=None) -> None:
        painter.setFont(self._font)
        metrics = painter.fontMetrics()
        for rect, color, text in self._rows:
            painter.setPen(QPen(color, self._pen_width))
            painter.setBrush(Qt.BrushStyle.NoBrush)
            painter.drawRect(rect)
            tag = QRectF(rect.left(), max(0.0, rect.top() - metrics.height()), metrics.horizontalAdvance(text) + 6,
                         metrics.height())
            painter.fillRect(tag, color)
            painter.setPen(QColor("white"))
            painter.drawText(tag.adjusted(3, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)


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
        self._boxes = BoxesItem()
        self.scene().addItem(self._boxes)
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
        self._boxes.set_detections(detections, self._pixmap.pixmap().size())
        self.box_count = 0 if detections is None else len(detections)

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
