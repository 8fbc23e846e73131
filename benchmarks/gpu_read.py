"""Detect + read on the GPU (issue 19): 1080p frames with one tag and with four, the station's Inspector with
the GPU pipeline and the GPU reader, against the CPU reader on the same frames and detections.

    python benchmarks/gpu_read.py --data DIR --out result.json [--frames 60] [--passes 2]

DIR is a tag set written by training.tagsets (truth.jsonl + images/); each 1280×960 image is placed at its
own scale in a 1920×1080 frame (one tag), and four tag crops make a 2×2 frame (four tags). Needs a GPU,
onnxruntime-gpu and the OCR models where `find_ocr_models` finds them (resources/ocr/manifest.json on a
machine without rapidocr; its "reread" entry names the small-print recognizer of the last read).

`--modes plain recipe`: "plain" reads each frame without a recipe (no verification: the small-print recognizer
never runs), "recipe" verifies each one-tag frame against its row's recipe and reads four tags of one job in each
four-tag frame against that job's recipe, so fields left in doubt are read again, the last time by the
small-print recognizer (verify.py). Each mode is timed and compared with the CPU reader, recipe for recipe;
`--reread-turns N` times N turns in recipe mode with the small-print read off and on in turn.
"""

from __future__ import annotations

import argparse
import json
import platform
import sys
import time
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

FRAME_HW = (1080, 1920)


def one_tag_frames(data: Path, count: int) -> list[np.ndarray]:
    rows = [json.loads(line) for line in open(data / "truth.jsonl", encoding="utf-8")]
    frames = []
    for row in rows:
        if len(row["tags"]) != 1:
            continue
        image = cv2.imread(str(data / row["image"]))
        if image is None:
            continue
        h, w = image.shape[:2]
        frame = np.empty((*FRAME_HW, 3), np.uint8)
        frame[:] = image.reshape(-1, 3).mean(axis=0).astype(np.uint8)
        top, left = (FRAME_HW[0] - h) // 2, (FRAME_HW[1] - w) // 2
        frame[top:top + h, left:left + w] = image
        frames.append((frame, row))
        if len(frames) >= count:
            break
    return frames


