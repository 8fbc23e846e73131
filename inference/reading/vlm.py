"""Optional vision-language reader behind an OpenAI-compatible /v1/chat/completions endpoint.

trtllm-serve, vLLM and Triton's OpenAI frontend all speak this protocol. Only the standard library
is used, so the station needs nothing extra installed to talk to one. The VLM is a second opinion
for tags the OCR left in doubt: whatever goes wrong, the OCR result stands with a visible note.
"""

from __future__ import annotations

import base64
import http.client
import json
import re
import socket
import time
import urllib.parse
from collections.abc import Mapping
from dataclasses import dataclass, replace

import cv2
import numpy as np

from inference.errors import HangtagError
from inference.reading.fields import LABELS
from inference.reading.normalize import field_key, normalize_field
from inference.reading.types import FIELD_NAMES, FieldReading, TagReading

DEFAULT_PROMPT = (
    "You read garment hangtags. Answer with one JSON object and nothing else, using these keys "
    "when the tag shows them: " + ", ".join(FIELD_NAMES) + ". "
    "product_name=品名, style_number=货号/款号, color=颜色, size=尺码/号型, composition=成分, "
    "standard=执行标准, safety_category=安全技术类别, grade=等级, price=价格/零售价, "
    "ean13=the 13 digits under the barcode, brand=品牌. Copy the text exactly as printed; "
    "leave out keys you cannot read."
)

MAX_IMAGE_SIDE = 1024


class VlmError(HangtagError):
    """The VLM endpoint could not be reached, was too slow, or answered something unusable."""


@dataclass(frozen=True)
class VlmAnswer:
    fields: Mapping[str, str]
    elapsed_ms: float
    raw: str


def chat_completions_url(url: str) -> str:
    """Accept the server root, its /v1, or the full endpoint, as people paste any of the three."""
    url = url.rstrip("/")
    if url.endswith("/chat/completions"):
        return url
    if url.endswith("/v1"):
        return url + "/chat/completions"
    return url + "/v1/chat/completions"


def encode_image(image_bgr: np.ndarray, max_side: int = MAX_IMAGE_SIDE) -> str:
    h, w = image_bgr.shape[:2]
    scale = min(1.0, max_side / max(h, w))
    if scale < 1.0:
        image_bgr = cv2.resize(image_bgr, (max(1, round(w * scale)), max(1, round(h * scale))), interpolation=cv2.INTER_AREA)
    ok, buf = cv2.imencode(".jpg", image_bgr, [cv2.IMWRITE_JPEG_QUALITY, 90])
    if not ok:
        raise VlmError("Tag image could not be encoded for the VLM", expected="a BGR uint8 image", found=f"shape {image_bgr.shape}")
    return "data:image/jpeg;base64," + base64.b64encode(buf.tobytes()).decode("ascii")


_FENCE = re.compile(r"```(?:json|JSON)?\s*(.*?)```", re.DOTALL)
_ZH_KEYS = {label: name for label, name in LABELS.items() if name is not None}


def parse_answer(content: str) -> dict[str, str]:
    """The first JSON object in the answer, code fences tolerated, keys mapped onto field names."""
    fenced = _FENCE.search(content)
    text = fenced.group(1) if fenced else content
    start = text.find("{")
    if start < 0:
        raise VlmError("VLM answer holds no JSON object", expected="{\"size\": \"L\", …}", found=content[:120])
    try:
        obj, _ = json.JSONDecoder().raw_decode(text[start:])
    except json.JSONDecodeError as exc:
        raise VlmError("VLM answer is not valid JSON", expected="one JSON object", found=f"{exc.msg} in {content[:120]!r}") from exc
    if not isinstance(obj, dict):
        raise VlmError("VLM answer is not a JSON object", expected="{…}", found=type(obj).__name__)
    fields: dict[str, str] = {}
    for key, value in obj.items():
        name = key if key in FIELD_NAMES else _ZH_KEYS.get(str(key).strip().upper(), _ZH_KEYS.get(str(key).strip()))
        if name is None or value is None or isinstance(value, (dict, list, bool)):
            continue
        text_value = str(value).strip()
        if text_value:
            fields[name] = text_value
    return fields


