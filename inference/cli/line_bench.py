"""`hangtag-inspect line-bench`: one verdict per physical tag, scored on conveyor recordings with truth.

Each recording is replayed as a live camera (`camera:VIDEO` delivers frames at the recording's rate and
keeps only the newest for a busy consumer, as a camera does). The line runs as on the station: detection on
every frame it can take, tracking, best-shot reading on the reading worker, one verdict when a tag leaves.
Each verdict is matched to the truth tag whose box it followed; scored: tags seen, tags with a verdict,
correct verdicts, duplicates, missed tags, and the time from a tag fully leaving the view to its verdict.

The recordings and their truth come from `python -m training.conveyor` (read here as plain files).

`--preload` decodes the recording into memory first and replays it without decoding, as an industrial camera
hands over raw frames (decoding a 1280x720 MJPG replay at 30 fps takes ~0.4 of a core here, which a GenICam
camera does not cost). `--detect-fps` caps how often the detector runs; while no tag waits for a read the
free reader could start, it runs only `--whole-looks` times in the frames a tag is wholly in view (the line's
DetectionPace), leaving the reader the CPU; with `--starved-below` only while the reader's thread got less than
that share of a core over its last reads (an idle machine detects at full rate).
Each run records the load average, the share of the CPU the process got, and how much of it went to
detection and to reading: on a shared machine the numbers say how busy it was and where the CPU went.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import threading
import time
from pathlib import Path

import numpy as np

from inference.cli.common import add_model_options, pipeline_from
from inference.detections import intersection, iou
from inference.errors import ConfigError
from inference.tracking.pace import DetectionPace

MATCH_IOU = 0.3
ON_TAG = 0.8  # a verdict's box this much inside a tag's box, with no tag box like it, is about that tag
READER_BACKENDS = ("onnxruntime-cpu", "onnxruntime-cuda", "torch-cuda")
LATENCY_P95_TARGET_S = 1.0


class TruthFormatError(ConfigError):
    """The --truth file is not a conveyor recording's truth."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("line-bench", help="one verdict per tag on conveyor recordings: missed, duplicates, latency")
    parser.add_argument("--source", action="append", required=True,
                        help="camera:VIDEO (a recording replayed as a live camera); repeat for a spacing sweep")
    parser.add_argument("--truth", action="append", type=Path, default=None,
                        help="truth.json of each --source, in order (default: truth.json beside the video)")
    parser.add_argument("--recipe", action="append", type=Path, default=None,
                        help="the job's recipe, one for all or one per --source (default: recipe.toml beside the video)")
    parser.add_argument("--json", type=Path, default=None, help="write every number and per-tag rows here")
    parser.add_argument("--stride", type=int, default=1,
                        help="a plain video (no camera: prefix) is inspected frame by frame, every Nth frame: the "
                             "line's logic without the clock (latency then says nothing about the live line)")
    parser.add_argument("--read-threads", type=int, default=None,
                        help="CPU threads for the reader's OCR (default: ONNX Runtime's; on 2 cores 1 leaves one to detection)")
    parser.add_argument("--belt-px-per-s", type=float, default=None,
                        help="the belt's speed as the line knows it (px/s in the image, + left to right); "
                             "default: learned from the tags, which needs a detector seeing each tag 3+ times")
    parser.add_argument("--look-frames", type=int, default=3,
                        help="a tag never sharp enough is read on its sharpest of this many whole frames")
    parser.add_argument("--detect-fps", type=float, default=None,
                        help="live: run the detector at most this often (default: on every frame it can take)")
    parser.add_argument("--whole-looks", type=float, default=DetectionPace().whole_looks,
                        help="live, with --belt-px-per-s: while no tag waits for a read the free reader could start, "
                             "detect only this many times in the frames a tag is wholly in view, leaving the reader "
                             "the CPU (default: %(default)s; 0: as --detect-fps)")
    parser.add_argument("--starved-below", type=float, default=DetectionPace().starved_below,
                        help="live: detect at --whole-looks only while the reader's thread got less than this share "
                             "of a core (CPU time / wall time) over its last reads; at full rate otherwise "
                             "(e.g. 0.75; default: follow whenever no tag waits for the free reader)")
    parser.add_argument("--read-wait-s", type=float, default=None,
                        help="a tag that left waits this long at most for its read to start, then is judged on the "
                             "reads it has (default: every read is waited for)")
    parser.add_argument("--preload", action="store_true",
                        help="decode a camera: recording into memory first and replay raw frames (an industrial "
                             "camera's cost), instead of decoding each frame while replaying (a USB MJPG camera's)")
    parser.add_argument("--reader-backend", choices=READER_BACKENDS, default=None,
                        help="the reader's runtime (default: the station's choice beside the detector, "
                             "inference/reading/placement.py); torch-cuda: PyTorch on the GPU, also beside a CPU "
                             "detector (a GPU machine without onnxruntime-gpu)")
    add_model_options(parser)
    parser.set_defaults(func=line_bench)


