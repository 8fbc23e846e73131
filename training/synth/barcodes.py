"""Symbol encoders written from the specifications (GS1 General Specifications for EAN-13,
ISO/IEC 15417 for Code 128), returning module arrays: 1 = dark bar module, 0 = light.

Kept tiny and pure numpy so a tag can be rendered at any resolution by repeating modules.
"""

from __future__ import annotations

import cv2
import numpy as np

# EAN-13 left-hand odd-parity (set A) digit patterns; set C (right) is the complement,
# set B (left, even parity) is set C reversed.
_EAN_A = ("0001101", "0011001", "0010011", "0111101", "0100011",
          "0110001", "0101111", "0111011", "0110111", "0001011")
_EAN_C = tuple("".join("1" if b == "0" else "0" for b in p) for p in _EAN_A)
_EAN_B = tuple(p[::-1] for p in _EAN_C)
# Parity of the six left digits, chosen by the leading (implicit) digit.
_EAN_PARITY = ("AAAAAA", "AABABB", "AABBAB", "AABBBA", "ABAABB",
               "ABBAAB", "ABBBAA", "ABABAB", "ABABBA", "ABBABA")

EAN13_GUARD_MODULES = (0, 1, 2, 45, 46, 47, 48, 49, 92, 93, 94)

# Code 128 symbol values 0..105 as bar/space widths (bar first); 106 is the stop pattern.
_C128_WIDTHS = (
    "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
    "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
    "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
    "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
    "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
    "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
    "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
    "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
    "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
    "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
    "114131", "311141", "411131", "211412", "211214", "211232", "2331112",
)
_C128_START_B, _C128_START_C, _C128_STOP = 104, 105, 106


def ean13_check_digit(first12: str) -> int:
    """Weights 1, 3, 1, 3 ... from the left over the first twelve digits."""
    if len(first12) != 12 or not first12.isdigit():
        raise ValueError(f"EAN-13 needs 12 digits before the check digit, got {first12!r}")
    total = sum(int(d) * (3 if i % 2 else 1) for i, d in enumerate(first12))
    return (10 - total % 10) % 10


def ean13_is_valid(code: str) -> bool:
    return len(code) == 13 and code.isdigit() and ean13_check_digit(code[:12]) == int(code[12])


def ean13_modules(code: str) -> np.ndarray:
    """95 modules: start guard, six left digits, centre guard, six right digits, end guard."""
    if len(code) == 12:
        code += str(ean13_check_digit(code))
    if not ean13_is_valid(code):
        raise ValueError(f"not a valid EAN-13: {code!r}")
    parity = _EAN_PARITY[int(code[0])]
    bits = "101"
    for digit, p in zip(code[1:7], parity):
        bits += (_EAN_A if p == "A" else _EAN_B)[int(digit)]
    bits += "01010"
    for digit in code[7:]:
        bits += _EAN_C[int(digit)]
    bits += "101"
    return np.frombuffer(bits.encode(), dtype=np.uint8) - ord("0")


def _widths_to_modules(widths: str) -> list[int]:
    out: list[int] = []
    for i, w in enumerate(widths):
        out.extend([1 if i % 2 == 0 else 0] * int(w))
    return out


def code128_values(text: str) -> list[int]:
    """Symbol values including start and checksum (not stop): Code C for even-length digit
    strings (denser), Code B for printable ASCII otherwise."""
    if text and text.isdigit() and len(text) % 2 == 0:
        values = [_C128_START_C] + [int(text[i:i + 2]) for i in range(0, len(text), 2)]
    else:
        if not text or any(not 32 <= ord(c) <= 126 for c in text):
            raise ValueError(f"Code 128 set B carries printable ASCII only, got {text!r}")
        values = [_C128_START_B] + [ord(c) - 32 for c in text]
    checksum = (values[0] + sum(i * v for i, v in enumerate(values[1:], start=1))) % 103
    return values + [checksum]


def code128_modules(text: str) -> np.ndarray:
    modules: list[int] = []
    for value in code128_values(text) + [_C128_STOP]:
        modules.extend(_widths_to_modules(_C128_WIDTHS[value]))
    return np.asarray(modules, dtype=np.uint8)


def qr_modules(text: str) -> np.ndarray:
    """QR symbol without its quiet zone, one array cell per module (1 = dark)."""
    encoder = cv2.QRCodeEncoder.create()
    image = encoder.encode(text)
    dark = image < 128
    rows = np.flatnonzero(dark.any(axis=1))
    cols = np.flatnonzero(dark.any(axis=0))
    return dark[rows[0]:rows[-1] + 1, cols[0]:cols[-1] + 1].astype(np.uint8)
