"""The station under GPU memory pressure (issue 19): another process fills the device to 95 %, holds it, frees it.

    python benchmarks/gpu_pressure.py --data DIR --out pressure.json [--fill 0.95] [--hold-s 8] [--after-s 10]

The station's detector is opened as the station opens it (`Inspector.open(model, "onnxruntime-cuda",
read=False)`: the GPU pipeline under the pressure guard, with the FP16 variant from the precision cache) and
runs 1080p one-tag frames back to back on this thread. After `--before-s` a second process (torch) allocates
device memory in 1 GiB blocks until NVML's device-wide share reaches `--fill`, holds it `--hold-s`, and
exits (its memory freed). Every frame is recorded: when it was answered, ok or failed, the guard's level
and the share it last read. Reported: time from the filler crossing the policy's share to the first frame
answered by a degraded variant (target ≤ 2 s), failed frames (target 0), and the return after the memory is
freed; the operator-facing events as the headless station prints and journals them.
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def fill(target: float, hold_s: float, block_gib: float) -> int:
    """The other process: take device memory until the device-wide share reaches `target`, hold, exit."""
    import pynvml
    import torch

    pynvml.nvmlInit()
    handle = pynvml.nvmlDeviceGetHandleByIndex(0)

    def share() -> float:
        info = pynvml.nvmlDeviceGetMemoryInfo(handle)
        return info.used / info.total

    blocks, crossed = [], {}
    print(json.dumps({"event": "fill_start", "t": time.time(), "share": share()}), flush=True)
    block = int(block_gib * 2**30)
    while share() < target:
        info = pynvml.nvmlDeviceGetMemoryInfo(handle)
        left = int(target * info.total) - int(info.used)
        blocks.append(torch.empty(max(2**20, min(block, left + 2**20)), dtype=torch.uint8, device="cuda"))
        s = share()
        for mark in (0.9, target):
            if s >= mark and mark not in crossed:
                crossed[mark] = time.time()
                print(json.dumps({"event": "crossed", "mark": mark, "t": crossed[mark], "share": s}), flush=True)
    torch.cuda.synchronize()
    print(json.dumps({"event": "filled", "t": time.time(), "share": share(), "gib": sum(b.numel() for b in blocks) / 2**30}),
          flush=True)
    time.sleep(hold_s)
    del blocks
    torch.cuda.empty_cache()
    print(json.dumps({"event": "freed", "t": time.time(), "share": share()}), flush=True)
    return 0


def _collect(stream, lines: list) -> None:
    """The filler's JSON lines, as they come (a thread: the frame loop never waits on the pipe)."""
    for line in stream:
        if line.strip():
            lines.append(json.loads(line))
            print("filler", line.strip(), flush=True)


def run(args) -> dict:
    from benchmarks.gpu_read import one_tag_frames
    from inference.gpu.degrade import pressure_guard
    from inference.inspection import Inspector

    frames = [f for f, _row in one_tag_frames(args.data, 16)]
    t_open = time.perf_counter()
    inspector = Inspector.open(args.model, "onnxruntime-cuda", read=False)
    open_s = time.perf_counter() - t_open
    guard = pressure_guard(inspector)
    if guard is None:
        raise SystemExit("the station's pipeline is not under the pressure guard: nothing to measure")
    print(f"opened in {open_s:.1f} s: {inspector.pipeline.backend}; policy high {guard.settings.high_share} "
          f"low {guard.settings.low_share}; max level {guard.policy.max_level.name}", flush=True)
    records, events, filler_lines = [], [], []
    filler = None
    began = time.time()
    i = 0
    while True:
        now = time.time()
        if filler is None and now - began >= args.before_s:
            filler = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--fill-child", str(args.fill),
                                       "--hold-s", str(args.hold_s), "--block-gib", str(args.block_gib)],
                                      stdout=subprocess.PIPE, text=True, bufsize=1)
            threading.Thread(target=_collect, args=(filler.stdout, filler_lines), daemon=True).start()
        if filler is not None:
            if filler.poll() is not None and any(e["event"] == "freed" for e in filler_lines) and \
                    now - next(e["t"] for e in filler_lines if e["event"] == "freed") >= args.after_s:
                break
        frame = frames[i % len(frames)]
        t0 = time.perf_counter()
        try:
            result = inspector.inspect_image(frame, source_name=f"f{i}", index=i)
            ok, detections, error = result.ok, len(result.detections), ""
        except Exception as exc:  # a failed frame is what this benchmark counts
            ok, detections, error = False, 0, f"{type(exc).__name__}: {exc}"
        ms = (time.perf_counter() - t0) * 1000.0
        reading = guard.last_reading
        records.append({"t": time.time() - began, "ok": ok, "ms": round(ms, 3), "level": int(guard.level),
                        "detections": detections, "share": round(reading.share, 4) if reading else None,
                        **({"error": error[:300]} if error else {})})
        for event in guard.new_events():
            events.append({"t": event.at - began, "before": event.before.name, "after": event.after.name,
                           "cause": event.cause, "switch_ms": round(event.switch_ms, 1), "text": event.text})
            print(f"warning: {event.text} (switch {event.switch_ms:.0f} ms)", flush=True)
        i += 1
        if time.time() - began > args.limit_s:
            print("time limit reached", flush=True)
            break
    inspector.close()
    if filler is not None and filler.poll() is None:
        filler.kill()
    return summarize(records, events, filler_lines, began, open_s, guard, args)


