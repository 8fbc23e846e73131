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

    def __init__(self, fonts: list[str], workers: int, seed: int) -> None:
        self.fonts, self.seed = fonts, seed
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
            self.pending.append(self.executor.submit(render_many, self.seed * 1_000_003 + self.next_chunk, CHUNK, self.fonts))
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
        item = (batch, steps, targets, lengths)
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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--model", type=Path, required=True, help="the station's GB 2312 recognizer ONNX")
    parser.add_argument("--fonts", type=Path, required=True, help="GB 2312 cuts of the training fonts")
    parser.add_argument("--real-lines", type=Path, required=True, help="real_lines.py's npz")
    parser.add_argument("--out", type=Path, required=True)
    parser.add_argument("--minutes", type=float, default=6.0)
    parser.add_argument("--batch", type=int, default=192)
    parser.add_argument("--lr", type=float, default=1e-4)
    parser.add_argument("--warmup", type=int, default=150)
    parser.add_argument("--workers", type=int, default=max(1, (os.cpu_count() or 2) - 2))
    parser.add_argument("--val", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--snapshots", default="0.4,0.7,1.0", help="fractions of the time at which to export")
    parser.add_argument("--device", default="cuda")
    parser.add_argument("--min-lines", type=int, default=6000, help="lines rendered before the first step")
    args = parser.parse_args()
    args.out.mkdir(parents=True, exist_ok=True)
    fonts = [str(p) for p in training_fonts(args.fonts)]
    _say("fonts", [Path(f).name for f in fonts])
    pool = LinePool(fonts, args.workers, args.seed)
    pool.top_up()
    val_future = [pool.executor.submit(render_many, 7_000_000 + k, CHUNK, fonts) for k in range(args.val // CHUNK)]

    import torch
    import torch.nn.functional as F

    from training.ocr_finetune.model import TrainableRecognizer, export, max_diff_against_ort

    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = True
    model = TrainableRecognizer(args.model, device=args.device)
    real = np.load(args.real_lines)
    real_batches = [real[k] for k in real.files]
    diff = max_diff_against_ort(args.model, model, real_batches)
    _say(f"torch vs ONNX Runtime on {sum(len(b) for b in real_batches)} real lines: max |diff| {diff:.2e}")
    if diff >= 1e-3:
        raise SystemExit(f"expected the PyTorch graph to match ONNX Runtime within 1e-3, found {diff:.2e}: do not train on it")
    val = [line for f in val_future for line in f.result()]
    log: dict = {"started": time.strftime("%FT%TZ", time.gmtime()), "args": {k: str(v) for k, v in vars(args).items()},
                 "torch_vs_ort_real_lines": diff, "fonts": [Path(f).name for f in fonts], "snapshots": []}
    log["val_before"] = exact_reads(model, val)
    _say("val before", log["val_before"])
    while pool.top_up() < args.min_lines:
        time.sleep(0.5)
    _say("lines ready", pool.size)

    optimizer = torch.optim.AdamW(model.parameters(), lr=args.lr, weight_decay=0.0)
    ready: queue.Queue = queue.Queue(maxsize=6)
    stop = threading.Event()
    feeders = [threading.Thread(target=batches_in_background, args=(pool, model, args.batch, args.seed * 10 + k, stop, ready), daemon=True)
               for k in range(2)]
    for t in feeders:
        t.start()
    budget = args.minutes * 60.0
    fractions = [float(f) for f in args.snapshots.split(",")]
    start = time.time()
    step, losses = 0, []
    while True:
        progress = (time.time() - start) / budget
        if fractions and progress >= fractions[0]:
            fraction = fractions.pop(0)
            name = f"rec_s{int(round(fraction * 100)):03d}.onnx"
            path = export(args.model, model, args.out / name)
            snap = {"file": name, "step": step, "seconds": round(time.time() - start, 1), "lines_seen": step * args.batch,
                    "lines_rendered": pool.size, "loss_recent": round(float(np.mean(losses[-50:])), 4) if losses else None,
                    "val": exact_reads(model, val), "export_vs_torch": max_diff_against_ort(path, model, real_batches[:6])}
            log["snapshots"].append(snap)
            _say("snapshot", json.dumps(snap))
            (args.out / "train.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))
        if progress >= 1.0:  # snapshots count in the time: the budget is wall time
            break
        lr = args.lr * min(1.0, (step + 1) / args.warmup) * (0.1 + 0.9 * 0.5 * (1 + math.cos(math.pi * min(progress, 1.0))))
        for group in optimizer.param_groups:
            group["lr"] = lr
        batch, steps, targets, lengths = ready.get()
        x = torch.from_numpy(batch).to(model.device, non_blocking=True)
        log_probs = model.log_probs(x)  # N, T, C
        T = log_probs.shape[1]
        loss = F.ctc_loss(log_probs.transpose(0, 1), torch.tensor(targets, dtype=torch.long),
                          torch.tensor([min(s, T) for s in steps], dtype=torch.long), torch.tensor(lengths, dtype=torch.long),
                          blank=0, reduction="mean", zero_infinity=True)
        optimizer.zero_grad(set_to_none=True)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 5.0)
        optimizer.step()
        losses.append(float(loss.detach()))
        step += 1
        if step % 25 == 0:
            pool.top_up()
        if step % 100 == 0:
            _say(f"step {step} loss {np.mean(losses[-100:]):.4f} lr {lr:.2e} lines {pool.size} queue {ready.qsize()}")
    stop.set()
    pool.close()
    log["steps"] = step
    log["finished"] = time.strftime("%FT%TZ", time.gmtime())
    (args.out / "train.json").write_text(json.dumps(log, indent=1, ensure_ascii=False))
    _say("done", step, "steps")


if __name__ == "__main__":
    main()
