"""Blend two detectors of one architecture weight by weight (as WiSE-FT does for a model and its fine-tune):

    python -m training.interpolate --base resources/models/hangtag_det.onnx --tuned runs/neg2a/hangtag_det.onnx \\
        --alpha 0.5 --out runs/blend/hangtag_det.onnx

Every floating-point initializer becomes (1 - alpha) * base + alpha * tuned; the graph, the integer
constants and the metadata are the base model's. Both files must come from the same export (same graph,
same initializer names and shapes): a fine-tune of the base, exported by `training.model.export`.
A blend sits between the two on most sets, and often keeps more of the base's behaviour on scenes
the fine-tune did not cover than the fine-tune does.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
import onnx
from onnx import numpy_helper


def blend(base: onnx.ModelProto, tuned: onnx.ModelProto, alpha: float) -> onnx.ModelProto:
    if [n.op_type for n in base.graph.node] != [n.op_type for n in tuned.graph.node]:
        raise ValueError("the two models' graphs differ: blend only a model and its own fine-tune")
    theirs = {i.name: numpy_helper.to_array(i) for i in tuned.graph.initializer}
    out = onnx.ModelProto()
    out.CopyFrom(base)
    for init in out.graph.initializer:
        mine = numpy_helper.to_array(init)
        other = theirs.get(init.name)
        if other is None or other.shape != mine.shape:
            raise ValueError(f"initializer {init.name}: {mine.shape} in the base, "
                             f"{None if other is None else other.shape} in the fine-tune")
        if np.issubdtype(mine.dtype, np.floating):
            mixed = ((1 - alpha) * mine.astype(np.float64) + alpha * other.astype(np.float64)).astype(mine.dtype)
            init.CopyFrom(numpy_helper.from_array(mixed, init.name))
        elif not np.array_equal(mine, other):
            raise ValueError(f"integer initializer {init.name} differs between the models")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m training.interpolate", description=__doc__.splitlines()[0])
    parser.add_argument("--base", type=Path, required=True)
    parser.add_argument("--tuned", type=Path, required=True)
    parser.add_argument("--alpha", type=float, required=True, help="0: the base, 1: the fine-tune")
    parser.add_argument("--out", type=Path, required=True)
    args = parser.parse_args(argv)
    if not 0.0 <= args.alpha <= 1.0:
        parser.error(f"--alpha must lie in [0, 1], got {args.alpha}")
    model = blend(onnx.load(str(args.base)), onnx.load(str(args.tuned)), args.alpha)
    onnx.checker.check_model(model)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(args.out))
    print(f"wrote {args.out}: {1 - args.alpha:g} x {args.base.name} + {args.alpha:g} x {args.tuned}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
