"""The fixed header: recipe, job, lot, source, engine, mode and run state, always on screen.

It renders the StationModel and nothing else (no copy of the state), so what it says is what the
station is doing. Job and lot used to show only in a 5-second status message.

When the line is too narrow for every field (engineer mode at 1280 px leaves it ~810), the fields give way in a
fixed order (`YIELDING`) and the job and lot, what the operator checks against the garment, go last: the mode steps
aside first, then the source elides, then the recipe (the job's name, which the operator needs more than the mode
label: at 1280 px in operator mode 'Recipe: ZEPHYRA 女士连衣裙 22H…' stood cut beside a whole 'Mode: operator'), then
the engine elides. Every field's whole text stays in its tooltip and the whole line in the header's."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from PySide6.QtCore import QEvent, QSize, Qt
from PySide6.QtWidgets import QLabel, QWidget

from app.station_state import FAILED, OPEN, RUNNING, StationModel, StationState
from app.theme import PLAIN_TEXT, VERDICT_COLORS, alarm_style
from app.widgets.elided_label import ElidedLabel

FIELDS = ("recipe", "job", "lot", "source", "engine", "mode")
# (fields, the width in Latin characters each may shrink to; 0 hides it), in the order they give way
YIELDING: tuple[tuple[tuple[str, ...], int], ...] = (
    (("mode",), 0),  # the window title, the Mode menu and the docks say it too; "Mode: engin…" says nothing
    (("source",), 18),  # the operator checks the tags against the recipe, not against the source's name
    (("recipe",), 18),  # "Recipe: ZEPHYRA 女…" still says which recipe
    (("recipe", "source"), 12),
    (("engine",), 10),  # the status bar names the backend and precision too; "Engine: CPU F…" is a last resort
    (("job", "lot"), 10),
)
SPACING, MARGIN, RUN_WIDTH = 10, 6, 86
LATIN = "abcdefghijklmnopqrstuvwxyz0123456789"
# ERROR and NO SOURCE in the verdict banner's dark red: the badge drew them in NG's red right above the banner
RUN_STYLES = {"running": ("RUNNING", "#1e8e3e"), "stopped": ("STOPPED", "#5f6368"),
              "error": ("ERROR", VERDICT_COLORS["ERROR"])}


def allot(room: int, wants: Mapping[str, int], floors: Sequence[tuple[tuple[str, ...], Mapping[str, int]]],
          spacing: int = SPACING) -> dict[str, int]:
    """Widths for fields that want `wants` px in `room` px (a field shown costs `spacing` more; width 0 hides it).
    Each step of `floors` lets its fields shrink to their floor, the widest first, only while the line is still too
    long; room freed by hiding a field goes back to the fields that were elided. Pure, so tested without Qt."""
    widths = dict(wants)

    def over() -> int:
        return sum(w + spacing for w in widths.values() if w) - spacing - room

    for fields, floor in floors:
        if over() <= 0:
            break
        if all(floor[f] == 0 for f in fields):
            widths.update({f: 0 for f in fields})
        else:
            _level(widths, {f: min(widths[f], floor[f]) for f in fields}, sum(widths[f] for f in fields) - over())
    spare = -over()
    shrunk = {f: widths[f] for f in widths if 0 < widths[f] < wants[f]}
    if spare > 0 and shrunk:
        _level(widths, shrunk, sum(shrunk.values()) + spare, ceiling=wants)
    return widths


def _level(widths: dict[str, int], floor: Mapping[str, int], total: int,
           ceiling: Mapping[str, int] | None = None) -> None:
    """Cut (or, with `ceiling`, raise) the fields of `floor` to one common width, clamped to [floor, ceiling], so
    that they add up to `total` as nearly as whole pixels allow."""
    top = ceiling or {f: widths[f] for f in floor}

    def total_at(cap: int) -> int:
        return sum(max(floor[f], min(top[f], cap)) for f in floor)

    low, high = 0, max(top[f] for f in floor)
    while low < high:  # the widest common width whose total fits
        middle = (low + high + 1) // 2
        low, high = (middle, high) if total_at(middle) <= total else (low, middle - 1)
    for f in floor:
        widths[f] = max(floor[f], min(top[f], low))


class StationHeader(QWidget):
    def __init__(self, model: StationModel, parent=None) -> None:
        super().__init__(parent)
        self.run_label = QLabel(self)
        self.fields: dict[str, ElidedLabel] = {}
        for key in FIELDS:
            label = ElidedLabel(parent=self, min_chars=8, mode=Qt.TextElideMode.ElideRight)
            label.setObjectName(f"header_{key}")
            self.fields[key] = label
        self.setContentsMargins(MARGIN, 2, MARGIN, 2)
        self.setFixedHeight(self.fontMetrics().height() + 10)
        model.connect(self._on_state)

    def _on_state(self, state: StationState, changed: frozenset) -> None:
        text, color = RUN_STYLES.get(state.run, RUN_STYLES["stopped"])
        if state.source_status == FAILED:
            text, color = "NO SOURCE", VERDICT_COLORS["NO SOURCE"]
        self.run_label.setText(text)
        self.run_label.setStyleSheet(f"background:{color}; color:white; font-weight:bold; border-radius:3px; "
                                     "padding:0 4px;")
        source = short_source(state.source) if state.source else "none"
        if state.source_status == FAILED:
            source = f"{source} (failed)"
        elif state.source_status != OPEN:
            source = "none" if not state.source else f"{source} (not open)"
        engine = state.engine or ("none — see the error" if state.engine_problem else "loading…")
        values = {"recipe": state.recipe or "none — pick a recipe", "job": state.job or "—", "lot": state.lot or "—",
                  "source": source, "engine": engine, "mode": state.mode}
        for key, value in values.items():
            self.fields[key].setText(f"{key.capitalize()}: {value}")
        self.setToolTip("\n".join(self.fields[key].text() for key in FIELDS))
        self.fields["source"].setToolTip(state.source_message or state.source)
        self.fields["recipe"].setStyleSheet(PLAIN_TEXT if state.recipe else alarm_style())
        self.fields["source"].setStyleSheet(alarm_style() if state.source_status == FAILED
                                           else PLAIN_TEXT)
        no_engine = bool(state.engine_problem) and not state.engine
        self.fields["engine"].setStyleSheet(alarm_style() if no_engine else PLAIN_TEXT)
        self.fields["engine"].setToolTip(state.engine_problem or self.fields["engine"].text())
        self.run_label.setToolTip("running" if state.run == RUNNING else state.source_message or state.run)
        self._place()

    # -- placing the fields ---------------------------------------------------------------------------
    def _wants(self) -> dict[str, int]:
        # +2: a label drawn at exactly its text's advance elided its last character at some font sizes
        return {key: label.fontMetrics().horizontalAdvance(label.text()) + 2 for key, label in self.fields.items()}

    def _floors(self, wants: Mapping[str, int]) -> list[tuple[tuple[str, ...], dict[str, int]]]:
        # the CJK font's average character is a Chinese one: floors sized by it were twice too wide
        char = self.fontMetrics().horizontalAdvance(LATIN) / len(LATIN)
        return [(fields, {f: min(wants[f], round(chars * char)) for f in fields}) for fields, chars in YIELDING]

    def _place(self) -> None:
        area = self.contentsRect()
        self.run_label.setGeometry(area.left(), area.top(), RUN_WIDTH, area.height())
        left = area.left() + RUN_WIDTH + SPACING
        wants = self._wants()
        widths = allot(area.right() + 1 - left, wants, self._floors(wants))
        for key in FIELDS:
            label, width = self.fields[key], widths[key]
            label.setVisible(width > 0)
            if width > 0:
                label.setGeometry(left, area.top(), width, area.height())
                left += width + SPACING

    def resizeEvent(self, event) -> None:  # noqa: N802
        super().resizeEvent(event)
        self._place()

    def changeEvent(self, event) -> None:  # noqa: N802 - a new font measures the texts again
        super().changeEvent(event)
        if event.type() == QEvent.Type.FontChange:
            self._place()

    def sizeHint(self) -> QSize:  # noqa: N802
        wants = self._wants()
        return QSize(2 * MARGIN + RUN_WIDTH + sum(w + SPACING for w in wants.values()), self.height())

    def minimumSizeHint(self) -> QSize:  # noqa: N802 - every field at its last floor, the mode hidden
        floors: dict[str, int] = dict(self._wants())
        for fields, floor in self._floors(floors):
            floors.update(floor)
        return QSize(2 * MARGIN + RUN_WIDTH + sum(w + SPACING for w in floors.values() if w), self.height())


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

