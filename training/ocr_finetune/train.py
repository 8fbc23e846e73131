"""Fine-tune the station's GB 2312 recognizer on synthetic small print, on one GPU (training/gpu_ocr.sh).

Lines are rendered by worker processes while the GPU trains (render.py: the station's own crop, enlargement
and batching); the trainer takes in what they have made before each step. CTC on the log of the model's
softmax (blank 0, space last), from the shipped weights, AdamW with a short warm-up and a cosine decay over the
time given, BatchNorm statistics frozen. Before training the PyTorch graph is checked against ONNX Runtime on
real line crops (max |diff| < 1e-3) and so is every export. Snapshots are exported at fractions of the time,
each with its exact-read rate on held-out lines of the training fonts (the test fonts are never used here).
"""

from __future__ import annotations

import argparse
import json
import math
import os
import queue
import threading
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

import numpy as np

from inference.reading.ocr.recognizer import WIDTH_STEP, collapse, prepare_batch, rec_width
from training.ocr_finetune.fonts import training_fonts
from training.ocr_finetune.render import FIRST_SQUEEZE, SECOND_SQUEEZE, Line, render_many

CHUNK = 100
MAX_TRAIN_WIDTH = 960
HEIGHT_BINS = ((6, 8), (8, 10), (10, 12), (12, 14), (14, 20), (20, 40))


def _say(*parts) -> None:
    print(time.strftime("%H:%M:%S"), *parts, flush=True)


class LinePool:
    """Lines rendered by `workers` processes, chunk after chunk, taken in as they finish."""

    def __init__(self, fonts: list[str], workers: int, seed: int, variety: bool = False) -> None:
        self.fonts, self.seed, self.variety = fonts, seed, variety
        self.executor = ProcessPoolExecutor(workers)
        self.pending: list = []
        self.next_chunk = 0
        self.by_squeeze: dict[float, list[Line]] = {FIRST_SQUEEZE: [], SECOND_SQUEEZE: []}
        self.target_in_flight = workers * 3

    def top_up(self) -> int:
        still = []
        for future in self.pending:
            if future.done():
                for line in future.result():
                    self.by_squeeze[line.squeeze].append(line)
            else:
                still.append(future)
        self.pending = still
        while len(self.pending) < self.target_in_flight:
            self.pending.append(self.executor.submit(render_many, self.seed * 1_000_003 + self.next_chunk, CHUNK, self.fonts,
                                                     None, self.variety))
            self.next_chunk += 1
        return self.size

    @property
    def size(self) -> int:
        return sum(len(v) for v in self.by_squeeze.values())

    def close(self) -> None:
        self.executor.shutdown(wait=False, cancel_futures=True)


def pick_batch(pool: LinePool, rng: np.random.Generator, size: int) -> tuple[list[Line], float]:
    """Lines of one squeeze and similar widths (a random window of width-sorted candidates)."""
    counts = {s: len(v) for s, v in pool.by_squeeze.items()}
    squeeze = FIRST_SQUEEZE if rng.random() < counts[FIRST_SQUEEZE] / max(1, sum(counts.values())) else SECOND_SQUEEZE
    lines = pool.by_squeeze[squeeze]
    candidates = [lines[i] for i in rng.integers(0, len(lines), size * 6)]
    candidates = [c for c in candidates if rec_width(c.crop, squeeze) <= MAX_TRAIN_WIDTH]
    candidates.sort(key=lambda c: rec_width(c.crop, squeeze))
    start = int(rng.integers(0, max(1, len(candidates) - size + 1)))
    return candidates[start : start + size], squeeze


def make_targets(model, lines: list[Line]):
    keep, targets, lengths = [], [], []
    for i, line in enumerate(lines):
        encoded = model.encode(line.text)
        if encoded:
            keep.append(i)
            targets += encoded
            lengths.append(len(encoded))
    return keep, targets, lengths


def batches_in_background(pool: LinePool, model, size: int, seed: int, stop: threading.Event, out: queue.Queue) -> None:
    rng = np.random.default_rng(seed)
    while not stop.is_set():
        lines, squeeze = pick_batch(pool, rng, size)
        keep, targets, lengths = make_targets(model, lines)
        lines = [lines[i] for i in keep]
        if not lines:
            continue
        batch, widths = prepare_batch([l.crop for l in lines], squeeze)
        steps = [math.ceil(w / WIDTH_STEP) for w in widths]
        item = (batch, steps, targets, lengths, np.array([l.glyph_px for l in lines], np.float32))
        while not stop.is_set():
            try:
                out.put(item, timeout=0.5)
                break
            except queue.Full:
                pass


