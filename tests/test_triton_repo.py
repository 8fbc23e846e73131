"""`hangtag-inspect triton-repo`: every config.pbtxt parses as Triton's ModelConfig and keeps the model's contract."""

from __future__ import annotations

import pytest

from inference.cli import main
from inference.engines.triton.contract import local_contract
from tests.triton.server import DETECTOR

text_format = pytest.importorskip("google.protobuf.text_format", reason="protobuf comes with tritonclient[grpc]")
model_config_pb2 = pytest.importorskip("tritonclient.grpc.model_config_pb2", reason="needs tritonclient[grpc]")

DTYPE = {"float32": "TYPE_FP32", "float16": "TYPE_FP16"}


def parse(path):
    return text_format.Parse(path.read_text(), model_config_pb2.ModelConfig())


def assert_contract(config, onnx_path, max_batch):
    contract = local_contract(onnx_path)
    assert config.max_batch_size == max_batch
    for tensors, specs in ((config.input, contract.inputs), (config.output, contract.outputs)):
        assert [t.name for t in tensors] == [s.name for s in specs]
        for tensor, spec in zip(tensors, specs):
            assert tuple(tensor.dims) == spec.shape[1:]
            assert model_config_pb2.DataType.Name(tensor.data_type) == DTYPE[spec.dtype.name]


def test_repository_configs_parse_and_match_the_models(tmp_path, capsys):
    out = tmp_path / "repo"
    assert main(["triton-repo", str(out), "--max-batch", "8", "--instances", "2", "--max-queue", "32",
                 "--queue-delay-us", "1500"]) == 0
    det = parse(out / "hangtag_det" / "config.pbtxt")
    assert (det.name, det.backend) == ("hangtag_det", "onnxruntime")
    assert_contract(det, out / "hangtag_det" / "1" / "model.onnx", 8)
    assert (out / "hangtag_det" / "1" / "model.onnx").read_bytes() == DETECTOR.read_bytes()
    policy = det.dynamic_batching.default_queue_policy
    assert det.dynamic_batching.max_queue_delay_microseconds == 1500
    assert (policy.max_queue_size, policy.timeout_action) == (32, model_config_pb2.ModelQueuePolicy.REJECT)
    assert list(det.dynamic_batching.preferred_batch_size) == [4, 8]
    assert [(g.count, g.kind) for g in det.instance_group] == [(2, model_config_pb2.ModelInstanceGroup.KIND_GPU)]
    assert det.parameters["class_names"].string_value == "hangtag,barcode,qr_code"

    trt = parse(out / "hangtag_det_trt.config.pbtxt")
    assert (trt.platform, trt.default_model_filename) == ("tensorrt_plan", "model.plan")
    assert_contract(trt, out / "hangtag_det" / "1" / "model.onnx", 8)
    script = (out / "build_tensorrt_plan.sh").read_text()
    assert "--maxShapes=images:8x3x640x640" in script and "--stronglyTyped" in script

    for name in ("ocr_det", "ocr_rec"):
        config = parse(out / name / "config.pbtxt")
        assert config.name == name and config.max_batch_size > 0
        assert_contract(config, out / name / "1" / "model.onnx", config.max_batch_size)

    assert "tritonserver" in (out / "docker-compose.yml").read_text()
    readme = (out / "README.md").read_text()
    assert "docker run --rm --gpus all" in readme and "--triton-url" in readme
    assert "kubectl apply -f kubernetes.yaml" in readme and "/v2/models/hangtag_det/stats" in readme
    assert str(out / "hangtag_det" / "config.pbtxt") in capsys.readouterr().out


def test_fp16_repository_serves_the_fp16_graph(tmp_path):
    out = tmp_path / "repo16"
    assert main(["triton-repo", str(out), "--precision", "fp16", "--no-ocr", "--kind", "cpu"]) == 0
    det = parse(out / "hangtag_det" / "config.pbtxt")
    assert det.parameters["precision"].string_value == "fp16"
    assert (out / "hangtag_det" / "1" / "model.onnx").read_bytes() != DETECTOR.read_bytes()
    assert_contract(det, out / "hangtag_det" / "1" / "model.onnx", 16)
    assert det.instance_group[0].kind == model_config_pb2.ModelInstanceGroup.KIND_CPU
    assert not (out / "ocr_det").exists()


@pytest.mark.parametrize("args, words", [
    (["--max-batch", "0"], "--max-batch is out of range"),
    (["--instances", "0"], "--instances is out of range"),
])
def test_bad_values_are_errors_not_tracebacks(tmp_path, capsys, args, words):
    assert main(["triton-repo", str(tmp_path / "r"), *args]) == 2
    assert words in capsys.readouterr().err


def test_the_kubernetes_example_is_a_deployment_of_gpu_pods_ready_when_the_detector_is(tmp_path):
    yaml = pytest.importorskip("yaml")
    out = tmp_path / "repo"
    assert main(["triton-repo", str(out), "--no-ocr"]) == 0
    deployment, service = yaml.safe_load_all((out / "kubernetes.yaml").read_text())
    assert (deployment["kind"], service["kind"]) == ("Deployment", "Service")
    pod = deployment["spec"]["template"]["spec"]
    container = pod["containers"][0]
    assert container["readinessProbe"]["httpGet"]["path"] == "/v2/models/hangtag_det/ready"
    assert container["resources"]["limits"] == {"nvidia.com/gpu": 1}
    assert "--model-repository=/models" in container["args"]
    assert {m["mountPath"] for m in container["volumeMounts"]} == {"/models", "/dev/shm"}
    assert service["spec"]["selector"] == deployment["spec"]["selector"]["matchLabels"]
    assert [p["port"] for p in service["spec"]["ports"]] == [8000, 8001]
