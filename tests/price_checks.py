"""The price check the verdict makes of one tag's lines against a recipe that names only a price and one hangtag:
shared by the tests of prices printed beside other prices (offer_prices, struck_prices)."""

from __future__ import annotations

from decimal import Decimal

import numpy as np

from inference.detections import Detections
from inference.reading.recipe import parse_recipe
from inference.reading.types import OcrLine, SpottedField, TagReading
from inference.reading.verdict import Check, judge

RECIPE = """\
[counts]
hangtag = 1

[fields]
price = "{price}"
"""


def price_check(price: str, lines: tuple[OcrLine, ...], struck: tuple[Decimal, ...] = (),
                spotted: tuple[SpottedField, ...] = (), rotation: float = 0.0) -> Check:
    """The price check of one tag boxed whole, read as `lines` (with the amounts found struck and the spotted
    fields given; the tag turned `rotation` degrees counter-clockwise by the reader to stand it upright), against a
    recipe expecting `price`."""
    detections = Detections(np.array([(0, 0, 300, 600)], np.float32), np.full(1, 0.9), np.array([0]), ("hangtag",))
    tag = TagReading(0, (0, 0, 300, 600), {}, (), lines, struck_prices=struck, spotted=spotted, rotation=rotation)
    return next(c for c in judge(parse_recipe(RECIPE.format(price=price)), detections, [tag]).checks
                if c.subject == "price")