def four_tag_frames(singles, count: int) -> list[np.ndarray]:
    frames = []
    ch, cw = FRAME_HW[0] // 2, FRAME_HW[1] // 2
    for k in range(count):
        frame = np.full((*FRAME_HW, 3), 128, np.uint8)
        for cell in range(4):
            image, row = singles[(4 * k + cell) % len(singles)]
            h, w = image.shape[:2]
            top, left = (FRAME_HW[0] - 960) // 2, (FRAME_HW[1] - 1280) // 2
            x1, y1, x2, y2 = row["tags"][0]["xyxy"]
            m = 40
            crop = image[max(0, int(y1) + top - m):min(h, int(y2) + top + m), max(0, int(x1) + left - m):min(w, int(x2) + left + m)]
            scale = min(1.0, (ch - 10) / crop.shape[0], (cw - 10) / crop.shape[1])
            if scale < 1.0:
                crop = cv2.resize(crop, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
            oy, ox = (cell // 2) * ch + (ch - crop.shape[0]) // 2, (cell % 2) * cw + (cw - crop.shape[1]) // 2
            frame[oy:oy + crop.shape[0], ox:ox + crop.shape[1]] = crop
        frames.append(frame)
    return frames


def job_four_tag_frames(singles, count: int) -> list[tuple[np.ndarray, str]]:
    """Four-tag frames of four tags of one job each (the tags a recipe is for), with that job's recipe path: the
    jobs in turn, each job's tags in turn."""
    by_job: dict[str, list] = {}
    for frame, row in singles:
        by_job.setdefault(row["recipe"], []).append((frame, row))
    jobs = sorted(by_job)
    frames = []
    for k in range(count):
        job = jobs[k % len(jobs)]
        tags = by_job[job]
        start = 4 * (k // len(jobs))
        frames.append((four_tag_frames([tags[(start + i) % len(tags)] for i in range(4)], 1)[0], job))
    return frames


class SecondReads:
    """Times verify._second_read by the recognizer it reads with: a reader's stock recognizer (the second read of
    fields in doubt) or its `rereader` (the small-print recognizer's last read), and the rereader's network runs;
    and every OCR model open (load, then the warm-up's CUDA-graph captures)."""

    def __init__(self) -> None:
        self.labels: dict[int, str] = {}
        self.events: list[tuple[str, float]] = []  # (label, ms), in order
        self.network: dict[str, list] = {}  # label -> [calls, ms]
        self.opens: list[dict] = []

    def install(self) -> None:
        from inference.reading import verify
        from inference.reading.ocr import gpu

        second_read = verify._second_read

        def timed_second_read(crops, tag, upright, detector, recognizer, *rest):
            t = time.perf_counter_ns()
            try:
                return second_read(crops, tag, upright, detector, recognizer, *rest)
            finally:
                self.events.append((self.labels.get(id(recognizer), "?"), (time.perf_counter_ns() - t) / 1e6))

        verify._second_read = timed_second_read
        for cls in (gpu.BucketedTextDetector, gpu.BucketedTextRecognizer):
            opener = cls.open.__func__

            def timed_open(klass, model_path, *a, _opener=opener, **k):
                t = time.perf_counter()
                part = _opener(klass, model_path, *a, **k)
                self.opens.append({"class": klass.__name__, "model": Path(model_path).name,
                                   "open_s": round(time.perf_counter() - t, 2), "of_it_warm_up_s": round(part.warmup_s, 2)})
                return part

            cls.open = classmethod(timed_open)

    def name(self, reader, side: str) -> None:
        self.labels[id(reader.recognizer)] = f"{side}:stock"
        if reader.rereader is not None:
            self.labels[id(reader.rereader)] = f"{side}:small"
            # the GPU classes run a session, the CPU reader's an engine
            gpu_class = hasattr(reader.rereader, "session")
            owner = reader.rereader.session if gpu_class else reader.rereader.engine
            method, label = "run" if gpu_class else "infer", f"{side}:small"
            run = getattr(owner, method)

            def timed_run(*a, **k):
                t = time.perf_counter_ns()
                try:
                    return run(*a, **k)
                finally:
                    entry = self.network.setdefault(label, [0, 0.0])
                    entry[0] += 1
                    entry[1] += (time.perf_counter_ns() - t) / 1e6

            setattr(owner, method, timed_run)

    def mark(self) -> tuple[int, dict]:
        return len(self.events), {k: list(v) for k, v in self.network.items()}

    def since(self, mark: tuple[int, dict], tags: int, side: str) -> dict:
        """The second reads since `mark` of `side`'s reader, over `tags` tags read."""
        events = self.events[mark[0]:]
        out: dict = {"tags_read": tags}
        for kind in ("stock", "small"):
            ms = [m for label, m in events if label == f"{side}:{kind}"]
            out[kind] = {"reads": len(ms), "share_of_tags": round(len(ms) / tags, 3) if tags else None,
                         "ms_per_tag": round(sum(ms) / tags, 2) if tags else None, "ms_per_read": pct(ms)}
        calls, ms = self.network.get(f"{side}:small", [0, 0.0])
        calls0, ms0 = mark[1].get(f"{side}:small", [0, 0.0])
        out["small"]["network_calls"] = calls - calls0
        out["small"]["network_ms_per_tag"] = round((ms - ms0) / tags, 2) if tags else None
        return out


def open_inspector(dry_cpu: bool, reader: str = "onnxruntime-cuda"):
    """The station's Inspector with its GPU reader; `dry_cpu`: the same reader classes run on the CPU beside a CPU
    detector, to check a script on a machine without a GPU (the small-print recognizer opened as TagReader.open
    opens it: the models' `reread`, the same squeeze)."""
    from inference.inspection import Inspector
    from inference.reading.reader import TagReader
    from inference.resources import default_model_path

    if not dry_cpu:
        return Inspector.open(default_model_path(), "onnxruntime-cuda", read=True)
    from inference.reading.ocr import gpu as ocr_gpu
    from inference.reading.ocr.detector import DbParams
    from inference.reading.ocr.models import find_ocr_models

    models = find_ocr_models()
    inspector = Inspector.open(default_model_path(), "onnxruntime-cpu", read=False)
    rereader = None if models.reread is None else \
        ocr_gpu.BucketedTextRecognizer.open(models.reread, reader, device="cpu", warm=[], squeeze=0.7)
    inspector.reader = TagReader(ocr_gpu.BucketedTextDetector.open(models.det, reader, device="cpu", params=DbParams(limit_side=448)),
                                 ocr_gpu.BucketedTextRecognizer.open(models.rec, reader, device="cpu", warm=[], squeeze=0.7),
                                 models=models.describe(), rereader=rereader)
    return inspector


def pct(values) -> dict:
    a = np.asarray(values, np.float64)
    if a.size == 0:
        return {"count": 0}
    p50, p95, p99 = np.percentile(a, [50, 95, 99])
    return {"count": int(a.size), "p50": round(float(p50), 2), "p95": round(float(p95), 2), "p99": round(float(p99), 2),
            "max": round(float(a.max()), 2), "mean": round(float(a.mean()), 2)}


def fields_of(readings) -> list[dict]:
    return [{name: (f.value if f is not None else None) for name, f in r.fields.items()} for r in readings]


def small_print_of(readings) -> list[list[str]]:
    """What the small-print recognizer read on each tag (empty where it did not run or read nothing)."""
    return [[line.text for line in r.small_print_lines] for r in readings]


def first_shape_costs(models, reader: str = "onnxruntime-cuda", shapes: int = 8, device: str = "cuda") -> dict:
    """ms of the first run of a new recognizer input shape after a session's first, and of the same shape again:
    per cuDNN search mode for ONNX Runtime, once for PyTorch."""
    from inference.reading.ocr.gpu import BucketSession
    from inference.reading.ocr.topk import TOP_I, TOP_P, recognizer_with_top_classes

    rng = np.random.default_rng(1)
    out = {}
    path = recognizer_with_top_classes(models.rec)
    # PyTorch: cuDNN by heuristic and with its timed search per shape (cudnn.benchmark)
    # and without cuDNN (PyTorch's own convolution kernels: no per-shape plans; the reader's default)
    variants = ("HEURISTIC", "DEFAULT") if reader == "onnxruntime-cuda" else ("torch", "torch-cudnn-benchmark", "torch-no-cudnn")
    for variant in variants:
        if variant.startswith("torch"):
            from inference.reading.ocr.torch_graph import TorchSession

            opener = lambda p: TorchSession(p, device=device, cudnn=variant != "torch-no-cudnn",  # noqa: E731
                                            cudnn_benchmark=variant.endswith("benchmark"))
        else:
            opener = lambda p: BucketSession(p, conv_algo_search=variant, device=device)  # noqa: E731
        session = opener(path)
        session.run({session.input_name: np.zeros((1, 3, 48, 320), np.float32)}, [TOP_P, TOP_I])
        first, second = [], []
        for _ in range(shapes):
            n, w = int(rng.choice([1, 2, 4, 8, 16, 32])), int(rng.integers(2, 200)) * 8
            x = rng.uniform(-1, 1, (n, 3, 48, w)).astype(np.float32)
            t = time.perf_counter()
            session.run({session.input_name: x}, [TOP_P, TOP_I])
            first.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            session.run({session.input_name: x}, [TOP_P, TOP_I])
            second.append((time.perf_counter() - t) * 1000)
        out[variant] = {"first_run_ms": pct(first), "second_run_ms": pct(second)}
        session.close()
        # the text detector: its input sides are multiples of 32 up to 448
        det = opener(models.det)
        name = det.output_names[0]
        det.run({det.input_name: np.zeros((1, 3, 448, 448), np.float32)}, [name])
        first, second = [], []
        for _ in range(max(2, shapes // 2)):
            h, w = (int(v) * 32 for v in rng.integers(3, 15, 2))
            x = rng.uniform(-1, 1, (1, 3, h, w)).astype(np.float32)
            t = time.perf_counter()
            det.run({det.input_name: x}, [name])
            first.append((time.perf_counter() - t) * 1000)
            t = time.perf_counter()
            det.run({det.input_name: x}, [name])
            second.append((time.perf_counter() - t) * 1000)
        out[variant + " det"] = {"first_run_ms": pct(first), "second_run_ms": pct(second)}
        det.close()
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path, required=True)
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--frames", type=int, default=60)
    parser.add_argument("--four", type=int, default=15)
    parser.add_argument("--passes", type=int, default=2)
    parser.add_argument("--warm-frames", type=int, default=10)
    parser.add_argument("--cpu-threads", type=int, default=8)
    parser.add_argument("--reader", choices=("onnxruntime-cuda", "torch-cuda"), default="onnxruntime-cuda",
                        help="the GPU reader's runtime: ONNX Runtime's CUDA provider or PyTorch")
    parser.add_argument("--detector", choices=("onnxruntime-cuda", "onnxruntime-cpu"), default="onnxruntime-cuda",
                        help="onnxruntime-cpu: detect on the CPU (no onnxruntime-gpu needed with --reader torch-cuda)")
    parser.add_argument("--dry-cpu", action="store_true", help="check this script on a machine without a GPU")
    parser.add_argument("--torch-cudnn", action="store_true",
                        help="with --reader torch-cuda: cuDNN's convolutions (heuristic) instead of PyTorch's own (the default)")
    parser.add_argument("--skip-shape-costs", action="store_true")
    parser.add_argument("--no-graphs", action="store_true",
                        help="with --reader torch-cuda: node by node, no CUDA graphs (HANGTAG_OCR_CUDA_GRAPHS=0)")
    parser.add_argument("--four-tag-threads", type=int, nargs="+", default=[1],
                        help="time the four-tag frames with each of these TagReader.tag_threads")
    parser.add_argument("--overlap-threads", nargs="+", default=None,
                        help="time the frames with each of these TagReader.overlap_threads in turn, in this process (e.g. "
                             "0 8 0 8: off and on, twice; a setting given again adds its passes to the first's; N:part+part "
                             "runs only those parts of inference/reading/overlap.py, e.g. 8:ahead); default: as opened")
    parser.add_argument("--modes", nargs="+", choices=("plain", "recipe"), default=["plain"],
                        help="plain: no recipe (the small-print read never runs); recipe: each frame verified against its "
                             "job's recipe. Each mode timed and compared with the CPU reader in turn")
    parser.add_argument("--reread-turns", type=int, default=0,
                        help="recipe mode: this many turns with the small-print read off and on in turn (off first)")
    parser.add_argument("--allow-no-rereader", action="store_true",
                        help="run although the OCR models name no small-print recognizer (default: refuse)")
    args = parser.parse_args()
    if args.no_graphs:
        import os

        os.environ["HANGTAG_OCR_CUDA_GRAPHS"] = "0"
    if args.torch_cudnn:
        from inference.reading.ocr import torch_graph

        torch_graph.USE_CUDNN = True

    from inference.inspection import Inspector
    from inference.reading import load_recipe
    from inference.reading.ocr.models import find_ocr_models
    from inference.reading.reader import TagReader
    from inference.resources import default_model_path

    result: dict = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "machine": platform.node(), "args": vars(args) | {
        "data": str(args.data), "out": str(args.out)}}
    singles = one_tag_frames(args.data, args.frames + args.warm_frames)
    warm, singles_timed = singles[: args.warm_frames], singles[args.warm_frames:]
    recipes: dict[str, object] = {}

    def recipe_of(path: str):
        if path not in recipes:
            recipes[path] = load_recipe(args.data / path)
        return recipes[path]

    # (frame, recipe path or None) per mode: the twelfth session's frames without a recipe; with one, each
    # one-tag frame its row's and each four-tag frame four tags of one job
    frame_sets = {"plain": ([(f, None) for f, _ in singles_timed], [(f, None) for f in four_tag_frames(singles, args.four)]),
                  "recipe": ([(f, row["recipe"]) for f, row in singles_timed], job_four_tag_frames(singles, args.four))}
    models = find_ocr_models()
    result["ocr_models"] = models.describe()
    result["small_print_model"] = None if models.reread is None else {"file": str(models.reread), "bytes": models.reread.stat().st_size}
    print("frames", len(singles_timed), "four-tag", args.four, models.describe(), flush=True)
    if models.reread is None and not args.allow_no_rereader:
        print("no small-print recognizer in the OCR models (resources/ocr/manifest.json needs a 'reread' entry, or "
              "resources/models/ocr_rec_small_print.onnx where rapidocr's models are used); --allow-no-rereader runs anyway",
              flush=True)
        return 2

    result["first_shape_costs"] = {} if args.skip_shape_costs else first_shape_costs(
        models, args.reader, device="cpu" if args.dry_cpu else "cuda", shapes=2 if args.dry_cpu else 8)
    print("first-shape costs", json.dumps(result["first_shape_costs"]), flush=True)

    # the station reads on the CPU beside a GPU detector unless the GPU reader is asked for (placement.py);
    # no shape is warmed at open (each costs a first run): the warm-up frames meet the common ones
    import os

    os.environ["HANGTAG_GPU_OCR"] = "torch" if args.reader == "torch-cuda" else "1"
    second = SecondReads()
    second.install()
    t0 = time.perf_counter()
    if args.detector == "onnxruntime-cpu" and not args.dry_cpu:
        inspector = Inspector.open(default_model_path(), "onnxruntime-cpu", read=False)
        inspector.reader = TagReader.open(args.reader)
    else:
        inspector = open_inspector(args.dry_cpu, args.reader)
    open_s = time.perf_counter() - t0
    reader = inspector.reader
    if models.reread is not None and reader.rereader is None:
        print("the GPU reader opened no small-print recognizer although the models name one", flush=True)
        return 2
    second.name(reader, "gpu")
    parts = {"ocr_det": reader.detector, "ocr_rec": reader.recognizer} | ({"ocr_reread": reader.rereader} if reader.rereader else {})
    result["pipeline_backend"] = inspector.pipeline.backend
    result["reader_models"] = reader.models
    result["reader_classes"] = [type(x).__name__ for x in parts.values()]
    result["reader_on_gpu"] = all(getattr(getattr(x, "session", None), "device", "") == "cuda" for x in parts.values())
    result["open_s"] = round(open_s, 2)
    result["ocr_opens"] = list(second.opens)
    result["warmup_s"] = {name: round(x.warmup_s, 2) for name, x in parts.items()}
    result["cuda_graphs"] = graphs_state(reader)
    print("open", result["pipeline_backend"], result["reader_classes"], "on gpu", result["reader_on_gpu"], f"{open_s:.1f} s",
          result["warmup_s"], result["ocr_opens"], flush=True)
    t0 = time.perf_counter()
    for frame, row in warm:  # with and without recipes: both modes' shapes met before timing
        inspector.recipe = recipe_of(row["recipe"]) if "recipe" in args.modes else None
        inspector.inspect_image(frame)
    result["warm_frames_s"] = round(time.perf_counter() - t0, 2)
    inspector.recipe = None
    t0 = time.perf_counter()
    inspector.inspect_image(singles_timed[0][0])
    result["first_result_after_open_ms"] = round((time.perf_counter() - t0) * 1000, 2)
    new_before = [x.session.new_after_warmup for x in parts.values()]
    graphs_before = graphs_state(reader)

    def timed(frames, passes):
        totals, stages, outs, tags = [], {}, [], 0
        for p in range(passes):
            for frame, recipe in frames:
                inspector.recipe = None if recipe is None else recipe_of(recipe)
                t = time.perf_counter()
                res = inspector.inspect_image(frame)
                totals.append((time.perf_counter() - t) * 1000)
                tags += len(res.readings)
                for k, v in res.timings.stages_ms.items():
                    stages.setdefault(k, []).append(v)
                for r in res.readings:
                    for k, v in r.timings_ms.items():
                        stages.setdefault("tag:" + k, []).append(v)
                if p == 0:
                    outs.append(res)
        inspector.recipe = None
        return totals, {k: pct(v) for k, v in stages.items()}, outs, tags

    # each overlap setting in turn (TagReader.overlap_threads, inference/reading/overlap.py): the same frames, the
    # same process; a setting listed again adds its passes (alternating settings spreads drift over both)
    from inference.reading.overlap import parse_setting

    opened_overlap = (reader.overlap_threads, reader.overlap_parts)
    by_overlap: dict[str, dict] = {}
    for n in args.overlap_threads or []:
        reader.overlap_threads, reader.overlap_parts = parse_setting(n)
        ahead0 = (getattr(reader.detector, "ahead_runs", 0), getattr(reader.detector, "ahead_used", 0))
        one_ms, one_stages_n, one_results, _ = timed(frame_sets["plain"][0], args.passes)
        reader.tag_threads = args.four_tag_threads[0]
        four_ms, _four_stages, four_results_n, _ = timed(frame_sets["plain"][1], args.passes)
        reader.tag_threads = 1
        entry = by_overlap.setdefault(n, {"one_ms": [], "four_ms": [], "stages": {}, "one_results": one_results,
                                          "four_results": four_results_n, "ahead_runs": 0, "ahead_used": 0, "stages_p50": []})
        entry["stages_p50"].append({k: v.get("p50") for k, v in one_stages_n.items()})
        entry["one_ms"] += one_ms
        entry["four_ms"] += four_ms
        entry["ahead_runs"] += getattr(reader.detector, "ahead_runs", 0) - ahead0[0]
        entry["ahead_used"] += getattr(reader.detector, "ahead_used", 0) - ahead0[1]
        print(f"overlap threads {n}: one tag {pct(one_ms)}; four tags {pct(four_ms)}", flush=True)
    result["overlap"] = {str(n): {"one_tag_ms": pct(e["one_ms"]), "four_tags_ms": pct(e["four_ms"]),
                                  "detected_ahead": e["ahead_runs"], "used_ahead": e["ahead_used"],
                                  "one_tag_stages_p50_by_turn": e["stages_p50"]} for n, e in by_overlap.items()}
    reader.overlap_threads, reader.overlap_parts = opened_overlap

    # what the small-print read costs: recipe-mode turns with it off and on in turn, in this process
    rereader, turns = reader.rereader, {}
    for k in range(args.reread_turns if rereader is not None else 0):
        setting = "on" if k % 2 else "off"
        reader.rereader = rereader if setting == "on" else None
        mark = second.mark()
        one_ms, one_stages_k, _, one_tags = timed(frame_sets["recipe"][0], args.passes)
        small = second.since(mark, one_tags, "gpu")
        four_ms, _, _, _ = timed(frame_sets["recipe"][1], args.passes)
        entry = turns.setdefault(setting, {"one_ms": [], "four_ms": [], "by_turn": []})
        entry["one_ms"] += one_ms
        entry["four_ms"] += four_ms
        entry["by_turn"].append({"one_tag_p50": pct(one_ms).get("p50"), "four_tags_p50": pct(four_ms).get("p50"),
                                 "tag_verify_p50": one_stages_k.get("tag:verify", {}).get("p50"), "second_reads": small})
        print(f"small-print read {setting}: one tag {pct(one_ms)}; four tags {pct(four_ms)}; {small}", flush=True)
    reader.rereader = rereader
    result["reread_turns"] = {s: {"one_tag_ms": pct(e["one_ms"]), "four_tags_ms": pct(e["four_ms"]), "by_turn": e["by_turn"]}
                              for s, e in turns.items()}

    # the measurement itself, per mode: one tag, four tags with each tag-thread count
    measured: dict[str, dict] = {}
    for mode in args.modes:
        ones, fours = frame_sets[mode]
        mark = second.mark()
        one_ms, one_stages, one_results, one_tags = timed(ones, args.passes)
        entry = {"one_tag": {"overlap_threads": reader.overlap_threads, "detect_read_ms": pct(one_ms), "stages_ms": one_stages,
                             "tags_read": sum(len(r.readings) for r in one_results),
                             "second_reads": second.since(mark, one_tags, "gpu")}}
        four_by_threads = {}
        for threads in args.four_tag_threads:
            reader.tag_threads = threads
            mark = second.mark()
            four_ms, four_stages, four_results, four_tags = timed(fours, args.passes)
            four_by_threads[threads] = four_results
            entry["four_tags" if threads == args.four_tag_threads[0] else f"four_tags_{threads}_threads"] = {
                "tag_threads": threads, "detect_read_ms": pct(four_ms), "stages_ms": four_stages,
                "tags_read": sum(len(r.readings) for r in four_results), "second_reads": second.since(mark, four_tags, "gpu")}
            print(mode, "four tags,", threads, "tag threads:", pct(four_ms), flush=True)
        reader.tag_threads = 1
        measured[mode] = {"entry": entry, "one_results": one_results, "four_by_threads": four_by_threads}
        print(mode, "one tag", entry["one_tag"]["detect_read_ms"], "four", entry["four_tags"]["detect_read_ms"],
              "second reads", entry["one_tag"]["second_reads"], flush=True)
    result["modes"] = {mode: m["entry"] for mode, m in measured.items()}
    result |= result["modes"][args.modes[0]]  # the first mode's under the keys earlier records used
    result["cuda_graphs_before_timed"] = graphs_before
    result["cuda_graphs_after"] = graphs_state(reader)
    result["new_shapes_after_warmup"] = {name: x.session.new_after_warmup for name, x in parts.items()} | {"before_timed": new_before}
    print("new shapes", result["new_shapes_after_warmup"], "graphs", result["cuda_graphs_after"], flush=True)

    # the CPU reader on the same frames, recipes and GPU detector's boxes: fields must be equal
    cpu = TagReader.open("onnxruntime-cpu", args.cpu_threads)
    second.name(cpu, "cpu")
    result["cpu_reader"] = {"models": cpu.models, "rereader": type(cpu.rereader).__name__ if cpu.rereader else None,
                            "same_models_as_gpu_reader": cpu.models == reader.models}
    print("cpu reader", result["cpu_reader"], flush=True)
    from inference.reading.normalize import same_value

    for mode, m in measured.items():
        ones, fours = frame_sets[mode]
        compared = equal = small_equal = 0
        differences = []
        cpu_ms = []
        tag_fields = field_total = field_equal = 0
        truth_hits = {"gpu": 0, "cpu": 0, "total": 0}
        mark = second.mark()
        for ((frame, recipe), (_f, row)), res in zip(zip(ones, singles_timed), m["one_results"]):
            t = time.perf_counter()
            ref = cpu.read(frame, res.detections, recipe=None if recipe is None else recipe_of(recipe))
            cpu_ms.append((time.perf_counter() - t) * 1000)
            a, b = fields_of(res.readings), fields_of(ref)
            compared += 1
            equal += a == b
            small_equal += small_print_of(res.readings) == small_print_of(ref)
            for fa, fb in zip(a, b):
                tag_fields += 1
                for k in set(fa) | set(fb):
                    field_total += 1
                    field_equal += fa.get(k) == fb.get(k)
            if a != b and len(differences) < 10:
                differences.append({"image": row["image"], "gpu": a, "cpu": b})
            truth = row["tags"][0]["fields"]
            for name, value in truth.items():
                if value is None:
                    continue
                truth_hits["total"] += 1
                for side, fs in (("gpu", a), ("cpu", b)):
                    got = fs[0].get(name) if fs else None
                    truth_hits[side] += bool(got is not None and same_value(name, got, value))
            if mode == "plain":
                for n, e in by_overlap.items():
                    e["one_equal"] = e.get("one_equal", 0) + (fields_of(e["one_results"][len(cpu_ms) - 1].readings) == b)
        cpu_second = second.since(mark, sum(len(r.readings) for r in m["one_results"]), "cpu")
        four_equal = four_compared = four_small_equal = 0
        four_differences: list[dict] = []
        four_by_threads = m["four_by_threads"]
        four_results = four_by_threads[args.four_tag_threads[0]]
        four_equal_by_threads = {t: 0 for t in four_by_threads}
        for k, ((frame, recipe), res) in enumerate(zip(fours, four_results)):
            ref = cpu.read(frame, res.detections, recipe=None if recipe is None else recipe_of(recipe))
            four_compared += 1
            four_equal += fields_of(res.readings) == fields_of(ref)
            four_small_equal += small_print_of(res.readings) == small_print_of(ref)
            if fields_of(res.readings) != fields_of(ref) and len(four_differences) < 5:  # which frame, tag and field
                four_differences.append({"frame": k, "tags": [{n: (g.get(n), c.get(n)) for n in set(g) | set(c) if g.get(n) != c.get(n)}
                                                              for g, c in zip(fields_of(res.readings), fields_of(ref))],
                                         "boxes": len(res.detections.xyxy)})
            for t, results in four_by_threads.items():
                four_equal_by_threads[t] += fields_of(results[k].readings) == fields_of(ref)
            if mode == "plain":
                for n, e in by_overlap.items():
                    e["four_equal"] = e.get("four_equal", 0) + (fields_of(e["four_results"][k].readings) == fields_of(ref))
        equality = {"one_tag_frames_equal": equal, "one_tag_frames": compared, "fields_equal": field_equal,
                    "fields": field_total, "four_tag_frames_equal": four_equal, "four_tag_frames": four_compared,
                    "four_tag_frames_equal_by_tag_threads": four_equal_by_threads,
                    "small_print_lines_equal": {"one_tag_frames": small_equal, "four_tag_frames": four_small_equal},
                    "differences": differences, "four_tag_differences (gpu, cpu)": four_differences}
        result["modes"][mode] |= {"equality": equality, "truth_accuracy": truth_hits, "cpu_reader_ms_one_tag": pct(cpu_ms),
                                  "cpu_second_reads_one_tag": cpu_second}
        print(mode, "equality", {k: v for k, v in equality.items() if k != "differences"}, "truth", truth_hits, flush=True)
        print(mode, "cpu reader ms", pct(cpu_ms), "cpu second reads", cpu_second, flush=True)
        for d in differences[:3]:
            print("DIFF", json.dumps(d, ensure_ascii=False), flush=True)
    for n, e in by_overlap.items():
        result["overlap"][str(n)]["fields_equal_to_cpu"] = {"one_tag_frames": e.get("one_equal", 0), "of": len(singles_timed),
                                                            "four_tag_frames": e.get("four_equal", 0), "of_four": args.four}
    if by_overlap:
        print("overlap", json.dumps(result["overlap"]), flush=True)
    first = result["modes"][args.modes[0]]
    result["equality"], result["truth_accuracy"], result["cpu_reader_ms_one_tag"] = \
        first["equality"], first["truth_accuracy"], first["cpu_reader_ms_one_tag"]
    cpu.close()
    inspector.close()
    result["environment"] = environment()
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    return 0


def graphs_state(reader) -> dict:
    """CUDA graphs of the PyTorch reader's sessions: captured, replayed, or why not."""
    out = {}
    for name, part in (("ocr_det", reader.detector), ("ocr_rec", reader.recognizer), ("ocr_reread", reader.rereader)):
        if part is None:
            continue
        session = getattr(part, "session", None)
        graphs = getattr(session, "cuda_graphs", None)
        out[name] = {"off": getattr(session, "graphs_off", "not a PyTorch session")} if graphs is None else {
            "off": session.graphs_off, "captures": graphs.captures, "replays": graphs.replays,
            "output_mib": round(graphs.output_bytes / 2**20, 1)}
    try:
        import torch

        if torch.cuda.is_available():
            out["torch_reserved_mib"] = round(torch.cuda.memory_reserved() / 2**20)
    except ImportError:
        pass
    return out


def environment() -> dict:
    from importlib.metadata import PackageNotFoundError, version

    out = {"python": platform.python_version()}
    for name in ("onnxruntime-gpu", "onnxruntime", "numpy", "opencv-python-headless", "zxing-cpp", "cuda-bindings", "cupy-cuda13x",
                 "torch"):
        try:
            out[name] = version(name)
        except PackageNotFoundError:
            pass
    try:
        from inference.telemetry import gpu_name

        out["gpu"] = gpu_name()
    except Exception:
        pass
    return out


if __name__ == "__main__":
    raise SystemExit(main())
