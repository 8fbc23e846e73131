"""One row per inspected frame: time, source, verdict, counts. The model keeps the results; the
view never copies them."""

from __future__ import annotations

import time

from PySide6.QtCore import QAbstractTableModel, QModelIndex, Qt
from PySide6.QtGui import QColor

from app.theme import VERDICT_COLORS
from inference.inspection import Inspector
from inference.pipeline import FrameResult

COLUMNS = ("Time", "Source", "Verdict", "Tags", "Barcodes", "QR", "ms")


class ResultsModel(QAbstractTableModel):
    def __init__(self, parent=None) -> None:
        super().__init__(parent)
        self.results: list[FrameResult] = []  # every result, including ones not yet shown as rows
        self._rows = 0  # rows the view knows about; `flush()` catches up in one insert

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else self._rows

    def columnCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return len(COLUMNS)

    def headerData(self, section, orientation, role=Qt.ItemDataRole.DisplayRole):  # noqa: N802
        if role == Qt.ItemDataRole.DisplayRole and orientation == Qt.Orientation.Horizontal:
            return COLUMNS[section]
        return None

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        result = self.results[index.row()]
        column = COLUMNS[index.column()]
        verdict = Inspector.verdict_text(result)
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "Time":
                return time.strftime("%H:%M:%S", time.localtime(result.timestamp))
            if column == "Source":
                return result.source_name
            if column == "Verdict":
                return verdict
            if column == "Tags":
                return result.detections.count("hangtag") if result.ok else "—"
            if column == "Barcodes":
                return result.detections.count("barcode") if result.ok else "—"
            if column == "QR":
                return result.detections.count("qr_code") if result.ok else "—"
            if column == "ms":
                return f"{result.timings.total_ms:.0f}" if result.ok else "—"
        if role == Qt.ItemDataRole.ForegroundRole and column == "Verdict":
            return QColor(VERDICT_COLORS.get(verdict, "#5f6368"))
        if role == Qt.ItemDataRole.ToolTipRole:
            if not result.ok:
                return result.error
            reasons = getattr(result.verdict, "reasons", ())
            return "\n".join(reasons) if reasons else None
        return None

    def append(self, result: FrameResult) -> None:
        """Record at once; the rows appear at the next `flush()` (a fast engine must not relayout the
        view once per frame)."""
        self.results.append(result)

    def flush(self) -> None:
        if self._rows == len(self.results):
            return
        self.beginInsertRows(QModelIndex(), self._rows, len(self.results) - 1)
        self._rows = len(self.results)
        self.endInsertRows()

    def replace_all(self, results: list[FrameResult]) -> None:
        self.beginResetModel()
        self.results = list(results)
        self._rows = len(self.results)
        self.endResetModel()

    def clear(self) -> None:
        self.replace_all([])
