"""Adapt in the station's window, end to end: collect → correct → fine-tune (tiny, CPU) → compare →
adopt → roll back, with a screenshot of each step in test-artifacts/."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path
from types import SimpleNamespace

import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QPoint, QSettings, Qt  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.settings import StationSettings  # noqa: E402
from inference.adapt.finetune import FineTuneSettings  # noqa: E402
from inference.records.convert import file_hash  # noqa: E402
from inference.resources import default_model_path, samples_dir  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
SHOTS = ("adapt_1_collect", "adapt_2_correct", "adapt_3_finetune", "adapt_4_compare", "adapt_5_adopt")


def sample_folder(tmp_path: Path, names: list[str], name: str) -> Path:
    folder = tmp_path / name
    folder.mkdir()
    for n in names:
        shutil.copyfile(samples_dir() / n, folder / n)
    return folder


def open_window(qtbot, tmp_path: Path, source: Path) -> MainWindow:
    settings = StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))
    window = MainWindow(source=str(source), backend="onnxruntime-cpu", settings=settings, read=False,
                        journal_path=tmp_path / "journal.sqlite3", testing=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None, timeout=60000)
    return window


def inspect_all(qtbot, window: MainWindow, count: int) -> None:
    before = window.results.total
    window.start()
    qtbot.waitUntil(lambda: window.results.total >= before + count, timeout=120000)
    window.results.flush()


def shoot(widget, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / f"{name}.png"
    widget.grab().save(str(path))
    return path


def session_hashes(journal: Path) -> list[str]:
    with sqlite3.connect(journal) as db:
        return [r[0] for r in db.execute("SELECT model_hash FROM sessions ORDER BY id")]


def test_adapt_collect_correct_finetune_compare_adopt_roll_back(qtbot, tmp_path, monkeypatch):
    pytest.importorskip("torch", reason="fine-tuning needs PyTorch: pip install -e '.[train]'")
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    images = sorted(p.name for p in samples_dir().glob("*.jpg"))
    line = sample_folder(tmp_path, images[:4], "line")
    extra = sample_folder(tmp_path, images[4:6], "extra")
    window = open_window(qtbot, tmp_path, line)
    inspect_all(qtbot, window, 4)

    action = next(a for a in window.file_menu.actions() if a.text().startswith("Adapt the detector"))
    action.trigger()
    adapt = window.adapt_window
    qtbot.waitExposed(adapt)
    state, folder = adapt.state, adapt.state.folder
    assert folder.root == tmp_path / "data" / "adapt"

    # 1 Collect: the frame on screen, two rows of the results table, a folder; suggestions are offered
    adapt.tabs.setCurrentIndex(0)
    adapt.collect.keep_screen.click()
    window.table.selectRow(0)
    window.table.selectionModel().select(window.results.index(1, 0), window.table.selectionModel().SelectionFlag.Select
                                         | window.table.selectionModel().SelectionFlag.Rows)
    adapt.collect.keep_rows.click()
    adapt.collect.keep_images_from(extra)
    adapt.collect.find_unsure.click()
    assert "of the 4 frames in the Results table were unsure" in adapt.collect.status.text()
    assert len(folder.frames()) == 5
    assert adapt.collect.table.rowCount() == 5
    assert {f.origin.split(":")[0] for f in folder.frames()} >= {"live view", "results table"}
    shoot(adapt, SHOTS[0])

    # 2 Correct: each frame opens pre-labelled by the model; the engineer edits with mouse and keys
    adapt.tabs.setCurrentIndex(1)
    page, editor = adapt.correct, adapt.correct.editor
    page.list.setCurrentRow(0)
    first = folder.frames()[0]
    drafted = list(editor.boxes)
    assert drafted and all(b.source == "model" for b in drafted)
    assert first.boxes == tuple(drafted)  # the draft is saved in the folder at once
    qtbot.keyClick(editor, Qt.Key.Key_Tab)  # select the first box
    assert editor.selected == 0
    qtbot.keyClick(editor, Qt.Key.Key_Delete)
    assert len(editor.boxes) == len(drafted) - 1
    qtbot.keyClick(editor, Qt.Key.Key_Z, Qt.KeyboardModifier.ControlModifier)  # undo the delete
    assert editor.boxes == drafted
    # draw a new box, give it class 3 (qr_code), then drag its bottom-right corner further out
    qtbot.keyClick(editor, Qt.Key.Key_Escape)
    a, b = editor.to_screen(10, 10), editor.to_screen(60, 50)
    qtbot.mousePress(editor, Qt.MouseButton.LeftButton, pos=a.toPoint())
    qtbot.mouseMove(editor, b.toPoint())
    qtbot.mouseRelease(editor, Qt.MouseButton.LeftButton, pos=b.toPoint())
    assert len(editor.boxes) == len(drafted) + 1 and editor.selected == len(drafted)
    qtbot.keyClick(editor, Qt.Key.Key_3)
    assert editor.boxes[-1].class_id == 2
    corner, further = editor.to_screen(*editor.boxes[-1].xyxy[2:]), editor.to_screen(80, 70)
    qtbot.mousePress(editor, Qt.MouseButton.LeftButton, pos=corner.toPoint())
    qtbot.mouseMove(editor, further.toPoint())
    qtbot.mouseRelease(editor, Qt.MouseButton.LeftButton, pos=further.toPoint())
    x1, y1, x2, y2 = editor.boxes[-1].xyxy
    assert abs(x1 - 10) < 3 and abs(y1 - 10) < 3 and abs(x2 - 80) < 3 and abs(y2 - 70) < 3
    shoot(adapt, SHOTS[1])
    qtbot.keyClick(editor, Qt.Key.Key_Delete)  # the drawn box was only practice
    assert editor.boxes == drafted
    for _ in folder.frames():  # Enter: the boxes are right, next frame (pre-labelled on opening)
        qtbot.keyClick(editor, Qt.Key.Key_Return)
    assert all(f.corrected and f.boxes for f in folder.frames())
    coco = json.loads(folder.annotations_path.read_text())
    assert len(coco["images"]) == 5 and len(coco["annotations"]) == sum(len(f.boxes) for f in folder.frames())
    assert [c["name"] for c in coco["categories"]] == ["hangtag", "barcode", "qr_code"]

    # 3 Fine-tune: a cancelled run writes nothing; a tiny CPU run writes a candidate, epoch by epoch
    adapt.tabs.setCurrentIndex(2)
    train = adapt.train
    assert train.start_button.isEnabled()
    tiny = FineTuneSettings(epochs=1, batch=2, imgsz=320, held_out_fraction=0.2)
    train.start(tiny)
    train.cancel_button.click()
    qtbot.waitUntil(lambda: not train.job.running, timeout=300000)
    # the job's last progress and its "cancelled" arrive as queued signals: wait for the last one
    qtbot.waitUntil(lambda: "cancelled" in train.status.text(), timeout=30000)
    assert state.candidate is None
    assert not list((folder.root / "candidates").iterdir())
    cancelled_job = train.job
    train.start(tiny)
    qtbot.waitUntil(lambda: state.candidate is not None or "failed" in train.status.text(), timeout=600000)
    assert state.candidate is not None, train.status.text()
    candidate = state.candidate
    assert train.table.rowCount() == 2  # before, epoch 1
    assert train.table.item(0, 0).text() == "before" and float(train.table.item(1, 1).text()) > 0
    # a signal the cancelled run left queued reaches the page late: the run on show keeps its own table
    late = SimpleNamespace(epoch=1, epochs=1, loss=9.0, held_out_ap50={n: 0.0 for n in state.class_names}, elapsed_s=1.0)
    cancelled_job.progress.emit(late)
    cancelled_job.cancelled.emit("late")
    assert train.table.rowCount() == 2 and "Candidate written" in train.status.text()
    assert candidate.model_path.is_file() and (candidate.directory / "MODEL_CARD.md").is_file()
    assert (candidate.train_frames, candidate.held_out_frames) == (4, 1)
    shoot(adapt, SHOTS[2])

    # 4 Compare: held-out frames and the golden set, current against candidate
    adapt.tabs.setCurrentIndex(3)
    assert not adapt.adopt.adopt_button.isEnabled()  # nothing is adopted blind
    adapt.compare.verdict_frames.setValue(1)  # read and judge one frame per set with each model: enough here
    adapt.compare.run_button.click()
    qtbot.waitUntil(lambda: state.comparison is not None or "failed" in adapt.compare.status.text(), timeout=300000)
    assert state.comparison is not None, adapt.compare.status.text()
    names = [s.name for s in state.comparison.sets]
    assert names == ["held-out frames", "golden set"]
    golden = state.comparison.sets[1]
    assert golden.current.frames == 24 and golden.current.ap50["hangtag"] > 0.95
    labels = [adapt.compare.table.item(r, 0).text() for r in range(adapt.compare.table.rowCount())]
    assert "    AP50 hangtag" in labels and "    false tags per 100 frames" in labels
    assert golden.verdicts.eligible == 10 and golden.verdicts.current.good == 1  # verdicts too, not boxes alone
    assert (candidate.directory / "comparison.json").is_file()
    shoot(adapt, SHOTS[3])

    # 5 Adopt: the station switches to the candidate and journals its hash; roll back returns
    adapt.tabs.setCurrentIndex(4)
    adapt.adopt.adopt_button.click()
    adopted = tmp_path / "data" / "models"
    assert window.model_path.parent == adopted and file_hash(window.model_path) == candidate.model_hash
    qtbot.waitUntil(lambda: Path(window.pipeline.engine.model_path) == window.model_path, timeout=60000)
    window.open_source(str(line))
    inspect_all(qtbot, window, 4)
    window.records.recorder.end()
    assert session_hashes(tmp_path / "journal.sqlite3")[-1] == candidate.model_hash
    assert adapt.adopt.back_button.isEnabled()
    shoot(adapt, SHOTS[4])
    adapt.adopt.back_button.click()
    assert window.model_path == default_model_path()
    assert adapt.state.store.previous() is None and not adapt.adopt.back_button.isEnabled()
    qtbot.waitUntil(lambda: Path(window.pipeline.engine.model_path) == default_model_path(), timeout=60000)
    window.open_source(str(line))
    inspect_all(qtbot, window, 4)
    window.records.recorder.end()
    assert session_hashes(tmp_path / "journal.sqlite3")[-1] == file_hash(default_model_path())
    # a candidate folder made elsewhere (hangtag-inspect adapt on a GPU server) opens for comparison, not adoption
    adapt.compare.open_candidate(candidate.directory)
    assert state.candidate.model_hash == candidate.model_hash and not adapt.adopt.adopt_button.isEnabled()
    adapt.compare.open_candidate(tmp_path)
    assert "Not a candidate folder" in adapt.compare.status.text()
    adapt.close()


def test_adapt_is_an_engineers_action(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    window = open_window(qtbot, tmp_path, sample_folder(tmp_path, ["090000000.jpg"], "line"))
    action = next(a for a in window.file_menu.actions() if a.text().startswith("Adapt the detector"))
    assert action.isVisible()
    window.modes.set_mode("operator")
    assert not action.isVisible()


def test_the_held_out_share_says_what_it_is_a_share_of(qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    window = open_window(qtbot, tmp_path, sample_folder(tmp_path, ["090000000.jpg"], "line"))
    window.adapt_detector()
    held_out = window.adapt_window.train.held_out
    assert held_out.text() == "0.20 of the corrected frames" and held_out.value() == 0.2


def test_the_kept_frames_list_counts_the_boxes_the_model_just_drew(qtbot, tmp_path, monkeypatch):
    """Opening a kept frame pre-labels it; its entry said '0 boxes' beside three dashed boxes."""
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    window = open_window(qtbot, tmp_path, sample_folder(tmp_path, ["090000022.jpg"], "line"))
    inspect_all(qtbot, window, 1)
    qtbot.waitUntil(lambda: window.current_image is not None, timeout=10000)
    window.adapt_detector()
    adapt = window.adapt_window
    adapt.collect.keep_screen.click()
    adapt.tabs.setCurrentIndex(1)
    page = adapt.correct
    page.list.setCurrentRow(0)
    drawn = len(page.editor.boxes)
    assert drawn > 0
    assert page.list.item(0).text().endswith(f"{drawn} boxes")
    qtbot.keyClick(page.editor, Qt.Key.Key_Tab)  # select a box and delete it: the draft is saved, the entry follows
    qtbot.keyClick(page.editor, Qt.Key.Key_Delete)
    assert page.list.item(0).text().endswith(f"{drawn - 1} boxes")


def test_a_data_folder_on_a_long_path_never_widens_the_adapt_window(qtbot, tmp_path, monkeypatch):
    """Its label asked for the whole path: a folder on a share three hundred characters deep made the window wider
    than any station screen."""
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    window = open_window(qtbot, tmp_path, sample_folder(tmp_path, ["090000000.jpg"], "line"))
    from app.adapt.window import AdaptWindow

    deep = tmp_path.joinpath(*["line-3 adapt data on the shared drive"] * 8)
    adapt = AdaptWindow(window, data_dir=deep)
    qtbot.addWidget(adapt)
    adapt.resize(1200, 680)
    adapt.show()
    qtbot.waitExposed(adapt)
    label = adapt.collect.folder_label
    assert label.text().startswith("0 kept, 0 corrected — data folder: ") and label.toolTip() == str(deep)
    assert adapt.minimumSizeHint().width() <= 1280 and adapt.width() <= 1280


def test_box_editor_draws_in_image_pixels_whatever_the_widget_size(qtbot):
    import numpy as np

    from app.adapt.box_editor import BoxEditor

    editor = BoxEditor(("hangtag", "barcode", "qr_code"))
    qtbot.addWidget(editor)
    editor.resize(800, 400)
    editor.show()
    editor.set_frame(np.zeros((200, 400, 3), np.uint8), [])
    a, b = editor.to_screen(100, 50), editor.to_screen(300, 150)
    qtbot.mousePress(editor, Qt.MouseButton.LeftButton, pos=a.toPoint())
    qtbot.mouseMove(editor, b.toPoint())
    qtbot.mouseRelease(editor, Qt.MouseButton.LeftButton, pos=b.toPoint())
    assert len(editor.boxes) == 1
    assert np.allclose(editor.boxes[0].xyxy, (100, 50, 300, 150), atol=1.5)
    # a click (no drag) on empty image is no box; a drag inside the box moves it
    qtbot.mouseClick(editor, Qt.MouseButton.LeftButton, pos=QPoint(5, 5))
    assert len(editor.boxes) == 1
    inside, moved = editor.to_screen(200, 100), editor.to_screen(220, 110)
    qtbot.mousePress(editor, Qt.MouseButton.LeftButton, pos=inside.toPoint())
    qtbot.mouseMove(editor, moved.toPoint())
    qtbot.mouseRelease(editor, Qt.MouseButton.LeftButton, pos=moved.toPoint())
    assert np.allclose(editor.boxes[0].xyxy, (120, 60, 320, 160), atol=1.5)


def test_box_editor_names_each_box_white_on_its_class_colour(qtbot):
    """Bare coloured names were lost on fabric, and two barcodes' names ran into each other."""
    import numpy as np
    from PySide6.QtGui import QColor

    from app.adapt.box_editor import BoxEditor
    from app.theme import class_color
    from inference.adapt.folder import Box

    editor = BoxEditor(("hangtag", "barcode", "qr_code"))
    qtbot.addWidget(editor)
    editor.resize(400, 400)
    editor.show()
    editor.set_frame(np.full((400, 400, 3), (120, 140, 40), np.uint8), [Box((100.0, 200.0, 300.0, 300.0), 1)])
    top_left = editor.to_screen(100, 200)
    ground = editor.grab().toImage().pixelColor(int(top_left.x()) + 2, int(top_left.y()) - 6)
    assert ground == QColor(class_color("barcode", 1))
    # a second box whose name would cover the first's has it inside its own top edge
    editor.set_frame(np.full((400, 400, 3), (120, 140, 40), np.uint8),
                     [Box((100.0, 200.0, 300.0, 300.0), 1), Box((110.0, 203.0, 290.0, 290.0), 0)])
    image, second = editor.grab().toImage(), editor.to_screen(110, 203)
    assert image.pixelColor(int(top_left.x()) + 2, int(top_left.y()) - 6) == QColor(class_color("barcode", 1))
    assert image.pixelColor(int(second.x()) + 2, int(second.y()) + 6) == QColor(class_color("hangtag", 0))