# -- truth --------------------------------------------------------------------------------------------
def load_truth(path: Path) -> dict:
    try:
        truth = json.loads(path.read_text(encoding="utf-8"))
    except OSError as exc:
        raise TruthFormatError(f"cannot read {path}", expected="a truth.json from python -m training.conveyor",
                               found=str(exc), hint="make a recording: python -m training.conveyor --out DIR") from exc
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise TruthFormatError(f"{path} is not JSON", expected="a truth.json from python -m training.conveyor",
                               found=str(exc), hint="regenerate the recording") from exc
    missing = [k for k in ("fps", "frames", "tags") if k not in truth]
    bad_tags = [t.get("id") for t in truth.get("tags", []) if not {"expected_verdict", "boxes", "last_frame"} <= set(t)]
    if missing or bad_tags:
        raise TruthFormatError(f"{path} is not a conveyor truth file", expected="fps, frames, tags[{expected_verdict, boxes, last_frame}]",
                               found=f"missing {', '.join(missing) or 'tag fields'}", hint="regenerate the recording")
    for tag in truth["tags"]:
        tag["by_frame"] = {int(row[0]): row[1:] for row in tag["boxes"]}
    return truth



def match_verdict(truth: dict, verdict) -> dict | None:
    """The truth tag this verdict is about: where the read it rests on was taken (a track that jumped to the
    next tag judged the one it read), else where its track was last seen; best overlap, IoU >= 0.3."""
    if verdict.read_frame is not None and verdict.read_box is not None:
        frame, seen = verdict.read_frame, verdict.read_box
    else:
        frame, seen = verdict.last_frame, verdict.last_box
    best, best_iou = None, MATCH_IOU
    for tag in truth["tags"]:
        box = tag["by_frame"].get(int(frame))
        if box is not None and (overlap := iou(box, seen)) >= best_iou:
            best, best_iou = tag, overlap
    if best is not None:
        return best
    # a row whose box is a part of a tag (a lone symbol's: the barcode of a tag the detector did not outline) is
    # about the tag it lies on
    area = max(1e-9, (seen[2] - seen[0]) * (seen[3] - seen[1]))
    best_share = ON_TAG
    for tag in truth["tags"]:
        box = tag["by_frame"].get(int(frame))
        if box is not None and (share := intersection(box, seen) / area) >= best_share:
            best, best_share = tag, share
    return best


def _pct(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 3) if values else None


