"""Teach job… in the window: the tag on screen, read by the station, becomes a recipe the engineer
corrects field by field (value, region dragged on the crop) and saves; the station then judges with it."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QPoint, QSettings, Qt  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.settings import StationSettings  # noqa: E402
from app.teach_dialog import TeachDialog  # noqa: E402
from inference.reading import load_recipe  # noqa: E402

SAMPLE = Path("resources/samples/090000022.jpg").resolve()
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"


@pytest.fixture
def window_on_sample(qtbot, tmp_path):
    settings = StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))
    window = MainWindow(source=str(SAMPLE), backend="onnxruntime-cpu", settings=settings, read=True,
                        journal_path=tmp_path / "journal.sqlite3", testing=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None, timeout=60000)
    window.start()
    qtbot.waitUntil(lambda: window.current is not None and bool(window.current.readings), timeout=120000)
    return window


def test_teach_a_job_from_the_tag_on_screen(qtbot, tmp_path, window_on_sample):
    window = window_on_sample
    tag = window.current.readings[0]
    dialog = TeachDialog(window.current_image, tag, tags_in_frame=1, recipes_dir=tmp_path, parent=window)
    qtbot.addWidget(dialog)
    dialog.show()
    names = [f.name for f in dialog.lesson.fields]
    size_row = names.index("size")
    assert dialog.table.item(size_row, 2).text() == "175/92A(XL)"
    assert dialog.table.item(size_row, 0).checkState() == Qt.CheckState.Checked
    # the engineer corrects the colour and redraws the size's region on the crop
    dialog.table.item(names.index("color"), 2).setText("米白")
    dialog.table.selectRow(size_row)
    crop = dialog.crop
    qtbot.mousePress(crop, Qt.MouseButton.LeftButton, pos=QPoint(crop.width() // 4, crop.height() // 2))
    qtbot.mouseMove(crop, QPoint(crop.width() * 3 // 4, crop.height() // 2 + 30))
    qtbot.mouseRelease(crop, Qt.MouseButton.LeftButton, pos=QPoint(crop.width() * 3 // 4, crop.height() // 2 + 30))
    ARTIFACTS.mkdir(exist_ok=True)
    dialog.grab().save(str(ARTIFACTS / "teach_job.png"))
    path = dialog.save(tmp_path / "taught.toml")
    assert path is not None and dialog.result() == dialog.DialogCode.Accepted
    recipe = load_recipe(path)
    assert recipe.field("color").expected == "米白"
    x1, y1, x2, y2 = recipe.field("size").region
    assert 0.15 < x1 < 0.3 and 0.7 < x2 < 0.85 and y2 > y1  # dragged from 1/4 to 3/4 of the crop widget (it letterboxes the tag)
    assert recipe.barcode.expected == "6958924207750"
    window.load_recipe(path)
    # the frame on screen is re-judged at once: the corrected colour is not what the tag says
    assert window.banner.verdict.text() == "NG"
    assert "color 白色 ≠ expected 米白" in window.banner.reasons.text()


def test_teach_job_is_an_engineers_action(qtbot, window_on_sample):
    window = window_on_sample
    action = next(a for a in window.file_menu.actions() if a.text().startswith("Teach job"))
    assert action.isVisible()
    window.modes.set_mode("operator")
    assert not action.isVisible()


def test_the_tag_text_panel_marks_a_box_that_is_not_a_tag(qtbot):
    from app.widgets.text_panel import TextPanel
    from inference.reading import TagReading

    panel = TextPanel()
    qtbot.addWidget(panel)
    coin = TagReading(1, (400.0, 10.0, 500.0, 100.0), rejected="no text and no barcode in the box: not a hangtag")
    html = panel._tag_html(coin)
    assert "Box 2: not a hangtag" in html and "not counted and not judged" in html


def test_the_tag_text_panel_says_a_size_came_from_the_entry_a_printed_run_marks(qtbot):
    from app.widgets.text_panel import TextPanel
    from inference.reading import TagReading
    from inference.reading.types import FieldReading, MarkedSize

    panel = TextPanel()
    qtbot.addWidget(panel)
    size = FieldReading("size", "175/84A", 0.93, "ocr", "175/84A (the marked entry of 5)")
    marked = MarkedSize("175/84A", 0.93, 0.97, 6.1, 3.2, 5, "175/84A")
    run = TagReading(0, (0.0, 0.0, 300.0, 500.0), fields={"size": size}, marked_size=marked)
    assert "ocr, marked in a printed run of 5 sizes" in panel._tag_html(run)
    plain = TagReading(0, (0.0, 0.0, 300.0, 500.0), fields={"size": size})
    assert "marked" not in panel._tag_html(plain)


def test_the_tag_text_panel_shows_one_tag_boxed_in_two_parts_as_that_tag(qtbot):
    """The verdict judged two boxes as one open two-panel tag: the panel shows one tag with every field, not two
    tags each lacking the other's half (an OK banner over 'not found' rows)."""
    from types import SimpleNamespace

    from app.widgets.text_panel import TextPanel, as_judged
    from inference.reading import TagReading
    from inference.reading.types import FieldReading
    from inference.reading.verdict import FrameVerdict, Verdict

    left = TagReading(0, (0, 0, 300, 600), {"product_name": FieldReading("product_name", "羊毛针织衫", 0.97, "ocr")})
    right = TagReading(1, (296, 4, 590, 604), {"price": FieldReading("price", "¥259.00", 0.97, "ocr")})
    result = SimpleNamespace(readings=(left, right), verdict=FrameVerdict(Verdict.OK, (), (), ((0, 1),)))
    (shown,) = as_judged(result)
    assert set(shown.fields) == {"product_name", "price"} and shown.xyxy == (0.0, 0.0, 590.0, 604.0)
    panel = TextPanel()
    qtbot.addWidget(panel)
    html = panel._tag_html(shown)
    assert "羊毛针织衫" in html and "¥259.00" in html and "read as one tag with the box beside it" in html
    assert len(as_judged(SimpleNamespace(readings=(left, right), verdict=FrameVerdict(Verdict.NG, ())))) == 2


