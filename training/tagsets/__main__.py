"""python -m training.tagsets --out DIR --count N --seed S [--defect-share 0.2] [--designs a,b]"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from inference.errors import HangtagError
from training.tagsets.designs import DESIGNS
from training.tagsets.writer import generate


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.tagsets",
                                     description="Independent hangtag test set: designs and fonts the station never trained on.")
    parser.add_argument("--out", type=Path, required=True, help="folder for manifest.json, images/, recipes/, truth.jsonl")
    parser.add_argument("--count", type=int, required=True, help="images")
    parser.add_argument("--seed", type=int, required=True)
    parser.add_argument("--defect-share", type=float, default=0.2, help="share of images with one planted defect")
    parser.add_argument("--designs", default="", help=f"comma-separated, from: {', '.join(DESIGNS)} (default all)")
    args = parser.parse_args(argv)
    designs = [d.strip() for d in args.designs.split(",") if d.strip()] or None
    start = time.perf_counter()
    try:
        manifest = generate(args.out, args.count, args.seed, args.defect_share, designs)
    except HangtagError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    elapsed = time.perf_counter() - start
    print(f"{manifest['count']} images, {manifest['jobs']} jobs, {manifest['defective_images']} with a defect, "
          f"buckets {manifest['buckets']} -> {args.out} ({elapsed / manifest['count']:.2f} s/image)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
