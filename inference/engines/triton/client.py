"""One Triton server reached over KServe v2 (HTTP or gRPC) through tritonclient, imported lazily.

Every failure is sorted into what the pool must do about it: `ServerBusy` (HTTP 503 / gRPC
UNAVAILABLE for a full queue: back-pressure, try elsewhere or shortly), `ServerDown` (refused,
reset, timed out: take the server out), or a plain HangtagError (the request itself is wrong).
"""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass
from typing import Any

import numpy as np

from inference.errors import BackendUnavailableError, HangtagError

INSTALL_HINT = "pip install 'tritonclient[http,grpc]' (or: pip install 'hangtag-station[triton]')"


class ServerBusy(HangtagError):
    """The server answered 'queue full' (HTTP 503 / UNAVAILABLE): back-pressure, not a fault."""


class ServerDown(HangtagError):
    """The server did not answer (refused, reset, timed out): take it out of rotation."""


def tritonclient_module(protocol: str):
    try:
        if protocol == "grpc":
            import tritonclient.grpc as module
        else:
            import tritonclient.http as module
    except ImportError as exc:
        raise BackendUnavailableError("the Triton client library is not installed",
                                      expected=f"tritonclient with {protocol} support", found=str(exc),
                                      hint=INSTALL_HINT) from exc
    return module


def probe() -> str | None:
    """None when the triton backend can run here (the client library imports), else why not."""
    try:
        tritonclient_module("http")
    except BackendUnavailableError as exc:
        return f"{exc.message} ({INSTALL_HINT})"
    return None


@dataclass(frozen=True)
class ServerAddress:
    url: str       # as the operator wrote it, shown in the GUI and the journal
    protocol: str  # "http" or "grpc"
    host_port: str

    @classmethod
    def parse(cls, text: str) -> ServerAddress:
        url = text.strip().rstrip("/")
        protocol, _, rest = url.rpartition("://")
        protocol = protocol or "http"
        if protocol == "https":
            raise HangtagError("HTTPS Triton URLs are not supported", expected="http://host:8000 or grpc://host:8001",
                               found=url, hint="terminate TLS in front of Triton or use the plant network")
        if protocol not in ("http", "grpc") or not rest or "/" in rest:
            raise HangtagError("a Triton server URL is malformed", expected="http://host:8000 or grpc://host:8001",
                               found=url, hint="separate several servers with commas")
        if ":" not in rest:
            rest += ":8001" if protocol == "grpc" else ":8000"
        host, _, port = rest.rpartition(":")
        if not host or not port.isdigit():
            raise HangtagError("a Triton server URL is malformed", expected="http://host:8000 or grpc://host:8001",
                               found=url, hint="give a host and a numeric port")
        return cls(f"{protocol}://{rest}", protocol, rest)


def parse_urls(text: str) -> tuple[ServerAddress, ...]:
    addresses = tuple(ServerAddress.parse(part) for part in text.split(",") if part.strip())
    if not addresses:
        raise HangtagError("no Triton server URL given", expected="--triton-url http://host:8000[,http://host2:8000]",
                           found=repr(text), hint="or set HANGTAG_TRITON_URL")
    return addresses


_DTYPES = {"FP32": np.float32, "FP16": np.float16, "FP64": np.float64, "UINT8": np.uint8, "INT8": np.int8,
           "INT32": np.int32, "INT64": np.int64, "BOOL": np.bool_}


def triton_dtype(name: str) -> np.dtype:
    """KServe datatype ('FP32') or model-config type ('TYPE_FP32') → numpy dtype."""
    key = name.removeprefix("TYPE_")
    key = {"FLOAT32": "FP32", "FLOAT16": "FP16"}.get(key, key)
    if key not in _DTYPES:
        raise HangtagError("a Triton tensor has a data type the station does not handle",
                           expected=", ".join(_DTYPES), found=name)
    return np.dtype(_DTYPES[key])


def kserve_dtype(dtype: np.dtype) -> str:
    for name, value in _DTYPES.items():
        if np.dtype(value) == dtype:
            return name
    raise HangtagError("an input's dtype has no Triton equivalent", expected=", ".join(_DTYPES), found=str(dtype))


