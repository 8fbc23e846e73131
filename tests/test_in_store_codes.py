"""A shop's in-store EAN-13 (GS1 restricted circulation, prefixes 20-29) printed beside the product's code is not the
product's EAN (training.tagsets twin_codes): the tag's EAN field and its evidence take the product's."""

from __future__ import annotations

import pytest

from inference.reading.barcodes import product_ean
from inference.reading.evidence import field_evidence
from inference.reading.matching import Found
from inference.reading.recipe import FieldRule
from inference.reading.summary import merge_barcodes
from inference.reading.types import BarcodeReading, TagReading

PRODUCT, IN_STORE = "6945665606065", "2560606566549"


def _code(text: str, fmt: str = "EAN-13") -> BarcodeReading:
    return BarcodeReading(fmt, text, True, (0, 0, 10, 10))


@pytest.mark.parametrize(("codes", "expected", "chosen"), [
    ((IN_STORE, PRODUCT), None, PRODUCT),
    ((PRODUCT, IN_STORE), None, PRODUCT),
    ((IN_STORE,), None, IN_STORE),  # no product's code in view: the one there is
    ((IN_STORE,), PRODUCT, None),  # ... but says nothing of the product's the recipe names
    ((IN_STORE, PRODUCT), IN_STORE, IN_STORE),  # a shop's recipe naming its own code
    ((), PRODUCT, None),
])
def test_the_products_ean_is_the_recipes_else_no_in_store_number(codes, expected, chosen):
    found = product_ean([_code(c) for c in codes], expected)
    assert (found.text if found else None) == chosen


def test_the_tags_ean_field_is_the_products_code_whichever_was_decoded_first():
    merged, _notes = merge_barcodes({}, [_code(IN_STORE), _code(PRODUCT)])
    assert merged["ean13"].value == PRODUCT


def test_an_in_store_code_decoded_alone_is_no_evidence_against_the_recipes_ean():
    tag = TagReading(0, (0, 0, 300, 600), {}, (_code(IN_STORE),))
    rule = FieldRule("ean13", expected=PRODUCT)
    assert field_evidence(rule, tag, [], [()], [{}], 1).found is not Found.DIFFERENT
    tag = TagReading(0, (0, 0, 300, 600), {}, (_code(IN_STORE), _code(PRODUCT)))
    assert field_evidence(rule, tag, [], [()], [{}], 1).found is Found.MATCH
