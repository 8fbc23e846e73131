"""GenICam cameras through harvesters and any GenTL producer: `genicam:SERIAL`.

One image acquirer per camera; each buffer is fetched, converted into a lent frame and queued back to the
producer inside one `with` block. Harvesters allocates the buffers the producer fills, so the component's
data is a view of the producer's memory: the conversion into the lent frame is the only host copy.
"""

from __future__ import annotations

import signal
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from inference.cameras.acquisition import CameraLost, CameraSource, RawFrame
from inference.cameras.producers import find_producers, no_producer_error
from inference.cameras.settings import CameraSettings
from inference.errors import BackendUnavailableError, SourceError

STREAM_BUFFERS = 8  # announced to the producer: room for bursts while the station converts a frame
# GenTL DEVICE_ACCESS_STATUS: whether another program holds the camera
ACCESS_STATUS = {0: "unknown", 1: "reachable", 2: "reachable (read-only)", 3: "no access", 4: "busy (held by "
                 "another program)", 5: "open here", 6: "open here (read-only)"}


def _harvesters():
    try:
        from harvesters.core import Harvester
    except ImportError:
        raise BackendUnavailableError("GenICam cameras need harvesters", expected="the harvesters package",
                                      found="it is not installed", hint="pip install harvesters genicam") from None
    return Harvester


@dataclass(frozen=True)
class CameraInfo:
    vendor: str
    model: str
    serial: str
    user_id: str
    interface: str
    status: str
    producer: str
    device_id: str = ""

    @property
    def reachable(self) -> bool:
        return self.status.startswith("reachable") or self.status.startswith("open here")


def _field(info: Any, name: str) -> str:
    try:
        value = getattr(info, name)
    except Exception:  # producers raise "not available" for fields a device does not report
        return ""
    return "" if value is None else str(value)


def _info(info: Any, producer: str) -> CameraInfo:
    status = _field(info, "access_status")
    return CameraInfo(_field(info, "vendor"), _field(info, "model"), _field(info, "serial_number"),
                      _field(info, "user_defined_name"), _field(info, "tl_type"),
                      ACCESS_STATUS.get(int(status), status) if status.isdigit() else status or "unknown",
                      producer, _field(info, "id_"))


def _matches(info: CameraInfo, camera_id: str) -> bool:
    return camera_id in (info.serial, info.user_id, info.device_id) or (bool(info.model) and camera_id == info.model)


def list_cameras(cti: Iterable[str | Path] | None = None, *, problems: list[str] | None = None) -> list[CameraInfo]:
    """Every device the producers see, one producer at a time (so each row names its producer). With
    `problems`, a producer that cannot be loaded is noted there and the others are still listed."""
    producers = find_producers(cti)
    if not producers:
        raise no_producer_error()
    Harvester = _harvesters()
    rows: list[CameraInfo] = []
    for producer in producers:
        harvester = Harvester()
        try:
            harvester.add_file(str(producer), check_existence=True)
            harvester.update()
            if not getattr(harvester, "_producers", [True]):  # harvesters logs a producer it cannot open and goes on
                raise RuntimeError("not a GenTL producer this process can load")
            rows += [_info(info, str(producer)) for info in harvester.device_info_list]
        except Exception as exc:
            error = SourceError(f"the GenTL producer {producer} could not be loaded",
                                found=str(exc).splitlines()[0] if str(exc) else type(exc).__name__,
                                hint="a producer for another architecture or a broken SDK install")
            if problems is None:
                raise error from None
            problems.append(f"{error.message} ({error.found})")
        finally:
            harvester.reset()
    return rows


def _keeping_ctrl_c(create: Callable[[], Any]) -> Any:
    """harvesters' acquirer takes over SIGINT on the main thread and answers Ctrl-C by destroying itself, which
    the source took for a lost camera and re-found: Ctrl-C never stopped the headless station. The station's
    own handler is put back."""
    if threading.current_thread() is not threading.main_thread():
        return create()
    previous = signal.getsignal(signal.SIGINT)
    try:
        return create()
    finally:
        signal.signal(signal.SIGINT, previous)


