"""The HTTP inspection service behind `hangtag-inspect serve`: raw image bytes in, JSON out. Qt-free.

One straight line per request: the event loop reads the body, a decode pool turns it into pixels, the
batcher groups requests for the inference workers (each with its own pipeline), and the answer is built
from the typed FrameResult. Nothing that can block runs on the event loop.
"""

from __future__ import annotations

from inference.service.config import ServiceConfig

__all__ = ["ServiceConfig", "create_app"]


def __getattr__(name: str):
    # The app pulls in Starlette and the engines; the config alone stays light.
    if name == "create_app":
        from inference.service.app import create_app

        return create_app
    raise AttributeError(f"module 'inference.service' has no attribute {name!r}")
