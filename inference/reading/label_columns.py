"""A tag's label column and its value column outlined as two boxes: the panels of a tag folded between them.

A tag folded in two and photographed half open, its rows running across the fold, shows its labels on one panel
and their values on the other; the detector may outline each panel as a tag. Neither box is a tag on its own: one
reads field labels with nothing after them, the other values with no label before them, and a tag prints its
values after (or under) its labels. So two touching boxes split that way are one tag, read as its value column:
the label column holds no value, and what else it reads (a heading cut at the fold, the brand's first letters) is
no field's value.

A second tag never splits so: whatever of it is in view reads its labels together with their values, and a tag
that hides another's values shows its own labels; a frame of two tags stays two tags.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from inference.reading.labels import split_labeled
from inference.reading.recipe import Recipe
from inference.reading.types import OcrLine, TagReading

# What may follow a label on the label column's line without being a value: colons, leader dots, dashes, spaces.
_NO_VALUE = re.compile(r"^[\s:：.·…‥⋯・･．\-—–_,，;；|]*$")


def bare_labels(lines: Sequence[OcrLine]) -> tuple[set[str], bool]:
    """The fields whose label a line reads with nothing after it, and whether every labelled line is bare."""
    fields: set[str] = set()
    all_bare = True
    for line in lines:
        for name, value_start, _label_start, _exact in split_labeled(line.text):
            if name is None:
                continue
            following = split_labeled(line.text[value_start:])
            value = line.text[value_start:] if not following else line.text[value_start:value_start + following[0][2]]
            if _NO_VALUE.match(value):
                fields.add(name)
            else:
                all_bare = False
    return fields, all_bare


def unlabelled(lines: Sequence[OcrLine]) -> bool:
    """Whether no line reads a field label (a value column: values only, a heading's or a brand's fragment)."""
    return not any(name is not None for line in lines for name, *_ in split_labeled(line.text))


def label_and_value_columns(recipe: Recipe, a: TagReading, b: TagReading) -> tuple[TagReading, TagReading] | None:
    """(label column, value column) where one box reads the labels of at least half the recipe's checked fields,
    each with nothing after it, and the other reads no label at all but values of the recipe's checked fields;
    None otherwise."""
    checked = {rule.name for rule in recipe.fields if rule.expected is not None or rule.pattern is not None}
    if not checked:
        return None
    for labels, values in ((a, b), (b, a)):
        fields, all_bare = bare_labels(labels.ocr_lines)
        if not all_bare or 2 * len(fields & checked) < len(checked):
            continue
        if values.ocr_lines and unlabelled(values.ocr_lines) and checked & set(values.fields):
            return labels, values
    return None


def labels_alone(recipe: Recipe, tags: Sequence[TagReading]) -> list[int]:
    """Tag indices of boxes that read only field labels — of at least half the recipe's checked fields, each with
    nothing after it, no value of a checked field and no code — beside another box that reads more: a tag's label
    column boxed apart from its values (p20 000072: a wide 合格证's label column boxed alone, its values and price
    panel in the other box, judged NG for "2 hangtags"), or a second tag's labels showing from under another tag.
    Neither is certainly a second tag, nor certainly none: the verdict holds them for review."""
    checked = {rule.name for rule in recipe.fields if rule.expected is not None or rule.pattern is not None}
    if not checked:
        return []
    found = []
    for tag in tags:
        fields, all_bare = bare_labels(tag.ocr_lines)
        if all_bare and 2 * len(fields & checked) >= len(checked) and not tag.barcodes and not checked & set(tag.fields):
            found.append(tag.tag_index)
    return found if len(found) < len(tags) else []
