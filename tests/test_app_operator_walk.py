"""What an operator saw walking the station on Xvfb (1280×720 and 1920×1080), each with the window that showed it."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QRectF, QSettings  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.settings import StationSettings  # noqa: E402
from app.theme import VERDICT_COLORS  # noqa: E402
from tests.colours import contrast  # noqa: E402


def make_settings(tmp_path: Path) -> StationSettings:
    return StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))


def test_a_missing_model_and_a_missing_folder_leave_the_header_saying_no_engine_not_loading(qtbot, tmp_path):
    """Started with --model of a file that is not there and a folder that is not there: the engine failed first, then
    the failed source set the run to STOPPED and the header went back to 'Engine: loading…' for good."""
    window = MainWindow(model=tmp_path / "missing.onnx", backend="onnxruntime-cpu", settings=make_settings(tmp_path),
                        read=False, journal_path=tmp_path / "journal.sqlite3", testing=True,
                        source=str(tmp_path / "no-such-folder"))
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitUntil(lambda: window.state.state.engine_problem != "" and window.state.state.source_status == "failed",
                    timeout=30000)
    qtbot.wait(200)  # whichever of the two is reported last
    engine = window.header.fields["engine"]
    assert engine.text() == "Engine: none — see the error"
    assert "model file not found" in engine.toolTip()
    assert window.header.run_label.text() == "NO SOURCE"
    # the badge and the banner under it in one red (the badge was NG's brighter red)
    assert f"background:{VERDICT_COLORS['NO SOURCE']};" in window.header.run_label.styleSheet()
    assert window.banner.verdict.text() == "NO SOURCE" and VERDICT_COLORS["NO SOURCE"] in window.banner.styleSheet()
    assert "model file not found" in window.errors_panel.text.toPlainText()


def make_window(qtbot, tmp_path: Path, source: Path | None = None) -> MainWindow:
    from tests.factories import blob_detector

    model = tmp_path / "tags.onnx"
    blob_detector(model, size=64, names={0: "hangtag", 1: "barcode"})
    window = MainWindow(model=model, source=str(source) if source else None, backend="onnxruntime-cpu",
                        settings=make_settings(tmp_path), read=False, journal_path=tmp_path / "journal.sqlite3",
                        testing=True)
    qtbot.addWidget(window)
    window.resize(1280, 720)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None, timeout=15000)
    return window


def test_an_empty_results_dock_says_why_until_the_first_frame_is_inspected(qtbot, tmp_path):
    from tests.test_gui import make_folder

    window = make_window(qtbot, tmp_path)
    note = window.results_note
    assert note.isVisible() and note.text() == "No frames inspected yet: open a source, then press Start (Space)"
    banner = window.banner  # the grey band said "—" and nothing else
    assert banner.verdict.text() == "—"
    assert banner.reasons.text() == "No verdict yet: open a source, then press Start (Space)"
    window.open_source(str(make_folder(tmp_path, 1)))
    qtbot.waitUntil(lambda: window.source_bar.start_button.isEnabled(), timeout=5000)
    assert note.text() == "No frames inspected yet: press Start (Space)"
    window._on_worker_state("running")  # what the worker says as it takes the first frame
    assert note.text() == "Inspecting the first frame…" and banner.reasons.text() == "Inspecting the first frame…"
    assert "Inspecting the first frame" in window.view.placeholder.text()  # not "open a source and press Start"
    window._on_worker_state("stopped")
    window.start()
    qtbot.waitUntil(lambda: window.results.total >= 1 and not window.source_bar.running, timeout=30000)
    qtbot.waitUntil(lambda: window.results.rowCount() == 1, timeout=3000)
    assert not note.isVisible()  # the words never lie over a row
    assert banner.verdict.text() == "no recipe"  # the frame's own verdict replaced the note


def test_a_single_image_typed_under_image_folder_reads_single_image_once_opened(qtbot, tmp_path):
    from tests.test_gui import make_folder

    window = make_window(qtbot, tmp_path)
    image = next(make_folder(tmp_path, 1).iterdir())
    bar = window.source_bar
    assert bar.kind.currentText() == "Image folder"
    bar.path.setText(str(image))
    bar.open_button.click()
    qtbot.waitUntil(lambda: window.state.state.source_status == "open", timeout=5000)
    assert bar.kind.currentText() == "Single image" and bar.path.text() == str(image)


def test_adapts_collect_step_says_what_its_empty_lists_are_for(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    window = make_window(qtbot, tmp_path)
    from app.adapt.window import AdaptWindow

    adapt = AdaptWindow(window, data_dir=tmp_path / "adapt")
    qtbot.addWidget(adapt)
    adapt.resize(1280, 680)
    adapt.show()
    qtbot.waitExposed(adapt)
    collect = adapt.collect
    assert collect.suggestions_note.isVisible() and "Suggest unsure frames" in collect.suggestions_note.text()
    assert collect.kept_note.isVisible() and "No frames kept yet" in collect.kept_note.text()
    collect.suggest()  # nothing inspected: the list says so, not an empty box
    assert collect.suggestions_note.isVisible() and "inspect some frames first" in collect.suggestions_note.text()


def test_the_station_starts_maximized_the_first_time_and_where_it_was_left_after(qtbot, tmp_path):
    """As a 1280×720 window under a title bar on a 1280×720 screen the status bar fell off the bottom."""
    from tests.factories import blob_detector

    from app.main import show_station

    model = tmp_path / "tags.onnx"
    blob_detector(model, size=64, names={0: "hangtag", 1: "barcode"})
    settings = make_settings(tmp_path)

    def station() -> MainWindow:
        window = MainWindow(model=model, backend="onnxruntime-cpu", settings=settings, read=False,
                            journal_path=tmp_path / "journal.sqlite3", testing=True)
        qtbot.addWidget(window)
        return window

    first = station()
    assert not first.geometry_restored
    show_station(first)
    qtbot.waitUntil(first.isMaximized, timeout=3000)
    first.close()
    second = station()
    assert second.geometry_restored  # the place it was left at, not maximized over it
    show_station(second)
    assert second.isVisible()
    second.close()


@pytest.mark.parametrize("free, expected", [
    ((1920, 1050), (1920, 1050)),  # a 1920×1080 screen under a task bar: the docks are laid out for all of it
    ((1280, 680), (1280, 720)),  # the smallest station monitor: the layout the goldens show, then maximized
    ((800, 600), (1280, 720)),  # the offscreen test screen
])
def test_the_first_start_lays_the_window_out_for_the_screen_it_will_fill(free, expected):
    from PySide6.QtCore import QSize

    from app.main_window import first_size

    assert first_size(QSize(*free)) == expected


def test_report_written_fits_beside_the_status_labels_at_1280x720(qtbot, tmp_path):
    """'Report written: report_s00001_ZEPHYRA_女士连衣裙_22HX-1489_白色_175_92A_XL_202' ran under the Open report button
    and the model/backend labels: the session's date and the count were cut off."""
    from app.records_link import message_room, written_text

    window = make_window(qtbot, tmp_path)
    qtbot.wait(50)
    folder = tmp_path / "report_s00001_ZEPHYRA_女士连衣裙_22HX-1489_白色_175_92A_XL_20261204-1540"
    bar = window.statusBar()
    room = message_room(window)
    text = written_text(folder, 23, bar.fontMetrics(), room)
    assert text.startswith("Report written: report_s00001_") and text.endswith("-1540 (23 NG/REVIEW frames)")
    assert bar.fontMetrics().horizontalAdvance(text) <= room
    window.report_opener.button.show()  # as after an export, with its message
    bar.showMessage(text, 15000)  # the engine's details step aside for it (app/widgets/status_room.py)
    qtbot.wait(50)
    bar.layout().activate()
    message_end = bar.fontMetrics().horizontalAdvance(text) + 12
    assert message_end <= window.report_opener.button.x()  # the message ends before the button starts
    assert window.status_labels["frames"].isVisible()  # the counts stay beside it
    short = written_text(tmp_path / "report_s00002_tee", 0, bar.fontMetrics(), room)
    assert short == "Report written: report_s00002_tee (0 NG/REVIEW frames)"  # a name that fits is whole


