"""One admitted request's way from its body to its answer, whatever carried the body in: the app's own
handler (one process) or the GPU owner fed by front-end processes (inference/service/owner.py).

`answer_request` returns the JSON answer or raises; `as_service_error` turns whatever it raised into the
refusal the client gets, with expected / found / hint."""

from __future__ import annotations

import asyncio
import time
from typing import Any

from inference.errors import HangtagError
from inference.pipeline import error_result
from inference.postprocess import Thresholds
from inference.service.answers import detect_answer, inspect_answer
from inference.service.batcher import Ticket
from inference.service.decoding import DecodedImage
from inference.service.errors import InferenceFailed, ServiceError, UndecodableImage
from inference.service.worker import DETECT, INSPECT, Job


async def answer_request(s: Any, kind: str, body: bytes, media: str, thresholds: Thresholds, recipe: Any,
                         request_id: str, ticket: Ticket, log: dict, start_ns: int, *,
                         checked_jpeg: bool = False) -> dict:
    """`s` is the running Service. `checked_jpeg`: the body is a /detect JPEG whose header was already checked
    (a front end did it) and the workers decode it on the GPU, so it skips the decode pool."""
    journaled = s.journal is not None
    decoded = None
    try:  # a /detect JPEG is decoded by the worker, with its batch, where the workers decode on the GPU
        if checked_jpeg and s.gpu_jpeg and kind == DETECT and not journaled:
            decoded = DecodedImage(None, media, 0.0, "", body)
        else:
            decoded = await s.decoder.decode(body, media, with_hash=journaled,
                                             defer_jpeg=s.gpu_jpeg and kind == DETECT)
        job = Job(kind, decoded.image, thresholds, request_id, decoded.decode_ms, recipe, decoded.body_hash,
                  decoded.body)
        served = await s.batcher.submit(job, ticket)
    except UndecodableImage as exc:
        if journaled:
            digest = getattr(exc, "body_hash", "") or (decoded.body_hash if decoded else "")
            await asyncio.to_thread(s.journal.record, error_result(0, request_id, None, str(exc), thresholds), digest)
        raise
    result = served.result
    log.update(queue_ms=round(served.queue_ms, 3), batch=served.batch_size,
               stages={k: round(v, 3) for k, v in result.timings.stages_ms.items()})
    s.metrics.observe_stages({"queue": served.queue_ms, **result.timings.stages_ms})
    parts = dict(request_id=request_id, time_ms=(time.perf_counter_ns() - start_ns) / 1e6,
                 queue_ms=served.queue_ms, batch=served.batch_size, model=s.model_hash,
                 precision=s.precision, backend=s.backend)
    answer = inspect_answer(result, recipe, **parts) if kind == INSPECT else detect_answer(result, **parts)
    if kind == INSPECT:
        log["verdict"] = answer["verdict"]
    log["detections"] = len(answer["detections"])
    return answer


def as_service_error(exc: Exception) -> ServiceError:
    """The refusal a client gets for what answering raised: a ServiceError as it is, an engine's error with its
    own words, anything else (a bug, not the client's fault) as a 500 that says so."""
    if isinstance(exc, ServiceError):
        return exc
    if isinstance(exc, HangtagError):
        return InferenceFailed(exc.message, expected=exc.expected, found=exc.found, hint=exc.hint)
    return InferenceFailed("the service failed on this request", expected="a result",
                           found=f"{type(exc).__name__}: {exc}"[:300], hint="report this with the request id")
