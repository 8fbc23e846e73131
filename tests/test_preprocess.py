from __future__ import annotations

import numpy as np
import pytest

from inference.preprocess import PAD_VALUE, Letterboxer, plan_letterbox

SIZES = [(1, 1), (1, 4000), (4000, 1), (480, 640), (1080, 1920), (37, 1013), (640, 640), (6000, 8000)]


@pytest.mark.parametrize("source_hw", SIZES)
@pytest.mark.parametrize("input_hw", [(640, 640), (320, 480)])
def test_box_round_trip_lands_within_half_a_pixel(source_hw, input_hw):
    rng = np.random.default_rng(source_hw[0] * 7 + source_hw[1])
    transform, _ = plan_letterbox(source_hw, input_hw)
    h, w = source_hw
    x = np.sort(rng.uniform(0, w, size=(50, 2)), axis=1)
    y = np.sort(rng.uniform(0, h, size=(50, 2)), axis=1)
    boxes = np.stack([x[:, 0], y[:, 0], x[:, 1], y[:, 1]], axis=1).astype(np.float32)
    back = transform.to_original(transform.to_input(boxes))
    assert np.abs(back - boxes).max() <= 0.5


@pytest.mark.parametrize("source_hw", SIZES)
def test_content_lands_where_the_transform_says(source_hw):
    """A marked pixel region maps onto the canvas at the transform's coordinates (within a pixel)."""
    h, w = source_hw
    if min(h, w) < 8:
        pytest.skip("too thin to hold a marker")
    image = np.zeros((h, w, 3), np.uint8)
    x1, y1, x2, y2 = w // 4, h // 4, w // 2, h // 2
    image[y1:y2, x1:x2] = 255
    box = Letterboxer((640, 640))
    transform = box(image)
    mapped = transform.to_input(np.array([[x1, y1, x2, y2]], np.float32))[0]
    bright = np.argwhere(box.tensor[0, 0] > 0.9)
    (ty1, tx1), (ty2, tx2) = bright.min(0), bright.max(0) + 1
    assert np.allclose([tx1, ty1, tx2, ty2], mapped, atol=1.5)


def test_letterbox_pads_with_114_rgb_order_and_scales_to_unit_range():
    image = np.zeros((100, 200, 3), np.uint8)
    image[..., 0] = 10  # B
    image[..., 2] = 250  # R
    box = Letterboxer((64, 64))
    transform = box(image)
    assert transform.pad_y == 16 and transform.pad_x == 0
    t = box.tensor[0]
    assert t.dtype == np.float32 and t.shape == (3, 64, 64)
    assert np.isclose(t[0, 32, 32], 250 / 255) and np.isclose(t[2, 32, 32], 10 / 255)  # R first
    assert np.allclose(t[:, 0, :], PAD_VALUE / 255)


def test_buffer_is_reused_not_reallocated():
    box = Letterboxer((64, 64))
    tensor = box.tensor
    address = tensor.__array_interface__["data"][0]
    for shape in [(10, 10, 3), (100, 30, 3), (64, 64, 3)]:
        box(np.full(shape, 200, np.uint8))
    assert box.tensor is tensor and box.tensor.__array_interface__["data"][0] == address


def test_float16_engine_gets_float16_input():
    box = Letterboxer((32, 32), dtype=np.float16)
    box(np.full((10, 10, 3), 255, np.uint8))
    assert box.tensor.dtype == np.float16 and box.tensor.max() == 1.0


def test_minimal_padding_aligns_canvas_to_stride():
    transform, (rh, rw) = plan_letterbox((480, 640), (640, 640), stride=32, minimal_pad=True)
    assert (rh, rw) == (480, 640) and transform.input_hw == (480, 640)


def test_boxes_reaching_into_the_padding_are_clipped_to_the_image():
    transform, _ = plan_letterbox((1080, 1920), (640, 640))
    back = transform.to_original(np.array([[-10, -50, 700, 900]], np.float32))
    assert back.tolist() == [[0, 0, 1920, 1080]]
