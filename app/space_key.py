"""Space starts and stops the line from anywhere in the window, a focused spin box included."""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject, Qt, Slot
from PySide6.QtWidgets import QAbstractSpinBox, QApplication, QWidget


class SpaceStops(QObject):
    """Space toggles the run even when a spin box (fps cap, takt…) has the focus and would eat the key.

    The filter watches the window's spin boxes only (those it holds now, and any that takes the focus later),
    never the whole application: a Python filter on every event of the GUI thread took a third of that thread's
    time on a line run and made each event wait for the GIL (BENCHMARKS.md, issue 18, fourth pass)."""

    def __init__(self, window: QWidget) -> None:
        super().__init__(window)
        self.window = window
        for spin in window.findChildren(QAbstractSpinBox):
            self._watch(spin)
        QApplication.instance().focusChanged.connect(self._on_focus)

    def _watch(self, spin: QAbstractSpinBox) -> None:
        """The box and its text field (which one a key reaches depends on the style and the focus proxy)."""
        spin.installEventFilter(self)  # Qt installs a filter once, however often it is asked
        spin.lineEdit().installEventFilter(self)

    @Slot(QWidget, QWidget)
    def _on_focus(self, _old: QWidget | None, new: QWidget | None) -> None:
        spin = self._spin_of(new)
        if spin is not None:
            self._watch(spin)

    def _spin_of(self, obj: QObject | None) -> QAbstractSpinBox | None:
        if not isinstance(obj, QWidget):
            return None
        spin = obj if isinstance(obj, QAbstractSpinBox) else obj.parentWidget()
        return spin if isinstance(spin, QAbstractSpinBox) and self.window.isAncestorOf(spin) else None

    def eventFilter(self, obj, event) -> bool:  # noqa: N802 - Qt naming
        if (event.type() == QEvent.Type.KeyPress and event.key() == Qt.Key.Key_Space
                and event.modifiers() == Qt.KeyboardModifier.NoModifier and self._spin_of(obj) is not None):
            self.window.toggle_run()
            return True
        return False