def test_a_folder_that_is_not_there_is_called_no_source_in_the_view_too(qtbot, tmp_path):
    """The view drew a big ERROR heading under the NO SOURCE banner: two names for one state."""
    window = make_window(qtbot, tmp_path)
    missing = str(tmp_path / "no such folder")
    window.open_source(missing)
    qtbot.waitUntil(lambda: window.state.state.source_status == "failed", timeout=5000)
    message = window.view.placeholder.text()
    assert window.view.message_is_error and "NO SOURCE" in message and "ERROR" not in message
    assert f"{missing} could not be opened" in message
    assert window.banner.verdict.text() == window.header.run_label.text() == "NO SOURCE"


def test_a_moving_lines_empty_tag_list_says_when_tags_arrive(qtbot, tmp_path):
    from tests.test_line_view import tag

    window = make_window(qtbot, tmp_path)
    link = window.line
    link.per_tag_action.trigger()
    qtbot.waitUntil(lambda: link.shows_tags, timeout=20000)
    assert link.tag_note.isVisible() and "No tag finished yet" in link.tag_note.text()
    link.tag_finished.emit(tag(1, "OK"))
    qtbot.waitUntil(lambda: link.tag_rows.rowCount() == 1, timeout=3000)
    assert not link.tag_note.isVisible()


def test_setting_the_engineer_pin_says_it_took(qtbot, tmp_path):
    """Mode → Set engineer PIN… asked for '4 or more digits', refused '12' for being under 4 'characters', and said
    nothing when a PIN was set."""
    from PySide6.QtCore import QTimer
    from PySide6.QtWidgets import QApplication, QInputDialog

    window = make_window(qtbot, tmp_path)
    asked = []

    def answer() -> None:
        dialog = QApplication.activeModalWidget()
        if not isinstance(dialog, QInputDialog):
            QTimer.singleShot(20, answer)
            return
        asked.append(dialog.labelText())
        dialog.setTextValue("a2468")
        dialog.accept()

    QTimer.singleShot(0, answer)
    window.modes.change_pin()
    assert asked == ["New PIN (4 or more characters):"]
    assert window.settings.check_pin("a2468")
    assert window.statusBar().currentMessage() == "Engineer PIN set: leaving operator mode asks for it"


@pytest.mark.parametrize("count, noun, expected", [
    (1, "recipe", "1 recipe"), (3, "recipe", "3 recipes"), (0, "frame", "0 frames"), (2, "busy answer", "2 busy answers"),
])
def test_counts_are_said_in_words_without_s_in_brackets(count, noun, expected):
    from app.words import counted

    assert counted(count, noun) == expected


def test_approving_a_recipe_counts_the_recipes_operators_may_pick(qtbot, tmp_path):
    """The status bar said 'Operators may pick 1 recipe(s)'."""
    window = make_window(qtbot, tmp_path)
    recipe = tmp_path / "tee.toml"
    recipe.write_text('[recipe]\nname = "tee"\n[counts]\nhangtag = { min = 1, max = 9 }\n', encoding="utf-8")
    window.load_recipe(recipe)
    window.modes.approve_recipe()
    assert window.statusBar().currentMessage() == "Operators may pick 1 recipe; added tee.toml"


def test_the_operator_picks_a_recipe_by_the_job_it_names(tmp_path):
    from app.recipe_picker import offered_names
    from inference.resources import resource_path

    bundled = str(resource_path("recipes", "sample_090000022.toml"))
    line_a, line_b = tmp_path / "a", tmp_path / "b"
    for folder in (line_a, line_b):
        folder.mkdir()
        (folder / "tee.toml").write_text('[recipe]\nname = "T恤 白色 M"\n[counts]\nhangtag = { min = 1, max = 9 }\n',
                                         encoding="utf-8")
    broken = tmp_path / "broken.toml"
    broken.write_text("name = [", encoding="utf-8")
    names = offered_names([bundled, str(line_a / "tee.toml"), str(line_b / "tee.toml"), str(broken)])
    assert names[0] == "ZEPHYRA 女士连衣裙 22HX-1489 白色 175/92A(XL)  (sample_090000022.toml)"
    assert names[1] == f"T恤 白色 M  ({line_a / 'tee.toml'})" and names[2] == f"T恤 白色 M  ({line_b / 'tee.toml'})"
    assert names[3] == "broken  (broken.toml)"  # offered by its file; loading it says what is wrong


def test_a_camera_that_does_not_open_is_named_camera_0_not_0(qtbot, tmp_path):
    window = make_window(qtbot, tmp_path)
    window.open_source("0")  # no camera on this machine
    qtbot.waitUntil(lambda: window.state.state.source_status == "failed", timeout=15000)
    assert "camera 0 could not be opened" in window.view.placeholder.text()
    assert window.errors_panel.title.text().startswith("⚠ Source not opened: camera 0")


