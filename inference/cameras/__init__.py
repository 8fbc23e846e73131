"""Industrial cameras (GigE Vision, USB3 Vision) behind the station's source protocol.

Two backends share one acquisition loop (`acquisition.CameraSource`): `genicam` drives any GenTL producer
(.cti) through harvesters, `aravis` drives GigE Vision / USB3 Vision cameras through Aravis's GObject
bindings. Both import their library lazily: importing this package needs neither.
"""

from __future__ import annotations

from inference.cameras.acquisition import CameraLost, CameraSource
from inference.cameras.settings import CameraSettings, Trigger

__all__ = ["CameraLost", "CameraSettings", "CameraSource", "Trigger"]
