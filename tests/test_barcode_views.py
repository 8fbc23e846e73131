"""Symbols as a camera sees them on a tag: zxing-cpp's own writer, then perspective, turn, blur,
sensor noise and JPEG. At 1.3-1.7 px per module with a pixel of blur the reader's earlier views
(resamplings of the box fed to zxing) read none of these; the bars' averaged profile reads them."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading import barcodes as bc
from inference.reading.rectify import bars_down_angle, turn_from_down_angle
from inference.reading.symbol_views import bar_profile_view

zxingcpp = pytest.importorskip("zxingcpp")

WRITER_PX = 4  # the writer draws this many pixels per module; the camera then shrinks it


def photographed(text: str, fmt: str, module_px: float, blur: float, degrees: float, perspective: float, seed: int,
                 bar_modules: int = 40) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A linear symbol on a grey-white tag: corners moved by up to `perspective` of its size, turned
    counter-clockwise, blurred (Gaussian sigma, px), noisy, JPEG 85; and the symbol's box."""
    code = zxingcpp.create_barcode(text, getattr(zxingcpp.BarcodeFormat, fmt))
    sym = np.asarray(zxingcpp.write_barcode_to_image(code, scale=WRITER_PX))
    sym = cv2.resize(sym, (sym.shape[1], bar_modules * WRITER_PX), interpolation=cv2.INTER_NEAREST)
    quiet = 15 * WRITER_PX
    sym = np.pad(sym, quiet, constant_values=255).astype(np.float32)
    h, w = sym.shape
    s = module_px / WRITER_PX
    rng = np.random.default_rng(seed)
    src = np.float32([[0, 0], [w, 0], [w, h], [0, h]])
    dst = src * s + (rng.uniform(-perspective, perspective, (4, 2)) * [w * s, h * s]).astype(np.float32)
    size = int(1.6 * max(w, h) * s)
    turn = np.vstack([cv2.getRotationMatrix2D((w * s / 2, h * s / 2), degrees, 1.0), [0, 0, 1]])
    matrix = turn @ cv2.getPerspectiveTransform(src, dst)
    matrix[0, 2] += size / 2 - w * s / 2
    matrix[1, 2] += size / 2 - h * s / 2
    image = cv2.warpPerspective(sym, matrix, (size, size), flags=cv2.INTER_AREA, borderValue=255)
    image = cv2.GaussianBlur(40 + image * (190 / 255), (0, 0), blur)
    image = np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 85])[1], cv2.IMREAD_GRAYSCALE)
    inked = np.ones((h - 2 * quiet, w - 2 * quiet), np.uint8)
    shifted = matrix @ np.array([[1, 0, quiet], [0, 1, quiet], [0, 0, 1.0]])
    ys, xs = np.nonzero(cv2.warpPerspective(inked, shifted, (size, size)))
    return image, (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


def read_as_the_reader_does(image: np.ndarray, box: tuple[float, float, float, float]) -> list[bc.DecodedCode]:
    x1, y1, x2, y2 = (int(v) for v in box)
    turn = turn_from_down_angle(bars_down_angle(image[y1:y2, x1:x2])[0])
    return bc.decode_symbol(image, box, turn)


SYMBOLS = [("AB2301-05", "Code128", "Code128"), ("D84016751", "Code93", "Code93"), ("6901234567892", "EAN13", "EAN-13")]


@pytest.mark.parametrize(("degrees", "seed"), [(17, 0), (-28, 1), (33, 2), (197, 3)])
@pytest.mark.parametrize(("text", "fmt", "name"), SYMBOLS)
def test_blurred_bars_under_perspective_are_read(text: str, fmt: str, name: str, degrees: float, seed: int) -> None:
    image, box = photographed(text, fmt, module_px=1.7, blur=1.1, degrees=degrees, perspective=0.04, seed=seed)
    codes = read_as_the_reader_does(image, box)
    assert [(c.format, c.text) for c in codes] == [(name, text)]
    cx, cy = np.mean(codes[0].quad, axis=0)
    assert box[0] <= cx <= box[2] and box[1] <= cy <= box[3]  # frame pixels, on the symbol
    assert (abs(codes[0].orientation) > 90) == (90 < degrees % 360 < 270)  # which end is up


@pytest.mark.parametrize("seed", [0, 1, 2])
@pytest.mark.parametrize(("text", "fmt", "name"), SYMBOLS)
def test_modules_under_one_and_a_half_pixels_are_read(text: str, fmt: str, name: str, seed: int) -> None:
    image, box = photographed(text, fmt, module_px=1.4, blur=0.8, degrees=12 + 9 * seed, perspective=0.03, seed=seed)
    assert [(c.format, c.text) for c in read_as_the_reader_does(image, box)] == [(name, text)]


def test_random_stripes_are_not_a_code() -> None:
    """Bars that encode nothing give a profile but no read: no code is invented from stripes."""
    rng = np.random.default_rng(7)
    widths = rng.integers(1, 5, 70) * 2
    row = np.concatenate([np.full(w, 40 if i % 2 == 0 else 230, np.uint8) for i, w in enumerate(widths)])
    image = np.pad(np.repeat(row[None, :], 60, axis=0), 40, constant_values=230)
    box = (40.0, 40.0, 40.0 + len(row), 100.0)
    assert bar_profile_view(image, box, 0.0) is not None
    assert bc.decode_symbol(image, box, 0.0) == []


def kraft_qr(text: str, module_px: float, blur: float, degrees: float, seed: int) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """A QR code stamped in brown-grey ink on kraft stock (low contrast, fibres), turned and blurred."""
    sym = np.asarray(zxingcpp.write_barcode_to_image(zxingcpp.create_barcode(text, zxingcpp.BarcodeFormat.QRCode), scale=8))
    sym = np.pad((sym >= 128).astype(np.float32), 80, constant_values=1.0)
    small = cv2.resize(sym, None, fx=module_px / 8, fy=module_px / 8, interpolation=cv2.INTER_AREA)
    h, w = small.shape
    small = cv2.warpAffine(small, cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0), (w, h), borderValue=1.0)
    rng = np.random.default_rng(seed)
    fibres = cv2.GaussianBlur(rng.normal(0, 1, small.shape).astype(np.float32), (0, 0), 1.2) * 12
    image = cv2.GaussianBlur(95 + 80 * small + fibres, (0, 0), blur)
    image = np.clip(image + rng.normal(0, 3, image.shape), 0, 255).astype(np.uint8)
    image = cv2.imdecode(cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, 80])[1], cv2.IMREAD_GRAYSCALE)
    half = (w - 160 * module_px / 8) / 2 * 1.45  # the turned symbol's box, a little loose
    return image, (w / 2 - half, h / 2 - half, w / 2 + half, h / 2 + half)


