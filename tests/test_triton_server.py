"""The triton backend against a real tritonserver on loopback (the nvidia-pytriton wheel's binary,
prepared by tests/triton/setup_triton.sh; skipped with the reason where it cannot be fetched)."""

from __future__ import annotations

import json
import threading

import numpy as np
import pytest

from inference.cli import main
from inference.engines.onnxrt import OnnxRuntimeEngine
from inference.engines.triton import TritonEngine, TritonUnavailableError
from inference.engines.triton.contract import ContractMismatchError
from inference.engines.triton.stats import batch_sizes
from inference.imageio import list_images, read_image
from inference.pipeline import Pipeline
from inference.preprocess import Letterboxer
from inference.resources import samples_dir
from tests.triton.server import DETECTOR, free_port, prepared_or_skip, repository_copy
from tests.triton.server import started_or_skip as started

pytestmark = pytest.mark.timeout(300)


@pytest.fixture(scope="module")
def prepared():
    return prepared_or_skip()


@pytest.fixture(scope="module")
def server(prepared):
    with started(prepared) as running:
        yield running


def test_the_station_inspects_through_triton_named_by_the_environment(server, monkeypatch):
    from inference.inspection import Inspector

    monkeypatch.setenv("HANGTAG_TRITON_URL", server.url)
    path = list_images(samples_dir())[1]
    with Inspector.open(DETECTOR, "triton", read=False) as inspector:
        result = inspector.inspect_image(read_image(path), source_name=path.name)
        assert inspector.pipeline.backend == "triton"
        assert inspector.pipeline.engine.device_name == f"Triton {server.url}"
    with Pipeline.open(DETECTOR, "onnxruntime-cpu", threads=1) as local:
        expected = local.process(read_image(path)).detections
    assert result.ok and len(result.detections) == len(expected) > 0
    np.testing.assert_allclose(result.detections.xyxy, expected.xyxy, atol=0.05)


def sample_tensors(count: int) -> list[np.ndarray]:
    tensors = []
    for path in list_images(samples_dir())[:count]:
        letterbox = Letterboxer((640, 640))
        letterbox(read_image(path))
        tensors.append(letterbox.tensor.copy())
    return tensors


def local_outputs(tensors: list[np.ndarray]) -> list[np.ndarray]:
    with OnnxRuntimeEngine(DETECTOR, threads=1) as local:
        return [local.infer({"images": t})["output0"] for t in tensors]


def test_samples_through_triton_give_the_local_engines_boxes(server):
    paths = list_images(samples_dir())[:6]
    remote = Pipeline(TritonEngine(DETECTOR, urls=server.url).load())
    local = Pipeline.open(DETECTOR, "onnxruntime-cpu", threads=1)
    with remote, local:
        for path in paths:
            image = read_image(path)
            theirs, ours = remote.process(image), local.process(image)
            assert len(theirs.detections) == len(ours.detections) > 0, path.name
            np.testing.assert_array_equal(theirs.detections.class_id, ours.detections.class_id)
            np.testing.assert_allclose(theirs.detections.xyxy, ours.detections.xyxy, atol=0.05)
            assert {"network", "server_queue", "infer"} <= set(theirs.timings.stages_ms)
        assert remote.backend == "triton" and remote.engine.last_server == server.url
        assert remote.class_names == ("hangtag", "barcode", "qr_code")


def test_grpc_gives_the_same_output_as_http(server):
    tensor = sample_tensors(1)[0]
    with TritonEngine(DETECTOR, urls=server.url) as http, TritonEngine(DETECTOR, urls=server.grpc_url) as grpc:
        np.testing.assert_array_equal(http.infer({"images": tensor})["output0"], grpc.infer({"images": tensor})["output0"])


def test_a_batch_goes_in_one_call_and_comes_back_in_order(server):
    tensors = sample_tensors(3)
    with TritonEngine(DETECTOR, urls=server.url) as engine:
        out = engine.infer({"images": np.concatenate(tensors)})["output0"]
    expected = local_outputs(tensors)
    assert out.shape == (3, 7, 8400)
    for got, want in zip(out, expected):
        np.testing.assert_allclose(got, want[0], atol=1e-3)


