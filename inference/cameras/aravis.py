"""GigE Vision (and USB3 Vision) cameras through Aravis 0.8's GObject bindings: `aravis:SERIAL`.

The stream fills buffers the source allocates (numpy arrays handed to Aravis by address), so a frame is
read from the producer's memory without Aravis's own copy; converting it into a lent frame is the one
host copy. A dead GigE camera makes Aravis block for seconds per register access, so nothing that may
touch one runs on the station's thread: the camera is looked for with a 0.1 s GVCP discovery probe first,
and an old connection is stopped on a thread of its own.
"""

from __future__ import annotations

import ipaddress
import socket
import struct
import threading
from contextlib import contextmanager
from typing import Any, Iterator

import numpy as np

from inference.cameras.acquisition import CameraLost, CameraSource, RawFrame
from inference.cameras.genicam import CameraInfo
from inference.cameras.settings import CameraSettings
from inference.errors import BackendUnavailableError, SourceError

GVCP_PORT = 3956
STREAM_BUFFERS = 8


def _aravis() -> Any:
    try:
        import gi

        gi.require_version("Aravis", "0.8")
        from gi.repository import Aravis
    except (ImportError, ValueError) as exc:
        raise BackendUnavailableError("GigE Vision through Aravis needs Aravis 0.8 and PyGObject",
                                      expected="gir1.2-aravis-0.8 and PyGObject", found=str(exc),
                                      hint="apt install gir1.2-aravis-0.8 libgirepository1.0-dev; "
                                           "pip install 'PyGObject<3.51'") from None
    return Aravis


