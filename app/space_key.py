"""Space starts and stops the line from anywhere in the window, a focused spin box included."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt
from PySide6.QtWidgets import QAbstractSpinBox, QWidget


class SpaceStops(QObject):
    """Space toggles the run even when a spin box (fps cap, takt…) has the focus and would eat the key."""

    def __init__(self, window) -> None:
        super().__init__(window)
        self.window = window

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt naming
        if (event.type() == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_Space
                and event.modifiers() == Qt.KeyboardModifier.NoModifier and isinstance(obj, QWidget)):
            spin = obj if isinstance(obj, QAbstractSpinBox) else obj.parentWidget()
            if isinstance(spin, QAbstractSpinBox) and self.window.isAncestorOf(spin):
                self.window.toggle_run()
                return True
        return False
