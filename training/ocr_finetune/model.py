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
