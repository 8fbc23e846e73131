"""The live view: the frame with boxes in class colours, labels and scores, each read tag's paper outline in its
verdict's colour; zoom and pan."""

from __future__ import annotations

from collections.abc import Sequence

import cv2
import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt
from PySide6.QtGui import QBrush, QColor, QFont, QFontMetricsF, QImage, QPainter, QPen, QPixmap, QPolygonF
from PySide6.QtWidgets import QGraphicsItem, QGraphicsPixmapItem, QGraphicsScene, QGraphicsView, QLabel

from app.theme import VERDICT_COLORS, class_color
from inference.detections import Detections, within
from inference.records.annotate import paper_outlines
from inference.records.convert import verdict_parts


def bgr_to_qimage(image: np.ndarray) -> QImage:
    """Wrap BGR pixels without a channel swap (Qt reads BGR888 directly), then own a copy."""
    bgr = np.ascontiguousarray(image)
    h, w = bgr.shape[:2]
    return QImage(bgr.data, w, h, 3 * w, QImage.Format.Format_BGR888).copy()


def frame_pixmap(image: np.ndarray) -> tuple[QPixmap, np.ndarray]:
    """A whole frame for the view, and the pixels it is drawn from: OpenCV adds the pad byte (off the GIL) and Qt
    takes its native 32-bit format as it is, without a copy, so the caller keeps the array as long as the pixmap.
    Converting 24-bit BGR on the GUI thread took it about twice as long per frame."""
    if image.ndim != 3 or image.shape[2] != 3:
        return QPixmap.fromImage(bgr_to_qimage(image)), image
    bgrx = cv2.cvtColor(image, cv2.COLOR_BGR2BGRA)
    h, w = bgrx.shape[:2]
    return QPixmap.fromImage(QImage(bgrx.data, w, h, 4 * w, QImage.Format.Format_RGB32)), bgrx


LABEL_PX = 13  # box labels are this tall on screen at any zoom
NOT_A_TAG = "#80868b"  # a tag box the reader dropped
PAPER_PX = 2.0  # a tag's paper outline, screen pixels at any zoom
PAPER_RIM = QColor(0, 0, 0, 150)  # a dark rim under it: a green OK line stays visible on a green cloth
Box = tuple[float, float, float, float]
Paper = tuple[np.ndarray, str]  # a tag's paper corners (4, 2) in frame pixels, and the verdict it is drawn in


def tag_papers(result) -> list[Paper]:
    """The read tags' paper outlines with the verdict each is drawn in, as the reports draw them
    (`annotate.paper_outlines`): where the reader found none, the box it grew to read the tag, if it grew one."""
    verdict, _, checks = verdict_parts(getattr(result, "verdict", None))
    tags = [{"tag_index": t.tag_index, "paper": t.paper, "rejected": t.rejected, "xyxy": t.xyxy, "notes": t.notes}
            for t in getattr(result, "readings", None) or ()]
    return paper_outlines(tags, checks, verdict)