def test_cli_run_through_triton(server, capsys, monkeypatch):
    monkeypatch.setenv("HANGTAG_TRITON_URL", "")  # --triton-url sets it for the process; restored after
    source = list_images(samples_dir())[0]
    assert main(["run", "--source", str(source), "--backend", "triton", "--triton-url", server.url]) == 0
    out = capsys.readouterr()
    frame = json.loads(out.out.splitlines()[0])
    assert frame["ok"] and frame["detections"] and "server_queue" in frame["timings_ms"]
    assert '"backend": "triton"' in out.err


def test_cli_without_a_server_says_so_and_exits_2(capsys, monkeypatch):
    monkeypatch.setenv("HANGTAG_TRITON_URL", "")
    url = f"http://127.0.0.1:{free_port()}"
    code = main(["run", "--source", str(samples_dir()), "--backend", "triton", "--triton-url", url])
    err = capsys.readouterr().err
    assert code == 2 and err.startswith("error: no Triton server is ready") and url in err


def test_dynamic_batching_shows_in_the_servers_statistics(server):
    tensor = sample_tensors(1)[0]
    engines = [TritonEngine(DETECTOR, urls=server.url).load() for _ in range(4)]
    try:
        for _ in range(3):  # concurrent requests within the 20 ms queue delay are batched
            start = threading.Barrier(len(engines))

            def one(engine):
                start.wait()
                engine.infer({"images": tensor})

            threads = [threading.Thread(target=one, args=(e,)) for e in engines]
            [t.start() for t in threads]
            [t.join(60) for t in threads]
            sizes = batch_sizes(engines[0].server_statistics())
            if max(sizes) > 1:
                break
        assert max(sizes) > 1, sizes
    finally:
        for engine in engines:
            engine.close()


def test_a_full_queue_answers_503_and_the_engine_backs_off_until_served(prepared, tmp_path):
    import tritonclient.http as http
    from tritonclient.utils import InferenceServerException

    repo = repository_copy(tmp_path, max_queue_size=1, max_batch=1, delay_us=0)
    tensor = sample_tensors(1)[0]
    with started(prepared, repository=repo, delay_ms=200) as busy:
        statuses = []

        def raw():
            client = http.InferenceServerClient(busy.url.removeprefix("http://"), network_timeout=30)
            request = http.InferInput("images", list(tensor.shape), "FP32")
            request.set_data_from_numpy(tensor, binary_data=True)
            try:
                client.infer("hangtag_det", [request])
                statuses.append("200")
            except InferenceServerException as exc:
                statuses.append(str(exc.status()))

        threads = [threading.Thread(target=raw) for _ in range(5)]
        [t.start() for t in threads]
        [t.join(60) for t in threads]
        assert "503" in statuses and "200" in statuses, statuses

        for url in (busy.url, busy.grpc_url):  # gRPC says UNAVAILABLE "Exceeds maximum queue size"
            engines = [TritonEngine(DETECTOR, urls=url, deadline_ms=30000).load() for _ in range(4)]
            results = []
            threads = [threading.Thread(target=lambda e=e: results.append(e.infer({"images": tensor})["output0"]))
                       for e in engines]
            [t.start() for t in threads]
            [t.join(90) for t in threads]
            assert len(results) == 4, url  # every frame served in the end
            assert sum(e.busy_answers for e in engines) >= 1, url
            assert any("retry_wait" in e.last_stage_ns for e in engines if e.busy_answers)
            for engine in engines:
                engine.close()


def test_a_server_killed_mid_run_fails_over_and_no_frame_is_lost(prepared):
    tensors = sample_tensors(4)
    expected = local_outputs(tensors)
    events = []
    with started(prepared) as first, started(prepared) as second:
        servers = {first.url: first, second.url: second}
        with TritonEngine(DETECTOR, urls=f"{first.url},{second.url}", on_event=events.append) as engine:
            answered = []
            for i in range(7):
                if i == 3:
                    victim = engine.pool.peek()  # the server frame 3 goes to
                    servers[victim].kill()
                out = engine.infer({"images": tensors[i % 4]})["output0"]
                np.testing.assert_allclose(out, expected[i % 4], atol=1e-3)
                answered.append(engine.last_server)
    survivor = next(url for url in servers if url != victim)
    assert answered[3:] == [survivor] * 4
    assert [(e.kind, e.url) for e in events][:1] == [("server_down", victim)]
    assert "retry_wait" in engine.last_stage_ns or engine.retries >= 1