def test_camera_settings_of_a_camera_not_open_show_no_invented_values(qtbot):
    """Unticked, with the camera not open, the boxes showed their minimum: 'Exposure 1.0 µs', 'Frame rate 0.01 fps',
    'ROI w 0 h 0', read as what the camera was set to."""
    from app.widgets.camera_settings import CameraSettingsDialog
    from inference.cameras.settings import CameraSettings

    dialog = CameraSettingsDialog("genicam LINE3-CAM", CameraSettings(gain=2.5), None)
    qtbot.addWidget(dialog)
    for box in (dialog.exposure, dialog.frame_rate, *dialog.roi):
        assert box.text() == "—"
    assert dialog.gain.text() == "2.50"  # what the job asks is shown
    dialog.rows["exposure_us"][0].setChecked(True)  # the engineer sets one: its box shows a number to edit
    assert dialog.exposure.text() != "—" and dialog.exposure.isEnabled()
    dialog.exposure.setValue(8000)
    assert dialog.settings().exposure_us == 8000 and dialog.settings().frame_rate is None
    dialog.rows["exposure_us"][0].setChecked(False)
    assert dialog.exposure.text() == "—" and dialog.settings().exposure_us is None


@pytest.mark.parametrize("dark", [True, False])
def test_the_words_over_empty_panels_are_readable_on_either_theme(qtbot, tmp_path, dark):
    """'Reading the journal…' and the detail panel's sentence were #5f6368: 3:1 on the dark theme's base."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from app.history import HistoryWindow
    from app.theme import apply_theme
    from tests.test_gui_station import wcag_contrast

    app = QApplication.instance()
    style, palette_before = app.style().name(), app.palette()
    try:
        apply_theme(app, dark)
        window = HistoryWindow(tmp_path / "journal.sqlite3")
        qtbot.addWidget(window)
        window.show()
        for label, behind in ((window.sessions_note, window.sessions_view.viewport()),
                              (window.detail.nothing, window.detail)):
            text = label.palette().color(label.foregroundRole())
            back = behind.palette().color(behind.backgroundRole())
            assert wcag_contrast(text, back) >= 4.5, (label.text(), text.name(), back.name())
        qtbot.waitUntil(lambda: not window.reads.pending, timeout=10000)
        window.close()
    finally:
        app.setStyle(style)
        app.setPalette(palette_before)


@pytest.mark.parametrize("scale", [0.15, 0.5, 0.74, 0.96, 1.0, 1.3, 2.0])
def test_a_box_label_is_as_wide_as_the_text_painted_in_it(qtbot, scale):
    """At 1920×1080 the label 'not a tag (hangtag 0.96' lost its ')': measured at 13 px, painted at 14."""
    from PySide6.QtCore import QSize
    from PySide6.QtGui import QFontMetricsF

    from app.widgets.image_view import BoxesItem
    from inference.detections import Detections

    detections = Detections(np.array([[100, 100, 400, 300]], np.float32), np.array([0.96], np.float32),
                            np.zeros(1, np.int32), ("hangtag",))
    item = BoxesItem()
    item.set_detections(detections, QSize(1600, 1200), not_tags=[(90.0, 90.0, 410.0, 310.0)])
    (label,) = item.place_labels(scale)
    painted = QFontMetricsF(item.label_font(scale)).horizontalAdvance("not a tag (hangtag 0.96)")
    assert label.width() >= painted + 4 / scale  # the text and its left pad


def test_leaving_one_verdict_per_tag_puts_the_frames_verdict_back_on_the_banner(qtbot, tmp_path):
    """Switched off, the banner went on saying 'one verdict per tag: waiting for the first tag to leave the view'
    over a frame and a Results list judged per frame."""
    from tests.test_gui import make_folder

    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    window.start()
    qtbot.waitUntil(lambda: window.results.total >= 1 and not window.source_bar.running, timeout=30000)
    qtbot.waitUntil(lambda: window.current is not None, timeout=3000)
    assert window.banner.verdict.text() == "no recipe"
    link = window.line
    link.per_tag_action.trigger()
    qtbot.waitUntil(lambda: link.shows_tags, timeout=20000)
    assert "first tag" in window.banner.reasons.text()
    link.per_tag_action.trigger()
    qtbot.waitUntil(lambda: not link.shows_tags, timeout=20000)
    assert window.banner.verdict.text() == "no recipe" and "tag" not in window.banner.reasons.text()


def test_export_before_any_inspection_says_what_to_do(qtbot, tmp_path, monkeypatch):
    """File → Export report of the last session… on a new station: 'the journal has no sessions yet', expected and
    found, and no hint."""
    from PySide6.QtWidgets import QMessageBox

    window = make_window(qtbot, tmp_path)
    told = []
    monkeypatch.setattr(QMessageBox, "information", lambda parent, title, text: told.append(text))
    window.records.ask_export()
    assert len(told) == 1 and told[0].startswith("the journal has no sessions yet")
    assert "hint:     inspect frames first (open a source and press Start)" in told[0]


def test_teach_asks_for_a_name_when_nothing_sure_names_the_job(qtbot, tmp_path):
    """A tag read with only its brand and price sure was saved as 'taught job', the name operators then pick it by."""
    from app.teach_dialog import UNNAMED, TeachDialog
    from inference.reading.teach import lesson_from
    from inference.resources import samples_dir

    window = MainWindow(source=str(samples_dir() / "090000014.jpg"), backend="onnxruntime-cpu",
                        settings=make_settings(tmp_path), read=True, journal_path=tmp_path / "journal.sqlite3",
                        testing=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None, timeout=60000)
    window.start()
    qtbot.waitUntil(lambda: window.current is not None and bool(window.current.readings), timeout=120000)
    image = window.current_image
    tag = next(t for t in window.current.readings if not t.rejected
               and lesson_from(image, t, tags_in_frame=1).name == UNNAMED)
    dialog = TeachDialog(image, tag, tags_in_frame=1, recipes_dir=tmp_path, parent=window)
    qtbot.addWidget(dialog)
    assert dialog.name.text() == "" and "operators pick" in dialog.name.placeholderText()
    assert dialog.save(tmp_path / "unnamed.toml") is None and not (tmp_path / "unnamed.toml").exists()
    assert "name the recipe first" in dialog.message.text()
    dialog.name.setText("禾本 HB-0699")
    path = dialog.save(tmp_path / "hb.toml")
    from inference.reading import load_recipe

    assert path is not None and load_recipe(path).name == "禾本 HB-0699"


def ended_column(history, session_id: int, role=None) -> str:
    from PySide6.QtCore import Qt

    from app.history.models import SESSION_COLUMNS

    model = history.sessions
    index = model.index(model.row_of(session_id), SESSION_COLUMNS.index("Ended"))
    return model.data(index, role if role is not None else Qt.ItemDataRole.DisplayRole)


def test_history_calls_a_stopped_run_stopped_and_running_only_while_it_runs(qtbot, tmp_path):
    """A folder stepped through, or inspected to its end: History said "running" (in green) for as long as the
    station stayed open."""
    import re

    from tests.test_gui import make_folder

    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 2))
    qtbot.waitUntil(lambda: window.source_bar.start_button.isEnabled(), timeout=5000)
    window.step()
    qtbot.waitUntil(lambda: window.results.total >= 1, timeout=30000)
    session = window.records.recorder.session_id
    window.show_history()
    history = window.history_window
    qtbot.waitUntil(lambda: history.sessions.row_of(session) is not None, timeout=10000)
    assert ended_column(history, session) == "stopped"
    window._on_worker_state("running")  # Start: frames go into the same session
    assert ended_column(history, session) == "running"
    window._on_worker_state("idle")
    assert ended_column(history, session) == "stopped"
    window.start()  # to the folder's end: the session ends with it
    qtbot.waitUntil(lambda: window.results.total >= 2 and not window.source_bar.running, timeout=30000)
    history.refresh()
    qtbot.waitUntil(lambda: re.fullmatch(r"\d\d:\d\d:\d\d", ended_column(history, session) or ""), timeout=10000)
    assert window.records.recorder.session_id is None


def test_history_calls_a_session_whose_station_died_interrupted_not_running(qtbot, tmp_path):
    """A station killed mid-run leaves its session open; until that station starts again nothing ends it, and
    History (reading only) said "running" for it, in green."""
    import socket
    import subprocess
    import sys

    from PySide6.QtCore import Qt

    from app.history import HistoryWindow
    from inference.records.journal import Journal

    gone = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    path = tmp_path / "journal.sqlite3"
    with Journal.open(path) as journal:
        died = journal.start_session(source="camera:0")
        alive = journal.start_session(source="camera:1")
        journal._conn.execute("UPDATE sessions SET owner = ? WHERE id = ?",
                              (f"{socket.gethostname()}:{gone.stdout.strip()}", died))
    history = HistoryWindow(path)
    qtbot.addWidget(history)
    qtbot.waitUntil(lambda: history.sessions.row_of(died) is not None, timeout=10000)
    assert ended_column(history, died) == "interrupted"
    assert "no longer running" in ended_column(history, died, Qt.ItemDataRole.ToolTipRole)
    assert ended_column(history, alive) == "running"  # written by this process, which the window cannot ask


@pytest.mark.parametrize("widget_wh", [(220, 300), (400, 240), (600, 360)])
def test_teachs_field_name_does_not_cover_the_brand_region_above_it(qtbot, widget_wh):
    """A small tag, its first field (selected) just under the brand: the field's name was painted on the region's top
    edge, over the brand's region and the brand printed in it."""
    from app.teach_dialog import TagCrop

    crop = TagCrop(np.full((120, 200, 3), 235, np.uint8))
    qtbot.addWidget(crop)
    crop.resize(*widget_wh)
    crop.show_regions([("品牌 brand", (10, 2, 110, 30), False), ("品名 product name", (10, 32, 120, 60), True),
                       ("货号 style number", (10, 62, 120, 90), False)])
    crop.grab()  # paints
    brand, name = crop._widget_rect((10, 2, 110, 30)), crop.label_rect
    assert name is not None and QRectF(crop.rect()).contains(name)
    assert not name.intersects(brand)
    assert not name.intersects(crop._widget_rect((10, 32, 120, 60)))  # nor the field's own print


