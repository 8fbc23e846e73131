"""What the reader hands to the verdict, the text panel and the journal: immutable, plain values.

All boxes are (x1, y1, x2, y2) in original image pixels, so the GUI can draw them over the frame
without knowing how the tag was cropped or turned upright.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from decimal import Decimal
from types import MappingProxyType
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from inference.reading.symbol_views import BarMeasure
    from inference.reading.spotting import Posteriors

FIELD_NAMES: tuple[str, ...] = (
    "product_name",
    "style_number",
    "color",
    "size",
    "composition",
    "standard",
    "safety_category",
    "grade",
    "price",
    "ean13",
    "brand",
)

FIELD_LABELS_ZH: Mapping[str, str] = MappingProxyType(
    {
        "product_name": "品名",
        "style_number": "货号",
        "color": "颜色",
        "size": "尺码",
        "composition": "成分",
        "standard": "执行标准",
        "safety_category": "安全技术类别",
        "grade": "等级",
        "price": "价格",
        "ean13": "条码",
        "brand": "品牌",
    }
)

SOURCES: tuple[str, ...] = ("ocr", "barcode", "vlm")

Box = tuple[float, float, float, float]


# A reading's note when its tag was read from a box grown past the detector's (reader.py); the views and reports
# outline that box where no paper outline was found.
GROWN_NOTE = "tag box grown"


@dataclass(frozen=True)
class FieldReading:
    """One field of one tag. `value` is normalized (half-width, canonical price, upper-case codes)."""

    name: str
    value: str
    confidence: float
    source: str
    raw: str = ""

    def __post_init__(self) -> None:
        if self.name not in FIELD_NAMES:
            raise ValueError(f"unknown field {self.name!r}; expected one of {', '.join(FIELD_NAMES)}")
        if self.source not in SOURCES:
            raise ValueError(f"unknown source {self.source!r}; expected one of {', '.join(SOURCES)}")
        object.__setattr__(self, "confidence", min(1.0, max(0.0, float(self.confidence))))


@dataclass(frozen=True)
class BarcodeReading:
    """A decoded 1D/2D code. `valid_checksum` is None for symbologies without a check digit we verify."""

    format: str
    text: str
    valid_checksum: bool | None
    xyxy: Box
    module_px: float | None = None  # a linear code's narrowest bar in frame pixels, from its decoded run


@dataclass(frozen=True)
class OcrLine:
    """One recognized text line; `char_confidences` and `char_alternatives` (runner-up characters)
    align with `text` when the recognizer gives them."""

    text: str
    confidence: float
    box: Box
    char_confidences: tuple[float, ...] = ()
    char_alternatives: tuple[str, ...] = ()
    # the recognizer's posteriors over the recipe's characters, while the reader verifies; dropped after
    posteriors: Posteriors | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class MarkedSize:
    """The entry a printed size run marks (size_marks.py): the size read in it, the recognizer's weakest and mean
    character of that size, how far the entry stood out from its siblings (robust spreads) and ahead of the next
    (times) — for a chart's column framed by heavier rules, how much heavier they are than the grid's, and no lead
    (0) —, how many entries the run had, and what was read there."""

    value: str
    confidence: float
    typical: float
    standout: float
    lead: float
    entries: int
    read: str


@dataclass(frozen=True)
class SpottedField:
    """A recipe's expected value that a line's own posteriors support (spotting.py): printed as
    expected, though the line's best string differs by characters the recognizer doubted."""

    name: str
    expected: str
    confidence: float  # the weakest character's probability where it was placed
    deficit: float  # nats the alignment cost against the recognizer's best guesses
    line: str  # the line's best string, as read