def test_the_tag_text_panel_says_a_decode_was_misread_and_a_value_found_within_doubts(qtbot):
    """Under an OK banner, a decode unlike the recipe's code is marked as the misread the verdict found it to be, and
    a field verified within the recognizer's doubts says why its Conf. is low."""
    from app.widgets.text_panel import TextPanel
    from inference.reading import TagReading
    from inference.reading.types import BarcodeReading, FieldReading, SpottedField
    from inference.reading.verdict import BARS_MISREAD, Check, Verdict

    composition = FieldReading("composition", "再生纤维素纤维 70% 羊毛 30%", 0.02, "ocr", "成分：再生纤增索纤维70%羊毛30%")
    spotted = SpottedField("composition", "再生纤维素纤维 70% 羊毛 30%", 0.02, 0.0, "成分：再生纤增索纤维70%羊毛30%")
    code = BarcodeReading("EAN-13", "0941138649597", True, (10.0, 10.0, 90.0, 50.0))
    tag = TagReading(0, (0.0, 0.0, 300.0, 500.0), fields={"composition": composition}, barcodes=(code,), spotted=(spotted,))
    told = Check("barcode", 0, "6937838649597", "6937838649597", None,
                 f"{BARS_MISREAD}: the decoder's 0941138649597 is a misread", Verdict.OK)
    panel = TextPanel()
    qtbot.addWidget(panel)
    ean = FieldReading("ean13", "0941138649597", 0.99, "barcode", "0941138649597")
    tag = TagReading(0, (0.0, 0.0, 300.0, 500.0), fields={"composition": composition, "ean13": ean}, barcodes=(code,),
                     spotted=(spotted,))
    html = panel._tag_html(tag, (told,))
    assert html.count("a misread: the bars verify as 6937838649597") == 2  # the field's row and the code's line
    assert "within the recognizer" in html
    assert "misread" not in panel._tag_html(tag) and "within the recognizer" not in panel._tag_html(
        TagReading(0, (0.0, 0.0, 300.0, 500.0), fields={"composition": composition}))


def test_the_selected_fields_name_is_white_on_its_regions_colour_above_the_region(qtbot):
    """Its name was orange text with no ground, floating over the tag: on kraft paper it could not be read."""
    import numpy as np
    from PySide6.QtGui import QColor

    from app.teach_dialog import SELECTED_COLOR, TagCrop

    crop = TagCrop(np.full((400, 300, 3), (120, 170, 200), np.uint8))  # kraft-brown, BGR
    qtbot.addWidget(crop)
    crop.resize(300, 400)
    crop.show_regions([("品名 product name", (40, 100, 200, 140), True)])
    image = crop.grab().toImage()
    ground = image.pixelColor(42, 100 - 6)  # just above the region's top-left corner: the name's ground
    assert ground == QColor(SELECTED_COLOR)


@pytest.mark.parametrize("turn", [-18.6, 8.4, 13.2, 0.0])
def test_a_taught_region_is_the_height_of_its_line_on_a_turned_tag(qtbot, tmp_path, turn):
    """s5150 000000, a tag turned 18.6°: the 品名 line's region, 19 px of print, was drawn 78 px tall over the brand
    line above and the 货号 line below (composition's over five lines)."""
    import numpy as np

    from inference.reading.rectify import make_upright
    from inference.reading.types import FieldReading, OcrLine, TagReading

    image = np.full((600, 800, 3), 200, np.uint8)
    xyxy = (150.0, 100.0, 650.0, 500.0)
    upright = make_upright(image, xyxy, turn)
    h, w = upright.image.shape[:2]
    line = (w * 0.1, h * 0.4, w * 0.1 + 200, h * 0.4 + 18)  # a line of print on the upright tag
    raw = "品名：男士衬衫"
    tag = TagReading(0, xyxy, fields={"product_name": FieldReading("product_name", "男士衬衫", 0.99, "ocr", raw=raw)},
                     ocr_lines=(OcrLine(raw, 0.99, upright.to_image_box(line)),), rotation=turn)
    dialog = TeachDialog(image, tag, tags_in_frame=1, recipes_dir=tmp_path)
    qtbot.addWidget(dialog)
    region = next(f.region for f in dialog.lesson.fields if f.name == "product_name")
    x1, y1, x2, y2 = region[0] * w, region[1] * h, region[2] * w, region[3] * h
    assert abs((y2 - y1) - 18) <= 3 and abs((x2 - x1) - 200) <= 4, (x1, y1, x2, y2)
    assert abs((y1 + y2) / 2 - (line[1] + line[3]) / 2) <= 2
