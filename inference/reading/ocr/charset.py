"""Restrict the recognizer's output to the characters a hangtag can carry.

PP-OCRv6's recognizer chooses among 18 708 characters (simplified and traditional Chinese,
Japanese kana, Latin scripts). Mainland hangtags are printed in GB 2312 simplified characters,
ASCII and the usual full-width punctuation; keeping only those columns of the classifier's last
matrix (7 230 of 18 710 classes) stops look-alike traditional forms (櫥 for 橱) from winning and
makes the head 2.6x smaller. The cut is exact for every kept character: its logit is unchanged.
"""

from __future__ import annotations

import json
from pathlib import Path

from inference.errors import ModelError

EXTRA = "¥￥°±×÷·—–‘’“”…‰、。〈〉《》「」『』【】〔〕！＂＃＄％＆＇（）＊＋，－．／：；＜＝＞？＠［＼］＾＿｀｛｜｝～"


def gb2312_charset() -> frozenset[str]:
    chars = {chr(c) for c in range(0x20, 0x7F)} | set(EXTRA)
    for b1 in range(0xA1, 0xF8):
        for b2 in range(0xA1, 0xFF):
            try:
                chars.add(bytes([b1, b2]).decode("gb2312"))
            except UnicodeDecodeError:
                pass
    return frozenset(chars)


def _classifier(graph) -> tuple[object, object]:
    """The last MatMul + Add before the output Softmax: (weight, bias) initializers."""
    inits = {t.name: t for t in graph.initializer}
    producers = {out: node for node in graph.node for out in node.output}
    node = producers.get(graph.output[0].name)
    seen = 0
    weight = bias = None
    while node is not None and seen < 8 and (weight is None or bias is None):
        if node.op_type == "Add" and bias is None:
            bias = next((inits[i] for i in node.input if i in inits), None)
        if node.op_type in ("MatMul", "Gemm") and weight is None:
            weight = next((inits[i] for i in node.input if i in inits), None)
        node = next((producers[i] for i in node.input if i in producers), None)
        seen += 1
    if weight is None or bias is None:
        raise ModelError("recognizer head not found", expected="MatMul + Add + Softmax at the output", found="another layout")
    return weight, bias


def restrict_charset(source: Path, out: Path, keep: frozenset[str]) -> Path:
    import numpy as np
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(source))
    meta = {p.key: p.value for p in model.metadata_props}
    if "character" not in meta:
        raise ModelError("recognizer has no character list", expected="'character' metadata", found=str(sorted(meta)))
    chars = meta["character"].split("\n")
    kept = [i for i, c in enumerate(chars) if c in keep]
    columns = [0] + [i + 1 for i in kept] + [len(chars) + 1]  # blank, kept characters, space
    weight, bias = _classifier(model.graph)
    w = numpy_helper.to_array(weight)
    b = numpy_helper.to_array(bias)
    if w.shape[-1] != len(chars) + 2:
        raise ModelError("recognizer head does not match its character list", expected=f"{len(chars) + 2} classes", found=str(w.shape))
    weight.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(w[..., columns]), weight.name))
    bias.CopyFrom(numpy_helper.from_array(np.ascontiguousarray(b[..., columns]), bias.name))
    for prop in model.metadata_props:
        if prop.key == "character":
            prop.value = "\n".join(chars[i] for i in kept)
    dims = model.graph.output[0].type.tensor_type.shape.dim
    dims[-1].ClearField("dim_param")
    dims[-1].dim_value = len(columns)
    del model.graph.value_info[:]
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))
    return out


def restricted_rec(source: Path, folder: Path) -> Path:
    """The GB 2312 copy of `source`, built on first use and rebuilt when `source` changes."""
    from inference.reading.ocr.models import cached_copy_ok, sha256, sidecar_path

    out = folder / f"{source.stem}.gb2312.onnx"
    side = sidecar_path(out)
    digest = sha256(source)
    if cached_copy_ok(out, digest):  # a corrupt copy is deleted there and built again here
        return out
    keep = gb2312_charset()
    restrict_charset(source, out, keep)
    side.write_text(
        json.dumps({"source": source.name, "source_sha256": digest, "sha256": sha256(out), "charset": "GB 2312 + ASCII + full-width punctuation", "precision": "fp32"}, indent=2) + "\n",
        encoding="utf-8",
    )
    return out
