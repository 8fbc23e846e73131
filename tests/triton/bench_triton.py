"""Benchmark: station clients against one real tritonserver on this machine, and the failover numbers.

    .venv/bin/python -m tests.triton.bench_triton [--clients 4] [--frames 15] [--server-threads 2]
    .venv/bin/python -m tests.triton.bench_triton --read [--clients 4] [--frames 4]

Each client is its own process running the station's Pipeline with the triton backend over the
bundled samples (as a station would). Reports throughput, per-frame P50/P99, the batch sizes the
server's dynamic batcher formed (from its statistics), then kills the serving one of two servers
mid-run and counts frames delayed and lost. With --read each client is the whole station (the
Inspector with reading on, as the window opens it) against one server that serves the detector and
the OCR pair, so the detector's and the OCR models' requests share the server.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import os
import time

import numpy as np


def _client(url: str, frames: int, start_at: float, queue, read: bool = False) -> None:
    try:
        _run_client(url, frames, start_at, queue, read)
    except BaseException as exc:  # the parent waits on the queue: tell it instead of leaving it waiting
        queue.put({"error": f"{type(exc).__name__}: {str(exc).splitlines()[0]}"})
        raise


def _run_client(url: str, frames: int, start_at: float, queue, read: bool) -> None:
    from inference.engines.triton import TritonEngine
    from inference.imageio import list_images, read_image
    from inference.inspection import Inspector
    from inference.pipeline import Pipeline
    from inference.resources import samples_dir
    from tests.triton.server import DETECTOR

    images = [read_image(p) for p in list_images(samples_dir())[:8]]
    if read:  # the station as the window opens it: the URL from the environment, reading on the fleet too
        os.environ["HANGTAG_TRITON_URL"] = url
        # Four stations reading through one shared 2-core server queue far past the 5 s default.
        os.environ["HANGTAG_TRITON_DEADLINE_MS"] = "120000"
        station = Inspector.open(DETECTOR, "triton", read=True)
        assert station.reader.recognizer.engine.backend_name == "triton", station.reader_note
        inspect = station.inspect_image
    else:
        station = Pipeline(TritonEngine(DETECTOR, urls=url, deadline_ms=60000).load())
        inspect = station.process
    with station:
        while time.time() < start_at:
            time.sleep(0.005)
        latencies, stages = [], {}
        t0 = time.perf_counter()
        for i in range(frames):
            result = inspect(images[i % len(images)])
            latencies.append(result.timings.total_ms)
            for stage, ms in result.timings.stages_ms.items():
                stages.setdefault(stage, []).append(ms)
        queue.put({"latencies": latencies, "seconds": time.perf_counter() - t0,
                   "stages": {k: float(np.median(v)) for k, v in stages.items()}})


def concurrent_clients(url: str, clients: int, frames: int, models: tuple[str, ...] = ("hangtag_det",),
                       read: bool = False) -> dict:
    from inference.engines.triton.client import RemoteServer, ServerAddress
    from inference.engines.triton.stats import batch_sizes

    stats_client = RemoteServer(ServerAddress.parse(url), 10.0)
    before = {m: batch_sizes(stats_client.statistics(m)) for m in models}
    counts_before = {m: _counts(stats_client.statistics(m)) for m in models}
    ctx = mp.get_context("spawn")
    queue = ctx.Queue()
    start_at = time.time() + (25.0 if read else 8.0)  # every client loaded and warmed before the clock starts
    procs = [ctx.Process(target=_client, args=(url, frames, start_at, queue, read)) for _ in range(clients)]
    [p.start() for p in procs]
    results = [queue.get(timeout=900) for _ in procs]
    [p.join(30) for p in procs]
    failed = [r["error"] for r in results if "error" in r]
    if failed:
        raise SystemExit(f"{len(failed)} of {clients} clients failed: {failed[0]}")
    formed, served = {}, {}
    for m in models:
        after = batch_sizes(stats_client.statistics(m))
        formed[m] = {size: after[size] - before[m].get(size, 0) for size in after if after[size] > before[m].get(size, 0)}
        now = _counts(stats_client.statistics(m))
        served[m] = {k: now[k] - counts_before[m][k] for k in now}
    stats_client.close()
    if models == ("hangtag_det",):
        formed, served = formed["hangtag_det"], served["hangtag_det"]
    latencies = np.concatenate([r["latencies"] for r in results])
    wall = max(r["seconds"] for r in results)
    stage_names = sorted({k for r in results for k in r["stages"]})
    return {"clients": clients, "frames": int(latencies.size), "throughput_fps": latencies.size / wall,
            "p50_ms": float(np.percentile(latencies, 50)), "p99_ms": float(np.percentile(latencies, 99)),
            "batches_formed": formed, "served": served,
            "median_stage_ms": {k: float(np.median([r["stages"].get(k, 0.0) for r in results])) for k in stage_names}}


def _counts(model_stats: dict) -> dict[str, int]:
    """Requests answered, items in them, and executions the server ran: requests per execution above 1
    is the dynamic batcher combining requests (a request may already carry several items)."""
    return {"requests": int(model_stats.get("inference_stats", {}).get("success", {}).get("count", 0)),
            "items": int(model_stats.get("inference_count", 0)),
            "executions": int(model_stats.get("execution_count", 0))}


def failover(prepared, threads: int, frames: int = 20, kill_at: int = 6) -> dict:
    from inference.engines.triton import TritonEngine
    from inference.imageio import list_images, read_image
    from inference.pipeline import Pipeline
    from inference.resources import samples_dir
    from tests.triton.server import DETECTOR, TritonServer

    images = [read_image(p) for p in list_images(samples_dir())[:8]]
    events = []
    with TritonServer(prepared, threads=threads) as a, TritonServer(prepared, threads=threads) as b:
        servers = {a.url: a, b.url: b}
        engine = TritonEngine(DETECTOR, urls=f"{a.url},{b.url}", on_event=events.append).load()
        ok, delayed, waits, totals = 0, 0, [], []
        with Pipeline(engine) as pipeline:
            for i in range(frames):
                if i == kill_at:
                    servers[engine.pool.peek()].kill()  # the server this frame goes to
                retries = engine.retries
                result = pipeline.process(images[i % len(images)])
                ok += result.ok and len(result.detections) > 0
                if engine.retries > retries:
                    delayed += 1
                    waits.append(result.timings.get("retry_wait") + result.timings.get("network"))
                totals.append(result.timings.total_ms)
    return {"frames": frames, "answered": ok, "lost": frames - ok, "delayed": delayed,
            "delayed_frame_ms": [round(w, 1) for w in waits], "p50_ms": float(np.median(totals)),
            "max_ms": float(np.max(totals)), "events": [f"{e.kind} {e.url}" for e in events]}


def main() -> None:
    from tests.triton.server import TritonServer, prepare

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=4)
    parser.add_argument("--frames", type=int, default=15, help="frames per client")
    parser.add_argument("--server-threads", type=int, default=2, help="ONNX Runtime threads in the server's model")
    parser.add_argument("--read", action="store_true", help="whole stations with reading on the fleet (no failover)")
    args = parser.parse_args()
    prepared = prepare()
    report = {}
    if args.read:
        from inference.reading.ocr.models import find_ocr_models
        from tests.triton.server import OCR_REPOSITORY, ocr_environment

        models = ("hangtag_det", "ocr_det", "ocr_rec")
        with TritonServer(prepared, threads=args.server_threads, also=(OCR_REPOSITORY,),
                          extra_env=ocr_environment(find_ocr_models("auto", "gb2312"))) as server:
            report["one_station"] = concurrent_clients(server.url, 1, args.frames, models, read=True)
            report[f"{args.clients}_stations"] = concurrent_clients(server.url, args.clients, args.frames, models,
                                                                    read=True)
        print(json.dumps(report, indent=2))
        return
    with TritonServer(prepared, threads=args.server_threads) as server:
        report["one_client"] = concurrent_clients(server.url, 1, args.frames)
        report[f"{args.clients}_clients"] = concurrent_clients(server.url, args.clients, args.frames)
    report["failover"] = failover(prepared, args.server_threads)
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