def test_escape_closes_adapt_but_never_throws_away_a_running_fine_tune(qtbot, tmp_path, monkeypatch):
    """History and every dialog closed with Escape; Adapt did not. Closing it stops its jobs, so while one runs it asks."""
    from types import SimpleNamespace

    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QMessageBox

    from app.adapt.window import AdaptWindow

    window = make_window(qtbot, tmp_path)
    adapt = AdaptWindow(window, data_dir=tmp_path / "adapt")
    qtbot.addWidget(adapt)
    adapt.show()
    qtbot.waitExposed(adapt)
    adapt.tabs.setCurrentWidget(adapt.correct)
    qtbot.keyClick(adapt.correct.editor, Qt.Key.Key_Escape)  # no box chosen: nothing for the editor to undo
    assert not adapt.isVisible()

    asked = []
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: asked.append(a[2]) or QMessageBox.StandardButton.No)
    adapt.show()
    qtbot.waitExposed(adapt)
    adapt.train.job = SimpleNamespace(running=True, cancel=lambda: None, wait=lambda *a: True)
    qtbot.keyClick(adapt, Qt.Key.Key_Escape)
    assert adapt.isVisible() and asked and asked[0].startswith("The fine-tune is still running")
    adapt.train.job = None


def test_boxes_the_reader_found_not_to_be_tags_are_neither_counted_nor_cropped(qtbot):
    """One tag with its blue edge boxed twice beside it ('not a tag' on the image, hangtag count 1 in the verdict):
    the Results row said Tags 3 and the strip under the image showed three crops."""
    from app.widgets.crops_strip import CropsStrip
    from app.widgets.results_table import tags_judged
    from inference.detections import Detections
    from inference.pipeline import error_result
    from inference.postprocess import Thresholds
    from inference.reading.types import TagReading

    boxes = np.array([[10, 10, 60, 120], [12, 12, 80, 200], [70, 5, 300, 200]], np.float32)
    three = Detections(boxes, np.full(3, 0.9), np.zeros(3, np.int64), ("hangtag", "barcode"))
    readings = (TagReading(0, tuple(boxes[0]), rejected="inside another tag's box: part of that tag, not a second one"),
                TagReading(1, tuple(boxes[1]), rejected="no text and no barcode in the box: not a hangtag"),
                TagReading(2, tuple(boxes[2])))
    frame = error_result(0, "tag.jpg", None, "x", Thresholds()).with_(error=None, detections=three, readings=readings)
    assert tags_judged(frame) == 1
    strip = CropsStrip()
    qtbot.addWidget(strip)
    strip.show_crops(np.full((240, 320, 3), 200, np.uint8), three,
                     not_tags=[t.xyxy for t in readings if t.rejected])
    assert strip.shown == 1


