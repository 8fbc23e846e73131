"""Which overlap part (inference/reading/overlap.py) changes what the GPU reader reads on four-tag frames, if any.

    python3 benchmarks/gpu-2026-12-03/diff_overlap.py --data .gpubench/tagset --out diff.json [--settings 0 8 8:ahead ...]

Detections come once per frame from the station's GPU pipeline; each setting then reads every frame `--repeats`
times (tag threads 1), and every read is compared with the first setting's first read and with the CPU reader."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--four", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--dry-cpu", action="store_true", help="check this script on a machine without a GPU")
    parser.add_argument("--settings", nargs="+", default=["0", "8", "8:ahead", "8:decode", "8:flipped", "0", "8"])
    args = parser.parse_args()
    os.environ["HANGTAG_GPU_OCR"] = "torch"
    from gpu_read import fields_of, four_tag_frames, one_tag_frames, open_inspector

    from inference.reading.overlap import parse_setting
    from inference.reading.reader import TagReader

    inspector = open_inspector(args.dry_cpu)
    reader = inspector.reader
    frames = four_tag_frames(one_tag_frames(args.data, 48), args.four)
    detections = [inspector.inspect_image(f).detections for f in frames]  # also warms the reader
    cpu = TagReader.open("onnxruntime-cpu", 8)
    reference = [fields_of(cpu.read(f, d)) for f, d in zip(frames, detections)]
    cpu.close()
    base = None
    out = {"settings": {}, "differences": []}
    for setting in args.settings:
        reader.overlap_threads, reader.overlap_parts = parse_setting(setting)
        stats = out["settings"].setdefault(setting, {"reads": 0, "equal_to_first": 0, "equal_to_cpu": 0})
        for rep in range(args.repeats):
            for k, (frame, dets) in enumerate(zip(frames, detections)):
                fields = fields_of(reader.read(frame, dets))
                if base is None or len(base) < len(frames):
                    base = (base or []) + [fields]
                stats["reads"] += 1
                stats["equal_to_first"] += fields == base[k]
                stats["equal_to_cpu"] += fields == reference[k]
                if (fields != base[k] or fields != reference[k]) and len(out["differences"]) < 12:
                    diff = [{n: (g.get(n), b.get(n), c.get(n)) for n in set(g) | set(b) | set(c) if not g.get(n) == b.get(n) == c.get(n)}
                            for g, b, c in zip(fields, base[k], reference[k])]
                    out["differences"].append({"setting": setting, "repeat": rep, "frame": k, "tags (read, first read, cpu)": diff})
        print(time.strftime("%H:%M:%S"), setting, stats, flush=True)
    for d in out["differences"]:
        print("DIFF", json.dumps(d, ensure_ascii=False)[:700], flush=True)
    args.out.write_text(json.dumps(out, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    inspector.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
