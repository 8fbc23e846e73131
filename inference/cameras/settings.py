"""Camera settings by GenICam SFNC node name: applied where the camera has the node, read back from it, and
reported as unavailable (never an error) where it has not."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Protocol
from urllib.parse import parse_qsl, quote

from inference.errors import ConfigError

TRIGGER_MODES = ("free", "software", "hardware")
ACTIVATIONS = ("RisingEdge", "FallingEdge", "AnyEdge", "LevelHigh", "LevelLow")


class NodeMap(Protocol):
    """The few node operations the station needs, over harvesters' or Aravis's node map."""

    def has(self, name: str) -> bool: ...

    def read(self, name: str) -> Any: ...

    def write(self, name: str, value: Any) -> None: ...

    def execute(self, name: str) -> None: ...


@dataclass(frozen=True)
class Trigger:
    mode: str = "free"  # free-run, software (TriggerSoftware per trigger()), hardware (an input line)
    source: str = "Line1"  # hardware only
    activation: str = "RisingEdge"  # hardware only
    folder: str = ""  # software only: each file that arrives in this folder is one trigger (cameras.folder_trigger)

    def __post_init__(self) -> None:
        if self.mode not in TRIGGER_MODES:
            raise ConfigError("unknown trigger mode", expected=" / ".join(TRIGGER_MODES), found=self.mode)
        if self.activation not in ACTIVATIONS:
            raise ConfigError("unknown trigger activation", expected=" / ".join(ACTIVATIONS), found=self.activation)
        if self.folder and self.mode != "software":
            raise ConfigError("a trigger folder needs the software trigger", expected="trigger=software",
                              found=f"trigger={self.mode}", hint="files in the folder fire the camera's TriggerSoftware")


@dataclass(frozen=True)
class CameraSettings:
    """What the job asks of the camera; None leaves the camera's own value."""

    exposure_us: float | None = None
    gain: float | None = None
    pixel_format: str | None = None
    roi: tuple[int, int, int, int] | None = None  # x, y, width, height
    frame_rate: float | None = None
    trigger: Trigger = field(default_factory=Trigger)

    @classmethod
    def from_query(cls, query: str) -> CameraSettings:
        """'exposure_us=5000&gain=2&pixel_format=BayerRG8&roi=0,0,640,480&frame_rate=30&trigger=software'
        (the part of a `genicam:SERIAL?…` spec after '?'); `cti=` is the producer's, not a setting."""
        values: dict[str, Any] = {}
        trigger: dict[str, str] = {}
        for key, text in parse_qsl(query, keep_blank_values=True):
            try:
                if key in ("exposure_us", "gain", "frame_rate"):
                    values[key] = float(text)
                elif key == "pixel_format":
                    values[key] = text
                elif key == "roi":
                    x, y, w, h = (int(v) for v in text.split(","))
                    values[key] = (x, y, w, h)
                elif key in ("trigger", "trigger_source", "trigger_activation", "trigger_folder"):
                    trigger[{"trigger": "mode", "trigger_source": "source", "trigger_activation": "activation",
                             "trigger_folder": "folder"}[key]] = text
                elif key != "cti":
                    raise ConfigError(f"unknown camera setting {key!r}", found=key,
                                      expected="exposure_us, gain, pixel_format, roi, frame_rate, trigger, "
                                               "trigger_source, trigger_activation, trigger_folder or cti")
            except ValueError:
                raise ConfigError(f"camera setting {key} not understood", found=text,
                                  expected="a number (roi: X,Y,WIDTH,HEIGHT)") from None
        return cls(**values, trigger=Trigger(**trigger))

    def to_query(self) -> str:
        """The inverse of from_query: what a job or the last session keeps in its source spec."""
        parts = [f"{key}={float(getattr(self, key))!r}" for key in ("exposure_us", "gain", "frame_rate")
                 if getattr(self, key) is not None]
        if self.pixel_format is not None:
            parts.append(f"pixel_format={self.pixel_format}")
        if self.roi is not None:
            parts.append("roi=" + ",".join(str(v) for v in self.roi))
        if self.trigger.mode != "free":
            parts.append(f"trigger={self.trigger.mode}")
        if self.trigger.mode == "hardware":
            parts += [f"trigger_source={self.trigger.source}", f"trigger_activation={self.trigger.activation}"]
        if self.trigger.folder:
            parts.append(f"trigger_folder={quote(self.trigger.folder, safe='/:')}")
        return "&".join(parts)


