"""One tag the detector outlined as two: the panels of a booklet photographed open, a wide tag boxed in halves.

Two tag boxes are two tags when each carries what a tag carries on its own. They are the two parts of one tag
when the boxes touch or overlap, neither repeats what the other holds (no checked field read after its label on
both as a value of its kind, no code decoded on each at its own place), and read together they verify more of the recipe than either does alone. Judged
as two, each part lacked the other's fields and the frame was NG for "2 hangtags, expected 1" with one tag in
view (an open two-panel tag: 4 of 14 good frames of the eighth test set). Judged as one, the count is one and
every field is looked for on both parts; what either part reads wrongly still counts against the tag. A tag folded
between its labels and their values, boxed as a label column and a value column, is one tag too
(label_columns.py).

A second tag of any job prints its own labels and its own code: it is never joined to the first, so a frame
with two tags stays NG.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from inference.detections import intersection
from inference.reading.evidence import another_fields_value, fits_grammar, gather
from inference.reading.fields import extract_fields
from inference.reading.label_columns import label_and_value_columns
from inference.reading.labels import carries_label
from inference.reading.lines import Box
from inference.reading.matching import Found
from inference.reading.recipe import Recipe
from inference.reading.repairs import FIBRES, GRADES
from inference.reading.summary import summarize
from inference.reading.types import FieldReading, TagReading

# The boxes touch or overlap: the gap between them at most this share of the smaller box's shorter side (two tags
# laid apart do not touch; a turned booklet's two boxes, and loose ones, overlap).
TOUCH_SHARE = 0.1
# Neither box lies mostly inside the other (a box round a tag and one round its printed panel).
MAX_NESTED_SHARE = 0.5
JOINED_NOTE = "read as one tag with the box beside it: the detector outlined its two parts apart"


def one_tag_in_parts(recipe: Recipe, tags: Sequence[TagReading]) -> tuple[list[TagReading], int]:
    """The tags to judge, two parts of one tag joined, and how many detector boxes the joining took away."""
    tags = list(tags)
    if len(tags) != 2 or not _fewer_expected(recipe):
        return tags, 0
    a, b = tags
    if not touching(a.xyxy, b.xyxy) or _codes_apart(a, b):
        return tags, 0
    columns = label_and_value_columns(recipe, a, b)
    if columns is not None:  # a label column and its values, folded apart: one tag, read as its value column
        values, joined = columns[1], join(a, b)
        return [replace(values, tag_index=joined.tag_index, xyxy=joined.xyxy, barcodes=joined.barcodes,
                        summary=summarize(values.fields, joined.barcodes), notes=joined.notes,
                        symbol_boxes=joined.symbol_boxes, focus=joined.focus, bars=joined.bars)], 1
    if _after_their_labels(recipe, a) & _after_their_labels(recipe, b):
        return tags, 0
    joined = join(a, b)
    if _verified(recipe, joined) <= max(_verified(recipe, a), _verified(recipe, b)):
        return tags, 0
    return [joined], 1


def touching(a: Box, b: Box) -> bool:
    gap = max(a[0] - b[2], b[0] - a[2], a[1] - b[3], b[1] - a[3])  # < 0 where they overlap
    side = min(a[2] - a[0], a[3] - a[1], b[2] - b[0], b[3] - b[1])
    smaller = min((a[2] - a[0]) * (a[3] - a[1]), (b[2] - b[0]) * (b[3] - b[1]))
    nested = intersection(a, b) > MAX_NESTED_SHARE * smaller
    return side > 0 and gap <= TOUCH_SHARE * side and not nested


def boxes_without_their_own(recipe: Recipe, tags: Sequence[TagReading]) -> list[tuple[int, int]]:
    """Tag boxes that overlap another tag's box and carry nothing a tag carries on its own: no code the other box
    does not decode at the same place, fewer than half the recipe's checked fields read after their labels (as
    values of their kind), and none of those that the other box does not read too — the print where the boxes
    overlap is read in both. As (box, the box it lies over), by tag index; one box of each such pair is kept.

    Such a box is the detector's second look at a tag it also boxed whole (a size chart's grid, a panel boxed apart
    and not joined), or a second tag under the first, hidden: not a second tag for certain. A second tag of the job
    reads a tag's fields of its own, or decodes its code at its own place, and one apart from the first does not
    overlap it."""
    checked = sum(1 for rule in recipe.fields if rule.expected is not None or rule.pattern is not None)
    found: list[tuple[int, int]] = []
    for tag in tags:
        labelled = _labelled(recipe, tag)
        if 2 * len(labelled) >= checked:
            continue
        dropped = {box for box, _ in found}
        over = next((other for other in tags if other.tag_index not in dropped | {tag.tag_index}
                     and intersection(tag.xyxy, other.xyxy) > 0 and _codes_within(tag, other)
                     and labelled <= set(other.fields)), None)
        if over is not None:
            found.append((tag.tag_index, over.tag_index))
    return found


def _codes_within(part: TagReading, whole: TagReading) -> bool:
    """Whether every code decoded in `part` is decoded in `whole` at the same place (none is its own)."""
    return all(any(_same_symbol(code, seen) for seen in whole.barcodes) for code in part.barcodes)


def join(a: TagReading, b: TagReading) -> TagReading:
    """One reading of both parts: their lines, fields, codes and doubts together, in the first part's place."""
    first, second = (a, b) if a.tag_index <= b.tag_index else (b, a)
    box = (min(a.xyxy[0], b.xyxy[0]), min(a.xyxy[1], b.xyxy[1]), max(a.xyxy[2], b.xyxy[2]), max(a.xyxy[3], b.xyxy[3]))
    heights = [t.text_px for t in (a, b) if t.text_px is not None]
    codes = first.barcodes + tuple(code for code in second.barcodes if not any(_same_symbol(code, seen) for seen in first.barcodes))
    fields = {**second.fields, **first.fields}
    return replace(
        first, xyxy=box, fields=fields, barcodes=codes, summary=summarize(fields, codes),
        ocr_lines=first.ocr_lines + second.ocr_lines, reread_lines=first.reread_lines + second.reread_lines,
        small_print_lines=first.small_print_lines + second.small_print_lines,
        confirm_only_lines=first.confirm_only_lines + second.confirm_only_lines,
        notes=first.notes + second.notes + (f"{JOINED_NOTE} (boxes {first.tag_index + 1} and {second.tag_index + 1})",),
        symbol_boxes=first.symbol_boxes + second.symbol_boxes, spotted=first.spotted + second.spotted,
        unconfirmed=tuple(dict.fromkeys(first.unconfirmed + second.unconfirmed)),
        turned_sizes=tuple(dict.fromkeys(first.turned_sizes + second.turned_sizes)),
        struck_prices=tuple(dict.fromkeys(first.struck_prices + second.struck_prices)),
        text_px=min(heights) if heights else None, focus=first.focus if first.barcodes or second.focus is None else second.focus,
        bars=first.bars or second.bars, marked_size=first.marked_size or second.marked_size, paper=())


