"""Barcodes and QR codes with zxing-cpp: decode, verify check digits, and read the code's angle.

zxing reports linear codes with the end points of two scan lines; the shear between them is the
skew of the bars, so a decoded EAN also tells which way is up on the tag, to a degree or so.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from concurrent.futures import Executor
from dataclasses import dataclass

import cv2
import numpy as np

from inference.errors import BackendUnavailableError
from inference.reading.bar_verify import verify_bars  # noqa: F401 (for the verdict: the expected code fitted to blurred bars)
from inference.reading.normalize import code_key, ean8_check_ok, ean13_check_ok, upca_check_ok
from inference.reading.symbol_views import BarMeasure, BarProfileView, bar_profile_view, matrix_views, measure_bars  # noqa: F401 (measure_bars: for the reader)
from inference.reading.types import BarcodeReading

Quad = tuple[tuple[float, float], tuple[float, float], tuple[float, float], tuple[float, float]]

LINEAR_FORMATS = ("EAN-13", "EAN-8", "UPC-A", "UPC-E", "Code128", "Code93", "Code39", "ITF", "Codabar")
# zxing's spellings, for restricting a search: the retail and logistics linear codes a tag carries,
# and the matrix codes a "qr_code" box may hold.
ZXING_LINEAR = "EAN13,EAN8,UPCA,UPCE,Code128,Code93,Code39,ITF,Codabar"
ZXING_MATRIX = "QRCode,MicroQRCode,DataMatrix,Aztec"


def _zxing():
    try:
        import zxingcpp
    except ImportError as exc:
        raise BackendUnavailableError(
            "zxing-cpp is not installed", expected="the zxing-cpp package", found=str(exc), hint="pip install zxing-cpp"
        ) from exc
    return zxingcpp


@dataclass(frozen=True)
class DecodedCode:
    """One decoded symbol in the pixel frame of the array that was searched."""

    format: str
    text: str
    valid_checksum: bool | None
    quad: Quad
    orientation: int

    @property
    def is_linear(self) -> bool:
        return "QR" not in self.format and "Matrix" not in self.format and "Aztec" not in self.format and "PDF" not in self.format

    @property
    def xyxy(self) -> tuple[float, float, float, float]:
        xs = [p[0] for p in self.quad]
        ys = [p[1] for p in self.quad]
        return (min(xs), min(ys), max(xs), max(ys))

    def down_angle_deg(self) -> float:
        """Direction of the symbol's 'down' in the image, degrees (90 = upright, y grows downward).

        For linear codes zxing's left and right scan points shear with the bars, so the line from
        the top-left to the bottom-left point runs along a bar.
        """
        (x0, y0), (x1, y1), _, (x3, y3) = self.quad
        ux, uy = x1 - x0, y1 - y0
        vx, vy = -uy, ux  # reading direction turned 90°: "down" in the symbol's frame
        if not self.is_linear:
            return math.degrees(math.atan2(vy, vx))
        dx, dy = x3 - x0, y3 - y0
        if dx * vx + dy * vy < 0:
            dx, dy = -dx, -dy
        if math.hypot(dx, dy) < 4:  # degenerate scan lines: fall back to the reading direction
            dx, dy = vx, vy
        return math.degrees(math.atan2(dy, dx))


def upside_down(codes: Sequence[DecodedCode]) -> bool | None:
    """None when no linear code says; else whether the crop they were read in is upside down."""
    linear = [c for c in codes if c.is_linear]
    if not linear:
        return None
    anchor = next((c for c in linear if c.format == "EAN-13"), linear[0])
    return abs(anchor.orientation) > 90


def product_ean(codes: Sequence[BarcodeReading], expected: str | None = None) -> BarcodeReading | None:
    """Of a tag's EAN-13s whose check digit verifies, the product's: the recipe's where it was decoded, else the first
    that is no restricted-circulation number (GS1 prefixes 20-29: a shop's in-store code, printed beside the product's
    code on some tags, never a product's), else the first. Where the recipe names a product's code, an in-store code
    alone is none: it says nothing of the product's."""
    eans = [c for c in codes if c.format == "EAN-13" and c.valid_checksum]
    if expected is not None and any(c.text == expected for c in eans):
        return next(c for c in eans if c.text == expected)
    products = [c for c in eans if not _in_store(c.text)]
    if products or (expected is not None and not _in_store(expected)):
        return products[0] if products else None
    return eans[0] if eans else None


def _in_store(ean: str) -> bool:
    return ean[:1] == "2"


def format_name(fmt: object) -> str:
    """zxing's enum name with GS1's spelling for the retail codes: EAN-13, UPC-A, Code128, QRCode."""
    name = getattr(fmt, "name", None) or str(fmt).split(".")[-1].replace(" ", "")
    return {"EAN13": "EAN-13", "EAN8": "EAN-8", "UPCA": "UPC-A", "UPCE": "UPC-E"}.get(name, name)


def checksum_ok(fmt: str, text: str) -> bool | None:
    """EAN/UPC check digits are verified here; Code128/93 checks are inside the symbol (None)."""
    if fmt == "EAN-13":
        return ean13_check_ok(text)
    if fmt == "EAN-8":
        return ean8_check_ok(text)
    if fmt == "UPC-A":
        return upca_check_ok(text)
    return None


def decode(gray: np.ndarray, *, try_harder: bool = True, formats: str = "", binarizer: str = "", try_invert: bool | None = None) -> list[DecodedCode]:
    """All symbols in a grayscale (or BGR) array; codes with checksum errors are kept, marked invalid.

    `formats` restricts the search (zxing's names joined by commas, as ZXING_LINEAR); `binarizer` is
    zxing's ("LocalAverage" by default, "FixedThreshold" for views drawn already binary-like)."""
    zx = _zxing()
    options = {}
    if formats:
        options["formats"] = zx.barcode_formats_from_str(formats)
    if binarizer:
        options["binarizer"] = getattr(zx.Binarizer, binarizer)
    found = zx.read_barcodes(
        np.ascontiguousarray(gray),
        try_rotate=try_harder,
        try_downscale=try_harder,
        try_invert=try_harder if try_invert is None else try_invert,
        return_errors=True,
        **options,
    )
    out = []
    for code in found:
        fmt = format_name(code.format)
        if code.error and fmt not in ("EAN-13", "EAN-8", "UPC-A"):
            continue
        if not code.text:
            continue
        p = code.position
        quad = ((p.top_left.x, p.top_left.y), (p.top_right.x, p.top_right.y), (p.bottom_right.x, p.bottom_right.y), (p.bottom_left.x, p.bottom_left.y))
        valid = checksum_ok(fmt, code.text)
        if code.error and valid is None:
            valid = False
        out.append(DecodedCode(fmt, code.text, valid, tuple((float(x), float(y)) for x, y in quad), int(code.orientation)))
    return out


def _sharpen(image: np.ndarray) -> np.ndarray:
    return cv2.addWeighted(image, 1.8, cv2.GaussianBlur(image, (0, 0), 2.0), -0.8, 0)


@dataclass(frozen=True)
class _View:
    """One resampling of a symbol box straight from the frame: turned so its bars stand
    vertical, scaled (sx across the bars, sy along them), smoothed along the bars."""

    sx: float
    sy: float
    interpolation: int
    smooth: int
    sharpen: bool
    try_harder: bool


# Resamplings of the box tried after the bar profile: a single cubic resampling to 3x across the
# bars (smoothed along them), then the plain box with zxing's rotations, inversion and downscaling
# (a turn 90° off, light bars on a dark tag). On 72 scene barcodes the 3x view alone read all 58 of
# the first reader's; its 2x2 view read none the others missed, nor on 500 tagset symbols, and
# went. On those 500 the profile read 250, the 3x view 4 more, the plain view none more.
_VIEWS = (
    _View(3.0, 1.0, cv2.INTER_CUBIC, 5, True, False),
    _View(1.0, 1.0, cv2.INTER_LINEAR, 0, False, True),
)


def _view_matrix(box: tuple[float, float, float, float], turn_deg: float, view: _View, pad: float) -> tuple[np.ndarray, tuple[int, int]]:
    x1, y1, x2, y2 = box
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    side = max(x2 - x1, y2 - y1) * (1 + 2 * pad) + 8
    rot = np.vstack([cv2.getRotationMatrix2D((cx, cy), turn_deg, 1.0), [0.0, 0.0, 1.0]])
    matrix = np.diag([view.sx, view.sy, 1.0]) @ rot
    w, h = int(side * view.sx), int(side * view.sy)
    matrix[0, 2] += w / 2 - view.sx * cx
    matrix[1, 2] += h / 2 - view.sy * cy
    return matrix, (w, h)


def _resampled(gray: np.ndarray, box: tuple[float, float, float, float], turn_deg: float, pad: float,
               views: Sequence[_View]) -> Iterator[list[DecodedCode]]:
    for view in views:
        matrix, size = _view_matrix(box, turn_deg, view, pad)
        image = cv2.warpAffine(gray, matrix[:2], size, flags=view.interpolation, borderMode=cv2.BORDER_REPLICATE)
        if view.smooth:
            image = cv2.blur(image, (1, view.smooth))
        if view.sharpen:
            image = _sharpen(image)
        yield _mapped(decode(image, try_harder=view.try_harder), np.linalg.inv(matrix))


def _mapped(codes: Sequence[DecodedCode], back: np.ndarray) -> list[DecodedCode]:
    """Codes found in a view, their quads taken back to frame pixels by the view's inverse."""
    out = []
    for code in codes:
        pts = np.array(code.quad, np.float64) @ back[:2, :2].T + back[:2, 2]
        out.append(DecodedCode(code.format, code.text, code.valid_checksum, tuple((float(x), float(y)) for x, y in pts), code.orientation))
    return out


def _profile_codes(view: BarProfileView) -> list[DecodedCode]:
    """Linear codes read from the bars' averaged, sharpened profiles (symbol_views.py)."""
    out = []
    for code in decode(view.image, try_harder=False, formats=ZXING_LINEAR, binarizer="FixedThreshold", try_invert=True):
        pts = view.to_frame(np.array(code.quad), upside_down=abs(code.orientation) > 90)
        out.append(DecodedCode(code.format, code.text, code.valid_checksum, tuple((float(x), float(y)) for x, y in pts), code.orientation))
    return out


# A box whose bars fill this share of its height is a linear symbol's own box: no matrix-code views.
# On 500 tagset symbol boxes, 95 % of linear ones filled >= 0.3; the one QR box with bars in it, 0.07.
BARS_FILL = 0.25


def _attempts(gray: np.ndarray, box: tuple[float, float, float, float], turn_deg: float, pad: float) -> Iterator[list[DecodedCode]]:
    """Each way of reading the box, likeliest first for what the box shows; frame-pixel quads.
    Bars: their profile, then the 3x view. No bars (a QR code): the square views first."""
    view = bar_profile_view(gray, box, turn_deg, pad)
    if view is not None:
        yield _profile_codes(view)
        yield from _resampled(gray, box, turn_deg, pad, _VIEWS[:1])
    if view is None or view.fill < BARS_FILL:
        for image, back in matrix_views(gray, box, turn_deg, pad):
            yield _mapped(decode(image, try_harder=False, formats=ZXING_MATRIX, try_invert=False), back)
    yield from _resampled(gray, box, turn_deg, pad, _VIEWS[1:] if view is not None else _VIEWS)


def decode_symbol(gray: np.ndarray, box: tuple[float, float, float, float], turn_deg: float, pad: float = 0.25) -> list[DecodedCode]:
    """Decode the symbol in `box` (pixels of `gray`: the tag's crop, or the whole frame), the tag
    turned by `turn_deg`; quads come back in the pixels of `gray`. Views are tried until one reads
    the symbol at the box's centre: where the box shows bars, their averaged, sharpened profile and
    then a 3x resampling; where it shows none (a QR code), square upscaled views first; last, the
    plain box with zxing's own rotations (`_attempts`).

    A code whose check digit fails is a misread far more often than a misprint: it is reported
    (marked invalid) only when two views read the same digits. A view that reads the box's one symbol
    two ways (its profile rows gave 8910411661924 and 8911411661924 from bars a pixel wide, one with a good
    check digit) reads neither: a check digit passes one misread in ten.
    """
    found: list[DecodedCode] = []
    invalid: list[DecodedCode] = []
    centre = ((box[0] + box[2]) / 2, (box[1] + box[3]) / 2)
    for codes in _attempts(gray, box, turn_deg, pad):
        linear = [(code.format, code.text) for code in codes if code.is_linear]
        if len(set(linear)) > len({fmt for fmt, _text in linear}):
            continue
        for mapped in codes:
            if mapped.valid_checksum is False:
                if not any(mapped.text == f.text for f in invalid):
                    invalid.append(mapped)
                    continue
            if not any(mapped.text == f.text for f in found):
                found.append(mapped)
        if any(_near(code, centre, turn_deg) for code in found):
            break
    return found


def _near(code: DecodedCode, centre: tuple[float, float], turn_deg: float) -> bool:
    """Whether a decoded code is the symbol centred there (its scan band may be thin)."""
    pts = np.array(code.quad)
    mid = pts.mean(axis=0)
    extent = float(np.linalg.norm(pts[1] - pts[0]))
    return float(np.hypot(mid[0] - centre[0], mid[1] - centre[1])) <= 0.35 * extent + 6


def decode_symbols(gray: np.ndarray, boxes: Sequence[tuple[float, float, float, float]], turn_deg: float,
                   matrix_search: Sequence[float] = (1.0,), pool: Executor | None = None) -> list[DecodedCode]:
    """Every symbol in the boxes (pixels of `gray`, the tag's crop). When none of them is a matrix
    code, the whole crop is searched for one at the `matrix_search` scales: a detector that missed
    a QR code's box (a worn stamp on kraft stock) must not make the tag's QR code "none found".

    With a `pool` (threads: zxing lets go of the GIL while it decodes) the boxes after the first are
    decoded on its threads and the whole-crop search starts at once, its result kept only where no
    box holds a matrix code: the same codes in the same order, in about the time of the slowest."""
    search = pool.submit(find_matrix_codes, gray, matrix_search) if pool is not None and matrix_search else None
    if pool is not None and len(boxes) > 1:
        later = [pool.submit(decode_symbol, gray, box, turn_deg) for box in boxes[1:]]
        per_box: Iterable[list[DecodedCode]] = [decode_symbol(gray, boxes[0], turn_deg), *(f.result() for f in later)]
    else:
        per_box = (decode_symbol(gray, box, turn_deg) for box in boxes)
    out: list[DecodedCode] = []
    for codes in per_box:
        for code in codes:
            if not any(code.text == seen.text and code.format == seen.format for seen in out):
                out.append(code)
    if matrix_search and not any(not code.is_linear for code in out):
        out.extend(search.result() if search is not None else find_matrix_codes(gray, matrix_search))
    return out


def find_matrix_codes(gray: np.ndarray, scales: Sequence[float] = (1.0, 1.5)) -> list[DecodedCode]:
    """QR and other matrix codes anywhere in `gray`, at each scale in turn (above 1: cubic
    upscaling and an unsharp mask) until one reads; quads in the pixels of `gray`. At 1x a
    600-px tag costs a few ms; 1.5x costs about five times that."""
    for scale in scales:
        image = gray
        if scale != 1.0:
            image = cv2.resize(gray, None, fx=scale, fy=scale, interpolation=cv2.INTER_CUBIC)
            image = cv2.addWeighted(image, 2.0, cv2.GaussianBlur(image, (0, 0), 1.5 * scale), -1.0, 0)
        codes = decode(image, try_harder=False, formats=ZXING_MATRIX, try_invert=False)
        if codes:
            return _mapped(codes, np.diag([1 / scale, 1 / scale, 1.0]))
    return []


# Bars read while their edges' blur (sigma) is below this share of the narrowest bar's width: on 196
# tagset symbols (seed 4242), 128 of the 131 read were at or below 0.6, and 62 of the 65 not read above.
READABLE_BLUR_PER_MODULE = 0.6


def module_count(fmt: str, text: str) -> int | None:
    """How many narrowest-bar widths a linear symbol spans, first bar to last, from its format and
    text (Code 128 counted in code set B, or C for an even run of digits); None when unknown."""
    n = len(text)
    if fmt in ("EAN-13", "UPC-A"):
        return 95
    if fmt == "EAN-8":
        return 67
    if fmt == "UPC-E":
        return 51
    if fmt == "Code93":
        return 9 * (n + 4) + 1
    if fmt == "Code128":
        chars = n // 2 if text.isdigit() and n % 2 == 0 else n
        return 11 * (chars + 3) + 2
    if fmt == "Code39":
        return 13 * (n + 2) - 1
    if fmt == "ITF":
        return 9 * n + 9
    return None


def legibility_note(measure: BarMeasure | None, fmt: str = "", text: str = "") -> str:
    """Why bars that nothing decoded did not decode, as far as focus can tell, for a verdict's
    reason: the edges' blur against the bars' width when the expected code gives the width."""
    if measure is None:
        return "no bars found in the barcode box"
    modules = module_count(fmt, text) if fmt and text else None
    if modules is None:
        return f"bar edges blurred over sigma {measure.blur_px:.1f} px"
    bar = measure.length_px / modules
    ratio = measure.blur_px / bar
    if ratio > READABLE_BLUR_PER_MODULE:
        return (f"too blurred for bars this fine: edges blurred over sigma {measure.blur_px:.1f} px on bars {bar:.1f} px wide "
                f"({ratio:.2f}; reads up to {READABLE_BLUR_PER_MODULE}): focus, or bring the camera closer")
    return (f"sharp enough (edges sigma {measure.blur_px:.1f} px on bars {bar:.1f} px wide, {ratio:.2f}): "
            "look for damage, glare or a box that cuts the symbol")


# The source of a barcode check whose expected code was verified against bars nothing decoded (bar_verify.py).
BARS_VERIFIED = "barcode verified against the bars (not decoded)"


def to_reading(code: DecodedCode, box: tuple[float, float, float, float]) -> BarcodeReading:
    return BarcodeReading(code.format, code.text, code.valid_checksum, box, module_width(code))


# Bars narrower than this (frame pixels) decode wrong now and then with a good check digit, which passes one misread
# in ten: 6918471661924 read 8910411661924 from 1.0-px bars on a good tag of set 9505. Such a decode is not proof of
# another code (planted wrong codes on the generated sets sat on bars of 1.8 px and more). The width is the decoded run
# over the symbol's module count, which a Code 128 with code-set-C digits makes up to ~20 % low: 1.47 px measured on
# 1.82-px bars (a planted wrong style number, NG).
FINE_BARS_PX = 1.25


def module_width(code: DecodedCode) -> float | None:
    """A linear code's narrowest bar in the pixels of its quad: the decoded run's length over the symbol's
    module count (within ~10 % of the printed module on generated tags); None for matrix codes."""
    modules = module_count(code.format, code.text) if code.is_linear else None
    if not modules:
        return None
    pts = np.asarray(code.quad, np.float64)
    return float(np.linalg.norm(pts[1] - pts[0])) / modules


def style_code_matches(printed: str, coded: str) -> bool:
    """The 货号 printed on the tag and the one in its Code128, with O/0 and I/1 forgiven."""
    return bool(printed) and code_key(printed) == code_key(coded)
