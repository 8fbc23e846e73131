"""What one OCR network call costs the PyTorch GPU reader (issue 19), by how it runs: node by node or as a CUDA
graph, convolutions through PyTorch's conv2d or as matrix products (torch_graph.CONV_AS_MATMUL).

    python benchmarks/ocr_call_cost.py --out cost.json [--repeats 30]

Per variant and input shape: ms of `TorchSession.run` (copy in, run, copy the outputs the reader fetches back)
p50 / p95 over `--repeats` calls after one unmeasured call (the capture, for graphs). Needs a CUDA GPU and the OCR
models where `find_ocr_models` finds them.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

REC_SHAPES = [(1, 320), (2, 160), (4, 320), (8, 480), (16, 640), (32, 800)]
DET_SHAPES = [(448, 320), (320, 448), (448, 448)]


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--repeats", type=int, default=30)
    parser.add_argument("--device", default="cuda")
    args = parser.parse_args()
    from inference.reading.ocr import torch_graph
    from inference.reading.ocr.models import find_ocr_models
    from inference.reading.ocr.topk import TOP_I, TOP_P, recognizer_with_top_classes

    models = find_ocr_models("fp32", "gb2312")
    rec_path = recognizer_with_top_classes(models.rec)
    rng = np.random.default_rng(3)
    result: dict = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "repeats": args.repeats, "variants": {}}
    for graphs in (False, True):
        for matmul in (False, True):
            name = f"{'graph' if graphs else 'node-by-node'}, conv {'matmul' if matmul else 'conv2d'}"
            torch_graph.CONV_AS_MATMUL = matmul
            out = result["variants"][name] = {}
            for net, path, shapes, fetch in (("rec", rec_path, [(n, 3, 48, w) for n, w in REC_SHAPES], [TOP_P, TOP_I]),
                                             ("det", models.det, [(1, 3, h, w) for h, w in DET_SHAPES], None)):
                session = torch_graph.TorchSession(path, device=args.device, graphs=graphs)
                names = fetch or session.output_names
                for shape in shapes:
                    x = rng.uniform(-1, 1, shape).astype(np.float32)
                    session.run({session.input_name: x}, names)
                    times = []
                    for _ in range(args.repeats):
                        t = time.perf_counter()
                        session.run({session.input_name: x}, names)
                        times.append((time.perf_counter() - t) * 1000)
                    p50, p95 = np.percentile(times, [50, 95])
                    out[f"{net} {shape}"] = [round(float(p50), 3), round(float(p95), 3)]
                out[f"{net} graphs_off"] = session.graphs_off
                session.close()
            print(name, json.dumps(out), flush=True)
    args.out.write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
