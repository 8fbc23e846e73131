"""The station's GB 2312 recognizer as a trainable PyTorch graph, and back to ONNX.

The station already runs its ONNX files with PyTorch node by node (`inference/reading/ocr/torch_graph.py`,
checked against ONNX Runtime in tests/test_ocr_torch.py); here the same interpreter's float initializers become
parameters. BatchNormalization keeps its running statistics (the interpreter runs it in inference mode) and
they are not trained. The export writes the trained values into a copy of the original ONNX file: the same
nodes, input (N x 3 x 48 x W), output (probabilities) and metadata (`character`), FP32.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from inference.reading.ocr.recognizer import charset_from_metadata
from inference.reading.ocr.torch_graph import TorchGraph


class TrainableRecognizer(TorchGraph):
    def __init__(self, model_path: Path, device: str = "cuda") -> None:
        import onnx

        super().__init__(model_path, device=device, conv_as_matmul=False)
        model = onnx.load(str(model_path))
        frozen = {name for node in model.graph.node if node.op_type == "BatchNormalization" for name in node.input[3:5]}
        self.trainable: dict[str, object] = {}
        for name, value in self.consts.items():
            if value.is_floating_point() and value.device.type == self.device.type and value.numel() > 1 and name not in frozen:
                self.consts[name] = value = value.clone().requires_grad_(True)
                self.trainable[name] = value
        self.charset = charset_from_metadata(self.metadata)
        self.index = {c: i for i, c in enumerate(self.charset) if i > 0}
        last = [i for i, (op, _inputs, outputs, _k) in enumerate(self.nodes) if outputs == self.output_names]
        self._softmax_at = last[0]
        assert self.nodes[self._softmax_at][0].__name__ == "_op_Softmax", "expected the graph to end in its Softmax"

    def parameters(self) -> list:
        return list(self.trainable.values())

    def log_probs(self, batch) -> object:
        """(N, T, C) log-probabilities: the log of the output Softmax, taken from its logits for stability."""
        values = dict(self.consts)
        values[self.input_names[0]] = batch
        for index, ((op, inputs, outputs, attrs), drop) in enumerate(zip(self.nodes, self._drop_after)):
            args = [values[i] if i else None for i in inputs]
            if index == self._softmax_at:
                return self.torch.log_softmax(args[0], dim=-1)
            result = op(args, attrs)
            if not isinstance(result, tuple):
                result = (result,)
            for name, value in zip(outputs, result):
                values[name] = value
            for name in drop:
                values.pop(name, None)
        raise AssertionError("the output Softmax was never reached")

    def encode(self, text: str) -> list[int] | None:
        """CTC targets: class i of the charset (0 is blank, the last is space); None where a character has no class."""
        out = [self.index.get(ch) for ch in text]
        return None if any(c is None for c in out) else out


def export(source: Path, model: TrainableRecognizer, out: Path) -> Path:
    """A copy of `source` with the trained initializers: same graph, same contract, same metadata."""
    import onnx
    from onnx import numpy_helper

    onnx_model = onnx.load(str(source))
    for init in onnx_model.graph.initializer:
        trained = model.trainable.get(init.name)
        if trained is not None:
            array = trained.detach().float().cpu().numpy().astype(np.float32)
            init.CopyFrom(numpy_helper.from_array(array.reshape(tuple(init.dims)), init.name))
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(onnx_model, str(out))
    return out


def ort_probs(model_path: Path, batch: np.ndarray, threads: int = 4) -> np.ndarray:
    import onnxruntime as ort

    options = ort.SessionOptions()
    options.intra_op_num_threads = threads
    session = ort.InferenceSession(str(model_path), options, providers=["CPUExecutionProvider"])
    return session.run(None, {session.get_inputs()[0].name: batch})[0]


def max_diff_against_ort(model_path: Path, model: TrainableRecognizer, batches: list[np.ndarray]) -> float:
    """Largest |torch - ONNX Runtime| over the probabilities of `batches` (FP32, no TF32 on the torch side)."""
    torch = model.torch
    worst = 0.0
    tf32 = torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32
    torch.backends.cuda.matmul.allow_tf32 = torch.backends.cudnn.allow_tf32 = False
    try:
        with torch.no_grad():
            for batch in batches:
                ours = model.log_probs(torch.from_numpy(batch).to(model.device)).exp().cpu().numpy()
                worst = max(worst, float(np.abs(ours - ort_probs(model_path, batch)).max()))
    finally:
        torch.backends.cuda.matmul.allow_tf32, torch.backends.cudnn.allow_tf32 = tf32
    return worst


def restore_fp32(source: Path, out: Path) -> Path:
    """The FP32 graph back from a file whose weights are stored FP16 behind Casts (packaging/ocr_models.store_fp16):
    each `NAME__fp16` initializer read by a Cast to `NAME` becomes an FP32 initializer `NAME` again and the Cast
    goes, so the graph, input, output and metadata are the stock recognizer's, its weights rounded to FP16. The
    shipped small-print recognizer (whose FP32 candidate is gone) is trained on from this; a file without such
    Casts is copied unchanged."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(source))
    graph = model.graph
    stored = {init.name: init for init in graph.initializer}
    casts = {node.output[0]: node for node in graph.node
             if node.op_type == "Cast" and len(node.input) == 1 and node.input[0] in stored and node.input[0].endswith("__fp16")}
    inits = []
    for init in graph.initializer:
        if init.name.endswith("__fp16") and init.name[: -len("__fp16")] in casts:
            name = init.name[: -len("__fp16")]
            inits.append(numpy_helper.from_array(numpy_helper.to_array(init).astype(np.float32), name))
        else:
            inits.append(init)
    nodes = [node for node in graph.node if node.output[0] not in casts or node.op_type != "Cast"]
    del graph.initializer[:]
    graph.initializer.extend(inits)
    del graph.node[:]
    graph.node.extend(nodes)
    onnx.checker.check_model(model)
    out.parent.mkdir(parents=True, exist_ok=True)
    onnx.save(model, str(out))
    return out


def same_contract(a: Path, b: Path) -> bool:
    """The same nodes (op, inputs, outputs, attributes), initializer names and shapes, graph input/output and
    metadata: one file's weights may replace the other's."""
    import onnx

    ma, mb = onnx.load(str(a)), onnx.load(str(b))

    def nodes(m):
        return [(n.op_type, list(n.input), list(n.output), [x.SerializeToString() for x in n.attribute]) for n in m.graph.node]

    def inits(m):
        return sorted((i.name, tuple(i.dims), i.data_type) for i in m.graph.initializer)

    return (nodes(ma) == nodes(mb) and inits(ma) == inits(mb)
            and [i.SerializeToString() for i in ma.graph.input] == [i.SerializeToString() for i in mb.graph.input]
            and [o.SerializeToString() for o in ma.graph.output] == [o.SerializeToString() for o in mb.graph.output]
            and {p.key: p.value for p in ma.metadata_props} == {p.key: p.value for p in mb.metadata_props})
