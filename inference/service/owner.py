"""`serve --frontends N`: one GPU-owner process fed by N HTTP front-end processes.

One process with its HTTP event loop beside the engines served 137-206 requests/s on the H200 (BENCHMARKS.md,
issue 20): the event loop's ~1.5 ms of CPU a request and the workers share one GIL. Several independent processes
added up only to ~318/s within P99 25 ms, each with its own CUDA context, the contexts taking turns on the GPU.
Here the HTTP work (parsing, reading bodies, JSON) runs in N front-end processes that share one listening socket,
and one process owns the GPU: its batcher forms batches across every front end, so one CUDA context decodes and
infers each batch in one call.

A request's way: a front end reads the body, puts it in a shared-memory slot (inference/service/handoff.py) and
sends a small descriptor over its pipe; the owner copies the body out, admits it (QueueFull and the deadline are
the owner's, over all front ends; the owner also publishes its queue depth in a shared word, from which a front end
refuses a request with QueueFull before reading its body, as one process does), answers it through the same path as one process (serving.answer_request) and
sends the answer back; the front end writes it and the request's log line. The front ends' request counts and
latencies travel back with their next message, so GET /metrics, whichever front end answers it, is the owner's
one registry: aggregated over all front ends.

SIGTERM (or SIGINT) to the owner: each front end is told to stop (SIGTERM: uvicorn stops accepting and finishes its
requests in flight, which the owner still answers); when all have exited, the owner drains its batcher, frees
the engines and exits 0. A front end that dies on its own is logged; the others go on.
"""

from __future__ import annotations

import asyncio
import gc
import multiprocessing as mp
import os
import signal
import socket
import time
from typing import Any

from inference.errors import ConfigError
from inference.service.access_log import JsonLog
from inference.service.config import ServiceConfig
from inference.service.errors import ServiceError
from inference.service.handoff import SLOT_BYTES, BodySlots, SharedDepth, take_alone
from inference.service.pauses import GcPauses, gc_mode, report_pauses, settle_heap
from inference.service.runtime import Service
from inference.service.serving import answer_request, as_service_error
from inference.service.worker import INSPECT

FRONTEND_STOP_S = 90.0  # a front end still running this long after SIGTERM is killed


