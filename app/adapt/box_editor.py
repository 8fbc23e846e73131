"""Fix a frame's boxes as in common labelling tools (labelImg, CVAT).

Mouse: drag on empty image draws a box of the current class; drag inside a box moves it; drag a
corner resizes it; click selects. Keys: 1/2/3… class of the selected box (and of new ones), Delete or
Backspace removes it, Tab selects the next box, Ctrl+Z undoes, Esc deselects. The page owns
navigation: the editor says Enter (`accepted`) and A/D (`step`) and edits only the boxes it was given.
"""

from __future__ import annotations

import numpy as np
from PySide6.QtCore import QPointF, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QKeySequence, QPainter, QPen
from PySide6.QtWidgets import QWidget

from app.theme import class_color
from app.widgets.image_view import bgr_to_qimage
from inference.adapt.folder import Box

HANDLE_PX = 9  # corner grab radius on screen
MIN_SIDE = 4.0  # image pixels: a smaller drag is a click, not a box


class BoxEditor(QWidget):
    changed = Signal()  # the boxes were edited
    selection_changed = Signal(int)  # index of the selected box, -1 for none
    accepted = Signal()  # Enter: the boxes are right
    step = Signal(int)  # D / A: next / previous frame

    def __init__(self, class_names: tuple[str, ...], parent=None) -> None:
        super().__init__(parent)
        self.class_names = class_names
        self.boxes: list[Box] = []
        self.selected = -1
        self.draw_class = 0
        self._image = None
        self._image_hw = (1, 1)
        self._drag: tuple[str, int, QPointF, tuple[float, float, float, float]] | None = None
        self._draft: QRectF | None = None
        self._undo: list[list[Box]] = []
        self.setFocusPolicy(Qt.FocusPolicy.StrongFocus)
        self.setMouseTracking(True)
        self.setMinimumSize(480, 320)

    # -- model --------------------------------------------------------------------------------------
    def set_frame(self, image_bgr: np.ndarray | None, boxes: list[Box] | tuple[Box, ...]) -> None:
        self._image = bgr_to_qimage(image_bgr) if image_bgr is not None else None
        self._image_hw = image_bgr.shape[:2] if image_bgr is not None else (1, 1)
        self.boxes = list(boxes)
        self.selected = -1
        self._undo.clear()
        self.selection_changed.emit(-1)
        self.update()

    def set_draw_class(self, class_id: int) -> None:
        if not 0 <= class_id < len(self.class_names):
            return
        self.draw_class = class_id
        if self.selected >= 0:
            self._edit(lambda b: Box(b.xyxy, class_id))
        self.update()

    def delete_selected(self) -> None:
        if self.selected < 0:
            return
        self._remember()
        del self.boxes[self.selected]
        self._select(-1)
        self.changed.emit()
        self.update()

    def undo(self) -> None:
        if self._undo:
            self.boxes = self._undo.pop()
            self._select(-1)
            self.changed.emit()
            self.update()

    def _remember(self) -> None:
        self._undo.append(list(self.boxes))
        del self._undo[:-50]

    def _edit(self, change) -> None:
        self._remember()
        self.boxes[self.selected] = change(self.boxes[self.selected])
        self.changed.emit()

    def _select(self, index: int) -> None:
        self.selected = index
        if index >= 0:
            self.draw_class = self.boxes[index].class_id
        self.selection_changed.emit(index)

    # -- geometry -------------------------------------------------------------------------------------
    def _scale_offset(self) -> tuple[float, float, float]:
        h, w = self._image_hw
        s = min(self.width() / w, self.height() / h)
        return s, (self.width() - w * s) / 2, (self.height() - h * s) / 2

    def to_image(self, p: QPointF) -> QPointF:
        s, ox, oy = self._scale_offset()
        h, w = self._image_hw
        return QPointF(min(max((p.x() - ox) / s, 0.0), w), min(max((p.y() - oy) / s, 0.0), h))

    def to_screen(self, x: float, y: float) -> QPointF:
        s, ox, oy = self._scale_offset()
        return QPointF(x * s + ox, y * s + oy)

    def _corner_at(self, p: QPointF) -> tuple[int, int] | None:
        order = [self.selected] if self.selected >= 0 else []
        order += [i for i in range(len(self.boxes)) if i != self.selected]
        for i in order:
            x1, y1, x2, y2 = self.boxes[i].xyxy
            for k, (x, y) in enumerate(((x1, y1), (x2, y1), (x2, y2), (x1, y2))):
                q = self.to_screen(x, y)
                if abs(q.x() - p.x()) <= HANDLE_PX and abs(q.y() - p.y()) <= HANDLE_PX:
                    return i, k
        return None

    def _box_at(self, p: QPointF) -> int:
        q = self.to_image(p)
        inside = [i for i, b in enumerate(self.boxes)
                  if b.xyxy[0] <= q.x() <= b.xyxy[2] and b.xyxy[1] <= q.y() <= b.xyxy[3]]
        if not inside:
            return -1
        return min(inside, key=lambda i: (self.boxes[i].xyxy[2] - self.boxes[i].xyxy[0]) *
                   (self.boxes[i].xyxy[3] - self.boxes[i].xyxy[1]))  # the smallest: a barcode inside its tag

    # -- mouse and keys ---------------------------------------------------------------------------------
    def mousePressEvent(self, event) -> None:  # noqa: N802
        if event.button() != Qt.MouseButton.LeftButton or self._image is None:
            return
        p = event.position()
        corner = self._corner_at(p)
        if corner is not None:
            self._select(corner[0])
            self._remember()
            self._drag = ("corner", corner[1], self.to_image(p), self.boxes[corner[0]].xyxy)
        elif (index := self._box_at(p)) >= 0:
            self._select(index)
            self._remember()
            self._drag = ("move", 0, self.to_image(p), self.boxes[index].xyxy)
        else:
            self._select(-1)
            start = self.to_image(p)
            self._drag = ("draw", 0, start, (start.x(), start.y(), start.x(), start.y()))
            self._draft = QRectF(start, start)
        self.update()

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._drag is None:
            corner = self._corner_at(event.position())
            self.setCursor(Qt.CursorShape.SizeFDiagCursor if corner else Qt.CursorShape.CrossCursor)
            return
        kind, k, start, (x1, y1, x2, y2) = self._drag
        q = self.to_image(event.position())
        if kind == "draw":
            self._draft = QRectF(start, q).normalized()
        elif kind == "move":
            h, w = self._image_hw
            dx = min(max(q.x() - start.x(), -x1), w - x2)
            dy = min(max(q.y() - start.y(), -y1), h - y2)
            self.boxes[self.selected] = Box((x1 + dx, y1 + dy, x2 + dx, y2 + dy), self.boxes[self.selected].class_id)
        else:
            xs = [x1, x2, x2, x1]
            ys = [y1, y1, y2, y2]
            xs[k], ys[k] = q.x(), q.y()
            other = (k + 2) % 4
            box = (min(xs[k], xs[other]), min(ys[k], ys[other]), max(xs[k], xs[other]), max(ys[k], ys[other]))
            self.boxes[self.selected] = Box(box, self.boxes[self.selected].class_id)
        self.update()

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if self._drag is None:
            return
        kind = self._drag[0]
        self._drag = None
        if kind == "draw" and self._draft is not None:
            r = self._draft
            self._draft = None
            if r.width() >= MIN_SIDE and r.height() >= MIN_SIDE:
                self._remember()
                self.boxes.append(Box((r.left(), r.top(), r.right(), r.bottom()), self.draw_class))
                self._select(len(self.boxes) - 1)
                self.changed.emit()
        elif kind in ("move", "corner"):
            self.changed.emit()
        self.update()

    def keyPressEvent(self, event) -> None:  # noqa: N802
        key = event.key()
        if Qt.Key.Key_1 <= key <= Qt.Key.Key_9:
            self.set_draw_class(key - Qt.Key.Key_1)
        elif key in (Qt.Key.Key_Delete, Qt.Key.Key_Backspace):
            self.delete_selected()
        elif key == Qt.Key.Key_Tab and self.boxes:
            self._select((self.selected + 1) % len(self.boxes))
            self.update()
        elif key == Qt.Key.Key_Escape and self.selected >= 0:  # with none chosen, Escape closes the window
            self._select(-1)
            self.update()
        elif event.matches(QKeySequence.StandardKey.Undo):
            self.undo()
        elif key in (Qt.Key.Key_Return, Qt.Key.Key_Enter):
            self.accepted.emit()
        elif key in (Qt.Key.Key_D, Qt.Key.Key_A) and not event.modifiers():
            self.step.emit(1 if key == Qt.Key.Key_D else -1)
        else:
            super().keyPressEvent(event)
            return
        event.accept()

    def focusNextPrevChild(self, next: bool) -> bool:  # noqa: N802, A002 - Tab cycles boxes here
        return False

    # -- painting ----------------------------------------------------------------------------------------
    def paintEvent(self, event) -> None:  # noqa: N802
        painter = QPainter(self)
        painter.fillRect(self.rect(), QColor("#202124"))
        if self._image is None:
            painter.setPen(QColor("#e8eaed"))
            painter.drawText(self.rect(), Qt.AlignmentFlag.AlignCenter, "No frame: keep some in step 1")
            return
        s, ox, oy = self._scale_offset()
        h, w = self._image_hw
        painter.drawImage(QRectF(ox, oy, w * s, h * s), self._image)
        names_drawn: list[QRectF] = []
        for i, b in enumerate(self.boxes):
            name = self.class_names[b.class_id] if b.class_id < len(self.class_names) else f"class_{b.class_id}"
            color = class_color(name, b.class_id)
            selected = i == self.selected
            pen = QPen(color, 3 if selected else 2, Qt.PenStyle.SolidLine if b.source != "model" else Qt.PenStyle.DashLine)
            painter.setPen(pen)
            top_left, bottom_right = self.to_screen(b.xyxy[0], b.xyxy[1]), self.to_screen(b.xyxy[2], b.xyxy[3])
            painter.drawRect(QRectF(top_left, bottom_right))
            # white on the class colour, on the box's top edge (inside it at the image's top): bare coloured text
            # was lost on fabric and two boxes' names ran into each other ("bardoarcode")
            tag = QRectF(painter.fontMetrics().boundingRect(name)).adjusted(-3, -1, 3, 1)
            tag.moveBottomLeft(top_left)
            if tag.top() < 0 or any(tag.intersects(r) for r in names_drawn):  # inside the box: not over another name
                tag.moveTopLeft(top_left)
            names_drawn.append(tag)
            painter.fillRect(tag, color)
            painter.setPen(QColor("white"))
            painter.drawText(tag, int(Qt.AlignmentFlag.AlignCenter), name)
            painter.setPen(pen)
            if selected:
                painter.setBrush(color)
                for x, y in ((b.xyxy[0], b.xyxy[1]), (b.xyxy[2], b.xyxy[1]), (b.xyxy[2], b.xyxy[3]), (b.xyxy[0], b.xyxy[3])):
                    q = self.to_screen(x, y)
                    painter.drawRect(QRectF(q.x() - 4, q.y() - 4, 8, 8))
                painter.setBrush(Qt.BrushStyle.NoBrush)
        if self._draft is not None:
            name = self.class_names[self.draw_class]
            painter.setPen(QPen(class_color(name, self.draw_class), 2, Qt.PenStyle.DotLine))
            painter.drawRect(QRectF(self.to_screen(self._draft.left(), self._draft.top()),
                                    self.to_screen(self._draft.right(), self._draft.bottom())))