def test_a_folder_opened_at_start_is_said_open_in_the_view_not_open_a_source(qtbot, tmp_path):
    """Started on a folder: the banner and the Results said 'press Start', the view 'open a source and press Start',
    and the strip under it was an empty grey band."""
    from tests.test_gui import make_folder

    folder = make_folder(tmp_path, 1)
    window = make_window(qtbot, tmp_path, folder)
    qtbot.waitUntil(lambda: window.source_bar.start_button.isEnabled(), timeout=5000)
    placeholder = window.view.placeholder
    assert placeholder.isVisible() and f"{folder} is open — press Start (Space)." in placeholder.text()
    assert window.crops.labels[0].text() == "no frame yet"
    window._on_worker_state("running")
    assert "Inspecting the first frame" in placeholder.text()
    window._on_worker_state("stopped")  # stopped before the first frame came
    assert "is open — press Start (Space)." in placeholder.text()


def test_adapts_kept_frames_show_why_each_was_kept_at_1280x720(qtbot, tmp_path):
    """The From column took the table's width: 'Why kept' showed 'unsure: …' and no more."""
    from app.adapt.window import AdaptWindow

    window = make_window(qtbot, tmp_path)
    adapt = AdaptWindow(window, data_dir=tmp_path / "adapt")
    qtbot.addWidget(adapt)
    adapt.resize(1200, 680)
    adapt.show()
    qtbot.waitExposed(adapt)
    reason = "unsure: hangtag score 0.32 near 0.25"
    adapt.state.folder.keep_image(np.full((120, 160, 3), 200, np.uint8), origin="live view: /tmp/sets/000014.jpg",
                                  reason=reason)
    adapt.state.frames_changed.emit()
    table = adapt.collect.table
    assert table.item(0, 2).text() == reason
    assert table.columnWidth(2) >= table.fontMetrics().horizontalAdvance(reason) + 8


def test_adapts_kept_frames_count_the_boxes_drawn_in_step_2(qtbot, tmp_path):
    """A kept frame the model pre-labelled in step 2 still read 'Boxes 0' back in step 1."""
    from inference.adapt.folder import Box

    window = make_window(qtbot, tmp_path)
    from app.adapt.window import AdaptWindow

    adapt = AdaptWindow(window, data_dir=tmp_path / "adapt")
    qtbot.addWidget(adapt)
    adapt.show()
    qtbot.waitExposed(adapt)
    frame = adapt.state.folder.keep_image(np.full((120, 160, 3), 200, np.uint8), origin="live view", reason="engineer")
    adapt.state.frames_changed.emit()
    assert adapt.collect.table.item(0, 3).text() == "0"
    adapt.tabs.setCurrentWidget(adapt.train)
    adapt.state.folder.set_boxes(frame.id, [Box((10.0, 10.0, 90.0, 100.0), 0, "model")], corrected=False)  # a draft
    adapt.tabs.setCurrentWidget(adapt.collect)
    assert adapt.collect.table.item(0, 3).text() == "1"


def test_the_reasons_the_banner_leaves_out_can_be_read_in_operator_mode(qtbot):
    """Operator mode at 1280x720: 'and 6 more', and neither the Tag text dock nor a tooltip to read them in."""
    from app.widgets.verdict_banner import VerdictBanner

    banner = VerdictBanner()
    qtbot.addWidget(banner)
    banner.set_large(True)  # operator mode
    reasons = [f"尺码 size {i} ≠ expected M" for i in range(10)]
    banner.show_verdict("NG", reasons)
    assert banner.reasons.text().endswith("and 6 more")
    assert banner.reasons.toolTip().splitlines() == reasons
    banner.show_verdict("OK", [])
    assert banner.reasons.toolTip() == ""


@pytest.mark.parametrize("free, expected", [((1280, 680), (1100, 640)), ((1920, 1040), (1632, 884)),
                                            ((1024, 700), (1024, 640))])
def test_teach_takes_most_of_a_large_screen(free, expected):
    """At 1920x1080 Teach stayed 1100x640: the tag beside the table was ~330 px wide, its print unreadable."""
    from PySide6.QtCore import QSize

    from app.teach_dialog import teach_size

    assert teach_size(QSize(*free)) == expected


def test_adapt_keeps_a_frame_once_and_says_so_after_keeping_every_suggestion(qtbot, tmp_path, monkeypatch):
    """After 'Keep ticked suggestions' emptied the list it said 'None of the frames … was unsure' over the frames just
    kept; suggesting again offered them again, and keeping them made second copies (one could train, one judge)."""
    from app.adapt import collect_page
    from app.adapt.window import AdaptWindow
    from tests.test_gui import make_folder

    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 2))
    qtbot.waitUntil(lambda: window.source_bar.start_button.isEnabled(), timeout=5000)
    window.start()
    qtbot.waitUntil(lambda: window.results.total >= 2 and not window.source_bar.running, timeout=30000)
    monkeypatch.setattr(collect_page, "unsure_reason", lambda result: "REVIEW verdict")
    adapt = AdaptWindow(window, data_dir=tmp_path / "adapt")
    qtbot.addWidget(adapt)
    page = adapt.collect
    page.suggest()
    assert page.suggestions.count() == 2
    page.keep_ticked()
    assert len(adapt.state.folder.frames()) == 2
    assert page.suggestions_note.text().startswith("Every suggestion is kept")
    page.suggest()
    assert page.suggestions.count() == 0 and "kept already" in page.suggestions_note.text()
    page.keep_frame_on_screen()  # the last frame, kept already
    assert len(adapt.state.folder.frames()) == 2 and "is kept already" in page.status.text()


def pick_kind(bar, kind: str) -> None:
    from app.widgets.source_bar import KINDS

    bar.kind.setCurrentIndex(KINDS.index(kind))
    bar.kind.activated.emit(KINDS.index(kind))  # as a click on the list does


