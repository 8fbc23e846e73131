"""What the barcodes add to the OCR fields, and the one-line summary the operator reads first."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from inference.reading.barcodes import FINE_BARS_PX, product_ean, style_code_matches
from inference.reading.types import BarcodeReading, FieldReading

STYLE_CODE_FORMATS = ("Code128", "Code93", "Code39")
# A barcode whose check digit verifies is as certain as the station gets.
BARCODE_CONFIDENCE = 0.995
# A style number taken from a Code128 alone, with no printed 货号 read to confirm it.
UNCONFIRMED_STYLE_CONFIDENCE = 0.9


def merge_barcodes(fields: Mapping[str, FieldReading], codes: Sequence[BarcodeReading]) -> tuple[dict[str, FieldReading], list[str]]:
    """EAN from the EAN-13 (its check digit beats OCR), 货号 confirmed by or taken from a Code128."""
    merged = dict(fields)
    notes: list[str] = []
    ean = product_ean(codes)
    if ean is not None:
        printed = merged.get("ean13")
        raw = printed.raw if printed is not None else ""
        merged["ean13"] = FieldReading("ean13", ean.text, BARCODE_CONFIDENCE, "barcode", raw)
    style_codes = [c for c in codes if c.format in STYLE_CODE_FORMATS]
    if style_codes:
        printed = merged.get("style_number")
        match = next((c for c in style_codes if printed is not None and style_code_matches(printed.value, c.text)), None)
        if match is not None:
            merged["style_number"] = FieldReading("style_number", match.text, BARCODE_CONFIDENCE, "barcode", printed.raw)
        elif printed is None:
            code = style_codes[0]
            merged["style_number"] = FieldReading("style_number", code.text, UNCONFIRMED_STYLE_CONFIDENCE, "barcode", "")
            notes.append(f"style number {code.text} from the {code.format} only; printed 货号 not read")
        else:
            notes.append(f"printed 货号 {printed.value} ≠ {style_codes[0].format} {style_codes[0].text}")
    return merged, notes


def summarize(fields: Mapping[str, FieldReading], codes: Sequence[BarcodeReading]) -> str:
    """'MUJIAN 男式休闲裤 V2185-00 · 米白 · 170/88A · ¥899.00 · EAN ✓' — what, which, how much."""
    def value(name: str) -> str:
        reading = fields.get(name)
        return reading.value if reading is not None else ""

    head = " ".join(v for v in (value("brand"), value("product_name"), value("style_number")) if v)
    parts = [p for p in (head, value("color"), value("size"), value("price")) if p]
    linear = [c for c in codes if "QR" not in c.format]
    if not linear:
        parts.append("barcode unreadable")
    elif any(c.valid_checksum is False for c in linear):
        parts.append("barcode check digit wrong")
    elif linear[0].module_px is not None and linear[0].module_px < FINE_BARS_PX:
        parts.append(f"{linear[0].format} from bars {linear[0].module_px:.1f} px wide, unsure")
    else:
        parts.append(f"{linear[0].format} ✓")
    missing = [n for n in ("style_number", "size", "price") if n not in fields]
    if missing:
        parts.append("not read: " + ", ".join(m.replace("_", " ") for m in missing))
    return " · ".join(parts) if parts else "nothing read"