class BoxesItem(QGraphicsItem):
    """All boxes and labels of one frame, painted by one item: no scene items are created or
    destroyed per frame, which kept the view from repainting at camera rates.

    Lines and labels are sized in screen pixels (a 4000-px frame at fit zoom drew ~7-px labels), and
    labels are placed so they do not cover each other (`place_labels`)."""

    def __init__(self) -> None:
        super().__init__()
        self._rows: list[tuple[QRectF, QColor, str, bool]] = []  # box, colour, label, dropped by the reader
        self._papers: list[tuple[QPolygonF, QColor]] = []
        self._bounds = QRectF()
        self._font = QFont()
        self._font.setPixelSize(LABEL_PX)
        self._font.setBold(True)

    def set_detections(self, detections: Detections | None, image_size, not_tags: Sequence[Box] = (),
                       papers: Sequence[Paper] = ()) -> None:
        """`not_tags`: tag boxes the reader found nothing tag-like in (a coin, a lamp): drawn grey and
        dashed, labelled as not counted, so the image says what the Tag text and the verdict say.
        `papers`: the tags' paper outlines (`tag_papers`), drawn thin in their verdict's colour beside the boxes,
        so an engineer sees whether a tag was cut round its paper or round a box that spills past it."""
        self.prepareGeometryChange()
        self._rows = []
        no_verdict = VERDICT_COLORS["no recipe"]
        self._papers = [(QPolygonF([QPointF(float(x), float(y)) for x, y in corners]),
                         QColor(VERDICT_COLORS.get(verdict, no_verdict))) for corners, verdict in papers]
        if detections is not None:
            for box, score, cid, label in zip(detections.xyxy, detections.confidence, detections.class_id,
                                              detections.labels):
                x1, y1, x2, y2 = (float(v) for v in box)
                rect = QRectF(x1, y1, x2 - x1, y2 - y1)
                if label == "hangtag" and any(within((x1, y1, x2, y2), outer) for outer in not_tags):
                    self._rows.append((rect, QColor(NOT_A_TAG), f"not a tag ({label} {score:.2f})", True))
                else:
                    self._rows.append((rect, class_color(label, int(cid)), f"{label} {score:.2f}", False))
        margin = max(image_size.width(), image_size.height(), 1)
        self._bounds = QRectF(-margin, -margin, image_size.width() + 2 * margin, image_size.height() + 2 * margin)
        self.update()

    def boundingRect(self) -> QRectF:  # noqa: N802 - Qt naming
        return self._bounds

    def place_labels(self, scale: float) -> list[QRectF]:
        """Label rectangles in scene units at view `scale` (screen px per image px), one per box, none
        overlapping another: above the box if there is room, else the first free slot going down."""
        # measured in the font it is painted in: measured at LABEL_PX and painted at round(LABEL_PX / scale), a
        # label drawn ~3% larger than measured lost its last character ("not a tag (hangtag 0.96" at 1920×1080)
        metrics = QFontMetricsF(self.label_font(scale))
        height = metrics.height() + 2 / scale
        placed: list[QRectF] = []
        for rect, _, text, _dropped in self._rows:
            width = metrics.horizontalAdvance(text) + 8 / scale
            tag = QRectF(rect.left(), rect.top() - height, width, height)
            if tag.top() < 0:
                tag.moveTop(rect.top())
            for _ in range(len(self._rows) + 1):
                clash = next((p for p in placed if p.intersects(tag)), None)
                if clash is None:
                    break
                tag.moveTop(clash.bottom() + 0.5 / scale)
            placed.append(tag)
        return placed

    def label_font(self, scale: float) -> QFont:
        font = QFont(self._font)
        font.setPixelSize(max(1, round(LABEL_PX / scale)))  # LABEL_PX on screen, zoomed in or out
        return font

    def paint(self, painter: QPainter, option, widget=None) -> None:
        scale = max(1e-6, abs(painter.worldTransform().m11()))
        painter.setFont(self.label_font(scale))
        tags = self.place_labels(scale)
        painter.setBrush(Qt.BrushStyle.NoBrush)
        for rect, color, _, dropped in self._rows:  # every box first, then every label: no line crosses a label
            pen = QPen(color, 2, Qt.PenStyle.DashLine if dropped else Qt.PenStyle.SolidLine)
            pen.setCosmetic(True)  # 2 screen pixels at any zoom
            painter.setPen(pen)
            painter.drawRect(rect)
        for polygon, color in self._papers:
            for pen in (QPen(PAPER_RIM, PAPER_PX + 2), QPen(color, PAPER_PX)):
                pen.setCosmetic(True)
                pen.setJoinStyle(Qt.PenJoinStyle.MiterJoin)
                painter.setPen(pen)
                painter.drawPolygon(polygon)
        pad = 4 / scale
        for (_, color, text, _dropped), tag in zip(self._rows, tags):
            painter.fillRect(tag, color)
            painter.setPen(QColor("white"))
            painter.drawText(tag.adjusted(pad, 0, 0, 0), Qt.AlignmentFlag.AlignVCenter | Qt.AlignmentFlag.AlignLeft, text)


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
        self._pixels: np.ndarray | None = None
        self.scene().addItem(self._pixmap)
        self._boxes = BoxesItem()
        self.scene().addItem(self._boxes)
        self._fit_mode = True
        # Messages are a label over the viewport, not scene text: they keep their size at any zoom (an error
        # drawn at the previous frame's zoom was ~5 px tall).
        self.placeholder = QLabel(self.viewport())
        self.placeholder.setAlignment(Qt.AlignmentFlag.AlignCenter)
        self.placeholder.setWordWrap(True)
        self.message_is_error = False
        self._set_message("No frame yet — open a source and press Start (Space).", error=False)
        self.box_count = 0

    def show_frame(self, image: np.ndarray | None, detections: Detections | None, not_tags: Sequence[Box] = (),
                   papers: Sequence[Paper] = ()) -> None:
        if image is not None:
            self.placeholder.setVisible(False)
            pixmap, pixels = frame_pixmap(image)
            self._pixmap.setPixmap(pixmap)
            self._pixels = pixels  # the pixmap shares this memory: kept until the next frame replaces both
            self.scene().setSceneRect(QRectF(self._pixmap.pixmap().rect()))
        self.show_detections(detections, not_tags, papers)
        if self._fit_mode:
            self.fit()

    def show_message(self, text: str, *, error: bool = False, heading: str = "ERROR") -> None:
        """No frame: the message alone, at a readable size; `error` draws it under a red `heading` banner."""
        self._pixmap.setPixmap(QPixmap())
        self.show_detections(None)
        self.scene().setSceneRect(QRectF(0, 0, 1, 1))  # no scroll bars left over from the last frame
        self._fit_mode = True
        self.resetTransform()
        self._set_message(text, error=error, heading=heading)

    def _set_message(self, text: str, *, error: bool, heading: str = "ERROR") -> None:
        self.message_is_error = error
        if error:
            self.placeholder.setText(f'<div style="background:#a50e0e; color:white; font-size:28px; '
                                     f'font-weight:bold; padding:6px;">&nbsp;{_html(heading)}&nbsp;</div>'
                                     f'<p style="color:#f1f3f4; font-size:16px;">{_html(text)}</p>')
        else:
            self.placeholder.setText(f'<p style="color:#bdc1c6; font-size:15px;">{_html(text)}</p>')
        self.placeholder.setVisible(True)
        self._place_message()

    def _place_message(self) -> None:
        area = self.viewport().rect().adjusted(16, 16, -16, -16)
        self.placeholder.setGeometry(area)

    def show_detections(self, detections: Detections | None, not_tags: Sequence[Box] = (),
                        papers: Sequence[Paper] = ()) -> None:
        self._boxes.set_detections(detections, self._pixmap.pixmap().size(), not_tags, papers)
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
        self._place_message()
        if self._fit_mode:
            self.fit()


def _html(text: str) -> str:
    import html

    return html.escape(text).replace("\n", "<br>")