def test_the_adapt_window_fits_the_screen_it_opens_on(qtbot):
    from PySide6.QtGui import QGuiApplication

    from app.adapt.window import _fitted

    free = QGuiApplication.primaryScreen().availableGeometry()
    width, height = _fitted(1200, 780)
    assert width <= min(1200, free.width()) and height <= free.height() - 40


def test_a_video_frame_on_screen_is_kept_from_its_pixels(qtbot, tmp_path, monkeypatch):
    """A line recording on screen: 'Keep frame on screen' copied line.avi as the frame and said 'this file is not an
    image the station can read … pick image files'. The frame is kept from its pixels, and so are the Results
    table's rows of the video."""
    import cv2

    from inference.imageio import read_image

    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    tag = cv2.resize(read_image(samples_dir() / "090000022.jpg"), (320, 240))
    video = tmp_path / "line.avi"
    writer = cv2.VideoWriter(str(video), cv2.VideoWriter_fourcc(*"MJPG"), 10, (320, 240))
    for _ in range(3):
        writer.write(tag)
    writer.release()
    window = open_window(qtbot, tmp_path, video)
    window.step()
    qtbot.waitUntil(lambda: window.current_image is not None and window.results.total >= 1, timeout=60000)
    window.results.flush()
    window.adapt_detector()
    collect = window.adapt_window.collect
    collect.keep_screen.click()
    assert "not an image" not in collect.status.text() and collect.status.text().startswith("Kept line.avi#")
    frames = window.adapt_window.state.folder.frames()
    assert len(frames) == 1 and frames[0].origin.startswith("live view: line.avi#")
    assert Path(frames[0].file_name).suffix.lower() in (".jpg", ".png")
    image, _ = window.adapt_window.state.link.frame_at(0)
    assert image is not None and image.shape[:2] == (240, 320)
