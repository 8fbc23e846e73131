"""The Results dock on a moving line: one row per finished tag (its id, verdict, the fields read, the frame its
verdict rests on), newest last, instead of one row per tracked frame, which says nothing to an operator.

Bounded like the frame rows: the last `capacity` tags are kept (everything is in the journal's tag rows), and only
the last `crops_kept` keep their crop for showing the tag again when its row is clicked.
"""

from __future__ import annotations

import time
from dataclasses import replace

from PySide6.QtCore import QModelIndex, Qt
from PySide6.QtWidgets import QAbstractItemView, QHeaderView, QTableView

from app.theme import verdict_text_color
from app.widgets.column_model import ColumnModel
from inference.tracking.recent import RecentTag

COLUMNS = ("Time", "Tag", "Verdict", "Fields", "Frame", "Reads")
ENGINEER_COLUMNS = (4, 5)  # the frame and the number of reads: hidden in operator mode
TAG_CAPACITY = 1000
CROPS_KEPT = 30


class TagResultsModel(ColumnModel):
    columns = COLUMNS

    def __init__(self, parent=None, *, capacity: int = TAG_CAPACITY, crops_kept: int = CROPS_KEPT) -> None:
        super().__init__(parent)
        self.tags: list[RecentTag] = []
        self.capacity = capacity
        self.crops_kept = crops_kept

    def rowCount(self, parent=QModelIndex()) -> int:  # noqa: N802
        return 0 if parent.isValid() else len(self.tags)

    def data(self, index, role=Qt.ItemDataRole.DisplayRole):
        if not index.isValid():
            return None
        tag = self.tags[index.row()]
        column = COLUMNS[index.column()]
        if role == Qt.ItemDataRole.DisplayRole:
            if column == "Time":
                return time.strftime("%H:%M:%S", time.localtime(tag.finished_at))
            if column == "Tag":
                return tag.label
            if column == "Verdict":
                return "unread" if tag.missed else tag.verdict
            if column == "Fields":
                return fields_text(tag)
            if column == "Frame":
                return "—" if tag.frame is None else str(tag.frame)
            if column == "Reads":
                return str(tag.reads)
        if role == Qt.ItemDataRole.ForegroundRole and column == "Verdict":
            return verdict_text_color(tag.verdict)
        if role == Qt.ItemDataRole.ToolTipRole:
            return "\n".join(dict.fromkeys((fields_text(tag), *tag.reasons)))  # the whole row, where it is cut
        return None

    def append(self, tag: RecentTag) -> None:
        if len(self.tags) >= self.capacity:
            self.beginRemoveRows(QModelIndex(), 0, 0)
            del self.tags[0]
            self.endRemoveRows()
        row = len(self.tags)
        self.beginInsertRows(QModelIndex(), row, row)
        self.tags.append(tag)
        self.endInsertRows()
        old = len(self.tags) - 1 - self.crops_kept
        if old >= 0 and (self.tags[old].crop is not None or self.tags[old].reading is not None):
            self.tags[old] = replace(self.tags[old], crop=None, reading=None, checks=())

    def clear(self) -> None:
        self.beginResetModel()
        self.tags = []
        self.endResetModel()


def fields_text(tag: RecentTag) -> str:
    """What was read, as the operator reads a tag: 货号 AB1234 · 尺码 M; an unread tag says why."""
    if tag.fields:
        return " · ".join(f"{label} {value}" for label, value in tag.fields)
    return tag.reason if tag.missed or tag.reads == 0 else "—"


def tag_table(model: TagResultsModel) -> QTableView:
    table = QTableView()
    table.setObjectName("tag_results")
    table.setModel(model)
    table.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    table.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    table.verticalHeader().setVisible(False)
    table.setWordWrap(False)
    header = table.horizontalHeader()
    metrics = table.fontMetrics()
    for column, widest in enumerate(("00:00:00", "#0000", "REVIEW", "", "00000", "Reads")):
        if widest:
            header.resizeSection(column, metrics.horizontalAdvance(widest) + 18)
    header.setSectionResizeMode(3, QHeaderView.ResizeMode.Stretch)  # the fields take what is left
    return table
