"""Serves the station's ONNX detector inside the pytriton wheel's tritonserver (Python backend only).

The ONNX file comes from the environment variable the config's `onnx_env` parameter names (the test
harness sets HANGTAG_TRITON_ONNX for the detector, HANGTAG_TRITON_OCR_DET / _REC for the OCR pair, whose
model.py files link here); HANGTAG_TRITON_DELAY_MS makes a "slow server", HANGTAG_TRITON_THREADS sets
ONNX Runtime's threads. So one file serves every test model and server.
"""

from __future__ import annotations

import json
import os
import sys
import time

# The stub's interpreter is isolated (PYTHONPATH is ignored): tests/triton/server.py names the
# site-packages holding numpy and onnxruntime in HANGTAG_TRITON_SITE.
sys.path[:0] = [p for p in os.environ.get("HANGTAG_TRITON_SITE", "").split(os.pathsep) if p and p not in sys.path]

import numpy as np  # noqa: E402
import onnxruntime as ort  # noqa: E402
import triton_python_backend_utils as pb_utils  # noqa: E402


class TritonPythonModel:
    def initialize(self, args: dict) -> None:
        config = json.loads(args["model_config"])
        params = {k: v["string_value"] for k, v in config.get("parameters", {}).items()}
        here = os.path.dirname(__file__)
        onnx_path = os.environ.get(params.get("onnx_env", "HANGTAG_TRITON_ONNX")) or \
            os.path.join(here, params.get("onnx_model", ""))
        self.delay_s = float(os.environ.get("HANGTAG_TRITON_DELAY_MS", params.get("delay_ms", "0"))) / 1000.0
        options = ort.SessionOptions()
        options.intra_op_num_threads = int(os.environ.get("HANGTAG_TRITON_THREADS", "1"))
        options.inter_op_num_threads = 1
        options.log_severity_level = 3
        self.session = ort.InferenceSession(onnx_path, options, providers=["CPUExecutionProvider"])
        self.input_name = self.session.get_inputs()[0].name
        self.output_name = self.session.get_outputs()[0].name

    def execute(self, requests: list) -> list:
        # One ONNX Runtime call for everything the dynamic batcher handed over, split back per request.
        batches = [pb_utils.get_input_tensor_by_name(r, self.input_name).as_numpy() for r in requests]
        sizes = [b.shape[0] for b in batches]
        if self.delay_s:
            time.sleep(self.delay_s)
        out = self.session.run([self.output_name], {self.input_name: np.concatenate(batches)})[0]
        responses, start = [], 0
        for n in sizes:
            tensor = pb_utils.Tensor(self.output_name, np.ascontiguousarray(out[start:start + n]))
            responses.append(pb_utils.InferenceResponse(output_tensors=[tensor]))
            start += n
        return responses

    def finalize(self) -> None:
        self.session = None
