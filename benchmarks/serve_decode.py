"""Do the service's image decodes run in parallel? 1080p JPEGs through `DecodePool.decode` (the code path of
`/detect` and `/inspect`) with 1 and with N threads, alternated in one run (issue 20).

    python benchmarks/serve_decode.py [--images DIR] [--count 32] [--threads 1 2] [--rounds 7]

Each round decodes all `--count` bodies at once (as concurrent requests would arrive) with each pool in
turn. Reported per pool: median wall time of a round, images per second, and the CPU seconds the process
spent per wall second (above 1 only when decodes really ran at the same time, which they cannot while a
decoder holds the GIL). On a shared machine only the ratio inside one run means much, and even that only
says as much as the cores the machine leaves free: so each round also runs a control, SHA-256 of one
4 MB buffer per image on a plain pool of the same size (hashlib drops the GIL for large buffers), and
`decode_vs_control` compares the two speedups (≈ 1: decode scales like work that cannot hold the GIL).
A third figure needs no free core: while one thread decodes, a pure-Python thread counts; if a decode
held the GIL that thread could not count during it.
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import os
import sys
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def jpeg_bodies(folder: Path, count: int, quality: int) -> list[bytes]:
    sources = sorted(p for p in folder.iterdir() if p.suffix.lower() in (".jpg", ".jpeg", ".png"))
    bodies = []
    for i in range(count):
        image = cv2.imread(str(sources[i % len(sources)]), cv2.IMREAD_COLOR)
        image = cv2.resize(image, (1920, 1080), interpolation=cv2.INTER_AREA)
        ok, data = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
        assert ok
        bodies.append(data.tobytes())
    return bodies


async def one_round(pool, bodies: list[bytes]) -> tuple[float, float]:
    cpu, wall = time.process_time(), time.perf_counter()
    decoded = await asyncio.gather(*(pool.decode(body, "image/jpeg") for body in bodies))
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    assert all(d.image.shape == (1080, 1920, 3) for d in decoded)
    return wall, cpu


async def control_round(executor: ThreadPoolExecutor, buffers: list[bytes]) -> tuple[float, float]:
    loop = asyncio.get_running_loop()
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(loop.run_in_executor(executor, _sha, b) for b in buffers))
    return time.perf_counter() - wall, time.process_time() - cpu


def _sha(data: bytes) -> bytes:
    return hashlib.sha256(data).digest()


async def measure(bodies: list[bytes], threads: list[int], rounds: int) -> dict:
    from inference.service.decoding import DecodePool

    pools = {n: DecodePool(n) for n in threads}
    controls = {n: ThreadPoolExecutor(n) for n in threads}
    buffers = [os.urandom(4 << 20) for _ in bodies]
    walls: dict[int, list[float]] = {n: [] for n in threads}
    cpus: dict[int, list[float]] = {n: [] for n in threads}
    control: dict[int, list[float]] = {n: [] for n in threads}
    try:
        for n, pool in pools.items():  # warm each pool's threads and the decoder once
            await one_round(pool, bodies[:n])
            await control_round(controls[n], buffers[:n])
        for _ in range(rounds):
            for n, pool in pools.items():
                wall, cpu = await one_round(pool, bodies)
                walls[n].append(wall)
                cpus[n].append(cpu)
                control[n].append((await control_round(controls[n], buffers))[0])
    finally:
        for pool in pools.values():
            pool.close()
        for executor in controls.values():
            executor.shutdown()
    out = {}
    for n in threads:
        wall = float(np.median(walls[n]))
        out[str(n)] = {"round_ms_median": round(wall * 1000, 1), "round_ms_all": [round(w * 1000, 1) for w in walls[n]],
                       "images_per_s": round(len(bodies) / wall, 1),
                       "cpu_s_per_wall_s": round(float(np.median([c / w for c, w in zip(cpus[n], walls[n])])), 2),
                       "control_round_ms_median": round(float(np.median(control[n])) * 1000, 1)}
    # per-round ratios (same round, pools back to back) are steadier on a shared machine than the medians
    first, first_control = walls[threads[0]], control[threads[0]]
    for n in threads[1:]:
        speedup = float(np.median([a / b for a, b in zip(first, walls[n])]))
        control_speedup = float(np.median([a / b for a, b in zip(first_control, control[n])]))
        out[str(n)].update(decode_speedup=round(speedup, 2), control_speedup=round(control_speedup, 2),
                           decode_vs_control=round(speedup / control_speedup, 2))
    return out


def gil_check(body: bytes, seconds: float = 0.6) -> dict:
    """How fast a pure-Python thread counts while this thread runs (a) the service's decode_body, (b) a call
    known to release the GIL (SHA-256 of 8 MB), (c) a C call known to hold it (sum over a range), each for
    about `seconds`, as a share of its rate while this thread sleeps. Measured side by side, so a busy
    machine lowers all three alike: a decode that held the GIL would sit near (c), one that drops it near (b)."""
    from inference.service.decoding import decode_body

    count, stop = [0], threading.Event()
    big = os.urandom(8 << 20)

    def spin() -> None:
        while not stop.is_set():
            count[0] += 1

    def rate(work) -> float:
        c0, t0 = count[0], time.perf_counter()
        while time.perf_counter() - t0 < seconds:
            work()
        return (count[0] - c0) / (time.perf_counter() - t0)

    spinner = threading.Thread(target=spin)
    spinner.start()
    try:
        time.sleep(0.2)
        alone = rate(lambda: time.sleep(0.01))
        decode = rate(lambda: decode_body(body, "image/jpeg"))
        releases = rate(lambda: hashlib.sha256(big).digest())
        holds = rate(lambda: sum(range(3_000_000)))
    finally:
        stop.set()
        spinner.join()
    return {"spinner_counts_per_s_alone": round(alone), "while_decoding": round(decode / alone, 2),
            "while_hashing_gil_released": round(releases / alone, 2), "while_summing_gil_held": round(holds / alone, 2)}


def main() -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--images", type=Path, default=Path("resources/samples"))
    parser.add_argument("--count", type=int, default=32)
    parser.add_argument("--quality", type=int, default=90)
    parser.add_argument("--threads", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--out", type=Path, default=None)
    parser.add_argument("--cv-threads", type=int, default=None, help="cv2.setNumThreads first (default: OpenCV's own)")
    args = parser.parse_args()
    if args.cv_threads is not None:
        cv2.setNumThreads(args.cv_threads)
    bodies = jpeg_bodies(args.images, args.count, args.quality)
    result = {"date": time.strftime("%Y-%m-%d %H:%M:%S"), "cores": len(os.sched_getaffinity(0)),
              "load_avg_before": os.getloadavg(), "images": args.count,
              "mean_kb": round(sum(map(len, bodies)) / len(bodies) / 1024, 1), "opencv": cv2.__version__,
              "opencv_threads": cv2.getNumThreads(),
              "pools": asyncio.run(measure(bodies, args.threads, args.rounds)), "gil": gil_check(bodies[0]),
              "load_avg_after": os.getloadavg()}
    text = json.dumps(result, indent=1)
    print(text)
    if args.out:
        args.out.write_text(text + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
