"""The Starlette app factory. Handlers are thin: read the body, hand it to the decode pool, submit to the
batcher, shape the answer. The engines are loaded and warmed in the lifespan, off the event loop."""

from __future__ import annotations

import asyncio
import time
import uuid
from contextlib import asynccontextmanager
from typing import Any, Callable

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from inference.postprocess import Thresholds
from inference.service.access_log import JsonLog
from inference.service.config import CONF_RANGE, IOU_RANGE, MAX_DET_RANGE, ServiceConfig
from inference.service.decoding import media_type_of
from inference.service.errors import BadParameter, BodyTooLarge, NotReady, ServiceError
from inference.service.metrics import CONTENT_TYPE
from inference.service.runtime import Service, WorkerFactory
from inference.service.serving import answer_request, as_service_error
from inference.service.worker import DETECT, INSPECT


def create_app(config: ServiceConfig, *, worker_factory: WorkerFactory | None = None, log: JsonLog | None = None,
               on_startup_error: Callable[[BaseException], None] | None = None) -> Starlette:
    """`on_startup_error`: called instead of raising when the engines cannot be opened (the CLI uses it to
    stop uvicorn and report the error in plain words rather than as a traceback)."""
    service = Service(config, worker_factory=worker_factory, log=log)

    @asynccontextmanager
    async def lifespan(app: Starlette):
        try:
            await service.start()
        except BaseException as exc:
            service.log.write("startup_failed", error=str(exc).splitlines()[0])
            if on_startup_error is None or not isinstance(exc, Exception):
                raise
            on_startup_error(exc)
            yield
            return
        service.log.write("ready", host=config.host, port=config.port, backend=service.backend,
                          workers=len(service.workers), max_batch=config.max_batch, max_wait_ms=config.max_wait_ms,
                          queue=config.queue, model=service.model_hash, precision=service.precision,
                          jpeg_decode=service.jpeg_decode, **service.worker_pids)
        try:
            yield
        finally:
            service.log.write("draining", queued=service.batcher.depth, in_flight=service.batcher.in_flight)
            await service.stop()
            service.log.write("stopped")

    handlers = _Handlers(service)
    routes = [
        Route("/detect", handlers.detect, methods=["POST"]),
        Route("/inspect", handlers.inspect, methods=["POST"]),
        Route("/health", handlers.health, methods=["GET"]),
        Route("/ready", handlers.ready, methods=["GET"]),
        Route("/metrics", handlers.metrics, methods=["GET"]),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.service = service
    return app


class _Handlers:
    def __init__(self, service: Service) -> None:
        self.service = service

    async def health(self, request: Request) -> Response:
        return JSONResponse({"code": 0, "status": "alive"})

    async def ready(self, request: Request) -> Response:
        s = self.service
        if not (s.ready and s.batcher is not None and s.batcher.accepting):
            return self._error(NotReady("the engines are not ready", expected="loaded and warmed engines",
                                        found="starting or shutting down", hint="retry shortly"), "ready")
        s.metrics.requests.labels("ready", "200").inc()
        return JSONResponse({"code": 0, "status": "ready", "backend": s.backend, "workers": len(s.workers),
                             "model": s.model_hash, "precision": s.precision, "jpeg_decode": s.jpeg_decode})

    async def metrics(self, request: Request) -> Response:
        body = await asyncio.to_thread(self.service.metrics.render)  # NVML and /proc reads: off the loop
        return Response(body, media_type=CONTENT_TYPE)

    async def detect(self, request: Request) -> Response:
        return await self._serve(request, DETECT)

    async def inspect(self, request: Request) -> Response:
        return await self._serve(request, INSPECT)

    # -- the one path of /detect and /inspect -----------------------------------------------------------
    async def _serve(self, request: Request, kind: str) -> Response:
        s = self.service
        start = time.perf_counter_ns()
        request_id = request.headers.get("x-request-id") or uuid.uuid4().hex[:16]
        log: dict[str, Any] = {"id": request_id, "endpoint": kind, "size": 0}
        try:
            if not s.ready:
                raise NotReady("the engines are not ready", expected="a warmed service", found="not ready",
                               hint="poll GET /ready before sending")
            media = media_type_of(request.headers.get("content-type"))
            thresholds = thresholds_from(request.query_params, s.thresholds)
            recipe = s.recipes.pick(request.query_params.get("recipe")) if kind == INSPECT else None
            ticket = s.batcher.admit()  # a full service refuses here, before reading or decoding anything
        except ServiceError as exc:
            return self._finish(self._error(exc, kind, log), kind, log, start)
        try:
            body = await read_body(request, s.config.max_body_bytes)
            log["size"] = len(body)
            answer = await answer_request(s, kind, body, media, thresholds, recipe, request_id, ticket, log, start)
            response: Response = JSONResponse(answer)
        except Exception as exc:
            response = self._error(as_service_error(exc), kind, log)
        finally:
            ticket.release()
        return self._finish(response, kind, log, start)

    def _finish(self, response: Response, kind: str, log: dict, start: int) -> Response:
        s = self.service
        total_ms = (time.perf_counter_ns() - start) / 1e6
        s.metrics.request_seconds.labels(kind).observe(total_ms / 1000.0)
        s.metrics.requests.labels(kind, str(response.status_code)).inc()
        s.log.write("request", **log, code=response.status_code, total_ms=round(total_ms, 3))
        return response

    def _error(self, exc: ServiceError, endpoint: str, log: dict | None = None) -> Response:
        if log is not None:
            log["error"] = exc.kind
        else:
            self.service.metrics.requests.labels(endpoint, str(exc.status)).inc()
        return JSONResponse(exc.to_json(), status_code=exc.status, headers=exc.headers())


async def read_body(request: Request, limit: int) -> bytes:
    """Refuse by Content-Length before reading; count while streaming for senders that do not declare it."""
    declared = request.headers.get("content-length")
    too_large = BodyTooLarge("the request body is too large", expected=f"at most {limit} bytes",
                             found=f"{declared or 'more than that'} bytes",
                             hint="send a smaller image or start the service with a larger --max-body-mb")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > limit:
            raise too_large
        chunks.append(chunk)
    return b"".join(chunks)


def thresholds_from(query: Any, default: Thresholds) -> Thresholds:
    def number(name: str, cast: type, low: float, high: float, fallback: float) -> Any:
        text = query.get(name)
        if text is None:
            return fallback
        try:
            value = cast(text)
        except ValueError:
            value = None
        if value is None or not low <= value <= high:
            raise BadParameter(f"query parameter '{name}' is out of range", expected=f"{low} … {high}",
                               found=f"{name}={text}", hint=f"omit {name} to use the service's {fallback}")
        return value

    return default.with_(confidence=number("conf", float, *CONF_RANGE, default.confidence),
                         iou=number("iou", float, *IOU_RANGE, default.iou),
                         max_detections=number("max_det", int, *MAX_DET_RANGE, default.max_detections))
