"""The VLM adapter against a chat-completions server started here, on 127.0.0.1."""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import numpy as np
import pytest

from inference.reading.types import FieldReading, TagReading
from inference.reading.vlm import VlmClient, VlmError, chat_completions_url, parse_answer

Reply = Callable[[dict], tuple[int, str, float]]  # request body → (status, body, delay_s)


def completion(content: str) -> str:
    return json.dumps({"id": "x", "object": "chat.completion", "choices": [{"index": 0, "message": {"role": "assistant", "content": content}}]})


@contextmanager
def server(reply: Reply) -> Iterator[tuple[str, list[dict]]]:
    seen: list[dict] = []

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self) -> None:  # noqa: N802 - http.server's naming
            body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
            seen.append({"path": self.path, "body": body, "auth": self.headers.get("Authorization")})
            status, text, delay = reply(body)
            time.sleep(delay)
            data = text.encode()
            try:
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            except (BrokenPipeError, ConnectionResetError):
                pass

        def log_message(self, *args: object) -> None:
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", seen
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join(timeout=5)


def image() -> np.ndarray:
    return np.full((120, 60, 3), 230, np.uint8)


def ocr_tag(**fields: tuple[str, float]) -> TagReading:
    readings = {name: FieldReading(name, value, conf, "ocr", value) for name, (value, conf) in fields.items()}
    return TagReading(0, (0, 0, 60, 120), readings, notes=("from ocr",))


def test_request_is_an_openai_chat_completion_with_the_image_inline() -> None:
    with server(lambda body: (200, completion('{"size": "L"}'), 0)) as (url, seen):
        answer = VlmClient(url, "qwen2.5-vl", timeout_s=5, budget_ms=5000, api_key="k").read(image())
    request = seen[0]
    assert request["path"] == "/v1/chat/completions"
    assert request["auth"] == "Bearer k"
    assert request["body"]["model"] == "qwen2.5-vl"
    content = request["body"]["messages"][0]["content"]
    assert content[0]["type"] == "text" and "style_number" in content[0]["text"]
    assert content[1]["image_url"]["url"].startswith("data:image/jpeg;base64,")
    assert answer.fields == {"size": "L"}


def test_vlm_fills_missing_and_weak_fields_and_leaves_strong_ones() -> None:
    content = '```json\n{"size": "XL", "price": "￥259", "color": "黑色", "style_number": "AB2301-05"}\n```'
    with server(lambda body: (200, completion(content), 0)) as (url, _):
        tag = ocr_tag(price=("¥259.00", 0.5), color=("藏青", 0.99), style_number=("AB23O1-05", 0.6))
        refined = VlmClient(url, "m", timeout_s=5, budget_ms=5000).refine(tag, image())
    assert refined.fields["size"] == FieldReading("size", "XL", 0.9, "vlm", "XL")
    assert (refined.fields["price"].value, refined.fields["price"].source, refined.fields["price"].confidence) == ("¥259.00", "vlm", 0.9)
    assert refined.fields["color"].value == "藏青" and refined.fields["color"].source == "ocr"
    assert refined.fields["style_number"].value == "AB2301-05"
    assert refined.notes[0] == "from ocr" and refined.notes[-1].startswith("VLM read ")
    assert "vlm" in refined.timings_ms


@pytest.mark.parametrize(
    ("reply", "note"),
    [
        (lambda body: (200, completion("I cannot read this tag."), 0), "VLM failed: VLM answer holds no JSON object"),
        (lambda body: (200, completion('{"size": "L",'), 0), "VLM failed: VLM answer is not valid JSON"),
        (lambda body: (200, '{"unexpected": true}', 0), "VLM failed: VLM response is not a chat completion"),
        (lambda body: (200, "<html>", 0), "VLM failed: VLM response is not a chat completion"),
        (lambda body: (404, '{"error": "model not found"}', 0), "VLM failed: VLM endpoint answered HTTP 404"),
        (lambda body: (200, completion('{"size": "L"}'), 1.5), "VLM failed: VLM timed out after 0.3 s"),
    ],
)
def test_on_failure_the_ocr_result_stands_with_a_note(reply: Reply, note: str) -> None:
    with server(reply) as (url, _):
        tag = ocr_tag(size=("M", 0.4))
        start = time.perf_counter()
        refined = VlmClient(url, "m", timeout_s=0.3, budget_ms=5000).refine(tag, image())
        elapsed = time.perf_counter() - start
    assert refined.fields == tag.fields
    assert refined.notes[-1].startswith(note)
    assert refined.notes[-1].endswith("OCR result stands")
    assert elapsed < 1.2


def test_the_budget_bounds_the_call_even_with_a_long_timeout() -> None:
    with server(lambda body: (200, completion('{"size": "L"}'), 1.0)) as (url, _):
        client = VlmClient(url, "m", timeout_s=30, budget_ms=250)
        with pytest.raises(VlmError, match="timed out after 0.2 s"):
            client.read(image())


def test_unreachable_endpoint_is_a_vlm_error() -> None:
    with server(lambda body: (200, "", 0)) as (url, _):
        pass  # closed again: nothing listens on that port now
    with pytest.raises(VlmError, match="unreachable|timed out"):
        VlmClient(url, "m", timeout_s=1, budget_ms=1000).read(image())


@pytest.mark.parametrize(
    ("content", "fields"),
    [
        ('{"size": "L", "price": 259}', {"size": "L", "price": "259"}),
        ('Sure! ```json\n{"尺码": "XL", "货号": "AB1"}\n``` hope that helps', {"size": "XL", "style_number": "AB1"}),
        ('{"size": null, "color": "", "grade": "合格品", "extra": "x"}', {"grade": "合格品"}),
        ('prefix {"brand": "HEMU"} suffix {"brand": "other"}', {"brand": "HEMU"}),
    ],
)
def test_parse_answer_tolerates_fences_chinese_keys_and_chatter(content: str, fields: dict[str, str]) -> None:
    assert parse_answer(content) == fields


@pytest.mark.parametrize(
    ("url", "endpoint"),
    [
        ("http://gpu:8000", "http://gpu:8000/v1/chat/completions"),
        ("http://gpu:8000/v1/", "http://gpu:8000/v1/chat/completions"),
        ("http://gpu:8000/v1/chat/completions", "http://gpu:8000/v1/chat/completions"),
    ],
)
def test_url_forms(url: str, endpoint: str) -> None:
    assert chat_completions_url(url) == endpoint


def test_non_http_url_is_refused() -> None:
    with pytest.raises(VlmError, match="http"):
        VlmClient("ftp://x", "m")
