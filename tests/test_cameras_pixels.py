"""Producer buffers → BGR frames, and camera settings from a spec: no camera needed."""

from __future__ import annotations

import numpy as np
import pytest

from inference.cameras.pixels import to_bgr
from inference.cameras.settings import CameraSettings, Trigger
from inference.errors import ConfigError, SourceError

RED = (0, 0, 200)  # BGR


def red_mosaic(pattern: str, h: int = 6, w: int = 6) -> np.ndarray:
    """A pure red scene as the sensor sees it through a `pattern` colour filter array (RGGB, GRBG, …)."""
    mosaic = np.zeros((h, w), np.uint8)
    row, col = divmod(pattern.index("R"), 2)
    mosaic[row::2, col::2] = 200
    return mosaic


@pytest.mark.parametrize("pattern", ["RGGB", "GRBG", "GBRG", "BGGR"])
def test_bayer_formats_debayer_to_the_colour_the_sensor_saw(pattern):
    pixel_format = f"Bayer{pattern[0]}{pattern[1]}8"
    image = to_bgr(red_mosaic(pattern).reshape(-1), pixel_format, 6, 6, None)
    assert image.shape == (6, 6, 3) and tuple(image[2, 2]) == RED


@pytest.mark.parametrize(("pixel_format", "raw", "expected"), [
    ("Mono8", [7], (7, 7, 7)),
    ("RGB8", [1, 2, 3], (3, 2, 1)),
    ("BGR8", [1, 2, 3], (1, 2, 3)),
    ("RGBa8", [1, 2, 3, 255], (3, 2, 1)),
    ("BGRa8", [1, 2, 3, 255], (1, 2, 3)),
])
def test_each_format_lands_in_the_given_frame(pixel_format, raw, expected):
    raw = np.array(raw * 4 + [99] * 5, np.uint8)  # a 2x2 image, then chunk data the producer appends
    out = np.zeros((2, 2, 3), np.uint8)
    image = to_bgr(raw, pixel_format, 2, 2, out)
    assert image is out and all(tuple(px) == expected for px in out.reshape(-1, 3))


def test_a_frame_of_another_size_is_not_written_into():
    out = np.zeros((4, 4, 3), np.uint8)
    image = to_bgr(np.full(4, 9, np.uint8), "Mono8", 2, 2, out)
    assert image is not out and image.shape == (2, 2, 3) and not out.any()


@pytest.mark.parametrize(("pixel_format", "raw_size", "message"), [
    ("Mono16", 8, "pixel format Mono16 is not supported"),
    ("RGB8", 5, "the camera delivered a short image"),
])
def test_unusable_buffers_say_what_was_expected(pixel_format, raw_size, message):
    with pytest.raises(SourceError, match=message) as caught:
        to_bgr(np.zeros(raw_size, np.uint8), pixel_format, 2, 2, None)
    assert caught.value.expected


@pytest.mark.parametrize(("query", "expected"), [
    ("", CameraSettings()),
    ("exposure_us=5000&gain=2.5", CameraSettings(exposure_us=5000.0, gain=2.5)),
    ("pixel_format=BayerRG8&roi=8,4,640,480&frame_rate=30",
     CameraSettings(pixel_format="BayerRG8", roi=(8, 4, 640, 480), frame_rate=30.0)),
    ("trigger=hardware&trigger_source=Line2&trigger_activation=FallingEdge",
     CameraSettings(trigger=Trigger("hardware", "Line2", "FallingEdge"))),
    ("cti=/opt/vendor.cti&trigger=software", CameraSettings(trigger=Trigger("software"))),
    ("trigger=software&trigger_folder=/srv/line%201/triggers",
     CameraSettings(trigger=Trigger("software", folder="/srv/line 1/triggers"))),
])
def test_settings_from_a_spec(query, expected):
    assert CameraSettings.from_query(query) == expected


@pytest.mark.parametrize(("query", "message"), [
    ("exposure_us=fast", "camera setting exposure_us not understood"),
    ("roi=1,2,3", "camera setting roi not understood"),
    ("trigger=sometimes", "unknown trigger mode"),
    ("trigger=hardware&trigger_activation=Sideways", "unknown trigger activation"),
    ("shutter=4", "unknown camera setting 'shutter'"),
    ("trigger_folder=/srv/triggers", "a trigger folder needs the software trigger"),
])
def test_bad_settings_say_what_was_expected(query, message):
    with pytest.raises(ConfigError, match=message) as caught:
        CameraSettings.from_query(query)
    assert caught.value.expected


@pytest.mark.parametrize("settings", [
    CameraSettings(),
    CameraSettings(exposure_us=5000.0, gain=2.5, frame_rate=29.97, pixel_format="BayerRG8", roi=(8, 4, 640, 480)),
    CameraSettings(trigger=Trigger("software")),
    CameraSettings(exposure_us=120.5, trigger=Trigger("hardware", "Line3", "FallingEdge")),
    CameraSettings(trigger=Trigger("software", folder="/srv/line 1/a+b&c")),
])
def test_settings_survive_the_trip_through_a_saved_spec(settings):
    assert CameraSettings.from_query(settings.to_query()) == settings
