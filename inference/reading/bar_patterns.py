"""What the recipe's code looks like printed, in modules: its bars, and the characters they are made of.

zxing's own writer draws the module pattern (guards, start and stop included), so the verifier draws what
a conforming printer prints; it is then cut into its symbol characters, each with the element widths the
symbology allows at that place, so each can be weighed against every other pattern it could have been.
EAN-13, UPC-A and EAN-8 (7 modules in 4 elements), Code 128 (11 in 6) and Code 93 (9 in 6) are cut here;
Code 39 is not (its wide-to-narrow ratio is the printer's choice, 2 to 3), nor is a Code 128 that another
encoder split differently into code sets (it does not verify: the verdict stays "unreadable").
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from itertools import product

import numpy as np

# Element widths of one symbol character: (modules, elements, widest element)
_SLOT_SHAPES = {"EAN": (7, 4, 4), "Code128": (11, 6, 4), "Code93": (9, 6, 4)}


@dataclass(frozen=True)
class Slot:
    """One symbol character: where it starts (modules), its element widths, and whether it starts with a bar."""

    start: int
    widths: tuple[int, ...]
    bar_first: bool
    kind: str


@dataclass(frozen=True)
class Symbol:
    """The expected code's print in modules: its bars and its characters."""

    modules: int
    bars: np.ndarray  # (n, 2) module positions of each bar's left and right edge
    slots: tuple[Slot, ...]


def _format_key(fmt: str) -> str:
    return fmt.replace("-", "").replace(" ", "").upper()


def symbol_for(fmt: str, text: str) -> Symbol | None:
    """The module pattern of `text` in `fmt` as zxing writes it, cut into its characters; None for a
    symbology this does not verify (Code 39's wide-to-narrow ratio varies with the printer) or a text
    the format cannot hold."""
    key = _format_key(fmt)
    names = {"EAN13": "EAN13", "UPCA": "UPCA", "EAN8": "EAN8", "CODE128": "Code128", "CODE93": "Code93"}
    if key not in names or not text:
        return None
    return _symbol(names[key], text)


@lru_cache(maxsize=256)
def _symbol(name: str, text: str) -> Symbol | None:
    import zxingcpp

    try:
        code = zxingcpp.create_barcode(text, getattr(zxingcpp.BarcodeFormat, name))
        image = np.asarray(code.to_image(scale=1, add_quiet_zones=False))
    except Exception:  # zxing refuses a text its format cannot hold (a wrong check digit, letters in an EAN)
        return None
    bits = (image[image.shape[0] // 2] < 128).astype(np.int8)
    if name in ("EAN13", "UPCA"):
        if len(bits) != 95:
            return None
        starts = [3 + 7 * i for i in range(6)] + [50 + 7 * i for i in range(6)]
        shape = "EAN"
    elif name == "EAN8":
        if len(bits) != 67:
            return None
        starts = [3 + 7 * i for i in range(4)] + [36 + 7 * i for i in range(4)]
        shape = "EAN"
    elif name == "Code128":  # start, data and check characters of 11 modules; the 13-module stop stays fixed
        if (len(bits) - 13) % 11:
            return None
        starts = list(range(0, len(bits) - 13, 11))
        shape = "Code128"
    else:  # Code 93: start, data, two checks and stop of 9 modules, then a one-module termination bar
        if (len(bits) - 1) % 9:
            return None
        starts = list(range(0, len(bits) - 1, 9))
        shape = "Code93"
    width, elements, _widest = _SLOT_SHAPES[shape]
    slots = []
    for s in starts:
        runs = _runs(bits[s : s + width])
        if len(runs) != elements:
            return None
        slots.append(Slot(s, tuple(n for _, n in runs), bool(runs[0][0]), shape))
    edges = np.flatnonzero(np.diff(np.concatenate([[0], bits, [0]])))
    return Symbol(len(bits), edges.reshape(-1, 2).astype(np.float64), tuple(slots))


def _runs(bits: np.ndarray) -> list[tuple[int, int]]:
    out: list[tuple[int, int]] = []
    for b in bits.tolist():
        if out and out[-1][0] == b:
            out[-1] = (b, out[-1][1] + 1)
        else:
            out.append((b, 1))
    return out


@lru_cache(maxsize=8)
def alternatives(shape: str) -> tuple[tuple[int, ...], ...]:
    """Every element-width pattern a character of this shape could have: all compositions of its modules
    into its elements, none wider than the symbology's widest (the real characters and more)."""
    width, elements, widest = _SLOT_SHAPES[shape]
    return tuple(w for w in product(range(1, widest + 1), repeat=elements) if sum(w) == width)


def slot_bars(start: float, widths: tuple[int, ...], bar_first: bool) -> list[tuple[float, float]]:
    out, x, bar = [], float(start), bar_first
    for w in widths:
        if bar:
            out.append((x, x + w))
        x += w
        bar = not bar
    return out


def expected_format(fmt: str | None, text: str) -> str | None:
    """The symbology the recipe's code is printed in: its own format, else a retail code by its digits."""
    if fmt:
        return fmt
    if text.isdigit():
        return {13: "EAN-13", 12: "UPC-A", 8: "EAN-8"}.get(len(text))
    return None