def test_a_hung_server_costs_frames_time_but_none_is_lost(prepared):
    tensors = sample_tensors(2)
    expected = local_outputs(tensors)
    with started(prepared) as first, started(prepared) as second:
        servers = {first.url: first, second.url: second}
        with TritonEngine(DETECTOR, urls=f"{first.url},{second.url}", deadline_ms=3000) as engine:
            engine.infer({"images": tensors[0]})
            victim = engine.pool.peek()  # the server the next frame goes to
            servers[victim].freeze()
            answered = []
            for i in range(3):
                out = engine.infer({"images": tensors[i % 2]})["output0"]
                np.testing.assert_allclose(out, expected[i % 2], atol=1e-3)
                answered.append(engine.last_server)
            events = [(e.kind, e.url) for e in engine.events]
    assert answered == [next(url for url in servers if url != victim)] * 3
    assert events[:1] == [("server_down", victim)]


def test_two_servers_one_slow_most_frames_go_to_the_fast_one(prepared, server):
    tensor = sample_tensors(1)[0]
    with started(prepared, delay_ms=800) as slow:
        with TritonEngine(DETECTOR, urls=f"{slow.url},{server.url}") as engine:
            for _ in range(6):
                engine.infer({"images": tensor})
            served = {url: state.requests for url, state in engine.pool.servers.items()}
    assert served[server.url] >= 5 and served[slow.url] <= 1, served


def test_no_server_with_local_fallback_keeps_inspecting(caplog):
    url = f"http://127.0.0.1:{free_port()}"
    with pytest.raises(TritonUnavailableError) as info:
        TritonEngine(DETECTOR, urls=url).load()
    assert url in str(info.value) and "HANGTAG_TRITON_FALLBACK" in str(info.value)
    tensor = sample_tensors(1)[0]
    events = []
    with TritonEngine(DETECTOR, urls=url, fallback=True, on_event=events.append) as engine:
        out = engine.infer({"images": tensor})["output0"]
        assert engine.last_server == "local"
    np.testing.assert_allclose(out, local_outputs([tensor])[0], atol=1e-4)
    assert [e.kind for e in events] == ["server_down", "all_down", "fallback_local"]
    assert f"triton server_down: {url}" in caplog.text and "triton fallback_local" in caplog.text


def test_a_server_with_another_model_is_refused_naming_both_sides(server, tmp_path):
    model = tmp_path / "other.onnx"
    model.write_bytes(DETECTOR.read_bytes())
    model.with_suffix(".json").write_text(json.dumps({"names": ["tag", "code", "qr"]}))
    with pytest.raises(ContractMismatchError) as info:
        TritonEngine(model, urls=server.url).load()
    text = str(info.value)
    assert "local: tag, code, qr" in text and "server: hangtag, barcode, qr_code" in text


def test_the_ocr_models_read_the_same_text_through_triton(prepared, monkeypatch):
    from inference.reading import TagReader
    from inference.reading.ocr.models import find_ocr_models
    from tests.triton.server import OCR_REPOSITORY

    models = find_ocr_models("fp32", "gb2312")
    ocr_env = {"HANGTAG_TRITON_OCR_DET": str(models.det), "HANGTAG_TRITON_OCR_REC": str(models.rec)}
    path = list_images(samples_dir())[0]
    image = read_image(path)
    with Pipeline.open(DETECTOR, "onnxruntime-cpu", threads=1) as local:
        detections = local.process(image).detections
    with TagReader.open("onnxruntime-cpu", 1, models=models) as reader:
        expected = reader.read(image, detections)
    with started(prepared, repository=OCR_REPOSITORY, extra_env=ocr_env) as ocr_server:
        monkeypatch.setenv("HANGTAG_TRITON_URL", ocr_server.url)
        with TagReader.open("triton", models=models) as reader:
            assert (reader.detector.engine.model_name, reader.recognizer.engine.model_name) == ("ocr_det", "ocr_rec")
            got = reader.read(image, detections)
    texts = [[line.text for line in r.ocr_lines] for r in expected]
    assert sum(len(t) for t in texts) > 0
    assert [[line.text for line in r.ocr_lines] for r in got] == texts
