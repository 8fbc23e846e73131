"""The expected code verified against blurred bars, against zxing's decode of the same bars (issue 14).

Symbols drawn by zxing's writer are photographed as in tests/test_barcode_views.py (perspective, a turn,
Gaussian blur, sensor noise, JPEG 85) at a module width and a range of blurs (sigma in modules). For
each: does the reader decode them (decode_symbol), does bar_verify verify the printed code, and does it
verify any of a set of *other* valid codes (EAN-13s two digits apart, the check digit fixed; other
style numbers one character apart) -- that count must stay 0.

    .venv/bin/python -m benchmarks.bar_verify_blur [--seeds 6] [--module-px 1.5] [--json out.json]
"""

from __future__ import annotations

import argparse
import json
import random
import time

import numpy as np

from inference.reading import barcodes as bc
from inference.reading.bar_verify import verify_bars
from inference.reading.rectify import bars_down_angle, turn_from_down_angle
from tests.test_barcode_views import photographed

SYMBOLS = (("6901234567892", "EAN13", "EAN-13"), ("036000291452", "UPCA", "UPC-A"), ("AB2301-05", "Code128", "Code128"),
           ("D84016751", "Code93", "Code93"))
BLURS = (0.5, 0.75, 1.0, 1.25, 1.5, 2.0, 2.5, 3.0)  # sigma, modules


def ean_check(d: str) -> str:
    odd = len(d) % 2  # weights 3,1,... from the right of the data digits
    s = sum(int(c) * (3 if (i % 2 == 0) == bool(odd) else 1) for i, c in enumerate(d))
    return d + str((10 - s % 10) % 10)


def others(text: str, name: str, rng: random.Random, n: int) -> list[str]:
    """Valid codes of the same symbology near `text`: digits changed and the check digit fixed (EAN/UPC), or
    one character changed (Code 128/93)."""
    out: set[str] = set()
    while len(out) < n:
        chars = list(text[:-1] if name in ("EAN-13", "UPC-A") else text)
        for _ in range(rng.choice((1, 1, 2))):
            i = rng.randrange(len(chars))
            pool = "0123456789" if chars[i].isdigit() else "ABCDEFGHJKLMNPRSTUVWXYZ"
            chars[i] = rng.choice([c for c in pool if c != chars[i]])
        alt = ean_check("".join(chars)) if name in ("EAN-13", "UPC-A") else "".join(chars)
        if alt != text:
            out.add(alt)
    return sorted(out)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seeds", type=int, default=6)
    parser.add_argument("--module-px", type=float, default=1.5)
    parser.add_argument("--wrong", type=int, default=8, help="other codes tried per symbol")
    parser.add_argument("--json", default=None)
    args = parser.parse_args()
    rng = random.Random(14)
    rows, times = [], []
    for text, fmt, name in SYMBOLS:
        for blur in BLURS:
            decoded = verified = wrong_verified = wrong_tried = 0
            for seed in range(args.seeds):
                image, box = photographed(text, fmt, module_px=args.module_px, blur=blur * args.module_px,
                                          degrees=8 + 23 * seed, perspective=0.03, seed=seed)
                x1, y1, x2, y2 = (int(v) for v in box)
                turn = turn_from_down_angle(bars_down_angle(image[y1:y2, x1:x2])[0])
                decoded += any(c.text.lstrip("0") == text.lstrip("0") for c in bc.decode_symbol(image, box, turn))  # UPC-A reads as EAN-13 0...
                measure = bc.measure_bars(image, box, turn)
                if measure is None:
                    continue
                start = time.perf_counter()
                found = verify_bars(measure.profiles, name, text)
                times.append((time.perf_counter() - start) * 1000)
                verified += bool(found and found.verified)
                for alt in others(text, name, rng, args.wrong):
                    wrong_tried += 1
                    other = verify_bars(measure.profiles, name, alt)
                    wrong_verified += bool(other and other.verified)
            rows.append({"symbol": name, "blur_modules": blur, "frames": args.seeds, "decoded": decoded, "verified": verified,
                         "wrong_tried": wrong_tried, "wrong_verified": wrong_verified})
            print(f"{name:8s} sigma {blur:4.2f} modules ({blur * args.module_px:.2f} px): decoded {decoded}/{args.seeds}, "
                  f"verified {verified}/{args.seeds}, other codes verified {wrong_verified}/{wrong_tried}", flush=True)
    print(f"verification ms per profile set: p50 {np.median(times):.1f}, p95 {np.percentile(times, 95):.1f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"module_px": args.module_px, "rows": rows, "ms_p50": float(np.median(times)),
                       "ms_p95": float(np.percentile(times, 95))}, f, indent=1)


if __name__ == "__main__":
    main()