URL = "https://m.lanxi.cn/p/A174706-01"


@pytest.mark.parametrize("seed", [0, 1, 2, 3])
def test_stamped_qr_on_kraft_reads_from_the_square_views(seed: int) -> None:
    image, box = kraft_qr(URL, module_px=2.2, blur=0.8, degrees=10 + 13 * seed, seed=seed)
    assert bar_profile_view(image, box, 0.0) is None  # no bars: the square views come first
    assert [(c.format, c.text) for c in bc.decode_symbol(image, box, 0.0)] == [("QRCode", URL)]


def test_a_qr_code_without_its_box_is_found_in_the_tag() -> None:
    """The detector boxed only the bars; the QR code beside them is still read, and placed."""
    qr, _ = kraft_qr(URL, module_px=2.4, blur=0.6, degrees=20, seed=1)
    bars, bar_box = photographed("6901234567892", "EAN13", module_px=2.0, blur=0.6, degrees=0, perspective=0.0, seed=1)
    h = max(qr.shape[0], bars.shape[0])
    tag = np.full((h, qr.shape[1] + bars.shape[1]), 200, np.uint8)
    tag[: qr.shape[0], : qr.shape[1]] = qr
    tag[: bars.shape[0], qr.shape[1] :] = bars
    bar_box = (bar_box[0] + qr.shape[1], bar_box[1], bar_box[2] + qr.shape[1], bar_box[3])
    codes = bc.decode_symbols(tag, [bar_box], 0.0)
    assert sorted((c.format, c.text) for c in codes) == [("EAN-13", "6901234567892"), ("QRCode", URL)]
    qr_code = next(c for c in codes if c.format == "QRCode")
    assert np.mean(qr_code.quad, axis=0)[0] < qr.shape[1]
    assert [c.format for c in bc.decode_symbols(tag, [bar_box], 0.0, matrix_search=())] == ["EAN-13"]


