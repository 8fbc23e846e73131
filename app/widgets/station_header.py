"""The fixed header: recipe, job, lot, source, engine, mode and run state, always on screen.

It renders the StationModel and nothing else (no copy of the state), so what it says is what the
station is doing. Job and lot used to show only in a 5-second status message."""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QHBoxLayout, QLabel, QWidget

from app.station_state import ERROR, FAILED, OPEN, RUNNING, StationModel, StationState
from app.theme import PLAIN_TEXT
from app.widgets.elided_label import ElidedLabel

FIELD_STRETCH = {"recipe": 5, "job": 3, "lot": 3, "source": 3, "engine": 0, "mode": 0}
LOT_KEPT_WHOLE = 24  # characters: a lot number up to this long is never elided; the recipe and source give way
RUN_STYLES = {"running": ("RUNNING", "#1e8e3e"), "stopped": ("STOPPED", "#5f6368"), "error": ("ERROR", "#d93025")}


class StationHeader(QWidget):
    def __init__(self, model: StationModel, parent=None) -> None:
        super().__init__(parent)
        self.fields: dict[str, QLabel] = {}
        layout = QHBoxLayout(self)
        layout.setContentsMargins(6, 2, 6, 2)
        layout.setSpacing(10)
        self.run_label = QLabel()
        self.run_label.setFixedWidth(86)
        layout.addWidget(self.run_label)
        self._layout = layout
        for key, stretch in FIELD_STRETCH.items():
            # Recipe, job, lot and source can be long and are elided; engine and mode are short and never are.
            label = ElidedLabel(min_chars=8, mode=Qt.TextElideMode.ElideRight) if stretch else QLabel()
            label.setObjectName(f"header_{key}")
            layout.addWidget(label, stretch)
            self.fields[key] = label
        self.setFixedHeight(self.fontMetrics().height() + 10)
        model.connect(self._on_state)

    def _on_state(self, state: StationState, changed: frozenset) -> None:
        text, color = RUN_STYLES.get(state.run, RUN_STYLES["stopped"])
        if state.source_status == FAILED:
            text, color = "NO SOURCE", "#d93025"
        self.run_label.setText(text)
        self.run_label.setStyleSheet(f"background:{color}; color:white; font-weight:bold; border-radius:3px; "
                                     "padding:0 4px;")
        source = short_source(state.source) if state.source else "none"
        if state.source_status == FAILED:
            source = f"{source} (failed)"
        elif state.source_status != OPEN:
            source = "none" if not state.source else f"{source} (not open)"
        engine = state.engine or ("none — see the error" if state.run == ERROR else "loading…")
        values = {"recipe": state.recipe or "none — pick a recipe", "job": state.job or "—", "lot": state.lot or "—",
                  "source": source, "engine": engine, "mode": state.mode}
        for key, value in values.items():
            self.fields[key].setText(f"{key.capitalize()}: {value}")
        for key in ("job", "lot"):  # "—" until set: its room goes to the recipe and the source meanwhile
            self._layout.setStretch(self._layout.indexOf(self.fields[key]), FIELD_STRETCH[key] if values[key] != "—" else 1)
            # an elided label may shrink to nothing, and "Job: —" became "Job…" beside a long engine error
            whole = self.fields[key].fontMetrics().horizontalAdvance(self.fields[key].text()) + 2
            # a lot number is short and read to the last digit: "Lot: LOT-2026…" at 1280 px left which lot unsaid
            keep_whole = values[key] == "—" or (key == "lot" and len(values[key]) <= LOT_KEPT_WHOLE)
            self.fields[key].setMinimumWidth(whole if keep_whole else 0)
        self.fields["source"].setToolTip(state.source_message or state.source)
        self.fields["recipe"].setStyleSheet(PLAIN_TEXT if state.recipe else "color: #d93025; font-weight: bold;")
        self.fields["source"].setStyleSheet("color: #d93025; font-weight: bold;" if state.source_status == FAILED
                                           else PLAIN_TEXT)
        self.run_label.setToolTip("running" if state.run == RUNNING else state.source_message or state.run)


def short_source(spec: str) -> str:
    """The last part of a folder or file path (the full spec is in the tooltip): "watch:…/line-3" reads
    as "line-3 (watched)", a camera as "camera 0"."""
    from pathlib import PurePath

    from inference.cameras.specs import camera_key, is_camera_spec
    from inference.sources import spec_kind

    if is_camera_spec(spec):  # "genicam 0", not its settings and producer path
        return camera_key(spec).replace(":", " ", 1)
    kind = spec_kind(spec)
    if kind == "watch":
        return f"{PurePath(spec[len('watch:'):]).name} (watched)"
    if kind == "camera":
        return f"camera {spec}" if "://" not in spec else spec.split("://", 1)[1].split("@")[-1].split("/")[0]
    if kind == "replay":
        return f"camera replay {PurePath(spec[len('camera:'):]).name}"
    return PurePath(spec).name or spec
