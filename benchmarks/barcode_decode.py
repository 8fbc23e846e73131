"""How many of a tag test set's barcodes and QR codes the reader decodes, and what each costs.

For every tag of a set written by `python -m training.tagsets` the reader's barcode stage runs as in
`TagReader.read_tag`: the tag's box is cut from the frame with a small margin, the tag's turn is taken
from the bars of its largest barcode box (`bars_down_angle`, strength >= the reader's MIN_BAR_STRENGTH;
otherwise from a whole-crop zxing read or the text lines), `decode_symbols` runs on every symbol box
in the tag, and when nothing decodes zxing searches the whole upright tag. A printed symbol counts as
read when its exact text comes back with no failed check digit.

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
from inference.reading.reader import MIN_BAR_STRENGTH, focus_of  # noqa: E402
from inference.reading.rectify import bars_down_angle, crop_box, make_upright, text_down_angle, turn_from_down_angle  # noqa: E402

Box = tuple[float, float, float, float]


def iou(a: Box, b: Box) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    union = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / union if union > 0 else 0.0


def inside(box: Box, outer: Box) -> bool:
    cx, cy = (box[0] + box[2]) / 2, (box[1] + box[3]) / 2
    return outer[0] <= cx <= outer[2] and outer[1] <= cy <= outer[3]


def shift(box: Box, dx: float, dy: float) -> Box:
    return (box[0] + dx, box[1] + dy, box[2] + dx, box[3] + dy)


def reader_turn(gray: np.ndarray, barcode_boxes: list[Box]) -> float:
    """TagReader._orientation's turn (crop pixels): the largest strong bar box, else zxing, else text."""
    best = None
    for x1, y1, x2, y2 in barcode_boxes:
        patch = gray[int(max(0, y1)) : int(y2) + 1, int(max(0, x1)) : int(x2) + 1]
        if patch.size < 64:
            continue
        down, strength = bars_down_angle(patch)
        if strength >= MIN_BAR_STRENGTH and (best is None or patch.size > best[1]):
            best = (down, patch.size)
    if best is not None:
        return turn_from_down_angle(best[0])
    linear = [c for c in bc.decode(gray) if c.is_linear]
    anchor = next((c for c in linear if c.format == "EAN-13"), linear[0] if linear else None)
    if anchor is not None:
        return turn_from_down_angle(anchor.down_angle_deg())
    return turn_from_down_angle(text_down_angle(gray)[0])


def union(boxes: list[Box]) -> Box:
    return (min(b[0] for b in boxes), min(b[1] for b in boxes), max(b[2] for b in boxes), max(b[3] for b in boxes))


def read_symbols(image: np.ndarray, tag_box: Box, barcode_boxes: list[Box], qr_boxes: list[Box],
                 crop_symbols: bool = False) -> tuple[list[bc.DecodedCode], float]:
    """The reader's barcode stage for one tag: decoded codes, and the tag's focus measure. With
    `crop_symbols` the crop also takes in symbol boxes that stick out of the tag box (a tag box
    that left out the tag's barcode end), as a proposed change to the reader would."""
    crop, (ox, oy) = crop_box(image, union([tag_box, *barcode_boxes, *qr_boxes]) if crop_symbols else tag_box)
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY)
    local = [shift(b, -ox, -oy) for b in barcode_boxes]
    turn = reader_turn(gray, local)
    codes: list[bc.DecodedCode] = []
    if barcode_boxes or qr_boxes:
        codes = bc.decode_symbols(gray, [*local, *(shift(b, -ox, -oy) for b in qr_boxes)], turn)
    if not codes:
        upright = make_upright(image, tag_box, turn)
        codes = bc.decode(cv2.cvtColor(upright.image, cv2.COLOR_BGR2GRAY))
    return codes, focus_of(gray, local)


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
                bars = [b for b in found_bars if tag_box is not None and inside(b, tag_box)]
                qrs = [b for b in found_qr if tag_box is not None and inside(b, tag_box)]
            codes, focus, ms = [], None, 0.0
            if tag_box is not None:
                start = time.perf_counter()
                codes, focus = read_symbols(image, tag_box, bars, qrs, args.crop_symbols)
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
        "data": str(data), "boxes": args.boxes, "crop_symbols": args.crop_symbols, "frames": len(rows), "machine": f"{platform.machine()}, {platform.python_version()}",
        **{f"by_{k.replace('/', '_')}": rates(v) for k, v in tallies.items()},
        "ms_per_symbol": {"p50": round(float(np.percentile(per_symbol_ms, 50)), 2) if per_symbol_ms else None,
                          "p90": round(float(np.percentile(per_symbol_ms, 90)), 2) if per_symbol_ms else None,
                          "mean": round(float(np.mean(per_symbol_ms)), 2) if per_symbol_ms else None},
        "ms_per_tag_mean": round(float(np.mean(tag_ms)), 2) if tag_ms else None,
        "failures": failures,
    }


def print_report(report: dict) -> None:
    crop = ", crop = tag box + symbol boxes" if report["crop_symbols"] else ""
    print(f"{report['data']}: {report['frames']} frames, boxes from {report['boxes']}{crop}")
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
    parser.add_argument("--crop-symbols", action="store_true",
                        help="crop the tag box joined with its symbol boxes (a proposed reader change), not the tag box alone")
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
