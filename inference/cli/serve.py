"""`hangtag-inspect serve`: the HTTP inspection service (raw image bytes in, JSON out)."""

from __future__ import annotations

import argparse
import signal
from pathlib import Path

from inference.engines.registry import BACKENDS
from inference.errors import BackendUnavailableError
from inference.resources import default_model_path


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("serve", help="serve /detect and /inspect over HTTP (JSON answers, Prometheus metrics)")
    parser.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback only)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--model", type=Path, default=default_model_path(), help="ONNX detector (default: the shipped one)")
    parser.add_argument("--backend", choices=[b.name for b in BACKENDS], default=None,
                        help="engine backend (default: the best available)")
    parser.add_argument("--threads", type=int, default=None, help="ONNX Runtime threads per worker")
    parser.add_argument("--max-batch", type=int, default=8, help="requests per batch, at most")
    parser.add_argument("--max-wait-ms", type=float, default=3.0, help="longest a request waits for batch company")
    parser.add_argument("--queue", type=int, default=16, help="requests allowed to wait; more get 503")
    parser.add_argument("--workers", type=int, default=1, help="inference workers, each with its own engine")
    parser.add_argument("--decode-threads", type=int, default=None,
                        help="image decode threads (default: one per core this process may run on)")
    parser.add_argument("--one-engine", action="store_true",
                        help="on the GPU pipeline, one engine at --max-batch for every batch (default: also engines "
                             "for batches of 1, 2, 4 and 8, each batch on the smallest that holds it)")
    parser.add_argument("--cuda-graph", action="store_true",
                        help="on the GPU pipeline with ONNX Runtime, replay each engine as a CUDA graph (captured on "
                             "its worker's own thread before the first request)")
    parser.add_argument("--jpeg-decode", choices=("auto", "gpu", "cpu"), default="auto",
                        help="/detect JPEGs decoded in each batch on the GPU (nvImageCodec) where the detector runs "
                             "on the GPU pipeline (auto), always there or refuse to start (gpu), or on CPU threads")
    parser.add_argument("--decode-ahead", action="store_true",
                        help="each worker decodes its next batch on a thread of its own while the last one infers "
                             "(off by default: on the H200 it raised the saturated rate, not the rate within P99 25 ms)")
    parser.add_argument("--worker-processes", action="store_true",
                        help="each inference worker in a process of its own (own GIL and CUDA context); JPEGs the "
                             "workers decode on the GPU reach it through shared memory, pixels decoded here through a "
                             "pipe (off by default: not yet measured on the GPU against worker threads)")
    parser.add_argument("--gil-switch-ms", type=float, default=None, metavar="MS",
                        help="the GIL switch interval in ms of the engines' process(es) (default: Python's 5 ms)")
    parser.add_argument("--frontends", type=int, default=0, metavar="N",
                        help="HTTP in N front-end processes sharing the port, the engines in this one process, which "
                             "batches across them (default 0: HTTP and engines in one process)")
    parser.add_argument("--deadline-ms", type=float, default=10_000.0,
                        help="a request still queued after this is answered 503 instead of late")
    parser.add_argument("--max-body-mb", type=float, default=20.0, help="larger bodies get 413")
    parser.add_argument("--conf", type=float, default=0.25, help="default confidence threshold (?conf= overrides)")
    parser.add_argument("--iou", type=float, default=0.45, help="default NMS IoU threshold (?iou= overrides)")
    parser.add_argument("--max-det", type=int, default=100, help="default max detections (?max_det= overrides)")
    parser.add_argument("--recipe", type=Path, default=None, help="recipe /inspect judges against by default")
    parser.add_argument("--recipes", type=Path, default=None, help="folder of recipes chosen with ?recipe=ID")
    parser.add_argument("--no-read", action="store_true", help="do not load the tag reader (/inspect then only detects)")
    parser.add_argument("--journal", nargs="?", const="", default=None, metavar="PATH",
                        help="journal every request like a station frame (default path: the station's journal)")
    parser.set_defaults(func=run)


def config_from(args: argparse.Namespace):
    from inference.service.config import ServiceConfig, usable_cores

    return ServiceConfig(host=args.host, port=args.port, model=args.model, backend=args.backend, threads=args.threads,
                         max_batch=args.max_batch, max_wait_ms=args.max_wait_ms, queue=args.queue,
                         workers=args.workers, decode_threads=args.decode_threads or usable_cores(),
                         deadline_ms=args.deadline_ms,
                         max_body_bytes=int(args.max_body_mb * 1024 * 1024), conf=args.conf, iou=args.iou,
                         max_det=args.max_det, recipe=args.recipe, recipe_dir=args.recipes, read=not args.no_read,
                         journal=args.journal, jpeg_decode=args.jpeg_decode, batch_engines=not args.one_engine,
                         cuda_graph=args.cuda_graph, frontends=args.frontends, decode_ahead=args.decode_ahead,
                         worker_processes=args.worker_processes, switch_interval_ms=args.gil_switch_ms)


def run(args: argparse.Namespace) -> int:
    try:
        import uvicorn
    except ImportError as exc:
        raise BackendUnavailableError("the service needs uvicorn", expected="uvicorn and starlette installed",
                                      found=str(exc), hint="pip install uvicorn starlette") from exc
    from inference.service.app import create_app

    config = config_from(args)
    if config.frontends > 0:
        from inference.service.owner import run_owner

        return run_owner(config)
    failure: list[BaseException] = []
    server: uvicorn.Server | None = None

    def stop_on_error(exc: BaseException) -> None:
        failure.append(exc)
        server.should_exit = True

    app = create_app(config, on_startup_error=stop_on_error)
    server = uvicorn.Server(uvicorn.Config(app, host=config.host, port=config.port, access_log=False,
                                           log_level="warning", lifespan="on", timeout_graceful_shutdown=60))
    # uvicorn drains on SIGTERM, then re-raises the signal to the handler that was in place before it:
    # this one makes a drained shutdown an ordinary exit 0 instead of death by signal.
    previous = signal.signal(signal.SIGTERM, lambda *_: None)
    try:
        server.run()
    finally:
        signal.signal(signal.SIGTERM, previous)
    if failure:
        raise failure[0]
    return 0