def exact_reads(model, lines: list[Line], batch_size: int = 128) -> dict:
    """Exact reads (spaces ignored) of `lines` by the model in its current state, all and by glyph height."""
    torch = model.torch
    hits = np.zeros(len(lines), bool)
    with torch.no_grad():
        for squeeze in (FIRST_SQUEEZE, SECOND_SQUEEZE):
            idx = sorted((i for i, l in enumerate(lines) if l.squeeze == squeeze), key=lambda i: rec_width(lines[i].crop, squeeze))
            for k in range(0, len(idx), batch_size):
                chunk = idx[k : k + batch_size]
                batch, widths = prepare_batch([lines[i].crop for i in chunk], squeeze)
                probs = model.log_probs(torch.from_numpy(batch).to(model.device)).float()
                best_p, best = probs.max(dim=2)
                best, best_p = best.cpu().numpy(), best_p.cpu().numpy()
                for row, i in enumerate(chunk):
                    n = math.ceil(widths[row] / WIDTH_STEP)
                    _keep, text, _conf = collapse(best[row, :n], best_p[row, :n], model.charset)
                    hits[i] = text.replace(" ", "") == lines[i].text.replace(" ", "")
    out = {"all": round(float(hits.mean()), 4), "n": len(lines)}
    for lo, hi in HEIGHT_BINS:
        sel = [i for i, l in enumerate(lines) if lo <= l.glyph_px < hi]
        if sel:
            out[f"{lo}-{hi}px"] = round(float(hits[sel].mean()), 4)
    return out


def teacher_right(best: np.ndarray, steps: list[int], targets: list[int], lengths: list[int]) -> np.ndarray:
    """Per line: does the teacher's greedy CTC read (repeats merged, blanks dropped) equal the target exactly?"""
    right = np.zeros(len(lengths), bool)
    at = 0
    for i, n in enumerate(lengths):
        path = best[i, : steps[i]]
        keep = (path != 0) & np.concatenate(([True], path[1:] != path[:-1]))
        right[i] = np.array_equal(path[keep], np.asarray(targets[at : at + n]))
        at += n
    return right