def score(truth: dict, verdicts: list[tuple[object, float]], delivered: dict[int, float]) -> dict:
    """`verdicts`: (TagVerdict, when it was given, perf_counter); `delivered`: frame index -> when the source
    delivered it. A tag fully leaves at the frame after its last visible one."""
    fps = float(truth["fps"])
    start = min((t - i / fps for i, t in delivered.items()), default=0.0)
    by_tag: dict[int, list] = {t["id"]: [] for t in truth["tags"]}
    false, rows = [], []
    for verdict, given_at in verdicts:
        tag = match_verdict(truth, verdict)
        if tag is None:
            false.append(verdict.to_record())
            continue
        gone = tag["last_frame"] + 1
        left_at = delivered.get(gone, start + gone / fps)
        by_tag[tag["id"]].append((verdict, given_at - left_at))
    latencies, correct, confusion = [], 0, {}
    for tag in truth["tags"]:
        got = by_tag[tag["id"]]
        first = min(got, key=lambda g: g[0].first_frame) if got else None
        verdict = first[0].verdict.value if first else "MISSED"
        correct += verdict == tag["expected_verdict"]
        key = f"{tag['expected_verdict']}->{verdict}"
        confusion[key] = confusion.get(key, 0) + 1
        if first:
            latencies.append(first[1])
        rows.append({"id": tag["id"], "expected": tag["expected_verdict"], "verdict": verdict,
                     "defect": (tag.get("defect") or {}).get("kind"), "edge": tag.get("edge", False),
                     "verdicts": len(got), "latency_s": round(first[1], 3) if first else None,
                     "reads": first[0].reads if first else 0, "reasons": list(first[0].reasons) if first else [],
                     "best_frame": first[0].best_frame if first else None,
                     "best_focus": round(first[0].best_focus, 1) if first and first[0].best_focus else None})
    n = len(truth["tags"])
    seen = sum(1 for g in by_tag.values() if g)
    return {
        "tags": n, "tags_seen": seen, "tags_with_verdict": seen, "correct": correct,
        "duplicates": sum(max(0, len(g) - 1) for g in by_tag.values()), "missed": n - seen,
        "false_verdicts": len(false), "confusion": dict(sorted(confusion.items())),
        "latency_s": {"p50": _pct(latencies, 50), "p95": _pct(latencies, 95),
                      "max": round(max(latencies), 3) if latencies else None},
        "rows": rows, "false": false,
    }


