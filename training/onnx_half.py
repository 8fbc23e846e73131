"""Carry a detector ONNX to a device lease at half its bytes, and rebuild it there.

The working tree sent to a lease is capped at 64 MiB; the tree, the synth fonts and one 8.8 MB detector fill it, so a
run that starts from one candidate and distils from another cannot carry both. Float initializers go as float16
(largest change on a sample frame: scores 0.007, boxes 0.6 px; enough for a starting point or a teacher, not for
shipping); the graph comes from any export of the same network (the shipped model travels with the tree):

    python -m training.onnx_half pack MODEL.onnx OUT.npz
    python -m training.onnx_half unpack GRAPH.onnx IN.npz OUT.onnx    # GRAPH: e.g. resources/models/hangtag_det.onnx
"""

from __future__ import annotations

import sys

import numpy as np
import onnx
from onnx import numpy_helper


def pack(model: str, out: str) -> None:
    arrays = {}
    for init in onnx.load(model).graph.initializer:
        a = numpy_helper.to_array(init)
        arrays[init.name] = a.astype(np.float16) if a.dtype == np.float32 else a
    np.savez(out, **arrays)


def unpack(graph: str, packed: str, out: str) -> None:
    model = onnx.load(graph)
    arrays = np.load(packed)
    for init in model.graph.initializer:
        if init.name not in arrays:
            raise SystemExit(f"expected initializer {init.name} in {packed}, found none: pack a fine-tune of {graph}'s network")
        a, b = numpy_helper.to_array(init), arrays[init.name]
        if a.shape != b.shape:
            raise SystemExit(f"initializer {init.name}: expected shape {a.shape} (from {graph}), found {b.shape}")
        if a.dtype == np.float32:
            init.CopyFrom(numpy_helper.from_array(b.astype(np.float32), init.name))
        elif not np.array_equal(a, b):
            raise SystemExit(f"integer initializer {init.name} differs from {graph}'s: not the same network")
    onnx.save(model, out)


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "pack":
        pack(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "unpack":
        unpack(*sys.argv[2:])
    else:
        raise SystemExit(__doc__)
