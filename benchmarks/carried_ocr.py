"""On a device machine: the OCR pair carried xz-compressed (the 64 MiB a call carries), unpacked beside the small-print
recognizer and checked against its manifest, so the reader opens the files a bundle ships.

    python3 benchmarks/carried_ocr.py CARRIED_DIR resources/ocr
"""

from __future__ import annotations

import hashlib
import json
import lzma
import shutil
import sys
from pathlib import Path

PARTS = ("det", "rec", "reread")


def unpack(src: Path, dst: Path) -> dict:
    for f in src.iterdir():
        with (lzma.open(f) if f.suffix == ".xz" else open(f, "rb")) as i, open(dst / f.name.removesuffix(".xz"), "wb") as o:
            shutil.copyfileobj(i, o)
    meta = json.loads((dst / "manifest.json").read_text())
    for part in PARTS:
        found = hashlib.sha256((dst / meta[part]["file"]).read_bytes()).hexdigest()
        if found != meta[part]["sha256"]:
            raise SystemExit(f"{part}: expected sha256 {meta[part]['sha256']}, found {found}")
    return meta


if __name__ == "__main__":
    manifest = unpack(Path(sys.argv[1]), Path(sys.argv[2]))
    print("OCR pair and reread as the manifest lists them:", ", ".join(manifest[p]["sha256"][:8] for p in PARTS))
