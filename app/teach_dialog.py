"""Teach job…: show the station one good tag; it reads it; the engineer confirms or corrects each
field beside the tag's crop (value, and where on the tag it is printed) and saves a job recipe.

The dialog is a view over a `Lesson` (inference.reading.teach): the table and the crop render it,
every edit replaces it, and saving writes `lesson.recipe_text()`, parsed first so a recipe the
station would refuse is never written.
"""

from __future__ import annotations

import re
from pathlib import Path

import cv2
import numpy as np
from PySide6.QtCore import QPointF, QRectF, QSize, Qt, Signal
from PySide6.QtGui import QColor, QGuiApplication, QImage, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (QAbstractItemView, QCheckBox, QComboBox, QDialog, QDialogButtonBox, QFileDialog,
                               QFormLayout, QHBoxLayout, QHeaderView, QLabel, QLineEdit, QPushButton, QSpinBox,
                               QTableWidget, QTableWidgetItem, QVBoxLayout, QWidget)

from app.teach_regions import fitted_regions
from inference.errors import HangtagError
from inference.reading.recipe import DEFAULT_MIN_FIELD_CONFIDENCE
from inference.reading.rectify import make_upright
from inference.reading.teach import Lesson, lesson_from, region_from_pixels, region_in_pixels
from inference.reading.types import TagReading

SYMBOLOGIES = ("", "EAN-13", "EAN-8", "UPC-A", "Code128", "Code93", "Code39")
COLUMNS = ("Check", "Field", "Expected value", "Read at", "Region")
UNNAMED = "taught job"  # what lesson_from names a job when no field it would be named after was read surely


SELECTED_COLOR = "#e0a000"  # the selected field's region and its name


def label_place(size, region: QRectF, others: list[QRectF], image: QRectF, bounds: QRectF) -> QRectF:
    """Where the selected region's name is painted: against the region (above, below), else in the margin the tag
    leaves above or below it (the nearer first), else beside it, else inside the region's top; the first place
    that covers no other region. On a small tag the name above the first field lay over the brand's region and the
    brand printed in it."""
    def at(x: float, y: float) -> QRectF:
        rect = QRectF(QPointF(x, y), size)
        rect.moveLeft(min(max(rect.left(), bounds.left()), bounds.right() - rect.width()))
        return rect

    margins = [at(region.left(), image.top() - size.height()), at(region.left(), image.bottom())]
    if region.center().y() > image.center().y():
        margins.reverse()  # the nearer margin first
    beside = [QRectF(QPointF(region.right(), region.top()), size),
              QRectF(QPointF(region.left() - size.width(), region.top()), size)]
    places = [at(region.left(), region.top() - size.height()), at(region.left(), region.bottom()), *margins,
              *beside, at(region.left(), region.top())]
    inside = [p for p in places if bounds.contains(p)]
    clear = [p for p in inside if not any(p.intersects(o) for o in others)]
    return (clear or inside or places[-1:])[0]


def teach_size(free: QSize | None) -> tuple[int, int]:
    """1100×640, or most of a larger screen's free area: at 1920×1080 the tag beside the table was ~330 px wide,
    its printed lines too small to read or to draw a region round."""
    if free is None:
        return 1100, 640
    width = min(max(1100, int(free.width() * 0.85)), free.width())
    height = min(max(640, int(free.height() * 0.85)), free.height() - 40)  # the title bar sits above the area
    return width, height


