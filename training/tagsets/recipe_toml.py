"""A job's recipe in the station's TOML format, written from the correct tag (never from a defective one)."""

from __future__ import annotations

import json

from training.tagsets.values import TagValues

JUDGED_FIELDS = ("product_name", "style_number", "color", "size", "composition", "standard", "safety_category",
                 "grade", "price")


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def recipe_text(job: str, design: str, values: TagValues, printed: dict[str, str], symbology: str | None,
                has_qr: bool, barcodes: int = 1) -> str:
    """`printed` says which fields the design carries; the recipe expects the canonical value of each.
    `barcodes` counts the linear codes on the tag (a price sticker may repeat the EAN-13). A tag whose only
    code is a QR code (`symbology` None) gets `barcode = 0` and no [barcode] section: its code is a
    traceability link, not a number a recipe states."""
    expected = {name: getattr(values, name) for name in JUDGED_FIELDS if name in printed}
    if "price" in expected:
        expected["price"] = f"¥{values.price}"
    code = values.ean13 if symbology == "EAN-13" else values.style_number
    if symbology is None:
        barcodes = 0
    lines = [
        "[recipe]",
        f"name = {_quote(f'{job} {design} {values.style_number} {values.color} {values.size}')}",
        f"description = {_quote('independent test set (training.tagsets): one tag per frame')}",
        "",
        "[counts]",
        "hangtag = 1",
        f"barcode = {barcodes}",
    ]
    if has_qr:
        lines.append("qr_code = 1")
    lines += ["", "[fields]"]
    lines += [f"{name} = {_quote(value)}" for name, value in expected.items()]
    if "brand" in printed:
        lines.append("brand = { required = false }")
    if symbology is not None:
        lines += ["", "[barcode]", f"expected = {_quote(code)}", f"format = {_quote(symbology)}", "required = true"]
    lines.append("")
    return "\n".join(lines)
