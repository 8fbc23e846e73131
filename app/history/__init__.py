"""The History window (File → History…, Ctrl+H): look back through the journal from inside the station."""

from __future__ import annotations

from app.history.window import HistoryWindow

__all__ = ["HistoryWindow"]
