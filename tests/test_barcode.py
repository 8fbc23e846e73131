"""zxing-cpp decoding of barcodes rendered here by zxing-cpp's own writer: any angle, check digits."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.reading import barcodes as bc
from inference.reading.rectify import bars_down_angle, turn_from_down_angle

zxingcpp = pytest.importorskip("zxingcpp")


def rendered(text: str, fmt: str, module_px: int = 2, pad: int = 60) -> np.ndarray:
    code = zxingcpp.create_barcode(text, getattr(zxingcpp.BarcodeFormat, fmt))
    image = np.asarray(zxingcpp.write_barcode_to_image(code, scale=module_px))
    return np.pad(image, pad, constant_values=255)


def turned(image: np.ndarray, degrees: float) -> tuple[np.ndarray, tuple[float, float, float, float]]:
    """Counter-clockwise turn on a canvas large enough to keep it all; box of the turned symbol."""
    h, w = image.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(matrix[0, 0]), abs(matrix[0, 1])
    out_w, out_h = int(h * s + w * c), int(h * c + w * s)
    matrix[0, 2] += out_w / 2 - w / 2
    matrix[1, 2] += out_h / 2 - h / 2
    out = cv2.warpAffine(image, matrix, (out_w, out_h), flags=cv2.INTER_LINEAR, borderValue=255)
    ys, xs = np.nonzero(out < 128)
    return out, (float(xs.min()), float(ys.min()), float(xs.max() + 1), float(ys.max() + 1))


@pytest.mark.parametrize("degrees", [0, 90, 180, 270, 17, -35, 135])
@pytest.mark.parametrize(("text", "fmt", "name"), [("6901234567892", "EAN13", "EAN-13"), ("AB2301-05", "Code128", "Code128")])
def test_any_angle_decodes_once_turned_by_the_bars(degrees: float, text: str, fmt: str, name: str) -> None:
    image, box = turned(rendered(text, fmt), degrees)
    x1, y1, x2, y2 = (int(v) for v in box)
    down, strength = bars_down_angle(image[y1:y2, x1:x2])
    assert strength > 0.5
    codes = bc.decode_symbol(image, box, turn_from_down_angle(down))
    assert [(c.format, c.text) for c in codes] == [(name, text)]
    upside_down = abs(codes[0].orientation) > 90
    true_turn = -degrees % 360
    assert abs(((turn_from_down_angle(down) + (180 if upside_down else 0) - true_turn) + 180) % 360 - 180) < 3


@pytest.mark.parametrize("degrees", [0, 23, 60])
def test_small_modules_need_the_upscaled_view(degrees: float) -> None:
    small = cv2.resize(rendered("6901234567892", "EAN13", module_px=2), None, fx=0.6, fy=0.6, interpolation=cv2.INTER_AREA)
    image, box = turned(small, degrees)  # 1.2 px per module
    assert [c.text for c in bc.decode(image) if c.valid_checksum] == []
    x1, y1, x2, y2 = (int(v) for v in box)
    codes = bc.decode_symbol(image, box, turn_from_down_angle(bars_down_angle(image[y1:y2, x1:x2])[0]))
    assert [c.text for c in codes] == ["6901234567892"]


def test_decoded_quad_is_in_frame_pixels() -> None:
    image, box = turned(rendered("6901234567892", "EAN13"), 30)
    code = bc.decode_symbol(image, box, -30.0)[0]
    cx, cy = np.mean(code.quad, axis=0)
    assert box[0] <= cx <= box[2] and box[1] <= cy <= box[3]


@pytest.mark.parametrize(
    ("fmt", "text", "ok"),
    [
        ("EAN-13", "6901234567892", True),
        ("EAN-13", "6901234567893", False),
        ("EAN-8", "96385074", True),
        ("EAN-8", "96385075", False),
        ("UPC-A", "036000291452", True),
        ("UPC-A", "036000291453", False),
        ("Code128", "AB2301-05", None),
        ("QRCode", "https://x.cn", None),
    ],
)
def test_check_digits(fmt: str, text: str, ok: bool | None) -> None:
    assert bc.checksum_ok(fmt, text) is ok


@pytest.mark.parametrize(
    ("fmt", "name"),
    [("EAN13", "EAN-13"), ("UPCA", "UPC-A"), ("Code128", "Code128"), ("QRCode", "QRCode"), ("Code39", "Code39")],
)
def test_format_names_are_stable(fmt: str, name: str) -> None:
    assert bc.format_name(getattr(zxingcpp.BarcodeFormat, fmt)) == name


@pytest.mark.parametrize("degrees", [0, 10, 45, -30, 90])
def test_bars_angle(degrees: float) -> None:
    image, box = turned(rendered("6901234567892", "EAN13"), degrees)
    down, strength = bars_down_angle(image)
    expected = (90 - degrees) % 180
    assert abs(((down - expected) + 90) % 180 - 90) < 1.5
    assert strength > 0.8


def test_noise_has_no_bar_angle() -> None:
    noise = np.random.default_rng(0).integers(0, 255, (80, 80)).astype(np.uint8)
    assert bars_down_angle(noise)[1] < 0.2


@pytest.mark.parametrize(("printed", "coded", "match"), [("AB23O1-O5", "AB2301-05", True), ("AB2301-05", "AB2301-06", False), ("", "AB", False)])
def test_printed_style_number_against_code128(printed: str, coded: str, match: bool) -> None:
    assert bc.style_code_matches(printed, coded) is match


def test_qr_code_decodes_without_bars() -> None:
    image = rendered("https://t.tag.cn/p/AB2301-05", "QRCode", module_px=3)
    codes = bc.decode(image)
    assert [(c.format, c.text, c.is_linear, c.valid_checksum) for c in codes] == [("QRCode", "https://t.tag.cn/p/AB2301-05", False, None)]
