"""Probe: in the frames an edge-riding tag crosses, what does the shipped detector box (conf >= 0.05)?

    nice -n 10 python benchmarks/line-lone-symbols-2026-12-05/probe_symbols.py REC_DIR OUT.json

Lists, for each truth tag marked `edge` (never whole in view), the boxes whose centre lies in its truth box, by class:
in how many frames, at what confidence.
"""
import json
import sys

import cv2
import numpy as np

from inference.pipeline import Pipeline
from inference.postprocess import Thresholds
from inference.resources import default_model_path

rec = sys.argv[1]
truth = json.load(open(f"{rec}/truth.json"))
edge = [t for t in truth["tags"] if t["edge"]]
want = {}
for t in edge:
    for row in t["boxes"]:
        want.setdefault(row[0], []).append((t["id"], row[1:]))
pipe = Pipeline.open(default_model_path(), None, thresholds=Thresholds(confidence=0.05))
cap = cv2.VideoCapture(f"{rec}/line.avi")
out = []
i = 0
while True:
    ok, img = cap.read()
    if not ok:
        break
    if i in want:
        d = pipe.process(img).detections
        for tid, tb in want[i]:
            for j in range(len(d.labels)):
                b = d.xyxy[j]
                cx, cy = (b[0] + b[2]) / 2, (b[1] + b[3]) / 2
                inside = tb[0] <= cx <= tb[2] and tb[1] <= cy <= tb[3]
                if inside:
                    out.append({"frame": i, "tag": tid, "label": d.labels[j], "conf": round(float(d.confidence[j]), 3),
                                "box": [round(float(v)) for v in b], "truth": tb})
    i += 1
json.dump(out, open(sys.argv[2], "w"), indent=1)
from collections import defaultdict
agg = defaultdict(list)
for r in out:
    agg[(r["tag"], r["label"])].append((r["frame"], r["conf"]))
for t in edge:
    n = len(t["boxes"])
    print(f"tag {t['id']} frames {t['first_frame']}-{t['last_frame']} ({n})")
    for (tid, label), v in sorted(agg.items()):
        if tid != t["id"]:
            continue
        confs = [c for _, c in v]
        print(f"   {label:10s} in {len(v)} frames ({min(f for f,_ in v)}-{max(f for f,_ in v)}), conf min {min(confs)} med {np.median(confs):.2f} max {max(confs)}; >=0.25 in {sum(c>=0.25 for c in confs)}")
