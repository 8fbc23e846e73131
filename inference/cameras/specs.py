"""`genicam:CAMERA?setting=value&…` and `aravis:CAMERA?…` source specs → an open camera source, and a spec's
settings replaced (what the camera settings dialog and each job's saved settings do)."""

from __future__ import annotations

from inference.cameras.acquisition import CameraSource
from inference.cameras.settings import CameraSettings
from inference.errors import HangtagError, SourceError


def open_camera(spec: str) -> CameraSource:
    """CAMERA is a serial number, user id or model ('genicam:' also takes `cti=PATH` among the settings;
    without it HANGTAG_GENTL_CTI and the vendors' locations are searched)."""
    kind, _, rest = spec.partition(":")
    camera_id, _, query = rest.partition("?")
    if not camera_id:
        raise SourceError(f"which {kind} camera?", expected=f"{kind}:SERIAL (or user id, or model)", found=spec,
                          hint="run `hangtag-inspect cameras` to list what is connected")
    settings = CameraSettings.from_query(query)
    if kind == "genicam":
        from inference.cameras.genicam import GenICamSource

        cti = [value for key, value in _pairs(query) if key == "cti"]
        return GenICamSource(camera_id, settings, cti=cti or None)
    from inference.cameras.aravis import AravisSource

    return AravisSource(camera_id, settings)


def _pairs(query: str) -> list[tuple[str, str]]:
    from urllib.parse import parse_qsl

    return parse_qsl(query, keep_blank_values=True)


CAMERA_KINDS = ("genicam:", "aravis:")


def is_camera_spec(spec: str) -> bool:
    return spec.startswith(CAMERA_KINDS) and bool(spec.partition(":")[2].partition("?")[0])


def camera_key(spec: str) -> str:
    """'genicam:SERIAL' of a spec: which camera, whatever it is asked to do."""
    return spec.partition("?")[0]


def settings_of(spec: str) -> CameraSettings:
    return CameraSettings.from_query(spec.partition("?")[2])


def with_settings(spec: str, settings: CameraSettings) -> str:
    """The same camera (and producer, `cti=`) with other settings."""
    base, _, query = spec.partition("?")
    kept = [f"cti={value}" for key, value in _pairs(query) if key == "cti"]
    asked = settings.to_query()
    parts = kept + ([asked] if asked else [])
    return base + ("?" + "&".join(parts) if parts else "")


def software_triggered(spec: str) -> bool:
    """Whether this spec opens a camera that sends a frame only when the station triggers it."""
    if not is_camera_spec(spec):
        return False
    try:
        return settings_of(spec).trigger.mode == "software"
    except HangtagError:  # a spec that does not open fires nothing
        return False
