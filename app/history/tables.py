"""The History window's two tables as it builds them, and the words that say why one is empty (loading, waiting for
a locked journal, failed, nothing there): an empty grid alone looked the same in all four."""

from __future__ import annotations

from PySide6.QtWidgets import QAbstractItemView, QTableView

from app.widgets.table_note import TableNote

__all__ = ["TableNote", "table"]


def table(model) -> QTableView:
    view = QTableView()
    view.setModel(model)
    view.setSelectionBehavior(QAbstractItemView.SelectionBehavior.SelectRows)
    view.setSelectionMode(QAbstractItemView.SelectionMode.SingleSelection)
    view.setEditTriggers(QAbstractItemView.EditTrigger.NoEditTriggers)
    view.verticalHeader().setVisible(False)
    view.setWordWrap(False)
    view.setAlternatingRowColors(True)
    return view