# Each setting, and the nodes that can hold it: the SFNC name first, then older names cameras still use.
NODES: dict[str, tuple[str, ...]] = {
    "exposure_us": ("ExposureTime", "ExposureTimeAbs"),
    "gain": ("Gain", "GainAbs", "GainRaw"),
    "pixel_format": ("PixelFormat",),
    "frame_rate": ("AcquisitionFrameRate", "AcquisitionFrameRateAbs"),
    "offset_x": ("OffsetX",),
    "offset_y": ("OffsetY",),
    "width": ("Width",),
    "height": ("Height",),
    "trigger_mode": ("TriggerMode",),
    "trigger_source": ("TriggerSource",),
    "trigger_activation": ("TriggerActivation",),
}


@dataclass(frozen=True)
class SettingValue:
    name: str
    node: str | None  # the node that holds it on this camera; None: the camera has none
    value: Any = None
    note: str = ""  # why a requested value was not applied

    @property
    def available(self) -> bool:
        return self.node is not None


@dataclass(frozen=True)
class Readback:
    """The camera's own values after the settings were applied; what the source bar shows."""

    values: tuple[SettingValue, ...]

    def __getitem__(self, name: str) -> SettingValue:
        for value in self.values:
            if value.name == name:
                return value
        raise KeyError(name)

    @property
    def unavailable(self) -> tuple[str, ...]:
        return tuple(v.name for v in self.values if not v.available)

    @property
    def notes(self) -> tuple[str, ...]:
        return tuple(f"{v.name}: {v.note}" for v in self.values if v.note)


def node_for(nodes: NodeMap, name: str) -> str | None:
    return next((node for node in NODES[name] if nodes.has(node)), None)


def _write(nodes: NodeMap, name: str, value: Any, notes: dict[str, str]) -> None:
    node = node_for(nodes, name)
    if node is None:
        notes[name] = f"not applied: the camera has no {' / '.join(NODES[name])} node"
        return
    try:
        nodes.write(node, value)
    except Exception as exc:  # a value out of range or a locked node: reported, the camera keeps its own
        notes[name] = f"{value!r} not applied: {str(exc).splitlines()[0][:160]}"


def _trigger_writes(trigger: Trigger) -> list[tuple[str, Any]]:
    if trigger.mode == "free":
        return [("trigger_mode", "Off")]
    source = "Software" if trigger.mode == "software" else trigger.source
    writes = [("trigger_source", source)]
    if trigger.mode == "hardware":
        writes.append(("trigger_activation", trigger.activation))
    return writes + [("trigger_mode", "On")]


def apply_settings(nodes: NodeMap, settings: CameraSettings) -> Readback:
    """Writes what `settings` asks (acquisition stopped), in the order cameras need: pixel format before the
    ROI, offsets zeroed before the size grows, the trigger selector before the trigger."""
    notes: dict[str, str] = {}
    if settings.pixel_format is not None:
        _write(nodes, "pixel_format", settings.pixel_format, notes)
    if settings.roi is not None:
        x, y, w, h = settings.roi
        for name in ("offset_x", "offset_y"):  # zeroed first, so the new size fits
            if node_for(nodes, name):
                _try(nodes.write, node_for(nodes, name), 0)
        for name, value in (("width", w), ("height", h), ("offset_x", x), ("offset_y", y)):
            if value or node_for(nodes, name) or name in ("width", "height"):
                _write(nodes, name, value, notes)
    if settings.exposure_us is not None:
        if nodes.has("ExposureAuto"):
            _try(nodes.write, "ExposureAuto", "Off")
        _write(nodes, "exposure_us", settings.exposure_us, notes)
    if settings.gain is not None:
        if nodes.has("GainAuto"):
            _try(nodes.write, "GainAuto", "Off")
        _write(nodes, "gain", settings.gain, notes)
    if settings.frame_rate is not None:
        if nodes.has("AcquisitionFrameRateEnable"):
            _try(nodes.write, "AcquisitionFrameRateEnable", True)
        _write(nodes, "frame_rate", settings.frame_rate, notes)
    if nodes.has("TriggerSelector"):
        _try(nodes.write, "TriggerSelector", "FrameStart")
    for name, value in _trigger_writes(settings.trigger):
        if settings.trigger.mode != "free" or node_for(nodes, name):
            _write(nodes, name, value, notes)
    return read_back(nodes, notes)


def read_back(nodes: NodeMap, notes: dict[str, str] | None = None) -> Readback:
    values = []
    for name in NODES:
        node = node_for(nodes, name)
        value = _try(nodes.read, node) if node is not None else None
        values.append(SettingValue(name, node, value, (notes or {}).get(name, "")))
    return Readback(tuple(values))


def _try(call, *args):
    try:
        return call(*args)
    except Exception:  # an optional node the camera will not take: its own value stays
        return None
