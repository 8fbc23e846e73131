"""A batch's GPU-pipeline stages in the saturated step of each run (issue 20; 2026-12-04c), from the service's logs.

    python gpu_stages.py DIR ...     # DIR: a run's unpacked .tgz (RUN/serve_b8.log.gz inside); output: gpu_stages.txt

Medians over the 200s answered 5-10.5 s after "ready" (the saturated step) of: letterbox_gpu, infer, decode_gpu
(the output's decode and NMS kernels), times between CUDA events on the pipeline's streams, so they also count any
gap while the launching thread waits to enqueue the kernels; nms_host; and the batch's JPEG decode (per-frame share x
batch). The logs themselves (run*.tgz, ~5 MB) are not kept."""

from __future__ import annotations

import glob
import gzip
import json
import sys

import numpy as np

for root in sys.argv[1:]:
    for path in sorted(glob.glob(f"{root}/*/serve_b8.log.gz")):
        ev = [json.loads(line) for line in gzip.open(path, "rt") if line.startswith("{")]
        ready = next(e["ts"] for e in ev if e["event"] == "ready")
        req = [e for e in ev if e.get("event") == "request" and e.get("code") == 200 and "stages" in e
               and 5 <= e["ts"] - ready < 10.5]
        g = lambda k: float(np.nanmedian([r["stages"].get(k, np.nan) for r in req]))  # noqa: E731
        batch = float(np.mean([r["batch"] for r in req]))
        print(path.split("/")[-3], path.split("/")[-2], f"n {len(req)} batch {batch:.2f}",
              " ".join(f"{k} {g(k):.2f}" for k in ("letterbox_gpu", "infer", "decode_gpu", "nms_host")),
              f"jpeg_decode_batch {g('decode') * batch:.2f}")
