"""Buffer planning from engine I/O descriptions: pure Python, no TensorRT needed."""

from __future__ import annotations

import numpy as np
import pytest

from inference.engines.tensorrt.buffers import (ALIGNMENT, BufferSpec, TensorDesc, frame_shape, numpy_dtype,
                                                plan_buffers)
from inference.errors import ModelError

F32 = np.dtype(np.float32)


def image_input(shape=(-1, 3, 640, 640), profile_max=(4, 3, 640, 640)) -> TensorDesc:
    return TensorDesc("images", True, shape, F32, profile_max)


def yolo_output(shape=(-1, 7, 8400)) -> TensorDesc:
    return TensorDesc("output0", False, shape, F32)


@pytest.mark.parametrize(("name", "dtype"), [
    ("DataType.FLOAT", np.float32), ("HALF", np.float16), ("DataType.INT8", np.int8), ("INT32", np.int32),
    ("INT64", np.int64), ("BOOL", np.bool_), ("UINT8", np.uint8),
])
def test_trt_dtype_names_map_to_numpy(name, dtype):
    assert numpy_dtype(name) == np.dtype(dtype)


@pytest.mark.parametrize("name", ["BF16", "DataType.FP8", "INT4"])
def test_types_without_numpy_equivalent_are_refused(name):
    with pytest.raises(ModelError, match="cannot feed"):
        numpy_dtype(name)


@pytest.mark.parametrize(("tensors", "max_batch", "output_shapes", "expected"), [
    # dynamic batch: the profile max for the input, batch-resolved output
    ([image_input(), yolo_output()], 4, None,
     {"images": (4, 3, 640, 640), "output0": (4, 7, 8400)}),
    # the context's resolved output shape wins over the description
    ([image_input(), yolo_output((-1, 7, -1))], 4, {"output0": (4, 7, 8400)},
     {"images": (4, 3, 640, 640), "output0": (4, 7, 8400)}),
    # fully static engine
    ([image_input((1, 3, 320, 320), None), yolo_output((1, 7, 2100))], 1, None,
     {"images": (1, 3, 320, 320), "output0": (1, 7, 2100)}),
    # no profile: the batch dimension comes from max_batch
    ([image_input((-1, 3, 64, 64), None), yolo_output((-1, 6, 64))], 2, None,
     {"images": (2, 3, 64, 64), "output0": (2, 6, 64)}),
    # a profile larger than the requested max batch is capped
    ([image_input(profile_max=(8, 3, 640, 640)), yolo_output()], 2, None,
     {"images": (2, 3, 640, 640), "output0": (2, 7, 8400)}),
])
def test_plan_sizes_every_tensor_for_the_largest_batch(tensors, max_batch, output_shapes, expected):
    plan = plan_buffers(tensors, max_batch, output_shapes)
    assert {spec.name: spec.max_shape for spec in plan} == expected
    for spec in plan:
        assert spec.nbytes == int(np.prod(spec.max_shape)) * 4
        assert spec.alloc_bytes % ALIGNMENT == 0 and spec.alloc_bytes >= spec.nbytes


@pytest.mark.parametrize(("tensors", "needle"), [
    ([image_input((-1, 3, -1, -1), None), yolo_output()], "dynamic dimensions besides the batch"),
    ([image_input(), yolo_output((-1, -1, 6))], "data-dependent shape"),
    ([image_input(), TensorDesc("images", False, (1, 2), F32)], "names repeat"),
    ([image_input()], "at least one input and one output"),
    ([yolo_output()], "at least one input and one output"),
])
def test_plans_that_cannot_be_preallocated_are_refused(tensors, needle):
    with pytest.raises(ModelError, match=needle):
        plan_buffers(tensors, 4)


def test_max_batch_must_be_positive():
    with pytest.raises(ModelError, match="positive"):
        plan_buffers([image_input(), yolo_output()], 0)


@pytest.mark.parametrize(("batch", "ok"), [(1, True), (4, True), (0, False), (5, False)])
def test_frame_shape_checks_the_batch_range(batch, ok):
    spec = BufferSpec("images", True, (4, 3, 64, 64), F32)
    if ok:
        assert frame_shape(spec, batch) == (batch, 3, 64, 64)
    else:
        with pytest.raises(ModelError, match="outside the engine's range"):
            frame_shape(spec, batch)


def test_tiny_tensors_still_get_an_aligned_allocation():
    spec = BufferSpec("score", False, (1, 1), np.dtype(np.float16))
    assert spec.nbytes == 2 and spec.alloc_bytes == ALIGNMENT