def parse_students(text: str) -> list[tuple[str, float]]:
    """'a:0,b:0.1' -> [('a', 0.0), ('b', 0.1)]: trained side by side on the same batches, each with its own
    weight of the confidence penalty (minus the mean entropy of its per-frame posteriors)."""
    out = []
    for part in text.split(","):
        name, _, weight = part.partition(":")
        out.append((name.strip(), float(weight or 0.0)))
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", type=Path, required=True,
                        help="the recognizer to start from: FP32, or weights stored FP16 behind Casts (restored to FP32)")
    parser.add_argument("--teacher", type=Path, default=None,
                        help="the station's stock recognizer: its posteriors are soft targets on lines it reads right (--kd)")
    parser.add_argument("--fonts", type=Path, required=True, help="GB 2312 cuts of the training fonts")
    parser.add_argument("--real-lines", type=Path, required=True, help="real_lines.py's npz")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--minutes", type=float, default=6.0, help="wall time of this call")
    parser.add_argument("--total-minutes", type=float, default=None,
                        help="the learning-rate schedule's length over all calls (default: --minutes); with --state a later "
                             "call resumes where the last stopped")
    parser.add_argument("--state", type=Path, default=None, help="weights, optimizers and progress: resumed from, saved to")
    parser.add_argument("--students", default="a:0", help="name:confidence-penalty pairs trained side by side")
    parser.add_argument("--kd", type=float, default=0.0, help="weight of KL(teacher || student) per frame")
    parser.add_argument("--kd-min-px", type=float, default=14.0, help="distil on lines at least this high (clean print)")
    parser.add_argument("--variety", action="store_true", help="bolder, thinner, condensed, widened faces (render.py)")
    parser.add_argument("--fp16-out", action="store_true", help="snapshots stored FP16 behind Casts, as shipped")
    parser.add_argument("--batch", type=int, default=192)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--warmup", type=int, default=150)
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 2))
    parser.add_argument("--val", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--snapshots", default="", help="fractions of the whole schedule at which to export too "
                                                         "(every call also exports at its end)")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--min-lines", type=int, default=6000, help="lines rendered before the first step")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    fonts = [str(p) for p in training_fonts(args.fonts)]
    _say("fonts", [Path(f).name for f in fonts])
    pool = LinePool(fonts, args.workers, args.seed, variety=args.variety)
    pool.top_up()
    val_future = [pool.executor.submit(render_many, 7_000_000 + k, CHUNK, fonts) for k in range(args.val // CHUNK)]

    import torch
    import torch.nn.functional as F

    from training.ocr_finetune.model import TrainableRecognizer, export, max_diff_against_ort, restore_fp32, same_contract

    scratch = args.state.parent if args.state is not None else args.out.parent
    source = restore_fp32(args.model, scratch / "source_fp32.onnx")
    teacher_path = restore_fp32(args.teacher, scratch / "teacher_fp32.onnx") if args.teacher else None
    if teacher_path is not None and not same_contract(source, teacher_path):
        raise SystemExit(f"expected the teacher {args.teacher} to share the student's graph and classes: it does not")
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
    students = {name: TrainableRecognizer(source, device=args.device) for name, _w in parse_students(args.students)}
    penalty = dict(parse_students(args.students))
    teacher = TrainableRecognizer(teacher_path, device=args.device) if teacher_path is not None else None
    real = np.load(args.real_lines)
    real_batches = [real[k] for k in real.files]
    first = next(iter(students.values()))
    diff = max_diff_against_ort(source, first, real_batches)
    _say(f"torch vs ONNX Runtime on {sum(len(b) for b in real_batches)} real lines: max |diff| {diff:.2e}")
    if diff >= 1e-3:
        raise SystemExit(f"expected the PyTorch graph to match ONNX Runtime within 1e-3, found {diff:.2e}: do not train on it")
    optimizers = {name: torch.optim.AdamW(m.parameters(), lr=args.lr, weight_decay=0.0) for name, m in students.items()}
    step, elapsed_before, calls = 0, 0.0, 0
    log: dict = {"args": {k: str(v) for k, v in vars(args).items()}, "torch_vs_ort_real_lines": diff,
                 "fonts": [Path(f).name for f in fonts], "snapshots": [], "calls": []}
    if args.state is not None and args.state.is_file():
        state = torch.load(args.state, map_location=args.device, weights_only=False)
        for name, model in students.items():
            with torch.no_grad():
                for key, value in state["weights"][name].items():
                    model.trainable[key].copy_(value)
            optimizers[name].load_state_dict(state["optimizers"][name])
        step, elapsed_before, log = state["step"], state["elapsed"], state["log"]
        calls = len(log["calls"])
        _say(f"resumed from {args.state}: step {step}, {elapsed_before:.0f} s trained, call {calls + 1}")
    log["calls"].append({"started": time.strftime("%FT%TZ", time.gmtime()), "seed": args.seed, "step": step})
    val = [line for f in val_future for line in f.result()]
    if calls == 0:
        log["val_before"] = exact_reads(first, val)
        if teacher is not None:
            log["val_teacher"] = exact_reads(teacher, val)
        _say("val before", log["val_before"], "teacher", log.get("val_teacher"))
    while pool.top_up() < args.min_lines:
        time.sleep(0.5)
    _say("lines ready", pool.size)

    ready: queue.Queue = queue.Queue(maxsize=6)
    stop = threading.Event()
    feeders = [threading.Thread(target=batches_in_background, args=(pool, first, args.batch, args.seed * 10 + k, stop, ready), daemon=True)
               for k in range(2)]
    for t in feeders:
        t.start()
    budget = (args.total_minutes or args.minutes) * 60.0
    fractions = [float(f) for f in args.snapshots.split(",") if f and float(f) * budget > elapsed_before]
    start = time.time()
    losses: dict[str, list] = {name: [] for name in students}
    kd_share: list[float] = []

    def snapshot(tag: str) -> None:
        for name, model in students.items():
            file = f"rec_{name}_{tag}.onnx"
            path = export(source, model, args.out / file)
            snap = {"file": file, "student": name, "step": step, "seconds": round(elapsed_before + time.time() - start, 1),
                    "lines_seen": step * args.batch, "loss_recent": round(float(np.mean(losses[name][-50:])), 4) if losses[name] else None,
                    "val": exact_reads(model, val), "export_vs_torch": max_diff_against_ort(path, model, real_batches[:6])}
            if args.fp16_out:
                import sys

                sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "packaging"))
                from ocr_models import store_fp16

                store_fp16(path, path.with_suffix(".fp16.onnx"))
                path.unlink()
                snap["file"] = path.with_suffix(".fp16.onnx").name
            log["snapshots"].append(snap)
            _say("snapshot", json.dumps(snap))
        (args.out / "train.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))

    while True:
        now = time.time() - start
        progress = (elapsed_before + now) / budget
        if fractions and progress >= fractions[0]:
            snapshot(f"p{int(round(fractions.pop(0) * 100)):03d}")
        if progress >= 1.0 or now >= args.minutes * 60.0:
            break
        lr = args.lr * min(1.0, (step + 1) / args.warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))
        batch, steps, targets, lengths, glyph_px = ready.get()
        x = torch.from_numpy(batch).to(args.device, non_blocking=True)
        mask = kd_lines = None
        if teacher is not None and args.kd > 0:
            with torch.no_grad():
                teacher_lp = teacher.log_probs(x).float()
            T = teacher_lp.shape[1]
            right = teacher_right(teacher_lp.argmax(dim=2).cpu().numpy(), [min(s, T) for s in steps], targets, lengths)
            kd_lines = torch.from_numpy(right & (glyph_px >= args.kd_min_px)).to(args.device)
            kd_share.append(float(kd_lines.float().mean()))
        for name, model in students.items():
            log_probs = model.log_probs(x)  # N, T, C
            T = log_probs.shape[1]
            if mask is None:
                mask = (torch.arange(T, device=args.device)[None, :] < torch.tensor([min(s, T) for s in steps], device=args.device)[:, None]).float()
            loss = F.ctc_loss(log_probs.transpose(0, 1), torch.tensor(targets, dtype=torch.long),
                              torch.tensor([min(s, T) for s in steps], dtype=torch.long), torch.tensor(lengths, dtype=torch.long),
                              blank=0, reduction="mean", zero_infinity=True)
            if kd_lines is not None and bool(kd_lines.any()):
                kl = (teacher_lp.exp() * (teacher_lp - log_probs)).sum(dim=2)  # N, T
                frames = mask * kd_lines[:, None].float()
                loss = loss + args.kd * (kl * frames).sum() / frames.sum().clamp(min=1.0)
            if penalty[name] > 0:
                entropy = -(log_probs.exp() * log_probs).sum(dim=2)
                loss = loss - penalty[name] * (entropy * mask).sum() / mask.sum()
            optimizer = optimizers[name]
            for group in optimizer.param_groups:
                group["lr"] = lr
            optimizer.zero_grad(set_to_none=True)
            loss.backward()
            torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
            optimizer.step()
            losses[name].append(float(loss.detach()))
        step += 1
        if step % 25 == 0:
            pool.top_up()
        if step % 100 == 0:
            said = " ".join(f"{n} {np.mean(l[-100:]):.4f}" for n, l in losses.items())
            _say(f"step {step} loss {said} lr {lr:.2e} kd-lines {np.mean(kd_share[-100:]) if kd_share else 0:.3f} "
                 f"lines {pool.size} queue {ready.qsize()}")
    stop.set()
    pool.close()
    trained = elapsed_before + time.time() - start
    log["calls"][-1].update({"finished": time.strftime("%FT%TZ", time.gmtime()), "steps_to": step, "seconds": round(time.time() - start, 1)})
    log["steps"] = step
    snapshot(f"c{calls + 1}")
    if args.state is not None:
        torch.save({"weights": {n: {k: v.detach() for k, v in m.trainable.items()} for n, m in students.items()},
                    "optimizers": {n: o.state_dict() for n, o in optimizers.items()}, "step": step, "elapsed": trained, "log": log},
                   args.state)
        _say("state saved", args.state)
    (args.out / "train.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))
    _say("done", step, "steps")


if __name__ == "__main__":
    main()