# -- running one recording ----------------------------------------------------------------------------
class _Newest:
    """The grabber's newest frame, as a live camera's consumer sees it; every delivery is timed. A source that
    is not live (a plain video file) hands over every `stride`-th frame and waits for it to be taken."""

    def __init__(self, source, stride: int = 1) -> None:
        self.source = source
        self.every = not source.live
        self.stride = max(1, stride)
        self.delivered: dict[int, float] = {}
        self.frames = 0
        self.done = False
        self._frame = None
        self._cond = threading.Condition()
        self._thread = threading.Thread(target=self._run, name="line-bench-grabber", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        from inference.sources import Frame

        try:
            for item in self.source.frames():
                if isinstance(item, Frame):
                    with self._cond:
                        while self.every and self._frame is not None:
                            self._cond.wait(0.5)
                        if self.every and item.index % self.stride:
                            continue
                        self.delivered[item.index] = time.perf_counter()
                        self.frames += 1
                        self._frame = item
                        self._cond.notify_all()
        finally:
            with self._cond:
                self.done = True
                self._cond.notify_all()

    def take(self):
        """The newest frame not taken yet; None once the recording ended."""
        with self._cond:
            while self._frame is None and not self.done:
                self._cond.wait(0.5)
            frame, self._frame = self._frame, None
            self._cond.notify_all()
            return frame


class PreloadedReplay:
    """A recording decoded into memory, handed over at its frame rate with no decoding: a raw camera."""

    live = True

    def __init__(self, video: str) -> None:
        import cv2

        capture = cv2.VideoCapture(video)
        fps = float(capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self._period_s = 1.0 / fps if 1.0 <= fps <= 240.0 else 1.0 / 30
        self._images = []
        while True:
            ok, image = capture.read()
            if not ok:
                break
            self._images.append(image)
        capture.release()
        if not self._images:
            from inference.sources import SourceError

            raise SourceError(f"cannot read {video}", expected="a conveyor recording (python -m training.conveyor)",
                              found="no frames", hint="check the path; regenerate the recording")

    def frames(self):
        from inference.sources import Frame

        next_due = time.perf_counter()
        for index, image in enumerate(self._images):
            next_due += self._period_s
            time.sleep(max(0.0, next_due - time.perf_counter()))
            yield Frame(index, f"replay#{index}", None, image, 0.0)

    def close(self) -> None:
        self._images = []


def _cpu_s() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def run_recording(inspector, spec: str, truth: dict, look_frames: int, stride: int = 1,
                  belt_px_per_s: float | None = None, detect_fps: float | None = None,
                  preload: bool = False, whole_looks: float | None = DetectionPace().whole_looks,
                  read_wait_s: float | None = None,
                  starved_below: float | None = DetectionPace().starved_below) -> dict:
    from inference.sources import open_source
    from inference.tracking import LineInspector, LineSettings, TrackerSettings

    belt = None if belt_px_per_s is None else (belt_px_per_s / float(truth["fps"]), 0.0)
    pace = DetectionPace(shot_fps=detect_fps or None, whole_looks=whole_looks or None,
                         starved_below=starved_below or None)
    settings = LineSettings(look_frames=look_frames, tracker=TrackerSettings(belt_px_per_frame=belt), pace=pace,
                            read_wait_s=read_wait_s)
    live_replay = spec.startswith("camera:")
    source = PreloadedReplay(spec[len("camera:"):]) if preload and live_replay else open_source(spec)
    verdicts: list[tuple[object, float]] = []
    detect_ms: list[float] = []
    step_cpu_s, followed = 0.0, 0
    # a tag that left waiting for its read: its verdict comes on the reading thread as the read lands
    woken = lambda verdict: verdicts.append((verdict, time.perf_counter()))  # noqa: E731 - list.append is atomic
    with LineInspector.around(inspector, settings, on_verdict=woken) as line:
        load_before, cpu_before = os.getloadavg()[0], _cpu_s()
        newest = _Newest(source, stride)
        started = time.perf_counter()
        try:
            while (frame := newest.take()) is not None:
                t0, cpu0 = time.perf_counter(), time.thread_time()
                if source.live and not line.detection_due(frame.index):
                    given = line.follow(frame.index)  # paced: the belt carries the tags, no detection
                    followed += 1
                else:
                    given = line.step(frame.index, frame.image)
                    detect_ms.append((time.perf_counter() - t0) * 1000)
                now = time.perf_counter()
                step_cpu_s += time.thread_time() - cpu0
                verdicts += [(v, now) for v in given]
            given = line.finish()
            now = time.perf_counter()
            verdicts += [(v, now) for v in given]
        finally:
            source.close()
        wall = time.perf_counter() - started
        cpu = _cpu_s() - cpu_before
        result = score(truth, verdicts, newest.delivered)
        result.update({
            "source": spec, "live": bool(source.live), "belt_px_per_s": belt_px_per_s, "spacing_s": truth.get("spacing_s"), "frames": truth["frames"],
            "frames_delivered": newest.frames, "frames_inspected": line.frames, "frames_followed": followed,
            "detect_fps": round(line.frames / wall, 2) if wall else None,
            "step_ms_p50": _pct(detect_ms, 50), "reads": sum(v.reads for v, _ in verdicts),
            "read_busy_share": round(line.worker.busy_s / wall, 3) if wall else None,
            "shots_dropped": line.worker.dropped, "reads_given_up": line.reads_given_up, "read_wait_s": read_wait_s, "wall_s": round(wall, 2), "preloaded": bool(preload and live_replay),
            "detect_fps_cap": detect_fps, "whole_looks": whole_looks, "starved_below": starved_below or None,
            "reader_cpu_share": round(line.worker.cpu_s / line.worker.busy_s, 2) if line.worker.busy_s else None,
            "cpu_cores_used": round(cpu / wall, 2) if wall else None,
            "cpu_s": {"all": round(cpu, 2), "detection_loop": round(step_cpu_s, 2),
                      "reading": round(line.worker.cpu_s, 2)},
            "detections_per_tag": round(line.frames / len(truth["tags"]), 1) if truth["tags"] else None,
            "load_average": [round(load_before, 2), round(os.getloadavg()[0], 2)],
        })
    return result


def _paths(args: argparse.Namespace) -> list[tuple[str, Path, Path]]:
    runs = []
    for k, spec in enumerate(args.source):
        video = Path(spec.split(":", 1)[1] if spec.startswith("camera:") else spec)
        truth = args.truth[k] if args.truth and k < len(args.truth) else video.parent / "truth.json"
        if args.recipe:
            recipe = args.recipe[k] if k < len(args.recipe) else args.recipe[-1]
        else:
            recipe = video.parent / "recipe.toml"
        runs.append((spec, truth, recipe))
    return runs


def line_bench(args: argparse.Namespace) -> int:
    from inference.reading.recipe import load_recipe

    runs = [(spec, load_truth(truth), load_recipe(recipe)) for spec, truth, recipe in _paths(args)]
    results = []
    with _inspector(args, runs[0][2]) as inspector:
        inspector.reader.read(np.full((720, 1280, 3), 128, np.uint8))  # the OCR sessions' first call, before timing
        engines = _engines(inspector)
        for spec, truth, recipe in runs:
            inspector.recipe = recipe
            result = run_recording(inspector, spec, truth, args.look_frames, args.stride, args.belt_px_per_s,
                                   args.detect_fps, args.preload, args.whole_looks, args.read_wait_s,
                                   args.starved_below)
            results.append(result)
            _print(result)
    clean = [r for r in results if r["missed"] == 0 and r["spacing_s"] and r["live"]]
    densest = min((r["spacing_s"][0] for r in clean), default=None)
    if any(r["live"] for r in results):
        print(f"densest spacing with 0 tags missed (live): {densest if densest is not None else 'none of the runs'}"
              + (" s" if densest is not None else ""))
    if args.json:
        import onnxruntime

        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({
            "machine": {"python": platform.python_version(), "cpu": platform.processor() or platform.machine(),
                        "onnxruntime": onnxruntime.__version__, "cores": os.cpu_count(),
                        "detector_threads": args.threads, "reader_threads": args.read_threads, **engines,
                        "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())},
            "densest_spacing_s_without_misses": densest, "runs": results,
        }, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    return 0


def _inspector(args: argparse.Namespace, recipe):
    from inference.inspection import Inspector

    pipeline = pipeline_from(args)
    backend = args.reader_backend
    if backend is None and args.read_threads is None:
        return Inspector.around(pipeline, read=True, recipe=recipe)
    from inference.reading import TagReader

    if backend is None:
        backend = "onnxruntime-cuda" if pipeline.backend == "onnxruntime-cuda" else "onnxruntime-cpu"
    try:
        reader = TagReader.open(backend, args.read_threads)
    except Exception:
        pipeline.close()
        raise
    return Inspector(pipeline, reader=reader, recipe=recipe)


def _engines(inspector) -> dict:
    """What detected and what read in this run: the detector's backend, the reader's classes and device."""
    reader = inspector.reader
    parts = (reader.detector, reader.recognizer)
    devices = {getattr(getattr(part, "session", None), "device", None) for part in parts} - {None}
    return {"detector_backend": inspector.pipeline.backend,
            "reader": [type(part).__name__ for part in parts],
            "reader_device": ",".join(sorted(map(str, devices))) or "cpu"}


def _print(r: dict) -> None:
    lat = r["latency_s"]
    mode = "live" if r["live"] else "frame by frame"
    print(f"{r['source']} ({mode}, a tag every {r['spacing_s']} s): {r['tags']} tags | seen {r['tags_seen']} | "
          f"with a verdict {r['tags_with_verdict']} | correct {r['correct']} | duplicates {r['duplicates']} | "
          f"missed {r['missed']} | false {r['false_verdicts']}")
    print(f"  verdict latency after the tag left: p50 {lat['p50']} s, p95 {lat['p95']} s, max {lat['max']} s "
          f"(target p95 <= {LATENCY_P95_TARGET_S:g} s)")
    print(f"  frames delivered {r['frames_delivered']}, inspected {r['frames_inspected']} ({r['detect_fps']} fps), "
          f"followed by the belt {r['frames_followed']}, "
          f"step p50 {r['step_ms_p50']} ms, reads {r['reads']}, reader busy {r['read_busy_share']:.0%} "
          f"(its thread got {r['reader_cpu_share']} of a core while reading), "
          f"shots dropped {r['shots_dropped']}, reads given up after the tag left {r['reads_given_up']}")
    print(f"  CPU cores used {r['cpu_cores_used']} of {os.cpu_count()}, load average {r['load_average'][0]} -> "
          f"{r['load_average'][1]}" + (", raw frames from memory" if r["preloaded"] else ""))
    cpu = r["cpu_s"]
    print(f"  CPU seconds: {cpu['all']} in all, detection loop {cpu['detection_loop']} "
          f"({r['detections_per_tag']} detections a tag), reading {cpu['reading']}")
    print(f"  expected->given: {', '.join(f'{k} {v}' for k, v in r['confusion'].items())}")
