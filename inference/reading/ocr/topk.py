"""A copy of the PP-OCR recognizer that also outputs each step's few most likely classes (ONNX TopK).

Greedy CTC needs only the best class per step and, for the runners-up, the next two: computed where the
network runs, the host copies (N, T, 3) numbers instead of (N, T, 7 232) and skips the argmax over them.
The full distribution stays an output too, fetched only when a caller asks for posteriors (verification).
Built once into the cache beside the source, with a sidecar naming the source's hash.
"""

from __future__ import annotations

import json
from pathlib import Path

from inference.errors import ModelError
from inference.reading.ocr.recognizer import ALTERNATIVES

TOP_K = ALTERNATIVES + 1
TOP_P, TOP_I = "top_p", "top_i"


def add_top_classes(source: Path, out: Path, k: int = TOP_K) -> Path:
    import onnx
    from onnx import TensorProto, helper

    model = onnx.load(str(source))
    if len(model.graph.output) != 1:
        raise ModelError("recognizer has an unexpected output layout", expected="one (N, T, classes) output",
                         found=f"{len(model.graph.output)} outputs")
    probs = model.graph.output[0].name
    k_name = "top_classes_k"
    model.graph.initializer.append(helper.make_tensor(k_name, TensorProto.INT64, [1], [k]))
    model.graph.node.append(helper.make_node("TopK", [probs, k_name], [TOP_P, TOP_I], axis=-1, largest=1, sorted=1,
                                             name="top_classes"))
    model.graph.output.append(helper.make_tensor_value_info(TOP_P, TensorProto.FLOAT, ["N", "T", k]))
    model.graph.output.append(helper.make_tensor_value_info(TOP_I, TensorProto.INT64, ["N", "T", k]))
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))
    return out


def recognizer_with_top_classes(source: Path, folder: Path | None = None) -> Path:
    """The TopK copy of `source` in `folder` (default: the OCR cache), built on first use and rebuilt when
    `source` changes."""
    from inference.reading.ocr.models import cached_copy_ok, int8_dir, sha256, sidecar_path

    folder = folder or int8_dir()
    out = folder / f"{Path(source).stem}.top{TOP_K}.onnx"
    digest = sha256(source)
    if cached_copy_ok(out, digest):
        return out
    add_top_classes(Path(source), out)
    sidecar_path(out).write_text(json.dumps({"source": Path(source).name, "source_sha256": digest, "sha256": sha256(out),
                                             "outputs": [TOP_P, TOP_I], "k": TOP_K}, indent=2) + "\n", encoding="utf-8")
    return out
