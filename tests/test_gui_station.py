"""The operator's screen (issue 16) and the window's bounded memory (issue 15 item 4), driven through the
real window offscreen: the blob detector names its classes hangtag and barcode, so a recipe that counts
hangtags judges its frames."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QSettings, Qt  # noqa: E402
from PySide6.QtGui import QKeySequence  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.settings import StationSettings  # noqa: E402
from app.theme import VERDICT_COLORS  # noqa: E402
from inference.records import Journal  # noqa: E402
from tests.factories import blob_detector, scene_with_squares, write_image  # noqa: E402
from tests.test_gui import make_folder  # noqa: E402

GOOD_RECIPE = '[recipe]\nname = "{name}"\n[counts]\nhangtag = {{ min = 1, max = 999 }}\n'
BAD_RECIPE = '[recipe]\nname = "broken"\n[counts]\nbright = 1\n'  # line 4: a class the recipe does not know


def make_settings(tmp_path: Path) -> StationSettings:
    return StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))


def make_window(qtbot, tmp_path: Path, folder: Path | None = None, *, settings: StationSettings | None = None,
                **kwargs) -> MainWindow:
    model = tmp_path / "tags.onnx"
    if not model.is_file():
        blob_detector(model, size=64, names={0: "hangtag", 1: "barcode"})
    window = MainWindow(model=model, source=str(folder) if folder else None, backend="onnxruntime-cpu",
                        settings=settings or make_settings(tmp_path), read=False,
                        journal_path=tmp_path / "journal.sqlite3", testing=True, **kwargs)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None, timeout=15000)
    return window


def write_recipe(tmp_path: Path, name: str = "blobs", text: str = GOOD_RECIPE) -> Path:
    path = tmp_path / "recipes" / f"{name[:20]}.toml"
    path.parent.mkdir(exist_ok=True)
    path.write_text(text.format(name=name), encoding="utf-8")
    return path


def run_to_end(qtbot, window: MainWindow, expected: int) -> None:
    window.start()
    qtbot.waitUntil(lambda: window.results.total >= expected and not window.source_bar.running, timeout=30000)
    qtbot.waitUntil(lambda: window.current is window.results.results[-1], timeout=3000)
    qtbot.waitUntil(lambda: window.results.rowCount() == len(window.results.results), timeout=3000)


# -- 1. state that is always true -------------------------------------------------------------------------
def test_a_failed_source_clears_the_verdict_disables_start_and_nothing_is_journaled_under_it(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 2))
    run_to_end(qtbot, window, 2)
    assert window.banner.verdict.text() == "no recipe"
    missing = str(tmp_path / "camera-7-is-not-here")
    window.open_source(missing)
    qtbot.waitUntil(lambda: window.state.state.source_status == "failed", timeout=5000)
    assert window.banner.verdict.text() == "NO SOURCE"
    assert window.header.run_label.text() == "NO SOURCE"
    assert not window.source_bar.start_button.isEnabled() and not window.source_bar.step_button.isEnabled()
    assert window.errors_panel.isVisible() and missing in window.errors_panel.title.text()
    assert window.current is None and window.view.message_is_error
    assert window.banner.reasons.text().count(missing) == 1  # "PATH: source not found: PATH" said it twice
    assert window.text_panel._result is None  # the last frame's reads do not stay beside NO SOURCE
    assert window.source_bar.spec() == missing  # the bar shows the source that failed, not the previous one
    window.start()  # Space or a stray click: must not re-inspect the previous folder
    window.step()
    qtbot.wait(400)
    assert window.results.total == 2
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        session = journal.session(journal.last_session_id())
    assert session.source != missing
    other = tmp_path / "other"
    other.mkdir()
    window.open_source(str(make_folder(other, 1)))
    qtbot.waitUntil(lambda: window.source_bar.start_button.isEnabled(), timeout=5000)
    assert not window.errors_panel.isVisible()  # a source that opens clears the source error
    assert window.banner.verdict.text() == "—" and not window.view.message_is_error
    assert window.crops.labels[0].text() == "no frame yet"  # not "no source" under a source that is open


def test_recipe_job_and_lot_survive_a_restart_and_show_in_the_header(qtbot, tmp_path):
    recipe = write_recipe(tmp_path, "Dress 22HX")
    first = make_window(qtbot, tmp_path)
    first.load_recipe(recipe)
    first.set_job("K2291", "LOT-7")
    first.close()
    second = make_window(qtbot, tmp_path, settings=make_settings(tmp_path))
    assert second.recipe is not None and second.recipe_path == recipe
    header = {key: label.text() for key, label in second.header.fields.items()}
    assert header["recipe"] == "Recipe: Dress 22HX"
    assert header["job"] == "Job: K2291" and header["lot"] == "Lot: LOT-7"


def test_set_job_and_lot_starts_from_the_ones_in_use(qtbot, tmp_path):
    """File → Set job and lot… opened empty: a new lot of the same job meant typing the job again, and OK on the
    empty field cleared it. The real dialogs, answered as an operator would: keep the job, type the next lot."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QInputDialog

    window = make_window(qtbot, tmp_path)
    window.set_job("K2291 女士连衣裙", "LOT-7")
    seen = []

    def answer(new_lot: str | None) -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(20, lambda: answer(new_lot))
            return
        seen.append(dialog.textValue())
        if new_lot is not None:
            dialog.setTextValue(new_lot)
        else:
            QTimer.singleShot(50, lambda: answer("LOT-8"))  # the lot's dialog comes next
        dialog.accept()

    QTimer.singleShot(50, lambda: answer(None))
    window.records.ask_job()
    assert seen == ["K2291 女士连衣裙", "LOT-7"]
    assert window.job_lot == ("K2291 女士连衣裙", "LOT-8")


