"""`genicam:CAMERA?setting=value&…` and `aravis:CAMERA?…` source specs → an open camera source."""

from __future__ import annotations

from inference.cameras.acquisition import CameraSource
from inference.cameras.settings import CameraSettings
from inference.errors import SourceError


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
