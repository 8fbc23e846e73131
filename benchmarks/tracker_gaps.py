"""Does the tracker keep one id per tag when the detector misses it now and then? Scored on a conveyor recording.

The shipped detector runs once on every frame of the recording (its hangtag boxes are cached in CACHE.npy), then the
tracker is replayed on those boxes under scenarios a live line meets: the detector running every 10th or 30th frame
or at irregular intervals,
and detections dropped at random (5 % of those the frame's edge cuts, 10 % of all, 20 % of the cut ones), five
seeds each, with the belt's speed learned or given. Per scenario: ids given, tags seen, extra ids (a tag split into
several: a duplicate verdict) and ids that followed two tags. `--also OTHER_TRACKER.py` replays another version of
inference/tracking/tracker.py in the same run (e.g. `git show REV:inference/tracking/tracker.py > old.py`).

    python benchmarks/tracker_gaps.py --recording datasets/line/s1.25 --cache /tmp/s1.25.npy [--also old.py]
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from inference.detections import iou  # noqa: E402  (after the repository is on the path)

SCENARIOS = (("every 10th frame (3 fps)", -10, 0.0, False), ("every 30th frame (1 fps)", -30, 0.0, False),
             ("irregular 1-8 frames", 8, 0.0, False), ("irregular 1-12 frames", 12, 0.0, False),
             ("5 % of edge-cut boxes dropped", 1, 0.05, True), ("10 % of all boxes dropped", 1, 0.10, False),
             ("20 % of edge-cut boxes dropped", 1, 0.20, True))


def cache_detections(video: Path, cache: Path) -> np.ndarray:
    import cv2

    from inference.pipeline import Pipeline
    from inference.resources import default_model_path

    pipeline = Pipeline.open(default_model_path(), "onnxruntime-cpu", threads=1)
    capture = cv2.VideoCapture(str(video))
    rows, index = [], 0
    while True:
        ok, frame = capture.read()
        if not ok:
            break
        d = pipeline.process(frame).detections
        rows += [[index, *box, conf] for box, conf, label in zip(d.xyxy, d.confidence, d.labels) if label == "hangtag"]
        index += 1
    boxes = np.array(rows, np.float64).reshape(-1, 6)
    np.save(cache, boxes)
    return boxes



def replay(module, boxes: np.ndarray, truth: dict, frames, belt, drop) -> np.ndarray:
    by_frame = defaultdict(list)
    for row in boxes:
        by_frame[int(row[0])].append(row[1:])
    truth_at = defaultdict(list)
    for tag in truth["tags"]:
        for f, *box in tag["boxes"]:
            truth_at[f].append((tag["id"], box))
    tracker = module.TagTracker((truth["width"], truth["height"]), module.TrackerSettings(belt_px_per_frame=belt))
    ids_of, tags_of = defaultdict(set), defaultdict(set)
    for f in frames:
        kept = [d for d in by_frame.get(int(f), []) if not drop(d)]
        xyxy = np.array([d[:4] for d in kept]).reshape(-1, 4)
        update = tracker.update(int(f), xyxy, np.array([d[4] for d in kept]))
        for box, track_id in zip(xyxy, update.ids):
            if track_id is None:
                continue
            best = max(truth_at.get(int(f), []), key=lambda t: iou(t[1], box), default=None)
            tag = best[0] if best is not None and iou(best[1], box) > 0.3 else None
            tags_of[track_id].add(tag)
            if tag is not None:
                ids_of[tag].add(track_id)
    return np.array([len(tags_of), len(ids_of), sum(len(v) - 1 for v in ids_of.values()),
                     sum(1 for v in tags_of.values() if len(v) > 1)])


def load_tracker(path: Path, name: str):
    spec = importlib.util.spec_from_file_location(name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python benchmarks/tracker_gaps.py")
    parser.add_argument("--recording", type=Path, required=True, help="a training.conveyor folder (line.avi, truth.json)")
    parser.add_argument("--cache", type=Path, required=True, help="the detector's boxes (made on first use)")
    parser.add_argument("--also", type=Path, default=None, help="another tracker.py to replay beside this tree's")
    parser.add_argument("--seeds", type=int, default=5)
    args = parser.parse_args(argv)
    truth = json.loads((args.recording / "truth.json").read_text(encoding="utf-8"))
    boxes = np.load(args.cache) if args.cache.is_file() else cache_detections(args.recording / "line.avi", args.cache)
    from inference.tracking import tracker as current

    trackers = {"this tree": current}
    if args.also is not None:
        trackers[args.also.name] = load_tracker(args.also, "tracker_also")
    w, h = truth["width"], truth["height"]
    print("per scenario, summed over seeds: ids given, tags seen, extra ids (splits), ids on two tags")
    for name, widest, share, edge_only in SCENARIOS:
        for belt in (None, (truth["belt_px_per_s"] / truth["fps"], 0.0)):
            line = f"{name:32s} belt {'given' if belt else 'learned'}:"
            for label, module in trackers.items():
                total = np.zeros(4, int)
                for seed in range(args.seeds):
                    rng = np.random.default_rng(seed)
                    if widest < 0:  # a fixed stride, from a different first frame per seed
                        frames = np.arange(seed % -widest, truth["frames"], -widest)
                    else:
                        frames = np.cumsum(rng.integers(1, widest + 1, truth["frames"])) if widest > 1 else np.arange(truth["frames"])
                    frames = frames[frames < truth["frames"]]

                    def drop(d, rng=rng) -> bool:
                        cut = d[0] <= 2 or d[1] <= 2 or d[2] >= w - 2 or d[3] >= h - 2
                        return share > 0 and (cut or not edge_only) and rng.random() < share

                    total += replay(module, boxes, truth, frames, belt, drop)
                line += f"  {label} {total.tolist()}"
            print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