def test_the_operator_picks_only_from_recipes_an_engineer_approved(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QInputDialog, QMessageBox

    approved, other = write_recipe(tmp_path, "approved one"), write_recipe(tmp_path, "not approved")
    window = make_window(qtbot, tmp_path)
    told = []
    monkeypatch.setattr(QMessageBox, "information", lambda *a, **k: told.append(a[2]))
    window.settings.set_pin("2468")
    window.modes.set_mode("operator")
    assert window.source_bar.recipe_button.isEnabled()  # after a restart the operator can fix "no recipe"
    window.pick_recipe()
    assert window.recipe is None and "No recipe is approved" in told[0]
    window.modes.unlock("2468")
    window.load_recipe(approved)
    window.modes.approve_recipe()
    window.load_recipe(other)
    window.modes.set_mode("operator")
    offered = []

    def get_item(parent, title, label, items, current, editable):
        offered.extend(items)
        return items[0], True

    monkeypatch.setattr(QInputDialog, "getItem", get_item)
    window.pick_recipe()
    assert len(offered) == 1 and "approved one" in offered[0] and "not approved" not in offered[0]
    assert window.recipe_path == approved and window.state.state.recipe == "approved one"


def test_loading_a_recipe_rejudges_the_frame_on_screen_and_the_what_if_starts_from_it(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 3))
    run_to_end(qtbot, window, 3)
    assert window.banner.verdict.text() == "no recipe"
    window.load_recipe(write_recipe(tmp_path))
    assert window.banner.verdict.text() == "OK" and not window.banner.preview
    window._update_whatif()
    assert window.tuning.whatif.text().startswith("What-if: 0 of the last 3 ")  # the recipe alone flips nothing