def _fewer_expected(recipe: Recipe) -> bool:
    """Whether the recipe expects fewer than two tags in view (two tags are otherwise each a tag)."""
    return any(rule.class_name == "hangtag" and rule.max < 2 for rule in recipe.counts)


def _labelled(recipe: Recipe, tag: TagReading) -> set[str]:
    """The recipe's checked fields (an expected value or a pattern) read after their labels on this box as a value
    of their kind: what a tag of the job prints once. A brand or heading taken for an unchecked field, or a colour
    line parsed as a grade ('醋色浅灰'), tells nothing."""
    return set(_labelled_readings(recipe, tag))


def _labelled_readings(recipe: Recipe, tag: TagReading) -> dict[str, FieldReading]:
    checked = {rule.name for rule in recipe.fields if rule.expected is not None or rule.pattern is not None}
    fields = tag.fields or extract_fields(tag.ocr_lines)  # a reading made from its lines alone parses them here
    return {name: reading for name, reading in fields.items()
            if reading.source == "ocr" and name in checked and _of_its_kind(name, reading.value)}


def _after_their_labels(recipe: Recipe, tag: TagReading) -> set[str]:
    """The checked fields this box reads on a line that carries the field's own label: what each of two tags prints,
    each after its own labels. A value this box holds without its label — the marked size of a run whose 规格 stands in
    the other box, a class '10 C类' cut from its 安全类别 — is the other part's row running on, no second tag's."""
    return {name for name, reading in _labelled_readings(recipe, tag).items() if carries_label(name, reading.raw)}


def _of_its_kind(name: str, value: str) -> bool:
    if name == "grade":
        return value.strip() in GRADES
    if name == "composition":  # a share or a fibre's name: a row of the other part read after a label of this one is neither
        return "%" in value or any(fibre in value for fibre in FIBRES)
    return fits_grammar(name, value) and not another_fields_value(name, value)


def _codes_apart(a: TagReading, b: TagReading) -> bool:
    """Whether each box holds a decoded code of its own: the same symbol decoded from both boxes (it lies where
    they overlap) is one code."""
    if not a.barcodes or not b.barcodes:
        return False
    return any(not any(_same_symbol(x, y) for y in b.barcodes) for x in a.barcodes)


def _same_symbol(x, y) -> bool:
    return x.text == y.text and intersection(x.xyxy, y.xyxy) > 0


def _verified(recipe: Recipe, tag: TagReading) -> int:
    return sum(1 for evidence in gather(recipe, tag).values() if evidence.found is Found.MATCH)
