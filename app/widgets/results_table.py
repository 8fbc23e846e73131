"""One row per inspected frame: time, source, verdict, counts. The model keeps the results; the
view never copies them.

Bounded (issue 15 item 4: the window grew ~40 MiB per 1 000 frames): the model is a ring of the
last `capacity` results, and only the last `cache_last` keep their detector candidates (what tuning
re-filters and the what-if counts); older results keep their final boxes and verdict. Everything is
in the journal, which the report reads."""

from __future__ import annotations

import time

import numpy as np
from PySide6.QtCore import QModelIndex, Qt

from app.theme import verdict_text_color
from app.words import frame_name
from app.widgets.column_model import ColumnModel
from inference.decode import Candidates
from inference.inspection import Inspector
from inference.pipeline import FrameResult

ROW_CAPACITY = 1000  # rows kept in the window; older frames are in the journal
CACHE_LAST = 300  # results that keep their candidates for re-filtering and the what-if count
NO_CANDIDATES = Candidates(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int32))

COLUMNS = ("Time", "Source", "Verdict", "Tags", "Barcodes", "QR", "ms")


def tags_judged(result: FrameResult) -> int:
    """Hangtags as the verdict judged them: a tag the detector boxed in two parts (tag_parts.py) is one tag, and a
    box the reader found not to be a tag (greyed "not a tag" on the image) none, as in the verdict's count and the
    tag text panel; the column said 3 for one tag and two such boxes."""
    parts = getattr(result.verdict, "parts", ()) if result.verdict is not None else ()
    not_tags = sum(1 for tag in (getattr(result, "readings", None) or ()) if tag.rejected)
    return max(0, result.detections.count("hangtag") - sum(len(part) - 1 for part in parts) - not_tags)


class ResultsModel(ColumnModel):
    columns = COLUMNS

    def __init__(self, parent=None, *, capacity: int = ROW_CAPACITY, cache_last: int = CACHE_LAST) -> None:
        super().__init__(parent)
        self.results: list[FrameResult] = []  # the kept results, including ones not yet shown as rows
        self._rows = 0  # rows the view knows about; `flush()` catches up in one insert
        self.capacity = capacity
        self.cache_last = cache_last
        self.dropped = 0  # results that left the ring from the front: row r is frame number dropped + r
        self.total = 0  # results ever appended

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else self._rows

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
                return readable_name(result)
            if column == "Verdict":
                return verdict
            if column == "Tags":
                return tags_judged(result) if result.ok else "—"
            if column == "Barcodes":
                return result.detections.count("barcode") if result.ok else "—"
            if column == "QR":
                return result.detections.count("qr_code") if result.ok else "—"
            if column == "ms":
                return f"{result.timings.total_ms:.0f}" if result.ok else "—"
        if role == Qt.ItemDataRole.ForegroundRole and column == "Verdict":
            return verdict_text_color(verdict)
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
        self.total += 1
        old = len(self.results) - 1 - self.cache_last
        if old >= 0 and len(self.results[old].candidates):
            self.results[old] = self.results[old].with_(candidates=NO_CANDIDATES)
        if len(self.results) > 2 * self.capacity:  # no flush for a long time: stay bounded anyway
            self.flush()

    def has_candidates(self, row: int) -> bool:
        """Whether this row's result can still be re-filtered (its detector output is cached)."""
        return len(self.results) - 1 - row < self.cache_last

    def flush(self) -> None:
        excess = len(self.results) - self.capacity
        if excess > 0:
            shown = min(excess, self._rows)
            if shown:
                self.beginRemoveRows(QModelIndex(), 0, shown - 1)
            del self.results[:excess]
            self.dropped += excess
            self._rows -= shown
            if shown:
                self.endRemoveRows()
        if self._rows == len(self.results):
            return
        self.beginInsertRows(QModelIndex(), self._rows, len(self.results) - 1)
        self._rows = len(self.results)
        self.endInsertRows()

    def replace_all(self, results: list[FrameResult]) -> None:
        self.beginResetModel()
        self.dropped += len(self.results)
        self.results = list(results)
        self._rows = len(self.results)
        self.endResetModel()

    def clear(self) -> None:
        self.replace_all([])


def readable_name(result: FrameResult) -> str:
    """A row's source as a person reads it (app.words.frame_name)."""
    return frame_name(result.source_name, result.index)
