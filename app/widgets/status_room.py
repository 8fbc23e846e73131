"""Room for the status bar's message: the engine's details step aside while a message needs their place.

A QStatusBar draws its message in what its permanent labels leave and clips the rest. At 1280 px the labels
(model, backend, precision, device, frames, fps) left about 530 px, and "Stopped: 4 tags in view judged now (2 OK,
1 NG, 1 REVIEW); tags passing while stopped get no verdict" lost its end; in Chinese, more. While a message is
shown that does not fit, the labels that repeat what the header already says (model, backend, precision, device:
the header's "Engine: CPU FP32") are hidden; the counts (frames, fps) stay. They come back when the message goes.
"""

from __future__ import annotations

from PySide6.QtCore import QEvent, QObject
from PySide6.QtWidgets import QStatusBar, QWidget

# QStatusBar's own margins around its message (qstatusbar.cpp: 4 px at each side of the message's rect, plus the
# layout's spacing before the first permanent widget)
MESSAGE_MARGIN = 12


class StatusRoom(QObject):
    def __init__(self, bar: QStatusBar, yielding: list[QWidget], staying: list[QWidget]) -> None:
        super().__init__(bar)
        self.bar = bar
        self.yielding = yielding  # hidden while a message needs their room
        self.staying = staying
        self.stepped_aside = False
        bar.messageChanged.connect(self._fit)
        for watched in (bar, *staying):  # a narrower window, or counts grown wider ("Frames: 12345 (dropped 4321)")
            watched.installEventFilter(self)

    def room(self, *, with_yielding: bool, with_hidden: bool = False) -> int:
        """Pixels the message has beside the permanent widgets that stay (and the yielding ones, if asked; and a
        staying one hidden now, such as a button shown with the message, if asked)."""
        widgets = [w for w in self.staying if with_hidden or not w.isHidden()]
        if with_yielding:
            widgets += self.yielding
        spacing = self.bar.layout().spacing() if self.bar.layout() is not None else 6
        used = sum(w.sizeHint().width() + spacing for w in widgets)
        return self.bar.width() - used - MESSAGE_MARGIN

    def fits(self, message: str) -> bool:
        return self.bar.fontMetrics().horizontalAdvance(message) <= self.room(with_yielding=True)

    def _fit(self, message: str = "") -> None:
        message = message or self.bar.currentMessage()
        aside = bool(message) and not self.fits(message)
        if aside != self.stepped_aside:
            self.stepped_aside = aside
            for widget in self.yielding:
                widget.setVisible(not aside)

    def eventFilter(self, watched, event) -> bool:  # noqa: N802 - Qt naming
        if event.type() == QEvent.Type.Resize:
            self._fit()
        return False