class TagCrop(QWidget):
    """The upright tag with each taught region outlined; dragging draws the selected field's region."""

    region_drawn = Signal(tuple)  # (x1, y1, x2, y2) in crop pixels

    def __init__(self, crop_bgr: np.ndarray, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        rgb = cv2.cvtColor(crop_bgr, cv2.COLOR_BGR2RGB)
        h, w = rgb.shape[:2]
        self._image = QImage(rgb.data, w, h, 3 * w, QImage.Format.Format_RGB888).copy()
        self.size_wh = (w, h)
        self.regions: list[tuple[str, tuple[int, int, int, int], bool]] = []
        self._drag: tuple[QPointF, QPointF] | None = None
        self.label_rect: QRectF | None = None  # where the selected region's name was painted last
        self.setMinimumSize(220, 300)
        self.setCursor(Qt.CursorShape.CrossCursor)
        self.setToolTip("Drag a rectangle round where the selected field is printed")

    def show_regions(self, regions: list[tuple[str, tuple[int, int, int, int], bool]]) -> None:
        self.regions = regions
        self.update()

    def _frame(self) -> tuple[float, QPointF]:
        w, h = self.size_wh
        scale = min(self.width() / w, self.height() / h)
        return scale, QPointF((self.width() - w * scale) / 2, (self.height() - h * scale) / 2)

    def _widget_rect(self, box: tuple[int, int, int, int]) -> QRectF:
        scale, origin = self._frame()
        x1, y1, x2, y2 = box
        return QRectF(origin.x() + x1 * scale, origin.y() + y1 * scale, (x2 - x1) * scale, (y2 - y1) * scale)

    def _to_crop(self, point: QPointF) -> QPointF:
        scale, origin = self._frame()
        return QPointF((point.x() - origin.x()) / scale, (point.y() - origin.y()) / scale)

    def paintEvent(self, _event) -> None:  # noqa: N802 (Qt's name)
        painter = QPainter(self)
        scale, origin = self._frame()
        w, h = self.size_wh
        image = QRectF(origin.x(), origin.y(), w * scale, h * scale)
        painter.drawImage(image, self._image)
        rects = [self._widget_rect(box) for _, box, _ in self.regions]
        self.label_rect = None
        for (label, _, selected), rect in zip(self.regions, rects):
            color = QColor(SELECTED_COLOR if selected else "#1e88e5")
            painter.setPen(QPen(color, 3 if selected else 1.5))
            painter.drawRect(rect)
            if selected:  # white on the region's colour: orange text on kraft paper was unreadable
                size = QRectF(painter.fontMetrics().boundingRect(label)).adjusted(-3, -1, 3, 1).size()
                self.label_rect = tag = label_place(size, rect, [r for r in rects if r is not rect], image,
                                                    QRectF(self.rect()))
                painter.fillRect(tag, color)
                painter.setPen(QColor("white"))
                painter.drawText(tag, int(Qt.AlignmentFlag.AlignCenter), label)
        if self._drag is not None:
            painter.setPen(QPen(QColor("#e53935"), 2, Qt.PenStyle.DashLine))
            painter.drawRect(QRectF(self._drag[0], self._drag[1]).normalized())

    def mousePressEvent(self, event) -> None:  # noqa: N802
        self._drag = (event.position(), event.position())

    def mouseMoveEvent(self, event) -> None:  # noqa: N802
        if self._drag is not None:
            self._drag = (self._drag[0], event.position())
            self.update()

    def mouseReleaseEvent(self, event) -> None:  # noqa: N802
        if self._drag is None:
            return
        a, b = self._to_crop(self._drag[0]), self._to_crop(event.position())
        self._drag = None
        self.update()
        self.region_drawn.emit((a.x(), a.y(), b.x(), b.y()))


class TeachDialog(QDialog):
    """Engineer mode, File → Teach job…; `saved_path` is the recipe written, if any."""

    def __init__(self, image_bgr: np.ndarray, tag: TagReading, *, tags_in_frame: int, recipes_dir: Path,
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setWindowTitle("Teach job from this tag")
        self.recipes_dir = recipes_dir
        self.saved_path: Path | None = None
        upright = make_upright(image_bgr, tag.xyxy, tag.rotation)
        self.lesson: Lesson = fitted_regions(lesson_from(image_bgr, tag, tags_in_frame=tags_in_frame), tag, upright)
        self.crop = TagCrop(upright.image, self)
        self.crop.region_drawn.connect(self._on_region_drawn)

        # nothing sure to name the job after: the name is asked, not "taught job" (operators pick recipes by name)
        self.name = QLineEdit("" if self.lesson.name == UNNAMED else self.lesson.name)
        self.name.setPlaceholderText("the job's name: operators pick its recipe by it (e.g. style number, product)")
        self.table = QTableWidget(0, len(COLUMNS), self)
        self.table.setHorizontalHeaderLabels(COLUMNS)
        self.table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
        self.table.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
        self.table.verticalHeader().setVisible(False)
        header = self.table.horizontalHeader()
        header.setSectionResizeMode(2, QHeaderView.ResizeMode.Stretch)
        for column in (0, 1, 3, 4):
            header.setSectionResizeMode(column, QHeaderView.ResizeMode.ResizeToContents)
        self.symbology = QComboBox()
        self.symbology.addItems(SYMBOLOGIES)
        self.symbology.setCurrentText(self.lesson.barcode_format)
        self.code = QLineEdit(self.lesson.barcode_text)
        self.code.setPlaceholderText("no barcode read: type the code this job's tags carry, or leave empty")
        self.tags = QSpinBox()
        self.tags.setRange(1, 20)
        self.tags.setValue(int(self.lesson.counts.get("hangtag", 1)))
        self.load_after = QCheckBox("Use this recipe now")
        self.load_after.setChecked(True)
        self.message = QLabel("Tick the fields this job must show, correct any value read wrongly, and drag on the "
                              "tag to move a field's region. Fields without a region are searched for on the whole tag.")
        self.message.setWordWrap(True)
        clear = QPushButton("Clear region")
        clear.clicked.connect(self._clear_region)

        form = QFormLayout()
        form.addRow("Recipe name", self.name)
        form.addRow("Barcode", _row(self.symbology, self.code))
        form.addRow("Tags per garment", self.tags)
        buttons = QDialogButtonBox(QDialogButtonBox.StandardButton.Save | QDialogButtonBox.StandardButton.Cancel)
        buttons.accepted.connect(self.save)
        buttons.rejected.connect(self.reject)
        right = QVBoxLayout()
        right.addLayout(form)
        right.addWidget(self.table, 1)
        right.addWidget(_row(clear, self.load_after))
        right.addWidget(self.message)
        right.addWidget(buttons)
        layout = QHBoxLayout(self)
        layout.addWidget(self.crop, 2)
        layout.addLayout(right, 3)
        self._fill_table()
        self.table.itemChanged.connect(self._on_item_changed)
        self.table.itemSelectionChanged.connect(self._show_regions)
        self.table.selectRow(0)
        screen = QGuiApplication.primaryScreen()
        self.resize(*teach_size(screen.availableGeometry().size() if screen is not None else None))

    # -- the lesson, rendered --------------------------------------------------------------------------
    def _fill_table(self) -> None:
        self.table.blockSignals(True)
        self.table.setRowCount(len(self.lesson.fields))
        for row, taught in enumerate(self.lesson.fields):
            check = QTableWidgetItem()
            check.setFlags(Qt.ItemFlag.ItemIsUserCheckable | Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            check.setCheckState(Qt.CheckState.Checked if taught.use else Qt.CheckState.Unchecked)
            name = QTableWidgetItem(taught.label)
            name.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            value = QTableWidgetItem(taught.value)
            read_at = QTableWidgetItem(f"{taught.confidence:.0%}" if taught.value else "not read")
            read_at.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            if taught.value and taught.confidence < DEFAULT_MIN_FIELD_CONFIDENCE:  # taught unticked: say why
                read_at.setForeground(QColor("#d93025"))
                read_at.setToolTip(f"read less surely than a recipe's default limit ({DEFAULT_MIN_FIELD_CONFIDENCE:.0%}): "
                                   "check or correct the value before ticking it")
            region = QTableWidgetItem("taught" if taught.region else "—")
            region.setFlags(Qt.ItemFlag.ItemIsEnabled | Qt.ItemFlag.ItemIsSelectable)
            for column, item in enumerate((check, name, value, read_at, region)):
                self.table.setItem(row, column, item)
        self.table.blockSignals(False)
        self._show_regions()

    def _selected_field(self) -> str | None:
        rows = self.table.selectionModel().selectedRows() if self.table.selectionModel() else []
        return self.lesson.fields[rows[0].row()].name if rows else None

    def _show_regions(self) -> None:
        selected = self._selected_field()
        self.crop.show_regions([(f.label, region_in_pixels(f.region, self.crop.size_wh), f.name == selected)
                                for f in self.lesson.fields if f.region is not None and (f.use or f.name == selected)])

    # -- edits -----------------------------------------------------------------------------------------
    def _on_item_changed(self, item: QTableWidgetItem) -> None:
        taught = self.lesson.fields[item.row()]
        if item.column() == 0:
            self.lesson = self.lesson.with_field(taught.name, use=item.checkState() == Qt.CheckState.Checked)
        elif item.column() == 2:
            value = item.text().strip()
            self.lesson = self.lesson.with_field(taught.name, value=value, use=bool(value) or taught.use)
            self.table.blockSignals(True)
            self.table.item(item.row(), 0).setCheckState(Qt.CheckState.Checked if bool(value) or taught.use else Qt.CheckState.Unchecked)
            self.table.blockSignals(False)
        self._show_regions()

    def _on_region_drawn(self, box: tuple[float, float, float, float]) -> None:
        name = self._selected_field()
        region = region_from_pixels(box, self.crop.size_wh)
        if name is None or region is None:
            self.message.setText("Select a field in the table, then drag a rectangle round where it is printed.")
            return
        self.lesson = self.lesson.with_field(name, region=region)
        row = [f.name for f in self.lesson.fields].index(name)
        self.table.item(row, 4).setText("taught")
        self._show_regions()

    def _clear_region(self) -> None:
        name = self._selected_field()
        if name is not None:
            self.lesson = self.lesson.with_field(name, region=None)
            self.table.item([f.name for f in self.lesson.fields].index(name), 4).setText("—")
            self._show_regions()

    def current_lesson(self) -> Lesson:
        counts = dict(self.lesson.counts)
        counts["hangtag"] = self.tags.value()
        code = self.code.text().strip()
        if not code:
            counts.pop("barcode", None)
        return Lesson(self.name.text().strip() or UNNAMED, self.lesson.fields, self.symbology.currentText() if code else "",
                      code, counts)

    # -- saving ----------------------------------------------------------------------------------------
    def save(self, path: Path | None = None) -> Path | None:
        """Check the recipe as the station would load it, then write it (asks where unless `path`)."""
        if not self.name.text().strip():
            self.message.setText("Not saved: name the recipe first; operators pick it by its name.")
            self.name.setFocus()
            return None
        lesson = self.current_lesson()
        # a ticked field with its value cleared was left out of the recipe without a word: checked on no tag
        empty = [f for f in lesson.fields if f.use and not f.value]
        if empty:
            self.message.setText(f"Not saved: {empty[0].label} is ticked but has no expected value. Type what every tag "
                                 "of the job must say there, or untick it.")
            self.table.selectRow([f.name for f in lesson.fields].index(empty[0].name))
            return None
        try:
            lesson.recipe()
        except HangtagError as exc:
            self.message.setText(f"Not saved: {taught_problem(exc, lesson)}")
            return None
        if path is None:
            default = self.recipes_dir / f"{_file_name(lesson.name)}.toml"
            chosen, _ = QFileDialog.getSaveFileName(self, "Save job recipe", str(default), "Recipes (*.toml)")
            if not chosen:
                return None
            path = Path(chosen)
        try:
            path.write_text(lesson.recipe_text(), encoding="utf-8")
        except OSError as exc:
            self.message.setText(f"Not saved: cannot write {path}: {exc.strerror or exc}. Choose a folder you can write to.")
            return None
        self.saved_path = path
        self.accept()
        return path


_WHERE = re.compile(r"^Recipe .*?(?:, line \d+(?: column \d+)?)?, key ([\w.]+): (.*)$", re.DOTALL)


def taught_problem(exc: HangtagError, lesson: Lesson) -> str:
    """The recipe's complaint about a taught value, said by the box the engineer typed it in: "Recipe <taught>, line
    13, key barcode.expected" named a line of a file this dialog never shows."""
    message = getattr(exc, "message", str(exc))
    match = _WHERE.match(message)
    if match is None:
        return str(exc)
    key, what = match.groups()
    section, _, rest = key.partition(".")
    if section == "barcode":
        where = "the Barcode"
    elif section == "fields" and rest.split(".")[0] in {f.name for f in lesson.fields}:
        where = f"the expected {lesson.field(rest.split('.')[0]).label}"
    elif key == "recipe.name":
        where = "the Recipe name"
    else:
        where = key
    said = [f"{where} {what}" if what.startswith(("cannot", "has", "is", "must")) else f"{where}: {what}"]
    said += [f"{label} {value}" for label, value in (("expected", getattr(exc, "expected", "")),
                                                     ("found", getattr(exc, "found", ""))) if value]
    hint = getattr(exc, "hint", "")
    if section == "barcode":  # the hint speaks of the file's keys; here they are the Barcode row's two boxes
        hint = re.sub(r'set format = "([^"]+)"', r"pick \1 beside the code", hint).replace(" in expected", " there")
    return "; ".join(said) + (f". {hint[:1].upper()}{hint[1:]}" if hint else "")


def _row(*widgets: QWidget) -> QWidget:
    holder = QWidget()
    layout = QHBoxLayout(holder)
    layout.setContentsMargins(0, 0, 0, 0)
    for widget in widgets:
        layout.addWidget(widget)
    return holder


def _file_name(name: str) -> str:
    return re.sub(r"[^\w\-]+", "_", name, flags=re.UNICODE).strip("_")[:60] or "taught_job"
