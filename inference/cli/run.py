"""`hangtag-inspect run`: inspect a folder, image or video; one JSON line per frame plus a summary.

With --read each line carries the fields and barcodes read off every tag; with --recipe also the
verdict, its reasons and every check (expected vs read), as the station shows them."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from inference.cli.common import add_model_options, pipeline_from
from inference.inspection import Inspector
from inference.pipeline import FrameResult
from inference.reading.recipe import load_recipe
from inference.sources import FrameError, Waiting, open_source


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("run", help="inspect a folder, image or video and write JSON lines")
    parser.add_argument("--source", required=True, help="folder, image, video file, camera index or URL")
    add_model_options(parser)
    parser.add_argument("--out", type=Path, default=None, help="folder for results.jsonl and summary.json")
    parser.add_argument("--max-frames", type=int, default=0, help="stop after this many frames (0 = all)")
    parser.add_argument("--read", action="store_true", help="read each tag's fields and barcodes (OCR)")
    parser.add_argument("--recipe", type=Path, default=None,
                        help="judge each frame OK / NG / REVIEW against this job recipe (implies --read)")
    parser.set_defaults(func=run)


def result_record(result: FrameResult) -> dict:
    record = {
        "index": result.index,
        "source": result.source_name,
        "path": result.source_path,
        "ok": result.ok,
    }
    if not result.ok:
        record["error"] = result.error
        return record
    record.update({
        "image_hw": list(result.image_hw),
        "detections": result.detections.to_records(),
        "timings_ms": result.timings.to_dict(),
    })
    if result.readings:
        record["readings"] = [tag.to_record() for tag in result.readings]
    if result.verdict is not None:
        record["verdict"] = getattr(result.verdict, "verdict", result.verdict)
        record["reasons"] = list(getattr(result.verdict, "reasons", ()))
        record["checks"] = [
            {"subject": c.subject, "tag": c.tag_index, "expected": c.expected, "read": c.read,
             "confidence": None if c.confidence is None else round(c.confidence, 4), "source": c.source,
             "verdict": c.verdict, "reason": c.reason}  # source: how it was settled (ocr, barcode, the bars verified …)
            for c in getattr(result.verdict, "checks", ())
        ]
    return record


def run(args: argparse.Namespace) -> int:
    source = open_source(args.source)
    out_file = None
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        out_file = (args.out / "results.jsonl").open("w", encoding="utf-8")
    counts = {"frames": 0, "errors": 0, "detections": 0}
    per_class: dict[str, int] = {}
    verdicts: dict[str, int] = {}
    recipe = load_recipe(args.recipe) if args.recipe else None
    with Inspector.around(pipeline_from(args), read=args.read or recipe is not None, recipe=recipe) as inspector:
        pipeline = inspector.pipeline
        try:
            for item in source.frames():
                if isinstance(item, Waiting):
                    continue
                result = inspector.inspect(item)
                if isinstance(item, FrameError):
                    print(f"warning: {item.name}: {item.message.splitlines()[0]}", file=sys.stderr)
                counts["frames"] += 1
                counts["errors"] += 0 if result.ok else 1
                if recipe is not None:
                    key = Inspector.verdict_text(result)
                    verdicts[key] = verdicts.get(key, 0) + 1
                counts["detections"] += len(result.detections)
                for label in result.detections.labels:
                    per_class[label] = per_class.get(label, 0) + 1
                line = json.dumps(result_record(result), ensure_ascii=False)
                print(line) if out_file is None else out_file.write(line + "\n")
                if args.max_frames and counts["frames"] >= args.max_frames:
                    break
        finally:
            source.close()
            if out_file:
                out_file.close()
        summary = {"source": str(args.source), "model": str(args.model), "backend": pipeline.backend,
                   "input_hw": list(pipeline.input_hw), **counts, "per_class": per_class,
                   "latency_ms": pipeline.stats.summary()}
        if recipe is not None:
            summary.update({"recipe": recipe.name, "verdicts": verdicts})
    text = json.dumps(summary, ensure_ascii=False, indent=2)
    if args.out:
        (args.out / "summary.json").write_text(text + "\n", encoding="utf-8")
    print(text, file=sys.stderr if out_file is None else sys.stdout)
    return 0
