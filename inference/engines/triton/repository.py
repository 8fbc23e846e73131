"""Writes a Triton model repository for production: the detector for the onnxruntime backend, the
PP-OCR det/rec pair, a TensorRT plan entry to build on the GPU server, and how to serve it all.

The detector's config names the knobs Triton's dynamic batcher needs: a bounded queue that REJECTs
(HTTP 503 / UNAVAILABLE, which the station's triton backend treats as back-pressure) instead of an
unbounded wait. Class names go into the config's parameters so the station can check them.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from inference.engines.base import TensorSpec
from inference.engines.triton.contract import OCR_DET, OCR_REC, ModelContract, local_contract
from inference.errors import ConfigError

PRECISIONS = ("fp32", "fp16", "int8")
_TYPES = {"float32": "TYPE_FP32", "float16": "TYPE_FP16", "float64": "TYPE_FP64", "uint8": "TYPE_UINT8",
          "int8": "TYPE_INT8", "int32": "TYPE_INT32", "int64": "TYPE_INT64", "bool": "TYPE_BOOL"}
TRITON_IMAGE = "nvcr.io/nvidia/tritonserver:25.01-py3"


@dataclass(frozen=True)
class Batching:
    max_batch: int = 16
    instances: int = 1
    kind: str = "KIND_GPU"
    max_queue_delay_us: int = 2000
    max_queue_size: int = 64
    queue_timeout_us: int = 0  # 0: a queued request waits until served; REJECT applies to a full queue

    def __post_init__(self) -> None:
        for name, value, low in (("--max-batch", self.max_batch, 1), ("--instances", self.instances, 1),
                                 ("--max-queue", self.max_queue_size, 1), ("--queue-delay-us", self.max_queue_delay_us, 0)):
            if value < low:
                raise ConfigError(f"{name} is out of range", expected=f">= {low}", found=str(value))
        if self.kind not in ("KIND_GPU", "KIND_CPU"):
            raise ConfigError("unknown instance kind", expected="KIND_GPU | KIND_CPU", found=self.kind)


def _quote(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _tensor_block(specs: tuple[TensorSpec, ...], batched: bool) -> str:
    entries = []
    for spec in specs:
        dims = spec.shape[1:] if batched else spec.shape
        dtype = _TYPES.get(spec.dtype.name)
        if dtype is None:
            raise ConfigError(f"tensor '{spec.name}' has a type Triton configs cannot name",
                              expected=", ".join(_TYPES), found=spec.dtype.name)
        entries.append(f"  {{\n    name: {_quote(spec.name)}\n    data_type: {dtype}\n"
                       f"    dims: [ {', '.join(str(d) for d in dims)} ]\n  }}")
    return "[\n" + ",\n".join(entries) + "\n]"


def model_config(name: str, contract: ModelContract, batching: Batching, *, backend: str = "onnxruntime",
                 platform: str = "", parameters: dict[str, str] | None = None, default_model: str = "") -> str:
    """config.pbtxt text (protobuf text format of Triton's ModelConfig)."""
    batched = batching.max_batch > 0 and all(s.shape and s.shape[0] < 0 for s in contract.inputs + contract.outputs)
    lines = [f"name: {_quote(name)}",
             f"platform: {_quote(platform)}" if platform else f"backend: {_quote(backend)}",
             f"max_batch_size: {batching.max_batch if batched else 0}"]
    if default_model:
        lines.append(f"default_model_filename: {_quote(default_model)}")
    lines += [f"input {_tensor_block(contract.inputs, batched)}", f"output {_tensor_block(contract.outputs, batched)}"]
    if batched:
        preferred = sorted({b for b in (batching.max_batch // 2, batching.max_batch) if b > 1})
        queue = (f"  default_queue_policy {{\n    max_queue_size: {batching.max_queue_size}\n"
                 f"    timeout_action: REJECT\n    default_timeout_microseconds: {batching.queue_timeout_us}\n"
                 f"    allow_timeout_override: true\n  }}")
        pref = f"  preferred_batch_size: [ {', '.join(map(str, preferred))} ]\n" if preferred else ""
        lines.append(f"dynamic_batching {{\n{pref}  max_queue_delay_microseconds: {batching.max_queue_delay_us}\n"
                     f"{queue}\n}}")
    lines.append(f"instance_group [\n  {{\n    count: {batching.instances}\n    kind: {batching.kind}\n  }}\n]")
    for key, value in (parameters or {}).items():
        lines.append(f"parameters {{\n  key: {_quote(key)}\n  value: {{ string_value: {_quote(value)} }}\n}}")
    return "\n".join(lines) + "\n"


def _write_model(out: Path, name: str, source: Path, config: str, filename: str = "model.onnx") -> Path:
    folder = out / name
    (folder / "1").mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, folder / "1" / filename)
    (folder / "config.pbtxt").write_text(config, encoding="utf-8")
    return folder


def write_repository(out: Path, detector: Path, *, precision: str = "fp32", batching: Batching = Batching(),
                     ocr: bool = True, detector_name: str = "hangtag_det") -> list[Path]:
    """Write the repository into `out`; returns the model folders written."""
    if precision not in PRECISIONS:
        raise ConfigError("unknown precision", expected=" | ".join(PRECISIONS), found=precision)
    out.mkdir(parents=True, exist_ok=True)
    source = detector
    if precision != "fp32":
        from inference.precision.prepare import prepare_model

        # Precision is a property of the ONNX graph; INT8 uses the symmetric flavour GPUs run.
        source = Path(prepare_model(detector, precision, "tensorrt" if precision == "int8" else "onnxruntime-cuda"))
    contract = local_contract(source)
    params = {"class_names": ",".join(contract.class_names), "precision": precision,
              "source_model": detector.name}
    written = [_write_model(out, detector_name, source,
                            model_config(detector_name, contract, batching, parameters=params))]
    trt = model_config(f"{detector_name}_trt", contract, batching, platform="tensorrt_plan",
                       parameters=params, default_model="model.plan")
    (out / f"{detector_name}_trt.config.pbtxt").write_text(trt, encoding="utf-8")
    (out / "build_tensorrt_plan.sh").write_text(_trt_script(detector_name, contract, batching), encoding="utf-8")
    (out / "build_tensorrt_plan.sh").chmod(0o755)
    if ocr:
        written += _write_ocr(out, batching)
    (out / "docker-compose.yml").write_text(_compose(), encoding="utf-8")
    (out / "kubernetes.yaml").write_text(_kubernetes(detector_name), encoding="utf-8")
    (out / "README.md").write_text(_readme(detector_name, precision, batching, [p.name for p in written]),
                                   encoding="utf-8")
    return written


def _write_ocr(out: Path, batching: Batching) -> list[Path]:
    from inference.reading.ocr.models import find_ocr_models

    models = find_ocr_models("auto")
    written = []
    for name, path in ((OCR_DET, models.det), (OCR_REC, models.rec)):
        contract = local_contract(path)
        ocr_batching = Batching(max_batch=min(batching.max_batch, 8 if name == OCR_DET else 32),
                                instances=batching.instances, kind=batching.kind,
                                max_queue_delay_us=batching.max_queue_delay_us, max_queue_size=batching.max_queue_size)
        written.append(_write_model(out, name, path, model_config(name, contract, ocr_batching,
                                                                  parameters={"ocr_version": models.describe()})))
    return written


def _shape_arg(contract: ModelContract, batch: int) -> str:
    return ",".join(f"{s.name}:{batch}x" + "x".join(str(d) for d in s.shape[1:]) for s in contract.inputs)


def _trt_script(name: str, contract: ModelContract, batching: Batching) -> str:
    return f"""#!/bin/sh
# Builds the TensorRT plan for {name}_trt on the GPU that will serve it (a plan is tied to the GPU and
# TensorRT version), inside NVIDIA's tritonserver container, which carries trtexec:
#   docker run --rm --gpus all -v "$PWD":/models {TRITON_IMAGE} sh /models/build_tensorrt_plan.sh
# The graph's own precision decides the plan's (strongly typed network), as in the station.
set -e
cd "$(dirname "$0")"
mkdir -p {name}_trt/1
/usr/src/tensorrt/bin/trtexec --onnx={name}/1/model.onnx --saveEngine={name}_trt/1/model.plan --stronglyTyped \\
  --minShapes={_shape_arg(contract, 1)} --optShapes={_shape_arg(contract, max(1, batching.max_batch // 2))} \\
  --maxShapes={_shape_arg(contract, batching.max_batch)}
cp {name}_trt.config.pbtxt {name}_trt/config.pbtxt
"""


def _compose() -> str:
    return f"""# docker compose up  (needs the NVIDIA Container Toolkit on the GPU server)
services:
  triton:
    image: {TRITON_IMAGE}
    command: ["tritonserver", "--model-repository=/models", "--strict-readiness=true", "--exit-on-error=false"]
    ports: ["8000:8000", "8001:8001", "8002:8002"]
    volumes: ["./:/models:ro"]
    shm_size: 1g
    deploy:
      resources:
        reservations:
          devices: [{{driver: nvidia, count: all, capabilities: [gpu]}}]
    healthcheck:
      test: ["CMD", "curl", "-sf", "localhost:8000/v2/health/ready"]
      interval: 10s
"""


def _kubernetes(name: str) -> str:
    return f"""# An example for a GPU cluster (not run by the project's tests): one Triton pod per GPU node, the
# repository on a read-only volume. Fill the volume with this folder (e.g. kubectl cp into a pod that
# mounts it), then: kubectl apply -f kubernetes.yaml
apiVersion: apps/v1
kind: Deployment
metadata:
  name: hangtag-triton
spec:
  replicas: 2
  selector:
    matchLabels: {{app: hangtag-triton}}
  template:
    metadata:
      labels: {{app: hangtag-triton}}
    spec:
      containers:
        - name: triton
          image: {TRITON_IMAGE}
          args: ["tritonserver", "--model-repository=/models", "--strict-readiness=true", "--exit-on-error=false"]
          ports:
            - {{containerPort: 8000, name: http}}
            - {{containerPort: 8001, name: grpc}}
            - {{containerPort: 8002, name: metrics}}
          readinessProbe:
            httpGet: {{path: /v2/models/{name}/ready, port: http}}
            periodSeconds: 5
          livenessProbe:
            httpGet: {{path: /v2/health/live, port: http}}
            periodSeconds: 10
          resources:
            limits: {{nvidia.com/gpu: 1}}
          volumeMounts:
            - {{name: models, mountPath: /models, readOnly: true}}
            - {{name: shm, mountPath: /dev/shm}}
      volumes:
        - name: models
          persistentVolumeClaim: {{claimName: hangtag-models, readOnly: true}}
        - name: shm
          emptyDir: {{medium: Memory, sizeLimit: 1Gi}}
---
# One NodePort per protocol. A single URL lets Kubernetes spread connections; listing each node's URL
# (--triton-url http://node1:30800,http://node2:30800) lets the station pick the least-loaded server and
# fail over itself, with its journal saying which server went down.
apiVersion: v1
kind: Service
metadata:
  name: hangtag-triton
spec:
  type: NodePort
  externalTrafficPolicy: Local
  selector: {{app: hangtag-triton}}
  ports:
    - {{name: http, port: 8000, nodePort: 30800}}
    - {{name: grpc, port: 8001, nodePort: 30801}}
"""


def _readme(name: str, precision: str, batching: Batching, models: list[str]) -> str:
    return f"""# Hangtag Station model repository for Triton Inference Server

Written by `hangtag-inspect triton-repo`: models {', '.join(models)}; detector precision {precision};
dynamic batching up to {batching.max_batch}, queue delay {batching.max_queue_delay_us} µs, queue bounded at
{batching.max_queue_size} requests (a full queue answers 503 / UNAVAILABLE, which the station treats as
back-pressure); {batching.instances} instance(s) per device ({batching.kind}).

## Serve it on a GPU server

    docker compose up -d                      # this folder's docker-compose.yml
    # or
    docker run --rm --gpus all -p 8000:8000 -p 8001:8001 -p 8002:8002 -v "$PWD":/models \\
        {TRITON_IMAGE} tritonserver --model-repository=/models --exit-on-error=false
    # or, on a Kubernetes cluster with the NVIDIA device plugin (see the file's comments)
    kubectl apply -f kubernetes.yaml

Check it serves (the station does the same on connect, and compares the model's tensors):

    curl -sf gpu1:8000/v2/health/ready && curl -s gpu1:8000/v2/models/{name}/ready -o /dev/null -w '%{{http_code}}\\n'
    curl -s gpu1:8000/v2/models/{name}/stats      # queue / compute ns and the batch sizes formed
    curl -s gpu1:8002/metrics | grep nv_inference_queue_duration_us

Optional TensorRT plan (on the serving GPU): `sh build_tensorrt_plan.sh` inside the same container
writes `{name}_trt/`; then point the station at model `{name}_trt` (HANGTAG_TRITON_MODEL).

## Point the stations at it

    hangtag-inspect run --source DIR --backend triton --triton-url http://gpu1:8000,http://gpu2:8000
    HANGTAG_TRITON_URL=http://gpu1:8000 hangtag-station --backend triton    # the GUI

Add `HANGTAG_TRITON_FALLBACK=local` to keep inspecting on the station's own engine while no server
answers. The station checks on connect that `{name}` has the local model's tensors and class names.
"""