def summarize(records, events, filler_lines, began, open_s, guard, args) -> dict:
    def first(kind, **match):
        return next((e for e in filler_lines if e["event"] == kind and all(e.get(k) == v for k, v in match.items())), None)

    crossed = first("crossed", mark=guard.settings.high_share) or first("crossed", mark=0.9)
    freed = first("freed")
    out = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "frames": len(records),
           "failed_frames": sum(1 for r in records if not r["ok"]), "open_s": round(open_s, 2),
           "policy": {"high_share": guard.settings.high_share, "low_share": guard.settings.low_share,
                      "escalate_after_s": guard.settings.escalate_after_s, "calm_s": guard.settings.calm_s,
                      "poll_s": guard.settings.poll_s, "max_level": guard.policy.max_level.name},
           "events": events, "filler": [{**e, "t": round(e["t"] - began, 3)} for e in filler_lines]}
    if crossed is not None:
        t_cross = crossed["t"] - began
        degraded = next((r for r in records if r["t"] >= t_cross and r["level"] > 0), None)
        lightest = max((r["level"] for r in records), default=0)
        deepest = next((r for r in records if r["level"] == lightest and r["t"] >= t_cross), None)
        out["crossed_share_at_s"] = round(t_cross, 3)
        out["time_to_degrade_s"] = round(degraded["t"] - t_cross, 3) if degraded else None
        out["time_to_lightest_s"] = round(deepest["t"] - t_cross, 3) if deepest else None
    if freed is not None:
        t_free = freed["t"] - began
        back = next((r for r in records if r["t"] >= t_free and r["level"] == 0), None)
        out["freed_at_s"] = round(t_free, 3)
        out["time_to_normal_after_free_s"] = round(back["t"] - t_free, 3) if back else None
    by_level: dict[int, list[float]] = {}
    for r in records:
        if r["ok"]:
            by_level.setdefault(r["level"], []).append(r["ms"])
    out["frame_ms_by_level"] = {str(k): {"frames": len(v), "p50": round(float(np.percentile(v, 50)), 3),
                                         "p99": round(float(np.percentile(v, 99)), 3), "max": round(float(max(v)), 1)}
                                for k, v in sorted(by_level.items())}
    out["slowest_frames"] = sorted(records, key=lambda r: -r["ms"])[:6]
    if args.records:
        out["records"] = records
    return out


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--data", type=Path)
    parser.add_argument("--out", type=Path)
    parser.add_argument("--model", type=Path, default=None)
    parser.add_argument("--fill", type=float, default=0.95)
    parser.add_argument("--hold-s", type=float, default=8.0)
    parser.add_argument("--before-s", type=float, default=3.0)
    parser.add_argument("--after-s", type=float, default=10.0)
    parser.add_argument("--limit-s", type=float, default=90.0)
    parser.add_argument("--block-gib", type=float, default=2.0)
    parser.add_argument("--records", action="store_true", help="keep every frame's record in the JSON")
    parser.add_argument("--fill-child", type=float, default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.fill_child is not None:
        return fill(args.fill_child, args.hold_s, args.block_gib)
    if args.model is None:
        from inference.resources import default_model_path

        args.model = default_model_path()
    result = run(args)
    text = json.dumps(result, indent=1)
    print(json.dumps({k: v for k, v in result.items() if k not in ("records", "filler", "slowest_frames")}, indent=1))
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