def test_picking_camera_clears_a_folder_path_and_says_what_to_type(qtbot):
    """Camera picked with the folder's path still in the field: Open opened the folder again and the bar flipped back
    to Image folder."""
    from app.widgets.source_bar import SourceBar

    bar = SourceBar()
    qtbot.addWidget(bar)
    bar.set_spec("/tmp/sets/s5150/images")
    pick_kind(bar, "Camera")
    assert bar.path.text() == "" and "camera index" in bar.path.placeholderText()
    bar.path.setText("0")
    pick_kind(bar, "Image folder")
    assert bar.path.text() == "" and bar.path.placeholderText() == "folder of tag images"
    bar.path.setText("/tmp/sets/s5150/images")
    pick_kind(bar, "Watch folder")  # a folder is still a folder
    assert bar.path.text() == "/tmp/sets/s5150/images"
    bar.set_spec("0@1280x720")  # from the command line or the last session: shown as it is
    assert bar.kind.currentText() == "Camera" and bar.path.text() == "0"


@pytest.mark.parametrize("verdict", ["OK", "NG", "REVIEW", "ERROR", "no recipe"])
def test_verdict_words_in_tables_are_readable_on_the_dark_theme(qtbot, tmp_path, verdict):
    """Results, History and tag rows wrote verdicts in the banner's colours: on the dark theme ERROR was 2.1:1 on
    the table's base and 'no recipe' 2.7:1."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from app.theme import apply_theme, verdict_text_color

    app = QApplication.instance()
    before = app.palette()
    try:
        apply_theme(app, True)
        palette = app.palette()
        color = verdict_text_color(verdict)
        for role in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase):
            assert contrast(color, palette.color(role)) >= 4.5
        if verdict == "ERROR":  # as the Results table paints it
            from PySide6.QtCore import Qt

            from app.widgets.results_table import COLUMNS, ResultsModel
            from inference.pipeline import error_result
            from inference.postprocess import Thresholds

            model = ResultsModel()
            model.append(error_result(0, "tag.jpg", None, "unreadable", Thresholds()))
            model.flush()
            cell = model.index(0, COLUMNS.index("Verdict"))
            assert model.data(cell) == "ERROR" and model.data(cell, Qt.ItemDataRole.ForegroundRole) == color
    finally:
        app.setPalette(before)


@pytest.mark.parametrize("verdict", ["OK", "NG", "REVIEW", "ERROR", "no recipe"])
def test_verdict_words_in_tables_are_readable_on_the_light_theme(qtbot, verdict):
    """On the light theme tables wrote verdicts in the banner's fills: REVIEW's amber #f29900 was 2.3:1 on white and
    OK's green 3.9:1 on alternate rows. The banner keeps its fills."""
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication

    from app.theme import VERDICT_COLORS, apply_theme, verdict_text_color

    app = QApplication.instance()
    before = app.palette()
    try:
        apply_theme(app, False)
        palette = app.palette()
        color = verdict_text_color(verdict)
        for role in (QPalette.ColorRole.Base, QPalette.ColorRole.AlternateBase):
            assert contrast(color, palette.color(role)) >= 4.5, (verdict, color.name(), palette.color(role).name())
        assert VERDICT_COLORS["REVIEW"] == "#f29900"  # the banner's fill, unchanged
    finally:
        app.setPalette(before)


@pytest.mark.parametrize("kind", ["QCheckBox", "QRadioButton"])
def test_an_unticked_box_shows_its_edge_on_the_dark_theme(qtbot, kind):
    """Dark theme: Fusion edged an unticked check box in #222326 on the #2b2d31 window (1.1:1): 'Loop', 'Show raw
    OCR lines' and Adapt's class buttons showed their words and no box."""
    from PySide6 import QtWidgets
    from PySide6.QtGui import QPalette
    from PySide6.QtWidgets import QApplication, QStyle, QStyleOptionButton

    from app.theme import apply_theme

    app = QApplication.instance()
    palette_before = app.palette()
    try:
        apply_theme(app, True)
        box = getattr(QtWidgets, kind)("Loop")
        qtbot.addWidget(box)
        box.show()
        image = box.grab().toImage()
        option = QStyleOptionButton()
        option.initFrom(box)
        element = (QStyle.SubElement.SE_CheckBoxIndicator if kind == "QCheckBox"
                   else QStyle.SubElement.SE_RadioButtonIndicator)
        rect = box.style().subElementRect(element, option, box)
        row = rect.center().y()
        edge = next(image.pixelColor(x, row) for x in range(rect.left(), rect.right())
                    if image.pixelColor(x, row) != image.pixelColor(rect.center().x(), row))  # the first not inside
        window = app.palette().color(QPalette.ColorRole.Window)
        assert contrast(edge, window) >= 3.0, (edge.name(), window.name())  # WCAG's contrast for a control's edge
    finally:
        app.setPalette(palette_before)


@pytest.mark.parametrize("frames, rows, expected", [
    (15, 0, "memory drift: warming up (frame 15 of 100), then measured over 50 frames"),
    (112, 12, "memory drift: measuring (12 of 50 frames after the warm-up)"),
])
def test_the_memory_drift_line_says_where_the_run_is(qtbot, frames, rows, expected):
    """At frame 15 it said 'measuring after 100 warm-up frames (0 of 50 needed)'."""
    from app.widgets.plots_panel import PlotsPanel

    panel = PlotsPanel()
    qtbot.addWidget(panel)
    for frame in range(1, frames + 1):
        panel.memory.push([300.0, np.nan, frame])
    panel.frames = frames
    panel._draw()
    assert panel.alarm.text() == expected


def test_space_after_a_typed_path_starts_the_line_not_a_space_in_the_path(qtbot, tmp_path, monkeypatch):
    """The operator typed the folder, pressed Enter, then Space to start: the spaces went into the path field."""
    from PySide6.QtCore import Qt
    from PySide6.QtWidgets import QApplication

    from tests.test_gui import make_folder

    window = make_window(qtbot, tmp_path)
    window.activateWindow()
    started = []
    monkeypatch.setattr(window, "start", lambda: started.append(1))
    path = window.source_bar.path
    path.setFocus()
    qtbot.waitUntil(path.hasFocus, timeout=3000)
    folder = str(make_folder(tmp_path, 1))
    qtbot.keyClicks(path, folder)
    qtbot.keyClick(path, Qt.Key.Key_Return)
    assert not path.hasFocus()
    qtbot.waitUntil(lambda: window.source_bar.start_button.isEnabled(), timeout=5000)
    qtbot.keyClick(QApplication.focusWidget() or window, Qt.Key.Key_Space)
    assert path.text() == folder and started == [1]