@pytest.mark.parametrize(("text", "fmt", "name"), SYMBOLS)
def test_the_bars_say_whether_focus_is_why_they_do_not_read(text: str, fmt: str, name: str) -> None:
    """Sharp bars: the width and blur measured from the profile come out near the camera's, and the
    note says focus is not the cause. Bars as blurred as they are wide: nothing reads, and the note
    says so, with the numbers an engineer can act on."""
    sharp, box = photographed(text, fmt, module_px=2.0, blur=0.6, degrees=14, perspective=0.02, seed=5)
    measure = bc.measure_bars(sharp, box, turn_from_down_angle(bars_down_angle(sharp[int(box[1]):int(box[3]), int(box[0]):int(box[2])])[0]))
    assert measure is not None
    assert 1.8 <= measure.length_px / bc.module_count(name, text) <= 2.2
    assert 0.4 <= measure.blur_px <= 1.0
    assert bc.legibility_note(measure, name, text).startswith("sharp enough")

    blurred, box = photographed(text, fmt, module_px=1.3, blur=1.6, degrees=14, perspective=0.02, seed=5)
    x1, y1, x2, y2 = (int(v) for v in box)
    turn = turn_from_down_angle(bars_down_angle(blurred[y1:y2, x1:x2])[0])
    assert bc.decode_symbol(blurred, box, turn) == []
    note = bc.legibility_note(bc.measure_bars(blurred, box, turn), name, text)
    assert note.startswith("too blurred for bars this fine")
    assert bc.legibility_note(bc.measure_bars(blurred, box, turn)).startswith("bar edges blurred over sigma")


def test_no_bars_no_measure() -> None:
    image, box = kraft_qr(URL, module_px=2.2, blur=0.8, degrees=10, seed=0)
    assert bc.measure_bars(image, box, 0.0) is None
    assert bc.legibility_note(None) == "no bars found in the barcode box"


def test_a_view_reading_one_symbol_two_ways_reads_neither() -> None:
    """Bars 1.07 px wide (set 9505, sideways_block 000026, EAN-13 6918471661924): the averaged profile's rows read
    8911411661924 and 8910411661924, the second with a good check digit, which passes one misread in ten. It was
    taken as the tag's code and a good tag was NG; now that view reads nothing and no other view reads the bars."""
    from pathlib import Path

    gray = cv2.imread(str(Path(__file__).parent / "data" / "ean_fine_bars_two_reads.png"), cv2.IMREAD_GRAYSCALE)
    box = (20.56, 20.48, 80.74, 121.08)
    first_view = next(iter(bc._attempts(gray, box, 75.6, 0.25)))
    assert len({code.text for code in first_view}) == 2  # the view as it reads, with zxing
    assert all(code.text == "6918471661924" for code in bc.decode_symbol(gray, box, 75.6))


def test_a_qr_code_says_which_way_up_where_no_linear_code_does():
    """A QR code is printed upright: its finder patterns tell a tag's top from its bottom when the bars gave only
    the tag's line (two faint qr_first tags of the eighth set were read upside down); a sideways QR code says
    nothing, and neither does a tag without one."""
    from inference.reading.barcodes import DecodedCode
    from inference.reading.symbols import qr_upside_down

    def qr(*corners):
        return DecodedCode("QRCode", "https://example.cn/g/1", None, corners, 0)

    upright = qr((0, 0), (10, 0), (10, 10), (0, 10))
    turned = qr((10, 10), (0, 10), (0, 0), (10, 0))
    sideways = qr((10, 0), (10, 10), (0, 10), (0, 0))
    assert qr_upside_down([upright], 0.0) is False and qr_upside_down([upright], 20.0) is False
    assert qr_upside_down([turned], 0.0) is True and qr_upside_down([upright], 180.0) is True
    assert qr_upside_down([sideways], 0.0) is None
    assert qr_upside_down([], 0.0) is None
