"""The HTTP clients the load generator sends with: aiohttp (the default) or httpx, behind one small sender.

Both are well-kept clients; they differ in what a request costs the generator. On the H200 (2026-12-03) eight
httpx processes sent thousands of a 2 800/s overload's requests more than 10 ms late, so that run measured the
generator, not the service. aiohttp parses HTTP in C and writes a request without anyio's stream layers: on this
project's VM it spends a fraction of httpx's CPU per request (benchmarks/serve-h200-2026-12-04/loadgen_cost.py
gives the numbers), so fewer cores keep up with the same schedule and more are left to the service.

A sender only posts one body and says when its headers and its body went onto the connection (each client's own
trace hook) and how long a new connection took; the schedule, the latencies from it and the summary stay in
`loadgen`, the same for both clients.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Protocol

from inference.errors import ConfigError

CLIENTS = ("aiohttp", "httpx")


@dataclass(frozen=True)
class Sent:
    code: int  # HTTP status, or 0 when no answer came (connection error, client timeout)
    headers_at: float | None  # clock time its headers were written to the connection (None: never)
    body_at: float | None  # clock time its body was fully written
    connect_ms: float  # opening a new TCP connection for it; 0 when a kept-alive one was reused


class Sender(Protocol):
    async def post(self, data: bytes, content_type: str) -> Sent: ...

    async def text(self, url: str) -> str | None:
        """GET `url` and return its body, or None on any failure (used for /metrics between requests)."""
        ...


class _Marks:
    """One request's trace marks, filled by either client's hook."""

    __slots__ = ("headers", "body", "connect", "connected")

    def __init__(self) -> None:
        self.headers: float | None = None
        self.body: float | None = None
        self.connect: float | None = None
        self.connected: float | None = None

    def sent(self, code: int) -> Sent:
        connect_ms = (self.connected - self.connect) * 1000.0 if self.connect and self.connected else 0.0
        return Sent(code, self.headers, self.body, connect_ms)


@asynccontextmanager
async def open_sender(client: str, url: str, *, timeout_s: float, max_connections: int,
                      clock: Callable[[], float]) -> AsyncIterator[Sender]:
    """A sender that POSTs to `url` with `client`, closed on exit; `clock` stamps the trace marks."""
    if client == "aiohttp":
        async with _aiohttp_sender(url, timeout_s, max_connections, clock) as sender:
            yield sender
    elif client == "httpx":
        async with _httpx_sender(url, timeout_s, max_connections, clock) as sender:
            yield sender
    else:
        raise ConfigError("unknown HTTP client for the load generator", expected=" or ".join(CLIENTS), found=client)


@asynccontextmanager
async def _aiohttp_sender(url: str, timeout_s: float, max_connections: int, clock) -> AsyncIterator[Sender]:
    try:
        import aiohttp
    except ImportError as exc:  # an environment without it: say what and how
        raise ConfigError("the aiohttp load client needs aiohttp", expected="aiohttp installed", found=str(exc),
                          hint="pip install aiohttp (a dependency of hangtag-station), or use --client httpx") from exc

    async def on_headers(_session, ctx, _params) -> None:
        marks = ctx.trace_request_ctx
        if marks.headers is None:
            marks.headers = clock()

    async def on_chunk(_session, ctx, _params) -> None:
        ctx.trace_request_ctx.body = clock()  # a bytes body is written in one chunk: this is its end

    async def on_connect(_session, ctx, _params) -> None:
        ctx.trace_request_ctx.connect = clock()

    async def on_connected(_session, ctx, _params) -> None:
        ctx.trace_request_ctx.connected = clock()

    trace = aiohttp.TraceConfig()
    trace.on_request_headers_sent.append(on_headers)
    trace.on_request_chunk_sent.append(on_chunk)
    trace.on_connection_create_start.append(on_connect)
    trace.on_connection_create_end.append(on_connected)
    connector = aiohttp.TCPConnector(limit=max_connections, limit_per_host=0)
    errors = (aiohttp.ClientError, asyncio.TimeoutError, OSError)

    class AiohttpSender:
        def __init__(self, session) -> None:
            self._session = session

        async def post(self, data: bytes, content_type: str) -> Sent:
            marks = _Marks()
            try:
                async with self._session.post(url, data=data, headers={"Content-Type": content_type},
                                              trace_request_ctx=marks) as response:
                    await response.read()
                    code = response.status
            except errors:
                code = 0
            return marks.sent(code)

        async def text(self, other: str) -> str | None:
            try:
                async with self._session.get(other, trace_request_ctx=_Marks()) as response:
                    return await response.text()
            except errors:
                return None

    async with aiohttp.ClientSession(connector=connector, timeout=aiohttp.ClientTimeout(total=timeout_s),
                                     trace_configs=[trace], auto_decompress=False) as session:
        yield AiohttpSender(session)


@asynccontextmanager
async def _httpx_sender(url: str, timeout_s: float, max_connections: int, clock) -> AsyncIterator[Sender]:
    import httpx

    class Hook:
        """httpcore's trace hook for one request (the same marks as aiohttp's signals)."""

        __slots__ = ("marks",)

        def __init__(self, marks: _Marks) -> None:
            self.marks = marks

        async def __call__(self, event: str, info: dict) -> None:
            marks = self.marks
            if event.endswith("send_request_headers.started") and marks.headers is None:
                marks.headers = clock()
            elif event.endswith("send_request_body.complete"):
                marks.body = clock()
            elif event == "connection.connect_tcp.started":
                marks.connect = clock()
            elif event == "connection.connect_tcp.complete":
                marks.connected = clock()

    class HttpxSender:
        def __init__(self, client) -> None:
            self._client = client

        async def post(self, data: bytes, content_type: str) -> Sent:
            marks = _Marks()
            try:
                response = await self._client.post(url, content=data, headers={"Content-Type": content_type},
                                                   extensions={"trace": Hook(marks)})
                await response.aread()
                code = response.status_code
            except httpx.HTTPError:
                code = 0
            return marks.sent(code)

        async def text(self, other: str) -> str | None:
            try:
                return (await self._client.get(other)).text
            except httpx.HTTPError:
                return None

    limits = httpx.Limits(max_connections=max_connections, max_keepalive_connections=max_connections)
    async with httpx.AsyncClient(limits=limits, timeout=timeout_s) as client:
        yield HttpxSender(client)
