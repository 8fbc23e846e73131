"""The operator's view of a moving line: the last tags (model and strip), NG (and REVIEW) tags held until
acknowledged with an optional alarm, the banner naming the last finished tag, the window's Line menu, and the
worker's per-tag inspector that feeds them (one verdict per tag to its listeners, the tags in view finished when the source ends).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

from inference.pipeline import FrameResult
from inference.reading.verdict import Verdict
from inference.sources import Frame
from inference.tracking import LineSettings
from inference.tracking.recent import RecentTag, RecentTags
from inference.tracking.station import PerTagInspector
from tests.test_tracking import RECIPE, PlantedReader, conveyor, detections_of, frame_with


def tag(tag_id: int, verdict: str, reason: str = "", **kw) -> RecentTag:
    return RecentTag(tag_id, verdict, reason, **kw)


# -- the model (Qt-free) ----------------------------------------------------------------------------------
def test_the_strip_keeps_the_last_n_tags_and_counts_all():
    model = RecentTags(3)
    for i, verdict in enumerate(["OK", "NG", "OK", "REVIEW", "OK"], 1):
        model.add(tag(i, verdict))
    assert [t.tag_id for t in model.tags] == [3, 4, 5] and model.last.tag_id == 5
    assert model.counts == {"OK": 3, "NG": 1, "REVIEW": 1}


@pytest.mark.parametrize("hold, added, acknowledged, held_after", [
    (("NG",), ["NG", "OK", "NG"], None, []),                   # acknowledge all
    (("NG",), ["NG", "OK", "NG"], 1, [3]),                     # the first NG only: the other stays
    (("NG",), ["OK", "REVIEW"], None, []),                     # NG only: a REVIEW passes
    (("NG", "REVIEW"), ["REVIEW", "OK", "NG"], 1, [3]),        # NG and REVIEW: the REVIEW waits too
    ((), ["NG", "NG"], None, []),                              # holding switched off: NG tags pass like the others
])
def test_held_verdicts_stay_until_acknowledged(hold, added, acknowledged, held_after):
    model = RecentTags(10, hold=hold)
    for i, verdict in enumerate(added, 1):
        model.add(tag(i, verdict))
    assert [t.tag_id for t in model.held] == [i for i, v in enumerate(added, 1) if v in hold]
    model.acknowledge(acknowledged)
    assert [t.tag_id for t in model.held] == held_after


def test_holding_ng_only_again_releases_the_review_tags_and_keeps_the_ng():
    model = RecentTags(10, hold=("NG", "REVIEW"))
    for i, verdict in enumerate(["REVIEW", "NG", "REVIEW"], 1):
        model.add(tag(i, verdict))
    model.set_hold(("NG",))
    assert [t.tag_id for t in model.held] == [2]


@pytest.mark.parametrize("stored, legacy, expected", [
    ("NG+REVIEW", "", "NG+REVIEW"),
    ("off", "1", "off"),
    ("", "", "NG"),          # never set: NG tags are held
    ("", "0", "off"),        # the older NG on/off switch, off: the operator's choice stays
    ("", "1", "NG"),
    ("REVIEW", "", "NG"),    # not a choice: the default, never a silent "off"
])
def test_the_hold_setting_reads_old_and_new_values(stored, legacy, expected):
    from inference.tracking.recent import hold_choice

    assert hold_choice(stored, legacy) == expected


def test_labels_name_the_tag_or_its_trigger():
    assert tag(12, "OK").label == "#12" and tag(1, "NG", trigger_id=4711).label == "T4711"


# -- the per-tag inspector the worker runs ----------------------------------------------------------------
class PlantedPipeline:
    """The detector's stand-in: the boxes each frame was drawn with (keyed by the frame's top-left stamp)."""

    backend = "planted"

    def __init__(self, boxes_by_stamp: dict[int, list]) -> None:
        self.boxes_by_stamp = boxes_by_stamp

    def process(self, image, *, source_name="frame", source_path=None, index=None, decode_ms=0.0):
        from inference.decode import Candidates
        from inference.postprocess import Thresholds
        from inference.telemetry import StageTimings

        none = Candidates(np.zeros((0, 4), np.float32), np.zeros(0, np.float32), np.zeros(0, np.int32))
        return FrameResult(index, source_name, source_path, image.shape[:2],
                           detections_of(self.boxes_by_stamp[int(image[0, 0, 0])]), none, Thresholds(),
                           StageTimings({}, 0.0))

    def close(self) -> None:
        pass


class PlantedInspector:
    def __init__(self, pipeline, reader, recipe) -> None:
        self.pipeline, self.reader, self.recipe = pipeline, reader, recipe
        self.closed = False
        self.precision = "fp32"

    def close(self) -> None:
        self.closed = True


def test_the_per_tag_inspector_gives_each_tag_one_verdict_and_finishes_the_rest_when_told():
    kinds = ["ok", "ng", "blank"]
    frames = list(conveyor(3, kinds=kinds))
    stop_at = len(frames) - 8  # the source ends while the last tag is still in view
    boxes = {frame % 250: [b for b, _, _ in visible] for frame, visible in frames}
    inner = PlantedInspector(PlantedPipeline(boxes), PlantedReader(), RECIPE)
    line = PerTagInspector(inner, LineSettings(look_frames=2))
    given = []
    line.listeners.append(given.append)
    results = [line.inspect(Frame(f, f"replay#{f}", None, frame_with([(b, k) for b, k, _ in visible], f % 250), 0.0))
               for f, visible in frames[:stop_at]]
    from inference.inspection import Inspector
    from inference.tracking.station import TRACKED

    assert {Inspector.verdict_text(r) for r in results} == {TRACKED}  # a frame has no verdict of its own here
    assert all(len(r.detections) == len(v) for r, (_, v) in zip(results, frames))
    before_end = len(given)
    line.finish()
    assert before_end == 2 and len(given) == 3 and line.tags_given == 3
    assert [v.verdict for v in sorted(given, key=lambda v: v.first_frame)] == [Verdict.OK, Verdict.NG, Verdict.REVIEW]
    assert line.finish() == []  # nothing left in view: finishing twice gives nothing twice
    line.close()
    assert inner.closed


def test_a_new_recipe_finishes_the_tags_of_the_old_job_first():
    box = (200, 100, 320, 260)
    inner = PlantedInspector(PlantedPipeline({s: [box] for s in range(5)}), PlantedReader(), RECIPE)
    line = PerTagInspector(inner, LineSettings(look_frames=1))
    given = []
    line.listeners.append(given.append)
    for f in range(3):
        line.inspect(Frame(f, "cam", None, frame_with([(box, "ok")], f), 0.0))
    line.recipe = RECIPE  # the operator loads the next job's recipe
    assert [(v.verdict, v.reads) for v in given] == [(Verdict.OK, 1)]
    line.close()


# -- widgets ----------------------------------------------------------------------------------------------
def test_the_strip_draws_each_tag_in_its_verdicts_colour(qtbot):
    from app.theme import VERDICT_COLORS
    from app.widgets.tag_strip import TagStrip

    model = RecentTags(12)
    strip = TagStrip(model)
    qtbot.addWidget(strip)
    strip.resize(600, 56)
    strip.show()
    for i, verdict in enumerate(["OK", "NG", "REVIEW"], 1):
        model.add(tag(i, verdict))
    image = strip.grab().toImage()
    rects = strip.cell_rects()
    assert len(rects) == 3 and rects[-1].right() <= strip.width()  # newest at the right
    for rect, verdict in zip(rects, ["OK", "NG", "REVIEW"]):
        pixel = image.pixelColor(int(rect.left()) + 4, int(rect.center().y()))
        assert pixel.name() == VERDICT_COLORS[verdict]


def test_an_ng_tag_stays_on_screen_until_acknowledged_and_raises_the_alarm(qtbot):
    from app.widgets.tag_strip import HoldBar

    from PySide6.QtWidgets import QVBoxLayout, QWidget

    model = RecentTags(12)
    screen = QWidget()
    bar = HoldBar(model, alarm=True)
    QVBoxLayout(screen).addWidget(bar)
    qtbot.addWidget(screen)
    screen.show()
    assert not bar.isVisible()
    model.add(tag(7, "NG", "size L ≠ expected M"))
    model.add(tag(8, "OK"))
    assert bar.isVisible() and "#7" in bar.text.text() and "size L" in bar.text.text() and bar.alarms == 1
    model.add(tag(9, "NG", "price"))
    assert bar.alarms == 2 and "+1 more waiting" in bar.text.text() and bar.button.text() == "Acknowledge all 2 (A)"
    with qtbot.waitSignal(bar.acknowledged) as signal:
        bar.button.click()
    assert signal.args == [2] and not bar.isVisible() and model.held == ()


@pytest.mark.parametrize("held, text, background", [
    ([tag(4, "REVIEW", "tag left unread", missed=True)], "REVIEW tag #4: passed unread — check it by hand",
     "#f29900"),
    ([tag(5, "REVIEW", "size unreadable")], "REVIEW tag #5: size unreadable — check it by hand", "#f29900"),
    ([tag(5, "REVIEW", "size unreadable"), tag(6, "NG", "price")],  # an NG waiting makes the bar red
     "REVIEW tag #5: size unreadable — check it by hand  (+1 more waiting)", "#d93025"),
])
def test_a_held_review_tag_stays_on_screen_in_its_colour_and_says_what_to_do(qtbot, held, text, background):
    from PySide6.QtWidgets import QVBoxLayout, QWidget

    from app.widgets.tag_strip import HoldBar

    model = RecentTags(12, hold=("NG", "REVIEW"))
    screen = QWidget()
    bar = HoldBar(model)
    QVBoxLayout(screen).addWidget(bar)
    qtbot.addWidget(screen)
    screen.show()
    for t in held:
        model.add(t)
    assert bar.isVisible() and bar.text.text() == text
    image = bar.grab().toImage()
    assert image.pixelColor(bar.width() // 2, 2).name() == background


def test_the_banner_names_the_last_finished_tag(qtbot):
    from app.widgets.verdict_banner import VerdictBanner

    banner = VerdictBanner()
    qtbot.addWidget(banner)
    banner.show_tag("#12", "NG", ["size L ≠ expected M"])
    assert banner.verdict.text() == "NG #12" and "size L" in banner.reasons.text()


def test_the_tag_text_of_a_tracked_frame_says_tags_are_judged_once_not_that_none_was_read(qtbot):
    from app.widgets.text_panel import TextPanel
    from inference.tracking.station import TRACKED

    panel = TextPanel()
    qtbot.addWidget(panel)
    tracked = PlantedPipeline({0: [(10, 10, 60, 90)]}).process(np.zeros((100, 100, 3), np.uint8)).with_(verdict=TRACKED)
    panel.show_result(tracked, reader_on=True)
    text = panel.view.toPlainText()
    assert "One verdict per tag" in text and "No hangtag read" not in text
    panel.show_result(tracked.with_(verdict=None), reader_on=True)  # per frame, nothing read is said as such
    assert "No hangtag read on this frame" in panel.view.toPlainText()


def test_the_windows_line_menu_switches_to_per_tag_and_shows_finished_tags(qtbot, tmp_path: Path):
    from tests.test_gui_station import make_window

    window = make_window(qtbot, tmp_path)
    link = window.line
    assert not link.strip.isVisible() and not link.shows_tags
    window.banner.show_verdict("NG", ["a frame's reason"])  # what per-frame inspection left on the banner
    link.per_tag_action.trigger()  # a new engine is loaded, wrapped per tag
    qtbot.waitUntil(lambda: link.shows_tags, timeout=20000)
    assert link.strip.isVisible() and window.settings.get("line/per_tag") == "1"
    assert window.banner.verdict.text() == "—" and "first tag" in window.banner.reasons.text()
    link.tag_finished.emit(tag(1, "OK"))
    link.tag_finished.emit(tag(2, "NG", "size L ≠ expected M"))
    qtbot.waitUntil(lambda: len(link.model.tags) == 2, timeout=3000)
    assert window.banner.verdict.text() == "NG #2" and link.hold.isVisible()
    link.ack_action.trigger()
    assert not link.hold.isVisible()


def test_the_belts_speed_set_in_the_line_menu_reaches_the_tracker(qtbot, tmp_path: Path):
    from tests.test_gui_station import make_window

    window = make_window(qtbot, tmp_path)
    link = window.line
    link.per_tag_action.trigger()
    qtbot.waitUntil(lambda: link.shows_tags, timeout=20000)
    assert link.inspector.settings.tracker.belt_px_per_frame is None  # learned from the tags by default
    first = link.inspector
    link.set_belt_speed(30.5)
    qtbot.waitUntil(lambda: link.inspector is not first, timeout=20000)
    assert link.inspector.settings.tracker.belt_px_per_frame == (30.5, 0.0)
    assert window.settings.get("line/belt_px_per_frame") == "30.5"
    assert link.belt_action.text() == "Belt speed (30.5 px/frame, left to right)…"


@pytest.mark.parametrize("px_per_frame, expected", [
    (0.0, "learned from the tags"),
    (30.48, "30.48 px/frame, left to right"),
    (-12.0, "12 px/frame, right to left"),
])
def test_the_belts_speed_is_said_with_its_unit(px_per_frame, expected):
    from app.widgets.belt_speed import belt_speed_text

    assert belt_speed_text(px_per_frame) == expected


@pytest.mark.parametrize("given, learn, typed, ok_enabled, kept", [
    (30.48, False, None, True, 30.48),     # opens on the speed in use, to the hundredth (30.48 is not 30.5)
    (0.0, True, None, True, 0.0),          # 0 opens as "learn it", ticked
    (0.0, False, None, False, None),       # untick without a speed: OK waits (0 would silently mean learn)
    (0.0, False, -25.0, True, -25.0),      # right to left
    (30.0, True, None, True, 0.0),         # ticking "learn" keeps 0 whatever the box says
])
def test_the_belt_speed_dialog_keeps_px_per_frame(qtbot, given, learn, typed, ok_enabled, kept):
    from PySide6.QtWidgets import QDialogButtonBox

    from app.widgets.belt_speed import BeltSpeedDialog

    dialog = BeltSpeedDialog(given)
    qtbot.addWidget(dialog)
    assert dialog.speed.suffix() == " px/frame"
    dialog.learn.setChecked(learn)
    if typed is not None:
        dialog.speed.setValue(typed)
    assert dialog.buttons.button(QDialogButtonBox.StandardButton.Ok).isEnabled() == ok_enabled
    if kept is not None:
        assert dialog.px_per_frame() == kept


def test_an_operator_sees_only_acknowledge_in_the_line_menu(qtbot, tmp_path: Path):
    from tests.test_gui_station import make_window

    window = make_window(qtbot, tmp_path)
    link = window.line
    window.modes.set_mode("operator")
    link.menu.aboutToShow.emit()
    assert [a.text() for a in link.menu.actions() if a.isVisible()] == ["Acknowledge held tags",
                                                                        "Clear the strip of last tags"]
    assert not link.ack_action.isEnabled()  # no NG tag held: nothing to acknowledge
    link.model.add(tag(1, "NG", "size L ≠ expected M"))
    link.menu.aboutToShow.emit()
    assert link.ack_action.isEnabled()
    window.modes.set_mode("engineer")
    link.menu.aboutToShow.emit()
    assert link.per_tag_action.isVisible() and link.belt_action.isVisible()
