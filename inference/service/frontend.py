"""A front-end process of `serve --frontends N` (inference/service/owner.py says why): the HTTP side of the
service without an engine. It answers what it can alone (415, 413, 400 for a bad query or a header that promises
too many pixels, 404 for an unknown recipe id, 503 while the owner's published queue depth is full, /health,
/ready) and hands each image to the GPU owner through a
shared-memory slot; the owner's answer (200, or its 400/503/500 with the same JSON) goes back as it came."""

from __future__ import annotations

import asyncio
import signal
import time
import uuid
from contextlib import asynccontextmanager
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from inference.service.access_log import JsonLog
from inference.service.app import read_body, thresholds_from
from inference.service.config import ServiceConfig
from inference.service.decoding import deferrable_jpeg, media_type_of
from inference.service.errors import NotReady, ServiceError, ShuttingDown, Unavailable
from inference.service.batcher import queue_full
from inference.service.handoff import BodySlots, SharedDepth, drop_alone, put_alone
from inference.service.metrics import CONTENT_TYPE
from inference.service.pauses import gc_mode, settle_heap
from inference.service.recipes import RecipeBook
from inference.service.runtime import default_thresholds
from inference.service.serving import as_service_error
from inference.service.worker import DETECT, INSPECT

STATS_FLUSH_S = 0.5  # finished requests' counts reach the owner with the next message, or after this long


class OwnerGone(Unavailable):
    kind = "owner_gone"