def test_a_frame_read_whole_is_not_called_tag_1(qtbot):
    """A frame with no tag on it (set s5150 000002, missing tag): Tag text headed its whole-frame read 'Tag 1'."""
    from app.widgets.text_panel import TextPanel
    from inference.detections import Detections
    from inference.pipeline import error_result
    from inference.postprocess import Thresholds
    from inference.reading.types import TagReading

    none = Detections(np.zeros((0, 4), np.float32), np.zeros(0), np.zeros(0, np.int64), ("hangtag", "barcode"))
    whole = TagReading(0, (0.0, 0.0, 1280.0, 960.0), whole_frame=True, summary="barcode unreadable")
    frame = error_result(0, "000002.jpg", None, "x", Thresholds()).with_(error=None, detections=none,
                                                                          readings=(whole,))
    panel = TextPanel()
    qtbot.addWidget(panel)
    panel.show_result(frame, True)
    text = panel.view.toPlainText()
    assert "No hangtag found: the frame was read whole" in text and "Tag 1" not in text


def test_another_source_takes_the_last_sources_frame_and_verdict_off_the_screen(qtbot, tmp_path):
    """Switched to a watched folder still empty: the previous folder's frame and its banner stayed on screen."""
    from tests.test_gui import make_folder

    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    qtbot.waitUntil(lambda: window.source_bar.start_button.isEnabled(), timeout=5000)
    window.start()
    qtbot.waitUntil(lambda: window.results.total >= 1 and not window.source_bar.running, timeout=30000)
    qtbot.waitUntil(lambda: window.current is not None, timeout=3000)
    assert window.banner.verdict.text() == "no recipe"
    watched = tmp_path / "watched"
    watched.mkdir()
    window.open_source(f"watch:{watched}")
    qtbot.waitUntil(lambda: window.source_bar.start_button.isEnabled(), timeout=5000)
    assert window.current is None and window.banner.verdict.text() == "—"
    assert window.view.placeholder.isVisible() and "is open — press Start" in window.view.placeholder.text()
    assert window.results.total == 1  # the rows stay


def test_a_running_watched_folder_says_it_waits_for_an_image(qtbot, tmp_path):
    """Started on an empty watched folder: the view, the banner and Results said 'Inspecting the first frame…'."""
    watched = tmp_path / "watched"
    watched.mkdir()
    window = make_window(qtbot, tmp_path)
    window.open_source(f"watch:{watched}")
    qtbot.waitUntil(lambda: window.source_bar.start_button.isEnabled(), timeout=5000)
    window._on_worker_state("running")
    waiting = f"Waiting for the first image in {watched}…"
    assert waiting in window.view.placeholder.text()
    assert window.banner.reasons.text() == waiting and window.results_note.text() == waiting


@pytest.mark.parametrize("qr_boxes, shown", [(0, "none found"), (1, "1 found, none readable")])
def test_a_qr_code_expected_and_not_read_says_so_in_words(qtbot, qr_boxes, shown):
    """History's detail and the report showed a QR code expected and not found as 'qr code count: 0 read of 0'."""
    from inference.detections import Detections
    from inference.reading import TagReading, judge, parse_recipe
    from inference.reading.fields import lines_from_text

    names = ("hangtag", "barcode", "qr_code")
    boxes = [[100, 100, 500, 400]] + [[300, 300, 360, 360]] * qr_boxes
    detections = Detections(np.array(boxes, np.float32), np.full(len(boxes), 0.9, np.float32),
                            np.array([0] + [2] * qr_boxes), names)
    rules = parse_recipe('[counts]\nhangtag = 1\nqr_code = 1\n[fields]\nsize = "M"\n')
    tag = TagReading(0, (100.0, 100.0, 500.0, 400.0), ocr_lines=lines_from_text("尺码：M"))
    check = next(c for c in judge(rules, detections, [tag]).checks if c.subject == "count:qr_code")
    assert (check.read, check.expected) == (shown, "1")


def test_tag_text_lists_each_note_once(qtbot):
    """Set s5150 000015: Tag text listed 'tag box grown: the tag's paper ran on past it' and 'tag box grown: printed
    lines ran into its edge' as two notes, the same note twice to an operator; a repeated note was listed twice."""
    from app.widgets.text_panel import TextPanel
    from inference.detections import Detections
    from inference.pipeline import error_result
    from inference.postprocess import Thresholds
    from inference.reading.types import TagReading

    boxes = Detections(np.array([[0, 0, 400, 300]], np.float32), np.array([0.9]), np.array([0]), ("hangtag",))
    notes = ("tag box grown: the tag's paper ran on past it", "tag box grown: printed lines ran into its edge",
             "tag box grown: printed lines ran into its edge", "print read upright")
    tag = TagReading(0, (0.0, 0.0, 400.0, 300.0), notes=notes, summary="")
    frame = error_result(0, "000015.jpg", None, "x", Thresholds()).with_(error=None, detections=boxes,
                                                                          readings=(tag,))
    panel = TextPanel()
    qtbot.addWidget(panel)
    panel.show_result(frame, True)
    text = panel.view.toPlainText()
    assert text.count("tag box grown") == 1 and text.count("print read upright") == 1
    assert "tag box grown: the tag's paper ran on past it; printed lines ran into its edge" in text


def test_one_verdict_per_tag_before_start_says_press_start_not_waiting_for_a_tag(qtbot, tmp_path):
    """Line → One verdict per tag on a stopped station: the banner said 'waiting for the first tag to leave the
    view' before Start, as if the line were running."""
    import dataclasses

    from app.line_link import line_banner_note
    from app.station_state import RUNNING
    from tests.test_gui import make_folder

    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 2))
    qtbot.waitUntil(lambda: window.source_bar.start_button.isEnabled(), timeout=5000)
    link = window.line
    link.per_tag_action.trigger()
    qtbot.waitUntil(lambda: link.shows_tags, timeout=20000)
    said = window.banner.reasons.text()
    assert "press Start (Space)" in said and "waiting" not in said, said
    window.state.update(source_status="open")  # any re-render of the stopped station says the same
    assert "waiting" not in window.banner.reasons.text()
    running = dataclasses.replace(window.state.state, run=RUNNING)
    assert line_banner_note(running) == "one verdict per tag: waiting for the first tag to leave the view"


