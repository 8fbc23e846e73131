"""Request bodies → pixels on a pool of threads sized to the cores (OpenCV's decoders release the GIL),
so JPEG decode neither blocks the event loop nor caps the service at one core.

Where the inference workers decode JPEGs on the GPU (inference/gpu/jpeg.py, `serve --jpeg-decode`), a /detect
JPEG is only checked here (type, header, size) and its bytes go on to the worker, which decodes the whole
batch in one nvImageCodec call into device memory the GPU pipeline letterboxes from."""

from __future__ import annotations

import asyncio
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import numpy as np

from inference.errors import ImageDecodeError
from inference.imageio import decode_image, header_size, reduction_for
from inference.service.errors import BadRequest, UndecodableImage, UnsupportedMediaType
from inference.service.journaling import body_hash

MEDIA_TYPES = ("image/jpeg", "image/png")
MAX_PIXELS = 64_000_000  # a header that promises more is refused before any pixel is decoded
_NO_REDUCTION = 1 << 30  # answers are in original pixels: decode at full size


@dataclass(frozen=True)
class DecodedImage:
    image: np.ndarray | None  # None: a JPEG left to the worker's GPU decoder, its bytes in `body`
    media_type: str
    decode_ms: float
    body_hash: str = ""  # sha256 of the bytes sent, when the journal wants it
    body: bytes = b""


def media_type_of(content_type: str | None) -> str:
    """The bare media type ('image/jpeg') of a Content-Type header, or UnsupportedMediaType."""
    media = (content_type or "").split(";", 1)[0].strip().lower()
    if media not in MEDIA_TYPES:
        raise UnsupportedMediaType("the request body is not a supported image type",
                                   expected="Content-Type: " + " or ".join(MEDIA_TYPES),
                                   found=f"Content-Type: {content_type or '(none)'}",
                                   hint="send the raw file bytes, e.g. curl --data-binary @tag.jpg "
                                        "-H 'Content-Type: image/jpeg'")
    return media


def decode_body(body: bytes, media_type: str, with_hash: bool = False, defer_jpeg: bool = False) -> DecodedImage:
    """Blocking: call from the pool. Raises UndecodableImage / BadRequest with expected/found/hint.
    `defer_jpeg`: a JPEG whose header reads (and needs no reduced decode) is checked, not decoded."""
    start = time.perf_counter_ns()
    digest = body_hash(body) if with_hash else ""
    if deferrable_jpeg(body) and defer_jpeg:
        return DecodedImage(None, media_type, (time.perf_counter_ns() - start) / 1e6, digest, body)
    try:
        image = decode_image(body, "the request body", keep_long_side=_NO_REDUCTION)
    except ImageDecodeError as exc:
        error = UndecodableImage(exc.message, expected=exc.expected, found=exc.found,
                                 hint="send a complete JPEG or PNG file as the raw request body")
        error.body_hash = digest
        raise error from None
    return DecodedImage(image, media_type, (time.perf_counter_ns() - start) / 1e6, digest)


def deferrable_jpeg(body: bytes) -> bool:
    """Whether a JPEG can go undecoded to a GPU decoder: its header reads and needs no reduced decode. Cheap (the
    header only), so a front end calls it on its event loop. Raises BadRequest for a header that promises too many
    pixels."""
    size = header_size(body)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise BadRequest("the image has too many pixels", expected=f"at most {MAX_PIXELS // 1_000_000} MP",
                         found=f"{size[1]}×{size[0]}", hint="downscale the image before sending it")
    return size is not None and body[:2] == b"\xff\xd8" and reduction_for(size) == 1


def undecodable(cause: ImageDecodeError | None, error: str | None) -> UndecodableImage:
    """The 400 for a body a decoder refused, in the same terms wherever it was decoded."""
    if cause is None:
        return UndecodableImage("the request body could not be decoded", expected="a complete JPEG or PNG file",
                                found=(error or "unknown error").splitlines()[0][:200],
                                hint="send a complete JPEG or PNG file as the raw request body")
    return UndecodableImage(cause.message, expected=cause.expected, found=cause.found,
                            hint="send a complete JPEG or PNG file as the raw request body")


class DecodePool:
    def __init__(self, threads: int) -> None:
        self._executor = ThreadPoolExecutor(max_workers=max(1, threads), thread_name_prefix="decode")

    async def decode(self, body: bytes, media_type: str, with_hash: bool = False,
                     defer_jpeg: bool = False) -> DecodedImage:
        return await asyncio.get_running_loop().run_in_executor(self._executor, decode_body, body, media_type,
                                                                with_hash, defer_jpeg)

    def close(self) -> None:
        self._executor.shutdown(wait=True)