class VlmClient:
    """One endpoint, one model, one prompt. `budget_ms` bounds a whole call, `timeout_s` any one wait."""

    def __init__(
        self,
        url: str,
        model: str,
        prompt: str = DEFAULT_PROMPT,
        timeout_s: float = 10.0,
        budget_ms: float = 3000.0,
        *,
        api_key: str | None = None,
        max_tokens: int = 400,
        vlm_confidence: float = 0.90,
        replace_below: float = 0.90,
    ) -> None:
        self.url = chat_completions_url(url)
        parsed = urllib.parse.urlsplit(self.url)
        if parsed.scheme not in ("http", "https") or not parsed.hostname:
            raise VlmError("VLM URL is not an http(s) URL", expected="http://host:port/v1", found=url)
        self._parsed = parsed
        self.model = model
        self.prompt = prompt
        self.timeout_s = float(timeout_s)
        self.budget_ms = float(budget_ms)
        self.api_key = api_key
        self.max_tokens = max_tokens
        self.vlm_confidence = vlm_confidence
        self.replace_below = replace_below

    def request_body(self, image_bgr: np.ndarray) -> bytes:
        return json.dumps(
            {
                "model": self.model,
                "temperature": 0,
                "max_tokens": self.max_tokens,
                "messages": [
                    {
                        "role": "user",
                        "content": [
                            {"type": "text", "text": self.prompt},
                            {"type": "image_url", "image_url": {"url": encode_image(image_bgr)}},
                        ],
                    }
                ],
            },
            ensure_ascii=False,
        ).encode("utf-8")

    def read(self, image_bgr: np.ndarray) -> VlmAnswer:
        """Raises VlmError on any failure; never returns a partial answer."""
        start = time.perf_counter()
        deadline_s = min(self.timeout_s, self.budget_ms / 1000.0)
        body = self.request_body(image_bgr)
        parsed = self._parsed
        conn_cls = http.client.HTTPSConnection if parsed.scheme == "https" else http.client.HTTPConnection
        conn = conn_cls(parsed.hostname, parsed.port, timeout=max(0.01, deadline_s))
        headers = {"Content-Type": "application/json"}
        if self.api_key:
            headers["Authorization"] = f"Bearer {self.api_key}"
        path = parsed.path + (f"?{parsed.query}" if parsed.query else "")
        try:
            conn.request("POST", path, body=body, headers=headers)
            response = conn.getresponse()
            payload = response.read()
        except (socket.timeout, TimeoutError) as exc:
            raise VlmError(f"VLM timed out after {deadline_s:.1f} s", expected=f"an answer within {deadline_s:.1f} s", found="no answer", hint="raise the VLM budget or check the server load") from exc
        except (OSError, http.client.HTTPException) as exc:
            raise VlmError("VLM endpoint unreachable", expected=f"a server at {self.url}", found=f"{type(exc).__name__}: {exc}", hint="check the URL and that the server is running") from exc
        finally:
            conn.close()
        elapsed_ms = (time.perf_counter() - start) * 1000.0
        if elapsed_ms > self.budget_ms:
            raise VlmError(f"VLM answered after {elapsed_ms:.0f} ms, over its budget", expected=f"≤ {self.budget_ms:.0f} ms", found=f"{elapsed_ms:.0f} ms")
        if response.status != 200:
            raise VlmError(f"VLM endpoint answered HTTP {response.status}", expected="HTTP 200", found=payload[:200].decode("utf-8", "replace"), hint="check the model name and the URL")
        try:
            message = json.loads(payload)["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError) as exc:
            raise VlmError("VLM response is not a chat completion", expected='{"choices": [{"message": {"content": …}}]}', found=payload[:200].decode("utf-8", "replace")) from exc
        if isinstance(message, list):
            message = "".join(part.get("text", "") for part in message if isinstance(part, dict))
        if not isinstance(message, str):
            raise VlmError("VLM message content is not text", expected="a string", found=type(message).__name__)
        return VlmAnswer(parse_answer(message), elapsed_ms, message)

    def refine(self, tag: TagReading, crop_bgr: np.ndarray) -> TagReading:
        """The tag with weak or missing fields filled from the VLM, or unchanged with a note."""
        start = time.perf_counter()
        timings = dict(tag.timings_ms)
        try:
            answer = self.read(crop_bgr)
        except VlmError as exc:
            timings["vlm"] = (time.perf_counter() - start) * 1000.0
            return replace(tag, notes=tag.notes + (f"VLM failed: {exc.message}; OCR result stands",), timings_ms=timings)
        timings["vlm"] = answer.elapsed_ms
        fields = dict(tag.fields)
        changed = []
        for name, raw in answer.fields.items():
            value = normalize_field(name, raw)
            if not value:
                continue
            ocr = fields.get(name)
            if ocr is not None and field_key(name, ocr.value) == field_key(name, value):
                fields[name] = FieldReading(name, value, max(ocr.confidence, self.vlm_confidence), "vlm", raw)
                changed.append(name)
            elif ocr is None or ocr.confidence < self.replace_below:
                fields[name] = FieldReading(name, value, self.vlm_confidence, "vlm", raw)
                changed.append(name)
        note = f"VLM read {', '.join(changed)}" if changed else "VLM added nothing"
        return replace(tag, fields=fields, notes=tag.notes + (note,), timings_ms=timings)