@dataclass(frozen=True)
class TagReading:
    """Everything read from one hangtag; `fields` is read-only and keyed by field name."""

    tag_index: int
    xyxy: Box
    fields: Mapping[str, FieldReading] = field(default_factory=dict)
    barcodes: tuple[BarcodeReading, ...] = ()
    ocr_lines: tuple[OcrLine, ...] = ()
    summary: str = ""
    timings_ms: Mapping[str, float] = field(default_factory=dict)
    notes: tuple[str, ...] = ()
    rotation: int = 0
    # the same lines recognized again another way, where the first read left a field in doubt
    reread_lines: tuple[OcrLine, ...] = ()
    # why this detector box is not a hangtag ("no text and no barcode in it"); '' for a tag
    rejected: str = ""
    # no tag box was found: the frame was read as one tag around its symbols (reader.around_symbols), or whole
    whole_frame: bool = False
    # the detector's symbol boxes on this tag (image pixels), decoded or not: where captions sit
    symbol_boxes: tuple[Box, ...] = ()
    # sharpness of the tag's barcode area (variance of the Laplacian at a fixed scale); None if unmeasured
    focus: float | None = None
    # height of the tag's smaller printed lines (upright pixels ≈ frame pixels; the lower quartile of
    # its text boxes): print this low reads unsurely whatever the reader does. None if no line was read
    text_px: float | None = None
    # fields read as a different value whose difference a second read, from the tag box moved by a few
    # pixels, did not show: a read that changes with the crop is doubt, not evidence (REVIEW, not NG)
    unconfirmed: tuple[str, ...] = ()
    # the bars' edge blur and run, measured when a barcode box held bars nothing decoded (barcodes.measure_bars)
    bars: BarMeasure | None = None
    # expected values the recognizer's posteriors support, found while verifying against a recipe
    spotted: tuple[SpottedField, ...] = ()
    # the tag's paper outline where the reader found its four edges (outline.py): corners in frame pixels, top-left,
    # top-right, bottom-right, bottom-left of the upright tag; () where no outline was found. Shown, never judged
    paper: tuple[tuple[float, float], ...] = ()
    # the size marked in a printed size run (size_marks.py), read on its own while verifying; None where no run or
    # no entry stood out
    marked_size: MarkedSize | None = None
    # the lines of fields still in doubt after the second read, read by the recognizer fine-tuned for small print:
    # evidence that a field is printed as expected, never that it differs (verify.py, evidence.py)
    small_print_lines: tuple[OcrLine, ...] = ()
    # lines found while verifying that can show a field printed as expected, never that it differs: a label the text
    # detector boxed alone with the value read beside it (beside_labels.py), a price whose cents were measured to be
    # printed small and raised (raised_cents.py)
    confirm_only_lines: tuple[OcrLine, ...] = ()
    # letter sizes read from a size's glyphs turned back a quarter, on a tag read turned (its lines stood on end): a
    # size set across a vertical column (纵中横) lies on its side in the turned line and reads as another there
    turned_sizes: tuple[str, ...] = ()
    # the bars of the symbol box whose decode differs from the recipe's code, measured (reader.py) for both codes to
    # be verified against them: a decoder's misread is told from a wrong code (verdict.py); None elsewhere
    decoded_bars: BarMeasure | None = None
    # amounts printed struck through (a markdown's old price, struck_prices.py), measured while verifying a price:
    # never the price the tag charges now
    struck_prices: tuple[Decimal, ...] = ()

    def __post_init__(self) -> None:
        object.__setattr__(self, "xyxy", tuple(float(v) for v in self.xyxy))
        object.__setattr__(self, "fields", MappingProxyType(dict(self.fields)))
        object.__setattr__(self, "timings_ms", MappingProxyType(dict(self.timings_ms)))
        object.__setattr__(self, "barcodes", tuple(self.barcodes))
        object.__setattr__(self, "ocr_lines", tuple(self.ocr_lines))
        object.__setattr__(self, "reread_lines", tuple(self.reread_lines))
        object.__setattr__(self, "small_print_lines", tuple(self.small_print_lines))
        object.__setattr__(self, "confirm_only_lines", tuple(self.confirm_only_lines))
        object.__setattr__(self, "symbol_boxes", tuple(tuple(float(v) for v in box) for box in self.symbol_boxes))
        object.__setattr__(self, "notes", tuple(self.notes))
        object.__setattr__(self, "spotted", tuple(self.spotted))
        object.__setattr__(self, "unconfirmed", tuple(self.unconfirmed))
        object.__setattr__(self, "turned_sizes", tuple(self.turned_sizes))
        object.__setattr__(self, "paper", tuple((float(x), float(y)) for x, y in self.paper))

    @property
    def is_tag(self) -> bool:
        return not self.rejected

    def value(self, name: str) -> str | None:
        reading = self.fields.get(name)
        return reading.value if reading is not None else None

    def to_record(self) -> dict:
        """Plain dict for JSON lines, journals and reports."""
        return {
            "tag_index": self.tag_index,
            "xyxy": [round(v, 2) for v in self.xyxy],
            "rotation": self.rotation,
            "fields": {
                name: {"value": f.value, "confidence": round(f.confidence, 4), "source": f.source, "raw": f.raw}
                for name, f in self.fields.items()
            },
            "barcodes": [
                {"format": b.format, "text": b.text, "valid_checksum": b.valid_checksum, "xyxy": [round(v, 2) for v in b.xyxy],
                 "module_px": None if b.module_px is None else round(b.module_px, 2)}
                for b in self.barcodes
            ],
            "ocr_lines": [{"text": line.text, "confidence": round(line.confidence, 4)} for line in self.ocr_lines],
            "reread_lines": [{"text": line.text, "confidence": round(line.confidence, 4)} for line in self.reread_lines],
            "small_print_lines": [{"text": line.text, "confidence": round(line.confidence, 4)} for line in self.small_print_lines],
            "confirm_only_lines": [{"text": line.text, "confidence": round(line.confidence, 4)} for line in self.confirm_only_lines],
            "spotted": [{"field": s.name, "expected": s.expected, "confidence": round(s.confidence, 4),
                         "deficit": round(s.deficit, 3), "line": s.line} for s in self.spotted],
            "rejected": self.rejected,
            "focus": None if self.focus is None else round(self.focus, 1),
            "text_px": self.text_px,
            "unconfirmed": list(self.unconfirmed),
            "turned_sizes": list(self.turned_sizes),
            "summary": self.summary,
            "timings_ms": {k: round(v, 3) for k, v in self.timings_ms.items()},
            "notes": list(self.notes),
            "paper": [[round(x, 2), round(y, 2)] for x, y in self.paper],
        }