class RemoteServer:
    """A client for one server. tritonclient's HTTP client (gevent) works only on the thread that made
    it, and the station opens engines on one thread and runs them on another: one client per thread.

    Control calls (ready, metadata, config, statistics) wait at most `control_timeout_s`, so probing a
    hung server costs a frame little; inference waits up to `timeout_s`."""

    def __init__(self, address: ServerAddress, timeout_s: float, control_timeout_s: float = 1.0) -> None:
        self.address = address
        self.timeout_s = timeout_s
        self.control_timeout_s = min(control_timeout_s, timeout_s)
        self._module = tritonclient_module(address.protocol)
        self._per_thread = threading.local()
        self._clients: list = []
        self._lock = threading.Lock()

    def _client(self, control: bool):
        clients = getattr(self._per_thread, "clients", None)
        if clients is None:
            clients = self._per_thread.clients = {}
        key = control and self.address.protocol == "http"  # gRPC takes a timeout per call: one client
        if key not in clients:
            clients[key] = self._connect(self.control_timeout_s if key else self.timeout_s)
            with self._lock:
                self._clients.append(clients[key])
        return clients[key]

    def _connect(self, timeout_s: float):
        if self.address.protocol == "grpc":
            return self._module.InferenceServerClient(self.address.host_port)
        return self._module.InferenceServerClient(self.address.host_port, connection_timeout=min(1.0, timeout_s),
                                                  network_timeout=timeout_s)

    def reconnect(self) -> None:
        """Fresh connections for this thread after a failure: a killed server leaves the old ones half-open."""
        clients = getattr(self._per_thread, "clients", None) or {}
        self._per_thread.clients = {}
        for client in clients.values():
            with self._lock:
                self._clients.remove(client)
            _close_quietly(client)

    def close(self) -> None:
        with self._lock:
            clients, self._clients = self._clients, []
        for client in clients:
            _close_quietly(client)
        self._per_thread = threading.local()

    def _call(self, what: str, method: str, *args: Any, **kwargs: Any):
        control = what != "infer"
        if self.address.protocol == "grpc" and control:
            kwargs.setdefault("client_timeout", self.control_timeout_s)
        try:
            return getattr(self._client(control), method)(*args, **kwargs)
        except HangtagError:
            raise
        except Exception as exc:
            raise classify(exc, self.address.url, what) from exc

    def is_ready(self, model: str) -> bool:
        return bool(self._call("ready", "is_server_ready")) and bool(self._call("ready", "is_model_ready", model))

    def metadata(self, model: str) -> dict:
        kwargs = {"as_json": True} if self.address.protocol == "grpc" else {}
        return self._call("metadata", "get_model_metadata", model, **kwargs)

    def config(self, model: str) -> dict:
        kwargs = {"as_json": True} if self.address.protocol == "grpc" else {}
        config = self._call("config", "get_model_config", model, **kwargs)
        return config.get("config", config)  # gRPC wraps it in {"config": ...}

    def statistics(self, model: str) -> dict:
        kwargs = {"as_json": True} if self.address.protocol == "grpc" else {}
        stats = self._call("statistics", "get_inference_statistics", model, **kwargs)
        entries = stats.get("model_stats") or [{}]
        return entries[0]

    def infer(self, model: str, feeds: dict[str, np.ndarray], outputs: list[str], deadline: float) -> dict[str, np.ndarray]:
        """Binary tensors both ways; `deadline` (monotonic seconds) bounds the wait."""
        m = self._module
        inputs = []
        for name, array in feeds.items():
            tensor = m.InferInput(name, list(array.shape), kserve_dtype(array.dtype))
            if self.address.protocol == "grpc":
                tensor.set_data_from_numpy(np.ascontiguousarray(array))
            else:
                tensor.set_data_from_numpy(np.ascontiguousarray(array), binary_data=True)
            inputs.append(tensor)
        if self.address.protocol == "grpc":
            requested = [m.InferRequestedOutput(name) for name in outputs]
            remaining = max(0.05, deadline - time.monotonic())
            result = self._call("infer", "infer", model, inputs, outputs=requested, client_timeout=remaining)
        else:
            requested = [m.InferRequestedOutput(name, binary_data=True) for name in outputs]
            result = self._call("infer", "infer", model, inputs, outputs=requested)
        return {name: np.array(result.as_numpy(name), copy=True) for name in outputs}


def _close_quietly(client) -> None:
    try:
        client.close()
    except Exception:  # a dead connection, or one made on another thread, may refuse to close; nothing leaks
        pass


def classify(exc: Exception, url: str, what: str) -> HangtagError:
    status = ""
    if hasattr(exc, "status"):
        try:
            status = str(exc.status() or "")
        except Exception:  # some library versions keep status as a plain attribute
            status = str(getattr(exc, "_status", "") or "")
    text = (exc.message() if callable(getattr(exc, "message", None)) else str(exc)) or type(exc).__name__
    first = text.splitlines()[0][:200]
    if status == "503" or (status.endswith("UNAVAILABLE") and "queue" in text.lower()) or \
            status.endswith("RESOURCE_EXHAUSTED"):
        return ServerBusy(f"Triton server {url} is busy", expected="room in the model's queue",
                          found=f"{status}: {first}", hint="the station retries on another server or shortly")
    down_status = status.endswith(("UNAVAILABLE", "DEADLINE_EXCEEDED", "CANCELLED", "INTERNAL")) or \
        status in ("502", "504")
    if isinstance(exc, (OSError, TimeoutError, ConnectionError)) or down_status or not status:
        return ServerDown(f"Triton server {url} did not answer ({what})", expected="a running server",
                          found=f"{type(exc).__name__} {status}: {first}".strip(),
                          hint="check the server and the network; the station retries it with back-off")
    return HangtagError(f"Triton server {url} refused the {what} request", expected="a request the model accepts",
                        found=f"{status}: {first}", hint="check that the server's model matches the station's")