def gvcp_discover(address: str, timeout_s: float = 0.1) -> dict[str, str] | None:
    """A GigE Vision camera's discovery answer (manufacturer, model, serial) from its own address, or None:
    the quick 'is it back?' before a connect that would block for seconds on a dead one."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as sock:
        sock.settimeout(timeout_s)
        try:
            sock.sendto(struct.pack(">BBHHH", 0x42, 0x11, 0x0002, 0, 1), (address, GVCP_PORT))
            data, _ = sock.recvfrom(1024)
        except OSError:
            return None
    if len(data) < 8 + 0xE8 or struct.unpack(">HH", data[:4]) != (0, 0x0003):
        return None

    def text(offset: int, size: int) -> str:
        return data[8 + offset:8 + offset + size].split(b"\0")[0].decode("ascii", "replace")

    return {"manufacturer": text(0x48, 32), "model": text(0x68, 32), "serial": text(0xD8, 16)}


def _is_ip(text: str) -> bool:
    try:
        ipaddress.ip_address(text)
    except ValueError:
        return False
    return True


def _devices() -> list[CameraInfo]:
    Aravis = _aravis()
    Aravis.update_device_list()  # a GigE discovery: about a second
    rows = []
    for i in range(Aravis.get_n_devices()):
        address = Aravis.get_device_address(i) or ""
        protocol = Aravis.get_device_protocol(i) or ""
        status = ("reachable" if gvcp_discover(address) else "listed, not answering") \
            if protocol == "GigEVision" and _is_ip(address) else "reachable"
        rows.append(CameraInfo(Aravis.get_device_vendor(i) or "", Aravis.get_device_model(i) or "",
                               Aravis.get_device_serial_nbr(i) or "", "", f"{protocol} {address}".strip(), status,
                               "Aravis 0.8", Aravis.get_device_id(i) or ""))
    return rows


def list_cameras() -> list[CameraInfo]:
    return _devices()


class AravisSource(CameraSource):
    kind = "aravis"

    def __init__(self, camera_id: str, settings: CameraSettings | None = None) -> None:
        self.description = f"GigE Vision camera {camera_id}"
        self.camera: Any = None
        self._stream: Any = None
        self._arrays: dict[Any, np.ndarray] = {}  # each Aravis buffer → the array it fills
        self._address = camera_id if _is_ip(camera_id) else ""
        self._device_id = ""
        super().__init__(camera_id, settings)

    def _resolve(self) -> str:
        if self._address:
            return self._address
        if self._device_id:
            return self._device_id
        rows = _devices()
        match = next((r for r in rows if self.camera_id in (r.serial, r.device_id, r.model)), None)
        if match is None:
            seen = ", ".join(f"{r.model} {r.serial}" for r in rows) or "no cameras"
            raise SourceError(f"no camera {self.camera_id!r}", expected="a serial number, device id, model or IP "
                              "address Aravis lists", found=seen, hint="run `hangtag-inspect cameras --aravis`")
        self._device_id = match.device_id
        protocol, _, address = match.interface.partition(" ")
        if protocol == "GigEVision" and _is_ip(address):
            self._address = address  # reconnects go straight to it, after a quick discovery probe
        return self._address or self._device_id

    def _reachable(self) -> bool:
        return gvcp_discover(self._address) is not None if self._address else True

    def _open_impl(self) -> None:
        Aravis = _aravis()
        target = self._resolve()
        try:
            self.camera = Aravis.Camera.new(target)
        except Exception as exc:
            raise SourceError(f"cannot open {self.description}", found=str(exc).splitlines()[0],
                              hint="check the cable and that no other program holds the camera") from None

    def _start_impl(self) -> None:
        Aravis = _aravis()
        camera = self.camera
        payload = int(camera.get_payload())
        self._format = camera.get_pixel_format_as_string()
        stream = camera.create_stream(None, None)
        arrays: dict[Any, np.ndarray] = {}
        for _ in range(STREAM_BUFFERS):
            array = np.empty(payload, np.uint8)
            buffer = Aravis.Buffer.new(payload, array.ctypes.data)  # Aravis writes into the array itself
            arrays[buffer] = array
            stream.push_buffer(buffer)
        self._stream, self._arrays = stream, arrays
        camera.start_acquisition()

    def _close_impl(self, *, gone: bool = False) -> None:
        camera, stream, arrays = self.camera, self._stream, self._arrays
        self.camera, self._stream, self._arrays = None, None, {}
        if camera is None:
            return

        def release() -> None:  # may take seconds on a dead camera: never on the station's thread
            nonlocal camera, stream
            if not gone:
                try:
                    camera.stop_acquisition()
                except Exception:  # gone after all; there is nothing left to stop on it
                    pass
            stream = None  # the stream's thread ends here, before the arrays it writes into go
            arrays.clear()
            camera = None

        threading.Thread(target=release, name=f"release {self.description}", daemon=True).start()

    @property
    def nodes(self) -> _Nodes:
        if self.camera is None:
            raise CameraLost(f"{self.description} is not connected")
        return _Nodes(self.camera.get_device())

    @contextmanager
    def _fetch_impl(self, timeout_s: float) -> Iterator[RawFrame | None]:
        stream = self._stream
        if stream is None:
            raise CameraLost(f"{self.description} is not connected")
        buffer = stream.timeout_pop_buffer(int(timeout_s * 1e6))
        if buffer is None:
            yield None
            return
        try:
            if buffer.get_status() != _aravis().BufferStatus.SUCCESS:
                self.counts.incomplete += 1
                yield None
                return
            yield RawFrame(self._arrays[buffer], self._format, int(buffer.get_image_width()),
                           int(buffer.get_image_height()), int(buffer.get_frame_id()))
        finally:
            stream.push_buffer(buffer)


class _Nodes:
    """Aravis's device features as settings.NodeMap."""

    def __init__(self, device: Any) -> None:
        self._device = device
        self._Aravis = _aravis()

    def _feature(self, name: str) -> Any:
        return self._device.get_feature(name)

    def has(self, name: str) -> bool:
        feature = self._feature(name)
        if feature is None:
            return False
        try:
            return bool(feature.is_available())
        except Exception:
            return True

    def read(self, name: str) -> Any:
        kind = self._kind(name)
        return getattr(self._device, f"get_{kind}_feature_value")(name)

    def write(self, name: str, value: Any) -> None:
        kind = self._kind(name)
        cast = {"string": str, "float": float, "integer": int, "boolean": bool}[kind]
        getattr(self._device, f"set_{kind}_feature_value")(name, cast(value))

    def execute(self, name: str) -> None:
        self._device.execute_command(name)

    def _kind(self, name: str) -> str:
        Aravis, feature = self._Aravis, self._feature(name)
        if feature is None:
            raise SourceError(f"the camera has no {name} node")
        for kind, interface in (("string", Aravis.GcEnumeration), ("boolean", Aravis.GcBoolean),
                                ("float", Aravis.GcFloat), ("integer", Aravis.GcInteger),
                                ("string", Aravis.GcString)):
            if isinstance(feature, interface):
                return kind
        raise SourceError(f"the camera's {name} node is of a kind the station does not set",
                          found=type(feature).__name__)
