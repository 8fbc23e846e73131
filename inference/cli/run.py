"""`hangtag-inspect run`: inspect a folder, image or video; one JSON line per frame plus a summary."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from inference.cli.common import add_model_options, pipeline_from
from inference.pipeline import FrameResult, error_result
from inference.sources import Frame, open_source


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("run", help="inspect a folder, image or video and write JSON lines")
    parser.add_argument("--source", required=True, help="folder, image, video file, camera index or URL")
    add_model_options(parser)
    parser.add_argument("--out", type=Path, default=None, help="folder for results.jsonl and summary.json")
    parser.add_argument("--max-frames", type=int, default=0, help="stop after this many frames (0 = all)")
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
    if result.verdict is not None:
        record["verdict"] = getattr(result.verdict, "verdict", result.verdict)
        record["reasons"] = list(getattr(result.verdict, "reasons", ()))
    return record


def run(args: argparse.Namespace) -> int:
    source = open_source(args.source)
    out_file = None
    if args.out:
        args.out.mkdir(parents=True, exist_ok=True)
        out_file = (args.out / "results.jsonl").open("w", encoding="utf-8")
    counts = {"frames": 0, "errors": 0, "detections": 0}
    per_class: dict[str, int] = {}
    with pipeline_from(args) as pipeline:
        try:
            for item in source.frames():
                if isinstance(item, Frame):
                    result = pipeline.process(item.image, source_name=item.name, source_path=item.path,
                                              index=item.index, decode_ms=item.decode_ms)
                else:
                    result = error_result(item.index, item.name, item.path, item.message, pipeline.thresholds)
                    print(f"warning: {item.name}: {item.message.splitlines()[0]}", file=sys.stderr)
                counts["frames"] += 1
                counts["errors"] += 0 if result.ok else 1
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
    text = json.dumps(summary, ensure_ascii=False, indent=2)
    if args.out:
        (args.out / "summary.json").write_text(text + "\n", encoding="utf-8")
    print(text, file=sys.stderr if out_file is None else sys.stdout)
    return 0
