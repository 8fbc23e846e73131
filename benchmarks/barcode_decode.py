"""How many of a tag test set's barcodes and QR codes the reader decodes, and what each costs.

For every tag of a set written by `python -m training.tagsets` the reader's barcode stage runs as in
`TagReader.read_tag`: the tag's box is cut from the frame with a small margin, the tag's turn is taken
from the bars of its largest barcode box (`bars_down_angle`, strength >= the reader's MIN_BAR_STRENGTH;
otherwise from a whole-crop zxing read or the text lines), `decode_symbols` runs on every symbol box
in the tag, and when nothing decodes zxing searches the whole upright tag. A printed symbol counts as
read when its exact text comes back with no failed check digit.

Since 1446d1e the reader cuts the tag box joined with its symbol boxes (this script's former
`--crop-symbols`); the stage is the reader's own `read_symbols`, so the two cannot drift apart.

The boxes come from the set's truth (`--boxes truth`: the manifest's tag and symbol boxes, no model)
or from the shipped detector (`--boxes detector`: its hangtag box matched to the truth tag at IoU >=
0.5, its barcode / qr_code boxes whose centres lie in that tag box, as the reader gets them).

    .venv/bin/python -m training.tagsets --out /tmp/set4242 --count 200 --seed 4242
    nice .venv/bin/python benchmarks/barcode_decode.py --data /tmp/set4242 --boxes detector --json /tmp/bc.json

Rates per bucket, per symbology and per design; ms per symbol is the barcode stage's wall time for a
tag (turn + decode_symbols + fallback) over the tag's printed symbols.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from collections import defaultdict
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from inference.reading import barcodes as bc  # noqa: E402
from inference.detections import centre_inside, iou  # noqa: E402
from inference.reading.symbols import read_symbols  # noqa: E402
from inference.reading.rectify import make_upright  # noqa: E402

Box = tuple[float, float, float, float]


def stage(image: np.ndarray, tag_box: Box, barcode_boxes: list[Box], qr_boxes: list[Box]) -> tuple[list[bc.DecodedCode], float]:
    """The reader's barcode stage for one tag (`symbols.read_symbols`, then zxing over the whole upright
    tag when nothing decoded, as `read_tag` does): decoded codes, and the tag's focus measure."""
    symbols = read_symbols(image, tag_box, barcode_boxes, qr_boxes)
    codes = list(symbols.codes)
    if not codes:
        upright = make_upright(image, tag_box, symbols.turn)
        codes = bc.decode(cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY))
    return codes, symbols.focus(barcode_boxes)


def symbology(fmt: str) -> str:
    return "QR" if "QR" in fmt else fmt


