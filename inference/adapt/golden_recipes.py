"""A recipe for each golden frame that shows one tag's front: what its truth says is printed.

Judged with it, such a frame is a good frame by construction (the tag is what the job asks for), so
any verdict but OK is the station's doing, and a candidate detector that turns it NG has made a
false NG. Frames with several tags or only a back side get none: one recipe cannot describe them.
"""

from __future__ import annotations

import json
from pathlib import Path

from inference.reading.recipe import Recipe, parse_recipe

# The fields a job usually pins down (as the independent test sets' recipes do); brand may be a logo.
JUDGED_FIELDS = ("product_name", "style_number", "color", "size", "composition", "standard", "safety_category",
                 "grade", "price")
SYMBOLOGY = {"EAN13": "EAN-13", "Code128": "Code128"}


def _quote(text: str) -> str:
    return json.dumps(text, ensure_ascii=False)  # a JSON string is a TOML basic string


def recipe_text(frame_name: str, tag: dict) -> str | None:
    """TOML for one front tag's truth (resources/samples/truth/*.json), or None when it prints nothing to judge."""
    fields = {k: v for k, v in (tag.get("fields") or {}).items() if k in JUDGED_FIELDS and v}
    if tag.get("side") != "front" or not fields:
        return None
    symbols = tag.get("symbols") or []
    barcodes = [s for s in symbols if s.get("class_name") == "barcode"]
    qr_codes = [s for s in symbols if s.get("class_name") == "qr_code"]
    lines = ["[recipe]", f"name = {_quote(f'golden {frame_name}')}",
             f"description = {_quote('what the golden frame prints, from its truth file')}", "",
             "[counts]", "hangtag = 1", f"barcode = {len(barcodes)}"]
    if qr_codes:
        lines.append(f"qr_code = {len(qr_codes)}")
    lines += ["", "[fields]"] + [f"{name} = {_quote(value)}" for name, value in fields.items()]
    ean = next((s for s in barcodes if s.get("format") == "EAN13"), None)
    if ean is not None:
        lines += ["", "[barcode]", f"expected = {_quote(ean['text'])}", 'format = "EAN-13"', "required = true"]
    return "\n".join(lines) + "\n"


def golden_recipes(root: Path) -> dict[str, Recipe]:
    """Image file name -> recipe, for the frames of `root`/truth/*.json that show exactly one front tag."""
    out: dict[str, Recipe] = {}
    for path in sorted((Path(root) / "truth").glob("*.json")):
        try:
            truth = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue  # a frame without readable truth is simply not judged
        tags = truth.get("tags") or []
        if len(tags) != 1:
            continue
        text = recipe_text(Path(truth.get("file_name", path.stem)).stem, tags[0])
        if text is not None:
            out[str(truth.get("file_name", f"{path.stem}.jpg"))] = parse_recipe(text, f"{path.name} (golden truth)")
    return out