def _incomplete_counter(source: CameraSource) -> Any:
    """harvesters' INCOMPLETE_BUFFER callback (it must subclass harvesters' Callback, imported lazily): the
    producer's incomplete buffer was dropped and re-queued; count it."""
    from harvesters.core import Callback

    class IncompleteCounter(Callback):
        def emit(self, context: object = None) -> None:
            source.counts.incomplete += 1

    return IncompleteCounter()


class GenICamSource(CameraSource):
    kind = "genicam"

    def __init__(self, camera_id: str, settings: CameraSettings | None = None, *,
                 cti: Iterable[str | Path] | None = None) -> None:
        self.producers = find_producers(cti)
        if not self.producers:
            raise no_producer_error()
        self.description = f"GenICam camera {camera_id}"
        self.acquirer: Any = None  # harvesters' ImageAcquirer while connected
        self._harvester: Any = None
        super().__init__(camera_id, settings)

    def _open_impl(self) -> None:
        if self._harvester is None:
            harvester = _harvesters()()
            for producer in self.producers:
                harvester.add_file(str(producer), check_existence=True)
            self._harvester = harvester
        self._harvester.update()
        infos = [_info(info, "") for info in self._harvester.device_info_list]
        index = next((i for i, info in enumerate(infos) if _matches(info, self.camera_id)), None)
        if index is None:
            seen = ", ".join(f"{i.model} {i.serial}" for i in infos) or "no cameras"
            raise SourceError(f"no camera {self.camera_id!r}", expected="a serial number, user id or model the "
                              "producers list", found=seen, hint="run `hangtag-inspect cameras` to see what is there")
        self.acquirer = _keeping_ctrl_c(lambda: self._harvester.create(index))
        self.acquirer.add_callback(self.acquirer.Events.INCOMPLETE_BUFFER, _incomplete_counter(self))

    def _start_impl(self) -> None:
        self.acquirer.num_buffers = max(self.acquirer.num_buffers, STREAM_BUFFERS)
        self.acquirer.start()

    def _close_impl(self, *, gone: bool = False) -> None:
        acquirer, self.acquirer = self.acquirer, None
        if acquirer is None:
            return
        for step in (acquirer.stop, acquirer.destroy):
            try:
                step()
            except Exception:  # the device is gone already; nothing left to release on it
                pass

    def close(self) -> None:
        super().close()
        if self._harvester is not None:
            self._harvester.reset()
            self._harvester = None

    @property
    def nodes(self) -> _Nodes:
        if self.acquirer is None:
            raise CameraLost(f"{self.description} is not connected")
        return _Nodes(self.acquirer.remote_device.node_map)

    @contextmanager
    def _fetch_impl(self, timeout_s: float) -> Iterator[RawFrame | None]:
        from genicam.gentl import TimeoutException

        acquirer = self.acquirer
        if acquirer is None:
            raise CameraLost(f"{self.description} is not connected")
        try:
            buffer = acquirer.fetch(timeout=timeout_s)
        except TimeoutException:
            buffer = None
        except Exception as exc:  # an invalid handle, a device error: the camera is gone
            raise CameraLost(f"{self.description} stopped delivering",
                             found=str(exc).splitlines()[0] if str(exc) else type(exc).__name__) from None
        if buffer is None:
            yield None
            return
        try:
            component = buffer.payload.components[0]
            yield RawFrame(component.data, component.data_format, int(component.width), int(component.height),
                           int(buffer.frame_id))
        finally:
            buffer.queue()


class _Nodes:
    """harvesters' node map as settings.NodeMap: a node the camera lacks is simply not there."""

    def __init__(self, node_map: Any) -> None:
        self._map = node_map

    def has(self, name: str) -> bool:
        try:
            node = getattr(self._map, name)
        except Exception:
            return False
        try:
            from genicam.genapi import EAccessMode

            return node.node.get_access_mode() not in (EAccessMode.NI, EAccessMode.NA)
        except Exception:
            return True

    def read(self, name: str) -> Any:
        return getattr(self._map, name).value

    def write(self, name: str, value: Any) -> None:
        getattr(self._map, name).value = value

    def execute(self, name: str) -> None:
        getattr(self._map, name).execute()