def run(args: argparse.Namespace) -> dict:
    data: Path = args.data
    rows = [json.loads(line) for line in (data / "truth.jsonl").read_text(encoding="utf-8").splitlines() if line.strip()]
    rows = [r for r in rows if (args.bucket is None or r["bucket"] == args.bucket) and (args.design is None or r.get("design") == args.design)]
    if args.limit:
        rows = rows[: args.limit]
    pipeline = None
    if args.boxes == "detector":
        from inference.pipeline import Pipeline
        from inference.resources import default_model_path

        pipeline = Pipeline.open(default_model_path())
    tallies: dict[str, dict[str, list[int]]] = {k: defaultdict(lambda: [0, 0]) for k in ("bucket", "symbology", "design", "bucket/symbology")}
    failures, per_symbol_ms, tag_ms = [], [], []
    for row in rows:
        image = cv2.imread(str(data / row["image"]), cv2.IMREAD_COLOR)
        if image is None:
            raise SystemExit(f"cannot read {data / row['image']}")
        found_tags: list[Box] = []
        found_bars: list[Box] = []
        found_qr: list[Box] = []
        if pipeline is not None:
            dets = pipeline.process(image).detections
            for box, label in zip(dets.xyxy, dets.labels):
                box = tuple(float(v) for v in box)
                {"hangtag": found_tags, "barcode": found_bars, "qr_code": found_qr}.get(label, []).append(box)
        for tag in row["tags"]:
            symbols = [*tag.get("barcodes", []), *tag.get("qr", [])]
            if not symbols:
                continue
            if pipeline is None:
                tag_box = tuple(tag["xyxy"])
                bars = [tuple(b["xyxy"]) for b in tag.get("barcodes", [])]
                qrs = [tuple(q["xyxy"]) for q in tag.get("qr", [])]
            else:
                best = max(found_tags, key=lambda b: iou(b, tag["xyxy"]), default=None)
                tag_box = best if best is not None and iou(best, tag["xyxy"]) >= 0.5 else None
                bars = [b for b in found_bars if tag_box is not None and centre_inside(b, tag_box)]
                qrs = [b for b in found_qr if tag_box is not None and centre_inside(b, tag_box)]
            codes, focus, ms = [], None, 0.0
            if tag_box is not None:
                start = time.perf_counter()
                codes, focus = stage(image, tag_box, bars, qrs)
                ms = (time.perf_counter() - start) * 1000
                tag_ms.append(ms)
                per_symbol_ms.append(ms / len(symbols))
            read = {c.text for c in codes if c.valid_checksum is not False}
            for sym in symbols:
                ok = sym["text"] in read
                kind = symbology(sym["format"])
                for key, name in (("bucket", row["bucket"]), ("symbology", kind), ("design", row.get("design", "")),
                                  ("bucket/symbology", f"{row['bucket']}/{kind}")):
                    tallies[key][name][0] += ok
                    tallies[key][name][1] += 1
                if not ok:
                    failures.append({"image": row["image"], "design": row.get("design", ""), "bucket": row["bucket"],
                                     "format": sym["format"], "module_px": row["condition"].get("barcode_module_px"),
                                     "blur_px": row["condition"].get("blur_px"), "focus": round(focus, 1) if focus is not None else None,
                                     "tag_found": tag_box is not None, "boxes": len(bars) + len(qrs),
                                     "read": sorted(c.text for c in codes)})
    if pipeline is not None:
        pipeline.close()

    def rates(table: dict[str, list[int]]) -> dict:
        return {k: {"read": v[0], "of": v[1], "rate": round(v[0] / v[1], 4)} for k, v in sorted(table.items())}

    return {
        "data": str(data), "boxes": args.boxes, "frames": len(rows), "machine": f"{platform.machine()}, {platform.python_version()}",
        **{f"by_{k.replace('/', '_')}": rates(v) for k, v in tallies.items()},
        "ms_per_symbol": {"p50": round(float(np.percentile(per_symbol_ms, 50)), 2) if per_symbol_ms else None,
                          "p90": round(float(np.percentile(per_symbol_ms, 90)), 2) if per_symbol_ms else None,
                          "mean": round(float(np.mean(per_symbol_ms)), 2) if per_symbol_ms else None},
        "ms_per_tag_mean": round(float(np.mean(tag_ms)), 2) if tag_ms else None,
        "failures": failures,
    }


def print_report(report: dict) -> None:
    print(f"{report['data']}: {report['frames']} frames, boxes from {report['boxes']}")
    for key in ("by_bucket_symbology", "by_symbology", "by_design", "by_bucket"):
        print(f"  {key[3:]}:")
        for name, r in report[key].items():
            print(f"    {name:28s} {r['read']:4d}/{r['of']:<4d} {100 * r['rate']:5.1f} %")
    ms = report["ms_per_symbol"]
    print(f"  ms per symbol: p50 {ms['p50']}, p90 {ms['p90']}, mean {ms['mean']}; ms per tag mean {report['ms_per_tag_mean']}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="a set from python -m training.tagsets")
    parser.add_argument("--boxes", choices=("truth", "detector"), default="detector", help="where tag and symbol boxes come from")
    parser.add_argument("--bucket", default=None, help="nominal, blurred or small")
    parser.add_argument("--design", default=None)
    parser.add_argument("--limit", type=int, default=0)
    parser.add_argument("--json", type=Path, default=None, help="write the report, with every failed symbol, here")
    parser.add_argument("--failures", action="store_true", help="print every symbol not read")
    args = parser.parse_args(argv)
    report = run(args)
    print_report(report)
    if args.failures:
        for f in report["failures"]:
            print("   ", f)
    if args.json:
        args.json.write_text(json.dumps(report, indent=1, ensure_ascii=False), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