class OwnerLink:
    """The front end's end of its pipe to the GPU owner: requests out, answers matched back by sequence number."""

    def __init__(self, conn: Any, slots: BodySlots, hello: dict, depth: SharedDepth | None = None) -> None:
        self.conn, self.slots, self.hello, self.depth = conn, slots, hello, depth
        self.open = True
        self._seq = 0
        self._pending: dict[int, tuple[asyncio.Future, int | None]] = {}
        self.stats: list[tuple[str, int, float | None]] = []
        self._loop: asyncio.AbstractEventLoop | None = None
        self.on_lost = None

    def attach(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._loop.add_reader(self.conn.fileno(), self._on_readable)
        self._loop.call_later(STATS_FLUSH_S, self._flush_stats)
        self.conn.send(("up",))

    def close(self) -> None:
        if self.stats and self.open:
            try:
                self._send(("stats", self._take_stats()))
            except OwnerGone:
                pass  # the owner is gone too: nothing left to count for
        self._lost()
        self.slots.close()
        if self.depth is not None:
            self.depth.close()

    def count(self, endpoint: str, status: int, seconds: float | None) -> None:
        self.stats.append((endpoint, status, seconds))

    def _take_stats(self) -> list:
        stats, self.stats = self.stats, []
        return stats

    def _flush_stats(self) -> None:
        if not self.open:
            return
        if self.stats:
            self._send(("stats", self._take_stats()))
        self._loop.call_later(STATS_FLUSH_S, self._flush_stats)

    def _send(self, message: tuple) -> None:
        try:
            self.conn.send(message)
        except OSError:
            self._lost()
            raise self._gone_error() from None

    @staticmethod
    def _gone_error() -> OwnerGone:
        return OwnerGone("the GPU owner process is gone", expected="a running service",
                         found="the owner process stopped", hint="retry against another instance")

    def _expect(self, slot: int | None) -> tuple[int, asyncio.Future]:
        if not self.open:
            raise self._gone_error()
        self._seq += 1
        future = self._loop.create_future()
        self._pending[self._seq] = (future, slot)
        return self._seq, future

    async def request(self, kind: str, media: str, request_id: str, thresholds: Any, recipe_id: str | None,
                      body: bytes, checked: bool) -> tuple[int, dict, dict, dict]:
        """(status, JSON answer, headers, the owner's log fields) for one image."""
        if not self.open:
            raise self._gone_error()
        slot = self.slots.put(body)
        where: int | str = slot if slot is not None else put_alone(body)
        seq, future = self._expect(slot)
        limits = (thresholds.confidence, thresholds.iou, thresholds.max_detections)
        try:
            self._send(("req", seq, kind, media, request_id, limits, recipe_id, where, len(body), checked,
                        self._take_stats()))
        except BaseException:
            self._pending.pop(seq, None)
            if slot is not None:
                self.slots.release(slot)
            else:
                drop_alone(where)
            raise
        return await future

    async def metrics(self) -> bytes:
        seq, future = self._expect(None)
        self._send(("metrics", seq, self._take_stats()))
        return await future

    def _on_readable(self) -> None:
        try:
            while self.open and self.conn.poll():
                message = self.conn.recv()
                entry = self._pending.pop(message[1], None)
                if entry is None:
                    continue
                future, slot = entry
                if slot is not None:
                    self.slots.release(slot)
                if not future.done():
                    future.set_result(message[2] if message[0] == "metrics" else message[2:])
        except (EOFError, OSError):
            self._lost()
            if self.on_lost is not None:
                self.on_lost()

    def _lost(self) -> None:
        if not self.open:
            return
        self.open = False
        if self._loop is not None:
            self._loop.remove_reader(self.conn.fileno())
        self.conn.close()
        for future, _slot in self._pending.values():
            if not future.done():
                future.set_exception(self._gone_error())
        self._pending.clear()


def create_frontend_app(config: ServiceConfig, link: OwnerLink, index: int, log: JsonLog | None = None) -> Starlette:
    handlers = _Handlers(config, link, index, log or JsonLog())

    @asynccontextmanager
    async def lifespan(app: Starlette):
        link.attach()
        settle_heap(gc_mode())  # a front end's collections stall its requests too (pauses.py)
        try:
            yield
        finally:
            handlers.closing = True
            link.close()

    routes = [
        Route("/detect", handlers.detect, methods=["POST"]),
        Route("/inspect", handlers.inspect, methods=["POST"]),
        Route("/health", handlers.health, methods=["GET"]),
        Route("/ready", handlers.ready, methods=["GET"]),
        Route("/metrics", handlers.metrics, methods=["GET"]),
    ]
    return Starlette(routes=routes, lifespan=lifespan)


class _Handlers:
    def __init__(self, config: ServiceConfig, link: OwnerLink, index: int, log: JsonLog) -> None:
        self.config, self.link, self.index, self.log = config, link, index, log
        self.thresholds = default_thresholds(config)
        self.recipes = RecipeBook.load(config.recipe, config.recipe_dir)  # ids checked here, 404 without a hop
        self.closing = False

    async def health(self, request: Request) -> Response:
        return JSONResponse({"code": 0, "status": "alive", "frontend": self.index})

    async def ready(self, request: Request) -> Response:
        if self.closing or not self.link.open:
            error = NotReady("the engines are not ready", expected="loaded and warmed engines",
                             found="shutting down", hint="retry shortly")
            self.link.count("ready", error.status, None)
            return JSONResponse(error.to_json(), status_code=error.status, headers=error.headers())
        self.link.count("ready", 200, None)
        h = self.link.hello
        return JSONResponse({"code": 0, "status": "ready", "backend": h["backend"], "workers": h["workers"],
                             "model": h["model"], "precision": h["precision"], "jpeg_decode": h["jpeg_decode"],
                             "frontends": h["frontends"], "frontend": self.index})

    async def metrics(self, request: Request) -> Response:
        try:
            body = await self.link.metrics()
        except ServiceError as exc:
            return JSONResponse(exc.to_json(), status_code=exc.status, headers=exc.headers())
        return Response(body, media_type=CONTENT_TYPE)

    async def detect(self, request: Request) -> Response:
        return await self._serve(request, DETECT)

    async def inspect(self, request: Request) -> Response:
        return await self._serve(request, INSPECT)

    async def _serve(self, request: Request, kind: str) -> Response:
        start = time.perf_counter_ns()
        request_id = request.headers.get("x-request-id") or uuid.uuid4().hex[:16]
        log: dict[str, Any] = {"id": request_id, "endpoint": kind, "size": 0, "frontend": self.index}
        h = self.link.hello
        try:
            if self.closing:
                raise ShuttingDown("the service is shutting down", expected="a running service",
                                   found="shutdown in progress", hint="retry against another instance")
            media = media_type_of(request.headers.get("content-type"))
            thresholds = thresholds_from(request.query_params, self.thresholds)
            recipe_id = request.query_params.get("recipe") if kind == INSPECT else None
            if kind == INSPECT:
                self.recipes.pick(recipe_id)
            depth = self.link.depth.value if self.link.depth is not None else 0
            if depth >= self.config.queue:  # refused before reading the body; the owner's admission stays the authority
                raise queue_full(self.config.queue, depth)
            body = await read_body(request, self.config.max_body_bytes)
            log["size"] = len(body)
            checked = (kind == DETECT and media == "image/jpeg" and h["gpu_jpeg"] and not h["journaled"]
                       and deferrable_jpeg(body))
            status, answer, headers, fields = await self.link.request(kind, media, request_id, thresholds, recipe_id,
                                                                      body, checked)
            log.update(fields)
            if status == 200:
                answer["time"] = round((time.perf_counter_ns() - start) / 1e6, 3)
            response = JSONResponse(answer, status_code=status, headers=headers)
        except Exception as exc:
            error = as_service_error(exc)
            log["error"] = error.kind
            response = JSONResponse(error.to_json(), status_code=error.status, headers=error.headers())
        total_ms = (time.perf_counter_ns() - start) / 1e6
        self.link.count(kind, response.status_code, total_ms / 1000.0)
        self.log.write("request", **log, code=response.status_code, total_ms=round(total_ms, 3))
        return response


def frontend_main(config: ServiceConfig, index: int, conn: Any, slots_name: str, slots: int, slot_bytes: int,
                  sock: Any, hello: dict, depth_name: str) -> None:
    """A front-end process's body (spawned by the owner): uvicorn on the owner's listening socket."""
    servers: list[Any] = []
    stop: list[int] = []

    def on_signal(sig: int, _frame: Any) -> None:
        # before uvicorn takes the signals over (a SIGTERM while this process is still starting) and after it hands
        # them back (it re-raises the one it drained on): stop if not stopped yet, and exit 0 rather than by signal
        stop.append(sig)
        for server in servers:
            server.should_exit = True

    signal.signal(signal.SIGTERM, on_signal)
    signal.signal(signal.SIGINT, on_signal)
    import uvicorn

    link = OwnerLink(conn, BodySlots(slots, slot_bytes, name=slots_name), hello, SharedDepth(name=depth_name))
    app = create_frontend_app(config, link, index)
    server = uvicorn.Server(uvicorn.Config(app, access_log=False, log_level="warning", lifespan="on",
                                           timeout_graceful_shutdown=60))
    servers.append(server)
    server.should_exit = bool(stop)

    def owner_lost() -> None:
        server.should_exit = True

    link.on_lost = owner_lost
    server.run(sockets=[sock])