def test_the_frame_rate_is_the_runs_not_since_a_step_minutes_before(qtbot, tmp_path, monkeypatch):
    """Set s5150 on a CPU: one Step, Start six minutes later, then a frame every 4 s: the status bar said 0.0 fps (13
    frames over the 433 s since the Step)."""
    from types import SimpleNamespace

    from app.widgets import plots_panel
    from inference.pipeline import error_result
    from inference.postprocess import Thresholds

    window = make_window(qtbot, tmp_path)
    clock = iter([0.0, 360.0, 364.0, 368.0, 372.0])
    monkeypatch.setattr(plots_panel, "time", SimpleNamespace(perf_counter=lambda: next(clock)))
    frame = error_result(0, "000000.jpg", None, "x", Thresholds()).with_(error=None)
    window.plots.add_result(frame)  # the Step
    window._on_worker_state("running")  # Start
    for _ in range(4):
        window.plots.add_result(frame)
    window._update_status()
    assert window.status_labels["fps"].text() == "4.0 s/frame"  # '0.2 fps' for one every 4 s, rounded down


@pytest.mark.parametrize("fps, expected", [(0.0, "— fps"), (0.0435, "23.0 s/frame"), (0.25, "4.0 s/frame"),
                                           (0.99, "1.0 s/frame"), (1.0, "1.0 fps"), (12.34, "12.3 fps")])
def test_a_slow_frame_rate_reads_as_seconds_between_frames(fps, expected):
    """A watched folder with a frame every 23 s: the status bar and the plots said '0.0 fps', a stopped station."""
    from app.widgets.plots_panel import rate_text

    assert rate_text(fps) == expected


def test_tags_finished_after_leaving_one_verdict_per_tag_stay_off_the_banner(qtbot, tmp_path):
    """Line mode switched off after a stopped run: the tags in view were finished as the old engine closed, after the
    banner had gone back to the frame's verdict, and it showed 'NG #4' under per-frame verdicts (and still did after
    another recipe was loaded)."""
    from inference.tracking.recent import RecentTag
    from tests.test_gui import make_folder

    window = make_window(qtbot, tmp_path, make_folder(tmp_path, 1))
    window.start()
    qtbot.waitUntil(lambda: window.results.total >= 1 and not window.source_bar.running, timeout=30000)
    qtbot.waitUntil(lambda: window.current is not None, timeout=3000)
    link = window.line
    link.per_tag_action.trigger()
    qtbot.waitUntil(lambda: link.shows_tags, timeout=20000)
    link.per_tag_action.trigger()
    qtbot.waitUntil(lambda: not link.shows_tags, timeout=20000)
    link.tag_finished.emit(RecentTag(4, "NG", "product name 雪纺衫 ≠ expected 男士衬衫"))  # the old engine's last tag
    qtbot.waitUntil(lambda: len(link.tag_rows.tags) == 1, timeout=3000)  # listed and held, as journaled
    assert window.banner.verdict.text() == "no recipe" and "雪纺衫" not in window.banner.reasons.text()


@pytest.mark.parametrize("dark", [False, True])
def test_tag_text_confidences_and_not_found_are_readable_on_each_theme(qtbot, dark):
    """Tag text wrote a 78 % confidence in the banner's amber (2.3:1 on the light theme's white), 100 % in a green
    3.9:1 on the dark base, and 'not found' in a grey 2.6:1 on white; a theme change left the old colours."""
    import re

    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    from app.theme import apply_theme
    from app.widgets.text_panel import TextPanel
    from inference.detections import Detections
    from inference.pipeline import error_result
    from inference.postprocess import Thresholds
    from inference.reading.types import FieldReading, TagReading

    app = QApplication.instance()
    before = app.palette()
    try:
        apply_theme(app, not dark)
        boxes = Detections(np.array([[0, 0, 400, 300]], np.float32), np.array([0.9]), np.array([0]), ("hangtag",))
        fields = {"product_name": FieldReading("product_name", "雷纺衫", 0.78, "ocr"),
                  "size": FieldReading("size", "175/96A", 1.0, "ocr"), "price": FieldReading("price", "¥549.00", 0.4, "ocr")}
        tag = TagReading(0, (0.0, 0.0, 400.0, 300.0), fields=fields)
        frame = error_result(0, "000013.jpg", None, "x", Thresholds()).with_(error=None, detections=boxes,
                                                                              readings=(tag,))
        panel = TextPanel()
        qtbot.addWidget(panel)
        panel.show_result(frame, True)
        apply_theme(app, dark)  # the theme changed with the reads on screen
        qtbot.wait(20)
        base = app.palette().color(QPalette.ColorRole.Base)
        colours = set(re.findall(r"color:\s*(#[0-9a-fA-F]{6})", panel.view.toHtml()))
        assert len(colours) >= 4  # three confidences and 'not found'
        for colour in colours:
            assert contrast(QColor(colour), base) >= 4.5, (colour, base.name())
    finally:
        app.setPalette(before)


def test_the_headers_alarm_words_are_readable_on_each_theme_and_after_a_change(qtbot, tmp_path):
    """Dark theme: 'Recipe: none — pick a recipe' in the banner's red #d93025 was 2.9:1 on the #2b2d31 window."""
    import re

    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    from app.theme import apply_theme

    app = QApplication.instance()
    before = app.palette()
    try:
        window = make_window(qtbot, tmp_path)
        label = window.header.fields["recipe"]
        for dark in (True, False, True):
            apply_theme(app, dark)
            colour = re.search(r"color:\s*(#[0-9a-fA-F]{6})", label.styleSheet()).group(1)
            back = app.palette().color(QPalette.ColorRole.Window)
            assert contrast(QColor(colour), back) >= 4.5, (dark, colour, back.name())
    finally:
        app.setPalette(before)


@pytest.mark.parametrize("spec, expected", [
    ("watch:/srv/line-3", "The watched folder /srv/line-3 is open — press Start (Space)."),
    ("/srv/line-3", "/srv/line-3 is open — press Start (Space)."),
])
def test_a_watched_folder_is_named_in_words_not_by_the_stations_prefix(spec, expected):
    """The view said 'watch:/tmp/s23/watch is open — press Start (Space).'"""
    import dataclasses

    from app.main_window import view_note
    from app.station_state import OPEN, STOPPED, StationState

    state = dataclasses.replace(StationState(), source=spec, source_status=OPEN, run=STOPPED)
    assert view_note(state) == expected