def test_a_tuning_preview_is_marked_as_a_preview(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    window.load_recipe(write_recipe(tmp_path))
    run_to_end(qtbot, window, 1)
    assert not window.banner.preview and window.banner.verdict.text() == "OK"
    enabled, _ = window.tuning._class_rows["hangtag"]
    enabled.setChecked(False)  # what if hangtags were not detected at all?
    assert window.banner.preview and window.banner.preview_label.isVisibleTo(window.banner)
    assert "PREVIEW at these thresholds" in window.banner.preview_label.text()
    # the recipe wants one hangtag and none is boxed now, but the tag's barcode still is: a tag the detector
    # missed, REVIEW (not "no hangtag" NG, which needs nothing tag-like in view)
    assert window.banner.verdict.text() == "REVIEW"
    enabled.setChecked(True)  # back to what the frame was recorded with
    assert not window.banner.preview and window.banner.verdict.text() == "OK"


def test_a_bad_recipe_shows_its_full_message_in_the_error_panel(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    bad = write_recipe(tmp_path, "broken", BAD_RECIPE)
    window.load_recipe(bad)
    text = window.errors_panel.text.toPlainText()
    assert window.errors_panel.isVisible() and "Recipe not loaded" in window.errors_panel.title.text()
    assert "line 4" in text and "expected:" in text and "found:" in text and "bright" in text
    height = window.errors_panel.height()
    window.errors_panel.show_error("recipe", "long", "x\n" * 200)
    assert window.errors_panel.height() == height  # fixed size: a long message scrolls inside
    window.load_recipe(write_recipe(tmp_path))
    assert not window.errors_panel.isVisible()


def test_a_recipe_that_does_not_load_says_which_recipe_judges_and_never_widens_the_window(qtbot, tmp_path):
    """Seen at 1280x720: the header kept the old recipe's name and nothing said it still judged; and the panel's
    title, a plain label, asked for 1689 px when the recipe lay on a long share path."""
    window = make_window(qtbot, tmp_path)
    window.resize(1280, 720)
    title = window.errors_panel.title
    window.load_recipe(tmp_path / "no-recipe-yet.toml")
    assert "no recipe in use: frames get no verdict" in title.text()
    window.load_recipe(write_recipe(tmp_path, "Dress 22HX"))
    deep = tmp_path.joinpath(*["line-3 shared recipes folder"] * 12) / "job.toml"
    window.load_recipe(deep)
    assert "the recipe in use stays: Dress 22HX" in title.text() and window.state.state.recipe == "Dress 22HX"
    qtbot.wait(50)
    assert window.width() <= 1280 and window.minimumSizeHint().width() <= 1280
    assert title.toolTip() == title.text() != title.elided()  # elided on screen, whole in the tooltip


def test_a_bad_recipe_and_a_missing_source_are_both_said_until_each_is_put_right(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window.load_recipe(write_recipe(tmp_path, "broken", BAD_RECIPE))
    missing = str(tmp_path / "no-such-folder")
    window.open_source(missing)
    qtbot.waitUntil(lambda: window.errors_panel.kind == "source", timeout=5000)
    panel = window.errors_panel
    assert missing in panel.title.text() and "(+1 more below)" in panel.title.text()
    assert "Recipe not loaded" in panel.text.toPlainText() and "line 4" in panel.text.toPlainText()
    window.load_recipe(write_recipe(tmp_path))  # the recipe put right: only the source is left to say
    assert panel.isVisible() and "more below" not in panel.title.text()
    assert "Recipe not loaded" not in panel.text.toPlainText()


# -- 2. layout ---------------------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["engineer", "operator"])
def test_both_modes_fit_1280x720_and_a_long_recipe_name_does_not_widen_the_window(qtbot, tmp_path, mode):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    window.resize(1280, 720)
    window.modes.set_mode(mode)
    window.load_recipe(write_recipe(tmp_path, "ZEPHYRA 女士连衣裙 22HX-1489 白色 175/92A(XL) " * 8))
    window.set_job("K" * 120, "L" * 120)
    qtbot.wait(50)
    assert window.minimumSizeHint().width() <= 1280 and window.minimumSizeHint().height() <= 720
    assert window.width() <= 1280 and window.height() <= 720
    assert window.source_bar.path.width() >= 150 or mode == "operator"  # the path field keeps its room


def test_operator_mode_gives_the_image_most_of_the_screen_and_no_maintenance_actions(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    window.resize(1280, 720)
    window.modes.set_mode("operator")
    qtbot.wait(50)
    view = window.view.size()
    assert view.width() * view.height() >= 0.35 * 1280 * 720
    assert view.height() > window.banner.height() * 2
    file_actions = [a.text() for a in window.file_menu.actions() if a.isVisible()]
    assert not any(t.startswith("Prune") for t in file_actions)
    assert not window.modes.approve_action.isVisible() and not window.modes.pin_action.isVisible()
    window.modes.set_mode("engineer")
    assert any(a.text().startswith("Prune") and a.isVisible() for a in window.file_menu.actions())


# -- 3. readable overlays ----------------------------------------------------------------------------------
def test_box_labels_keep_their_screen_size_and_do_not_overlap(qtbot):
    from PySide6.QtCore import QSize

    from app.widgets.image_view import LABEL_PX, BoxesItem
    from inference.detections import Detections

    boxes = np.array([[100 + 8 * i, 100 + 6 * i, 400 + 8 * i, 300] for i in range(6)], np.float32)
    detections = Detections(boxes, np.linspace(0.9, 0.5, 6).astype(np.float32), np.zeros(6, np.int32),
                            ("hangtag", "barcode"))
    item = BoxesItem()
    item.set_detections(detections, QSize(4000, 3000))
    scale = 0.15  # a 4000-px frame fitted into a 600-px view
    tags = item.place_labels(scale)
    assert len(tags) == 6
    assert all(tag.height() * scale >= LABEL_PX for tag in tags)  # ≥ 13 screen pixels tall
    assert not any(a.intersects(b) for i, a in enumerate(tags) for b in tags[i + 1:])


def test_a_tag_box_the_reader_dropped_is_drawn_as_not_a_tag(qtbot):
    """The image and the Tag text say the same: a hangtag box with nothing tag-like in it (a coin) is
    labelled 'not a tag' in grey, not 'hangtag 0.95' in the tag colour."""
    from PySide6.QtCore import QSize

    from app.main_window import _not_tags
    from app.widgets.image_view import NOT_A_TAG, BoxesItem
    from inference.detections import Detections
    from inference.reading import TagReading

    boxes = np.array([[10, 10, 200, 300], [300, 40, 380, 120]], np.float32)
    detections = Detections(boxes, np.array([0.9, 0.95], np.float32), np.zeros(2, np.int32), ("hangtag", "barcode"))
    coin = TagReading(1, (300.0, 40.0, 380.0, 120.0), rejected="no text and no barcode in the box: not a hangtag")
    tag = TagReading(0, (10.0, 10.0, 200.0, 300.0))

    class Shown:
        readings = (tag, coin)

    item = BoxesItem()
    item.set_detections(detections, QSize(640, 480), _not_tags(Shown()))
    labels = {text: (color.name(), dropped) for _rect, color, text, dropped in item._rows}
    assert labels["hangtag 0.90"][1] is False
    assert labels["not a tag (hangtag 0.95)"] == (NOT_A_TAG, True)


def test_plot_legends_sit_beside_the_plots_and_name_only_the_backends_stages(qtbot):
    from app.widgets.plots_panel import PlotsPanel

    panel = PlotsPanel()
    qtbot.addWidget(panel)
    cpu = panel.legend_labels("lat")
    assert "h2d" not in cpu and "d2h" not in cpu and {"preprocess", "infer", "postprocess"} <= set(cpu)
    assert "VRAM (no GPU here)" in panel.legend_labels("mem")  # no curve on the CPU: the legend says why
    panel.set_stages("onnxruntime-cuda")
    assert {"h2d", "d2h"} <= set(panel.legend_labels("lat"))
    assert panel.legend_labels("mem") == ["host RSS", "VRAM (this process)"]
    for row, key in enumerate(("lat", "mem", "share")):
        assert panel.graphs.ci.getItem(row, 1) is panel.legends[key]  # a column of its own, not over the data
    assert any("30 %" in label for label in panel.legend_labels("share"))


def test_in_a_1280_px_windows_dock_the_plots_are_not_crowded_out_by_their_legends(qtbot):
    """The right-hand column of a 1280x720 window is ~440 px: the share legend's sentence set the legends' column
    width and left each plot 120 of 452 px."""
    from app.widgets.plots_panel import PlotsPanel

    panel = PlotsPanel()
    qtbot.addWidget(panel)
    panel.resize(440, 400)
    panel.show()
    qtbot.waitExposed(panel)
    qtbot.wait(50)
    for plot in (panel.lat_plot, panel.mem_plot, panel.share_plot):
        # 0.35: the left axes keep room for 5-digit ms from the start (with data in, they took it anyway)
        assert plot.getViewBox().sceneBoundingRect().width() >= 0.35 * panel.graphs.width()
    assert "CPU-side work" in panel.graphs.toolTip()  # what the 30 % line means is still said


def test_the_latency_and_memory_title_shows_its_ampersand(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    action = window.docks["plots"].toggleViewAction()
    assert action.text() == "Latency && memory"
    assert QKeySequence.mnemonic(action.text()).isEmpty()  # "&&" is a literal "&", not Alt+space


@pytest.mark.parametrize("alarm", ["memory drift: measuring after 100 warm-up frames (0 of 50 needed)",
                                   "memory drift: warming up (frame 16 of 100), then measured over 50 frames"])
def test_the_plots_time_axis_is_never_cut_off_at_1280x720(qtbot, tmp_path, alarm):
    """With a two-line summary (its second line was not in the panel's minimum height) the dock was 19 px too
    short and the tab bar below it hid the 'frames ago' axis title. The warm-up note wraps too, in a 1280-px
    window's column: its second line hid half the axis title."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QApplication

    from app.theme import apply_theme, register_fonts

    register_fonts()  # the station's own font and theme, as hangtag-station starts: their metrics set the heights
    apply_theme(QApplication.instance(), False)
    window = make_window(qtbot, tmp_path)
    window.resize(1280, 720)
    window.layout_for_mode(False)
    window.docks["plots"].raise_()
    window.plots.summary.setText("total p50 5864.1 • p95 12624.7 • p99 17892.4 ms  |  0.2 fps  |  takt violations "
                                 "24 of 24  |  host-side share (p50) 10%")
    window.plots.alarm.setText(alarm)
    qtbot.wait(100)
    panel = window.plots
    axis = panel.share_plot.getAxis("bottom")
    title = axis.label.mapRectToScene(axis.label.boundingRect())
    title_bottom = panel.graphs.viewport().mapToGlobal(panel.graphs.mapFromScene(title.bottomLeft())).y()
    dock = window.docks["plots"]
    assert title_bottom <= dock.mapToGlobal(QPoint(0, dock.height())).y()  # 404 against 393 before


def test_space_stops_a_run_while_a_spin_box_has_the_focus(qtbot, tmp_path):
    from PySide6.QtTest import QTest

    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 40))
    window.activateWindow()
    window.worker.set_fps_cap(10)
    window.start()
    qtbot.waitUntil(lambda: window.results.total >= 1, timeout=10000)
    spin = window.source_bar.fps_cap
    spin.setFocus()
    QTest.keyClick(spin, Qt.Key.Key_Space)
    qtbot.waitUntil(lambda: not window.source_bar.running, timeout=3000)
    assert window.results.total < 40


def test_the_dropped_counter_starts_again_with_each_source(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window._on_drops(17)
    window._update_status()
    assert "dropped 17" in window.status_labels["frames"].text()
    window.open_source(str(make_folder(tmp_path, 1)))
    qtbot.waitUntil(lambda: window.state.state.source_status == "open", timeout=5000)
    window._update_status()
    assert window.drops == 0 and "dropped" not in window.status_labels["frames"].text()


def test_the_recipe_dialog_opens_in_the_recipes_folder(qtbot, tmp_path, monkeypatch):
    from PySide6.QtWidgets import QFileDialog

    from inference.resources import resource_path

    window = make_window(qtbot, tmp_path)
    opened = []
    monkeypatch.setattr(QFileDialog, "getOpenFileName", lambda parent, title, folder, filt: (opened.append(folder), ("", ""))[1])
    window.pick_recipe()
    assert Path(opened[0]) == resource_path("recipes")
    window.load_recipe(write_recipe(tmp_path))
    window.pick_recipe()
    assert Path(opened[1]) == tmp_path / "recipes"  # then where the last recipe came from


@pytest.mark.parametrize("name, index, expected", [
    ("camera-/tmp/xyz/line.avi", 57, "camera line.avi #57"), ("camera-0", 3, "camera 0 #3"), ("tag_01.png", 1, "tag_01.png"),
    ("camera-/tmp/xyz/line.avi#57", 57, "camera line.avi #57"), ("camera-0#3", 3, "camera 0 #3"),  # as sources name them
])
def test_result_rows_name_their_source_readably(name, index, expected):
    from app.widgets.results_table import readable_name
    from inference.pipeline import error_result
    from inference.postprocess import Thresholds

    assert readable_name(error_result(index, name, None, "x", Thresholds())) == expected


def test_the_tags_column_counts_a_tag_boxed_in_two_parts_once_as_the_verdict_does():
    from app.widgets.results_table import tags_judged
    from inference.detections import Detections
    from inference.pipeline import error_result
    from inference.postprocess import Thresholds
    from inference.reading.verdict import FrameVerdict, Verdict

    three = Detections(np.array([[0, 0, 300, 600], [296, 4, 590, 604], [700, 0, 900, 400]], np.float32),
                       np.full(3, 0.9), np.zeros(3, np.int64), ("hangtag", "barcode"))
    frame = error_result(0, "tag.png", None, "x", Thresholds()).with_(error=None, detections=three)
    assert tags_judged(frame.with_(verdict=FrameVerdict(Verdict.NG, ("2 hangtags, expected 1",)))) == 3
    assert tags_judged(frame.with_(verdict=FrameVerdict(Verdict.NG, (), parts=((0, 1),)))) == 2
    assert tags_judged(frame) == 3  # no recipe, no verdict: the boxes


def test_an_error_frame_is_a_red_error_at_a_readable_size_and_the_crop_strip_says_why(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 2, corrupt_at=1))
    run_to_end(qtbot, window, 2)
    window.show_result_at(0)
    window.view.scale(0.05, 0.05)  # the previous frame was zoomed far out
    window.show_result_at(1)
    assert window.banner.verdict.text() == "ERROR"
    assert VERDICT_COLORS["ERROR"] != VERDICT_COLORS["no recipe"]
    assert VERDICT_COLORS["ERROR"] in window.banner.styleSheet()
    assert window.view.message_is_error and window.view.placeholder.isVisible()
    assert window.view.transform().m11() == 1.0  # drawn at its own size, not the last frame's zoom
    assert window.view.placeholder.font().pixelSize() < 0 or window.view.placeholder.font().pointSizeF() >= 9
    assert "could not be inspected" in window.crops.labels[0].text()
    assert "no hangtag" not in window.crops.labels[0].text()
    # what to do is on the image itself: operator mode has no Tag text dock to hold the error's hint
    assert "hint: re-export or re-capture the image" in window.view.placeholder.text()
    name = window.results.results[1].source_name  # named once: it said "x.jpg: could not be inspected" over
    assert window.view.placeholder.text().count(name) == 1  # "x.jpg could not be decoded"
    assert not any(e.startswith(f"{name}: {name}") for e in window.errors)  # nor "x.jpg: x.jpg could not…"


# -- issue 15 item 4: bounded memory ------------------------------------------------------------------------
def test_the_window_keeps_a_bounded_ring_of_results_and_the_journal_keeps_everything(qtbot, tmp_path):
    folder = tmp_path / "many"
    folder.mkdir()
    for i in range(45):
        write_image(folder / f"tag_{i:03d}.png", scene_with_squares(64, 64, [(8 + i % 30, 16, 16)]))
    window = make_window(qtbot, tmp_path, folder)
    window.results.capacity, window.results.cache_last = 20, 5
    run_to_end(qtbot, window, 45)
    results = window.results
    assert results.total == 45 and len(results.results) == 20 and results.rowCount() == 20
    assert results.dropped == 25
    cached = [len(r.candidates) > 0 for r in results.results]
    assert cached == [False] * 15 + [True] * 5  # detector outputs only for the last 5 frames
    assert all(len(r.detections) > 0 for r in results.results)  # older rows keep their final boxes
    assert results.data(results.index(0, 1)) == "tag_025.png"
    window.tuning.confidence.slider.setValue(90)
    window.show_result_at(0)  # an old row shows as recorded: no re-filtering from outputs it no longer has
    assert not window.banner.preview and window.view.box_count == len(results.results[0].detections)
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        assert len(journal.frames(journal.last_session_id())) == 45  # everything older is in the journal


def test_the_station_model_tells_each_view_what_changed():
    from app.station_state import StationModel

    model = StationModel()
    seen = []
    model.connect(lambda state, changed: seen.append(changed))
    assert "source" in seen[0]  # a new view starts in step with every field
    model.update(source="/line", source_status="open")
    assert seen[-1] == {"source", "source_status"}
    assert not model.state.can_start  # no engine yet
    model.update(engine="CPU FP32")
    assert model.state.can_start
    count = len(seen)
    model.update(engine="CPU FP32")
    assert len(seen) == count  # nothing changed, nobody is told
    with pytest.raises(TypeError, match="no field"):
        model.update(colour="red")


@pytest.mark.parametrize(("deleted", "freed", "used", "protected", "expected"), [
    ((), 0, 3 * 2**20, 0, "Archive: nothing deleted; 3.0 MB of the 20.0 GB cap in use"),
    (("a.jpg", "a.json"), 2**20, 19 * 2**30, 0,
     "Archive pruned: 2 files deleted, 1.0 MB freed; 19.0 GB of the 20.0 GB cap in use"),
    ((), 0, 21 * 2**30, 2**30, "Archive: nothing deleted; 21.0 GB of the 20.0 GB cap in use — still over the cap: "
                               "1.0 GB are images of sessions never exported"),
])
def test_pruning_the_archive_says_what_it_did_in_words(deleted, freed, used, protected, expected):
    """The status bar showed the result's repr: 'Archive: PruneResult(deleted_files=(), freed_bytes=0, …)'."""
    from app.records_link import prune_text
    from inference.records.archive import PruneResult

    assert prune_text(PruneResult(deleted, freed, used, 20 * 2**30, protected, needs_confirmation=False)) == expected


def test_prune_image_archive_in_the_window_says_it_in_words(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window.records.prune()
    message = window.statusBar().currentMessage()
    assert message.startswith("Archive: nothing deleted; ") and "PruneResult" not in message


def test_after_an_export_the_window_offers_to_open_the_report(qtbot, tmp_path, monkeypatch):
    from PySide6.QtGui import QDesktopServices

    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 2))
    run_to_end(qtbot, window, 2)
    assert not window.report_opener.button.isVisibleTo(window)
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        session = journal.last_session_id()
    out = tmp_path / "reports"
    out.mkdir()
    window.records.export(session, str(out), pdf=True)
    qtbot.waitUntil(lambda: window.report_opener.last_report is not None, timeout=60000)
    assert window.report_opener.button.isVisibleTo(window)
    assert window.report_opener.last_report.name == "report.pdf" and window.report_opener.last_report.is_file()
    bar = window.statusBar()
    message = bar.currentMessage()
    assert message.startswith("Report written: report_") and str(out) not in message  # the folder's name, not its path
    # beside the message, not drawn over its start (a normal status-bar widget sat on "Report written to …")
    assert window.report_opener.button.x() >= bar.fontMetrics().horizontalAdvance(message)
    opened = []
    monkeypatch.setattr(QDesktopServices, "openUrl", lambda url: opened.append(url.toLocalFile()) or True)
    window.report_opener.button.click()
    assert opened == [str(window.report_opener.last_report)]


@pytest.mark.parametrize("height", [400, 900])
def test_after_one_step_the_plots_show_the_frame_and_label_each_memory_tick_once(qtbot, height):
    """One Step: the latency and memory curves of one frame were lines of one point, drawn as nothing, and the
    memory axis wrote 346 348 350 352 in a 50-px plot, each label on the next."""
    from app.widgets.plots_panel import STAGES, PlotsPanel

    panel = PlotsPanel()
    qtbot.addWidget(panel)
    panel.resize(440, height)
    panel.show()
    qtbot.waitExposed(panel)
    panel.frames = 1
    panel.latency.push([5.0] * len(STAGES) + [1])
    panel.memory.push([346.3, np.nan, 1])
    panel.share.push([0.2, 1])
    panel._draw()
    qtbot.wait(50)
    shown = [panel.stage_curves[s] for s in panel.shown_stages] + [panel.rss_curve, panel.share_curve]
    assert all(curve.opts["symbol"] == "o" for curve in shown)  # a dot where the one frame is
    assert panel.share_plot.getViewBox().viewRange()[0][1] >= 0.5  # and the dot is inside the plot, not on its edge
    ticks = panel.mem_plot.getAxis("left")._tickLevels[0]
    labels = [label for _, label in ticks]
    low, high = panel.mem_plot.getViewBox().viewRange()[1]
    assert 1 <= len(labels) == len(set(labels)) and all(low <= value <= high for value, _ in ticks)
    box_height = panel.mem_plot.getViewBox().height()
    assert len(labels) <= max(1, box_height // 28), (labels, box_height)
    assert all(float(label) == pytest.approx(value) for value, label in ticks)
    panel.frames = 2  # a second frame: a line again, no dots on it
    panel.latency.push([5.0] * len(STAGES) + [2])
    panel.memory.push([346.4, np.nan, 2])
    panel.share.push([0.2, 2])
    panel._draw()
    assert all(curve.opts["symbol"] is None for curve in shown)


def test_before_the_first_frame_the_plots_write_no_fractions_of_a_ms_or_a_mib(qtbot):
    """No engine or no source yet: the plots wrote pyqtgraph's 0.2 0.4 0.6 0.8 as ms and MiB, the memory plot's
    four labels on top of each other, and each left axis sized itself to its labels, so the three plots' left
    edges stood apart over their one time axis."""
    from app.widgets.plots_panel import STAGES, PlotsPanel

    panel = PlotsPanel()
    qtbot.addWidget(panel)
    panel.resize(440, 400)
    panel.show()
    qtbot.waitExposed(panel)
    assert panel.mem_plot.getAxis("left")._tickLevels == [[], []]
    low, high = panel.lat_plot.getViewBox().viewRange()[1]
    assert low == 0 and high >= panel.takt.value()  # the takt line in view, ticks in whole ms
    plots = (panel.lat_plot, panel.mem_plot, panel.share_plot)
    assert len({round(p.getViewBox().sceneBoundingRect().left()) for p in plots}) == 1  # one time axis under all
    panel.frames = 1
    panel.latency.push([4000.0] * len(STAGES) + [1])
    panel.memory.push([346.3, np.nan, 1])
    panel.share.push([0.2, 1])
    panel._draw()
    qtbot.wait(50)
    assert len({round(p.getViewBox().sceneBoundingRect().left()) for p in plots}) == 1  # 5-digit ms labels too


def test_memory_growth_during_warm_up_is_not_called_drift(qtbot):
    from app.widgets.plots_panel import PlotsPanel

    panel = PlotsPanel()
    qtbot.addWidget(panel)
    for frame in range(1, 201):  # caches fill over the first 100 frames, then memory is flat
        panel.memory.push([200.0 + 2.0 * min(frame, 100), np.nan, frame])
    rss_drift, vram_drift = panel.memory_drift()
    assert abs(rss_drift) < 0.5 and vram_drift is None
    for frame in range(201, 401):  # a real leak after warm-up is still seen
        panel.memory.push([400.0 + 0.05 * (frame - 200), np.nan, frame])
    assert panel.memory_drift()[0] > 5.0


def test_an_engine_that_cannot_load_shows_as_an_error_not_as_loading(qtbot, tmp_path):
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not an onnx model")
    window = MainWindow(model=broken, backend="onnxruntime-cpu", settings=make_settings(tmp_path), read=False,
                        journal_path=tmp_path / "journal.sqlite3", testing=True, source=str(make_folder(tmp_path, 1)))
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.errors_panel.kind == "engine", timeout=30000)
    assert window.header.run_label.text() == "ERROR"
    assert "none" in window.header.fields["engine"].text() and "loading" not in window.header.fields["engine"].text()
    assert not window.source_bar.start_button.isEnabled()
    text = window.errors_panel.text.toPlainText()
    assert "broken.onnx" in text and "expected: a valid ONNX file" in text and "hint:" in text
    assert window.errors_panel.title.text().endswith("No engine loaded: nothing can be inspected")  # nothing 'changed'


def test_wide_tag_crops_and_a_long_file_name_never_widen_the_window(qtbot, tmp_path):
    """Four 6:1 tags' crops asked for 2322 px, and an unreadable file's long name (machine-vision software names
    files by time, trigger and settings) in the banner for 1710 px: the window grew past a 1280-px screen."""
    from inference.detections import Detections

    window = make_window(qtbot, tmp_path)
    window.resize(1280, 720)
    image = np.zeros((1000, 3000, 3), np.uint8)
    wide = Detections(xyxy=np.array([[0, 0, 600, 100]] * 4, np.float32), confidence=np.ones(4, np.float32),
                      class_id=np.zeros(4, np.int64), class_names=("hangtag", "barcode"))
    window.crops.show_crops(image, wide)
    name = "line3_cam2_20261204T050102.123456Z_trigger000123_exposure4000us_gain2.0_BayerRG8_K2291-LOT-2026-12-04" * 2
    window.banner.show_verdict("ERROR", [f"{name}.jpg could not be decoded"])
    qtbot.wait(50)
    assert window.crops.shown == 4
    assert window.minimumSizeHint().width() <= 1280 and window.width() <= 1280
    window.crops.show_crops(None, None, note=f"no image: {name}.jpg could not be inspected")
    qtbot.wait(50)
    assert window.minimumSizeHint().width() <= 1280 and window.width() <= 1280


def test_a_theme_change_reaches_the_widgets_with_style_sheets_of_their_own(qtbot, tmp_path):
    """Seen on Xvfb: on the dark theme the header's recipe stayed black on dark grey (unreadable), and back on the
    light one the error panel's text stayed dark. The window is built before the theme is applied at start too."""
    from PySide6.QtGui import QPalette

    window = make_window(qtbot, tmp_path)
    window.load_recipe(write_recipe(tmp_path, "Dress 22HX"))
    recipe, errors = window.header.fields["recipe"], window.errors_panel.text
    text, base = QPalette.ColorRole.WindowText, QPalette.ColorRole.Base
    try:
        window.set_dark(True)
        qtbot.wait(50)  # the application's palette reaches the other widgets by events
        assert recipe.palette().color(text) == window.header.fields["job"].palette().color(text)
        assert recipe.palette().color(text).lightness() > 128 and errors.palette().color(base).lightness() < 128
        window.set_dark(False)
        qtbot.wait(50)
        assert recipe.palette().color(text).lightness() < 128 and errors.palette().color(base).lightness() > 128
    finally:
        window.set_dark(False)


def test_the_header_shows_the_whole_lot_number_at_1280x720(qtbot, tmp_path):
    """Engineer mode leaves the header the ~810 px left of the docks: 'Lot: LOT-2026-12-04' was drawn 'Lot: LOT-2026…',
    which does not say which lot; the recipe and source give way instead."""
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    window.resize(1280, 720)
    window.set_job("K2291 女士连衣裙", "LOT-2026-12-04")
    window.state.update(recipe="ZEPHYRA 女士连衣裙 22HX-1489 白色 175/92A(XL)")
    qtbot.wait(50)
    lot = window.header.fields["lot"]
    assert lot.elided() == lot.text() == "Lot: LOT-2026-12-04"
    assert window.header.fields["recipe"].elided().startswith("Recipe: ZEPHYRA")


def test_the_header_never_cuts_an_unset_job_or_lot_beside_an_engine_error(qtbot, tmp_path):
    """At 1280x720 in engineer mode, 'Engine: none — see the error' left 'Job: —' drawn as 'Job…'."""
    broken = tmp_path / "broken.onnx"
    broken.write_bytes(b"not an onnx model")
    window = MainWindow(model=broken, backend="onnxruntime-cpu", settings=make_settings(tmp_path), read=False,
                        journal_path=tmp_path / "journal.sqlite3", testing=True, source=str(make_folder(tmp_path, 1)))
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    window.state.update(recipe="Example: MUJIAN men's casual trousers V2185-00, 米白, 170/88A")
    qtbot.waitUntil(lambda: window.header.run_label.text() == "ERROR", timeout=30000)
    qtbot.wait(50)
    for key in ("job", "lot"):
        label = window.header.fields[key]
        assert label.elided() == label.text() == f"{key.capitalize()}: —"
    assert window.header.fields["recipe"].elided() != window.header.fields["recipe"].text()  # the long one gives way


def wcag_contrast(foreground, background) -> float:
    """WCAG 2 contrast ratio; a translucent foreground is first laid over the background, as Qt paints it."""
    alpha = foreground.alphaF()

    def luminance(channels) -> float:
        linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
        return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]

    back = (background.redF(), background.greenF(), background.blueF())
    fore = tuple(alpha * f + (1 - alpha) * b for f, b in zip((foreground.redF(), foreground.greenF(),
                                                              foreground.blueF()), back))
    high, low = sorted((luminance(fore), luminance(back)), reverse=True)
    return (high + 0.05) / (low + 0.05)


@pytest.mark.parametrize("dark", [True, False])
def test_placeholder_text_is_readable_on_either_theme(qtbot, dark):
    """Seen on Xvfb: the History window's search hint was near-invisible on the dark theme (Qt's default placeholder is
    black at half alpha: 1.1:1 on the dark base, 4.0:1 on white). WCAG AA asks 4.5:1 of body text."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication, QLineEdit

    from app.theme import apply_theme

    app = QApplication.instance()
    style, palette_before = app.style().name(), app.palette()
    try:
        apply_theme(app, dark)
        field = QLineEdit()
        field.setPlaceholderText("Search reasons or source (Ctrl+F)")
        qtbot.addWidget(field)
        palette = field.palette()
        for group in (QPalette.ColorGroup.Active, QPalette.ColorGroup.Inactive, QPalette.ColorGroup.Disabled):
            placeholder = palette.color(group, QPalette.ColorRole.PlaceholderText)
            base = palette.color(group, QPalette.ColorRole.Base)
            assert wcag_contrast(placeholder, base) >= 4.5, (group, placeholder.name(), base.name())
        typed = palette.color(QPalette.ColorRole.Text)
        assert wcag_contrast(typed, palette.color(QPalette.ColorRole.Base)) > wcag_contrast(
            palette.color(QPalette.ColorRole.PlaceholderText), palette.color(QPalette.ColorRole.Base))  # still a hint
    finally:
        app.setStyle(style)
        app.setPalette(palette_before)


def test_the_header_shows_a_long_chinese_job_whole_at_1280x720_in_engineer_mode(qtbot, tmp_path):
    """Seen on Xvfb: at 1280x720 in engineer mode 'Job: K2291 女士真丝印花连衣裙…' was cut to 'Job: K2291 …', the one
    thing the operator checks against the garment. The recipe and source elide first, then the mode and engine give
    way (their text stays in the header's tooltip); the job and lot are the last to yield."""
    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    assert window.modes.mode == "engineer"
    window.resize(1280, 720)
    window.set_job("K2291-A 女士真丝印花连衣裙 春夏款", "L2611-03")
    window.state.update(recipe="ZEPHYRA 女士连衣裙 22HX-1489 白色 175/92A(XL)")
    qtbot.wait(50)
    header = window.header
    job, lot = header.fields["job"], header.fields["lot"]
    assert job.text() == "Job: K2291-A 女士真丝印花连衣裙 春夏款"
    assert job.isVisible() and job.elided() == job.text()
    assert lot.isVisible() and lot.elided() == lot.text() == "Lot: L2611-03"
    assert header.fields["recipe"].elided().startswith("Recipe: ZEPHYRA")
    assert all(label.geometry().right() <= header.contentsRect().right() for label in header.fields.values()
               if label.isVisible())
    assert "Mode: engineer" in header.toolTip() and "Job: K2291-A 女士真丝印花连衣裙 春夏款" in header.toolTip()
    assert window.minimumSizeHint().width() <= 1280 and window.width() <= 1280


HEADER_WANTS = {"recipe": 100, "job": 80, "lot": 40, "source": 60, "engine": 50, "mode": 40}  # 420 px with spacing
HEADER_FLOORS = [(("recipe", "source"), {"recipe": 40, "source": 40}), (("mode",), {"mode": 0}),
                 (("engine",), {"engine": 30}), (("recipe", "source"), {"recipe": 20, "source": 20}),
                 (("job", "lot"), {"job": 30, "lot": 30})]


@pytest.mark.parametrize("room, expected", [
    (420, HEADER_WANTS),  # everything fits: nothing gives way
    (380, {**HEADER_WANTS, "recipe": 60, "source": 60}),  # the recipe and source elide first, the longer one first
    (300, {**HEADER_WANTS, "recipe": 45, "source": 45, "mode": 0}),  # the mode steps aside; its room goes back
    (200, {"recipe": 20, "job": 50, "lot": 40, "source": 20, "engine": 30, "mode": 0}),  # the job and lot go last
])
def test_header_fields_give_way_in_order_and_the_job_and_lot_last(room, expected):
    from app.widgets.station_header import allot

    widths = allot(room, HEADER_WANTS, HEADER_FLOORS, spacing=10)
    assert widths == expected
    assert sum(w + 10 for w in widths.values() if w) - 10 <= room


def test_the_recipe_dialog_opens_beside_the_source_then_in_the_users_recipes(qtbot, tmp_path, monkeypatch):
    """A set's images/ with its recipes/ beside it: Recipe… opened in the bundled examples, not in the set's
    recipes nor in the user's (where Teach saves)."""
    from app import recipe_picker
    from inference.resources import user_data_dir

    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "home"))
    settings = StationSettings(QSettings(str(tmp_path / "s.ini"), QSettings.Format.IniFormat))
    images, recipes = tmp_path / "set" / "images", tmp_path / "set" / "recipes"
    images.mkdir(parents=True)
    recipes.mkdir()
    (recipes / "job000.toml").write_text("[fields]\nsize = 'M'\n", encoding="utf-8")
    assert recipe_picker.recipes_folder(settings, str(images)) == recipes
    assert recipe_picker.recipes_folder(settings, f"watch:{images}") == recipes
    taught = user_data_dir() / "recipes"
    taught.mkdir(parents=True)
    (taught / "taught.toml").write_text("[fields]\nsize = 'M'\n", encoding="utf-8")
    assert recipe_picker.recipes_folder(settings, "0") == taught  # a camera: the user's recipes
    settings.recipe_path = str(taught / "taught.toml")
    assert recipe_picker.recipes_folder(settings, str(images)) == taught  # the last recipe's folder comes first