def listening_socket(host: str, port: int) -> socket.socket:
    """Bound and listening before any front end starts: they all accept from its one queue."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind((host, port))
    except OSError as exc:
        sock.close()
        raise ConfigError("cannot listen on this address", expected=f"a free port at {host}",
                          found=f"{host}:{port}: {exc.strerror or exc}",
                          hint="stop what uses the port, or pass another --port") from None
    sock.listen(2048)
    sock.set_inheritable(True)
    return sock


def apply_stats(service: Service, stats: list) -> None:
    """Front ends' finished requests: (endpoint, status, seconds), counted in the owner's one registry."""
    m = service.metrics
    for endpoint, status, seconds in stats:
        m.requests.labels(endpoint, str(status)).inc()
        if seconds is not None:
            m.request_seconds.labels(endpoint).observe(seconds)


class _FrontEnd:
    """One front end as the owner sees it."""

    def __init__(self, index: int, process: Any, conn: Any, slots: BodySlots) -> None:
        self.index, self.process, self.conn, self.slots = index, process, conn, slots
        self.open = True
        self.up = False


class Owner:
    def __init__(self, service: Service, sock: socket.socket, count: int) -> None:
        self.service = service
        self.sock = sock
        self.count = count
        self.frontends: list[_FrontEnd] = []
        self.stopping = False
        self.tasks: set[asyncio.Task] = set()
        self._all_gone = asyncio.Event()
        self._ready_logged = False
        self.depth = SharedDepth(create=True)  # the front ends refuse from it before reading a body
        service.on_depth = self._publish_depth

    def _publish_depth(self, depth: int | None = None) -> None:
        self.depth.value = self.service.batcher.depth if depth is None else depth

    # -- lifecycle ------------------------------------------------------------------------------------
    def hello(self) -> dict:
        s = self.service
        return {"backend": s.backend, "workers": len(s.workers), "model": s.model_hash, "precision": s.precision,
                "jpeg_decode": s.jpeg_decode, "gpu_jpeg": s.gpu_jpeg, "journaled": s.journal is not None,
                "frontends": self.count}

    def spawn(self) -> None:
        from inference.service.frontend import frontend_main

        c = self.service.config
        ctx = mp.get_context("spawn")  # never fork a process that holds a CUDA context
        slots = min(256, c.queue + c.max_batch * c.workers)
        loop = asyncio.get_running_loop()
        for i in range(self.count):
            mine, theirs = ctx.Pipe(duplex=True)
            body_slots = BodySlots(slots, SLOT_BYTES, create=True)
            process = ctx.Process(target=frontend_main, name=f"hangtag-frontend-{i}",
                                  args=(c, i, theirs, body_slots.name, slots, SLOT_BYTES, self.sock, self.hello(),
                                        self.depth.name))
            process.start()
            theirs.close()
            frontend = _FrontEnd(i, process, mine, body_slots)
            self.frontends.append(frontend)
            loop.add_reader(mine.fileno(), self._on_readable, frontend)

    def request_stop(self) -> None:
        if self.stopping:
            return
        self.stopping = True
        b = self.service.batcher
        self.service.log.write("draining", queued=b.depth if b else 0, in_flight=b.in_flight if b else 0,
                               frontends=sum(f.open for f in self.frontends))
        for f in self.frontends:
            if f.process.is_alive():
                f.process.terminate()  # SIGTERM: uvicorn's graceful shutdown in the front end
        if not any(f.open for f in self.frontends):
            self._all_gone.set()
        asyncio.get_running_loop().call_later(FRONTEND_STOP_S, self._kill_stragglers)

    def _kill_stragglers(self) -> None:
        for f in self.frontends:
            if f.process.is_alive():
                self.service.log.write("frontend_killed", frontend=f.index, after_s=FRONTEND_STOP_S)
                f.process.kill()

    async def serve_until_stopped(self) -> int:
        """Serve the front ends until all have exited; 0 when they were asked to stop and exited cleanly."""
        await self._all_gone.wait()
        if self.tasks:
            await asyncio.gather(*self.tasks, return_exceptions=True)
        clean = True
        for f in self.frontends:
            await asyncio.to_thread(f.process.join, 10.0)
            # one stopped while still starting (before uvicorn took over SIGTERM) had nothing to finish
            clean &= f.process.exitcode == 0 or (not f.up and f.process.exitcode == -signal.SIGTERM)
            f.slots.close()
        self.depth.close()
        return 0 if self.stopping and clean else 1

    # -- messages -------------------------------------------------------------------------------------
    def _on_readable(self, f: _FrontEnd) -> None:
        try:
            while f.open and f.conn.poll():
                self._dispatch(f, f.conn.recv())
        except (EOFError, OSError):
            self._gone(f)

    def _gone(self, f: _FrontEnd) -> None:
        if not f.open:
            return
        f.open = False
        asyncio.get_running_loop().remove_reader(f.conn.fileno())
        f.conn.close()
        if not self.stopping:
            self.service.log.write("frontend_exited", frontend=f.index, exit_code=f.process.exitcode)
        if not any(x.open for x in self.frontends):
            self._all_gone.set()

    def _dispatch(self, f: _FrontEnd, message: tuple) -> None:
        what = message[0]
        if what == "req":
            _, seq, kind, media, request_id, limits, recipe_id, where, size, checked, stats = message
            apply_stats(self.service, stats)
            conf, iou, max_det = limits
            thresholds = self.service.thresholds.with_(confidence=conf, iou=iou, max_detections=max_det)
            try:
                body = f.slots.read(where, size) if isinstance(where, int) else take_alone(where, size)
            except (OSError, ValueError) as exc:  # one bad hand-over fails its request, not the front end's link
                error = as_service_error(exc)
                self._send(f, ("ans", seq, error.status, error.to_json(), error.headers(), {"error": error.kind}))
                return
            task = asyncio.create_task(self._serve(f, seq, kind, media, request_id, thresholds, recipe_id, body,
                                                   checked))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        elif what == "metrics":
            apply_stats(self.service, message[2])
            task = asyncio.create_task(self._metrics(f, message[1]))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)
        elif what == "stats":
            apply_stats(self.service, message[1])
        elif what == "up":
            f.up = True
            if not self._ready_logged and all(x.up for x in self.frontends):
                self._ready_logged = True
                s, c = self.service, self.service.config
                s.log.write("ready", host=c.host, port=self.sock.getsockname()[1], backend=s.backend,
                            workers=len(s.workers), max_batch=c.max_batch, max_wait_ms=c.max_wait_ms, queue=c.queue,
                            model=s.model_hash, precision=s.precision, jpeg_decode=s.jpeg_decode,
                            frontends=self.count, pid=os.getpid(), **s.worker_pids)

    def _send(self, f: _FrontEnd, message: tuple) -> None:
        if not f.open:
            return
        try:
            f.conn.send(message)
        except OSError:
            self._gone(f)

    async def _metrics(self, f: _FrontEnd, seq: int) -> None:
        body = await asyncio.to_thread(self.service.metrics.render)  # NVML and /proc reads: off the loop
        self._send(f, ("metrics", seq, body))

    async def _serve(self, f: _FrontEnd, seq: int, kind: str, media: str, request_id: str, thresholds: Any,
                     recipe_id: str | None, body: bytes, checked: bool) -> None:
        s = self.service
        start = time.perf_counter_ns()
        log: dict[str, Any] = {}
        try:
            recipe = s.recipes.pick(recipe_id) if kind == INSPECT else None
            ticket = s.batcher.admit()
            self._publish_depth()
        except ServiceError as exc:
            log["error"] = exc.kind
            self._send(f, ("ans", seq, exc.status, exc.to_json(), exc.headers(), log))
            return
        try:
            answer = await answer_request(s, kind, body, media, thresholds, recipe, request_id, ticket, log, start,
                                          checked_jpeg=checked)
            self._send(f, ("ans", seq, 200, answer, {}, log))
        except Exception as exc:
            error = as_service_error(exc)
            log["error"] = error.kind
            self._send(f, ("ans", seq, error.status, error.to_json(), error.headers(), log))
        finally:
            ticket.release()
            self._publish_depth()


async def _run(config: ServiceConfig, count: int, log: JsonLog) -> int:
    loop = asyncio.get_running_loop()
    stop_early = asyncio.Event()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop_early.set)
    sock = listening_socket(config.host, config.port)
    service = Service(config, log=log)
    try:
        try:
            await service.start()
        except BaseException as exc:
            log.write("startup_failed", error=str(exc).splitlines()[0] if str(exc) else type(exc).__name__)
            raise
        owner = Owner(service, sock, count)
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, owner.request_stop)
        try:
            if stop_early.is_set():
                owner.stopping = True
                code = 0
            else:
                owner.spawn()
                code = await _serve_watched(owner, log)
        finally:
            owner.depth.close()
        log.write("frontends_stopped", queued=service.batcher.depth, in_flight=service.batcher.in_flight)
        await service.stop()
        log.write("stopped", exit_code=code)
        return code
    finally:
        sock.close()


async def _serve_watched(owner: Owner, log: JsonLog) -> int:
    """Serve with the warmed heap frozen (pauses.py) and every collection timed; HANGTAG_SERVE_LOOP_LAG_MS > 0
    also logs each late wake of the event loop (a measuring aid, off by default)."""
    mode = gc_mode()
    frozen = settle_heap(mode)
    pauses = GcPauses().install()
    log.write("gc_settled", mode=mode, frozen=frozen, threshold=list(gc.get_threshold()))
    lag_ms = float(os.environ.get("HANGTAG_SERVE_LOOP_LAG_MS", "0") or 0)
    reporter = asyncio.create_task(report_pauses(pauses, log, loop_lag_ms=lag_ms))
    try:
        return await owner.serve_until_stopped()
    finally:
        reporter.cancel()
        await asyncio.gather(reporter, return_exceptions=True)
        for ts, generation, ms, collected in pauses.take_long():
            log.write("gc_pause", at=ts, generation=generation, ms=ms, collected=collected)
        pauses.remove()
        log.write("gc", mode=mode, **pauses.summary())


def run_owner(config: ServiceConfig, log: JsonLog | None = None) -> int:
    """Blocking: the owner's event loop (uvloop where installed) until the front ends have stopped."""
    if config.frontends < 1:
        raise ConfigError("the front-end mode needs front ends", expected="--frontends ≥ 1",
                          found=str(config.frontends))
    try:
        import uvloop

        factory = uvloop.new_event_loop
    except ImportError:
        factory = None
    with asyncio.Runner(loop_factory=factory) as runner:
        return runner.run(_run(config, config.frontends, log or JsonLog()))
