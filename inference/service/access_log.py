"""JSON log lines on stdout, one per request and one per lifecycle event: what log shippers ingest."""

from __future__ import annotations

import json
import sys
import threading
import time
from typing import Any, TextIO


class JsonLog:
    def __init__(self, stream: TextIO | None = None) -> None:
        self._stream = stream
        self._lock = threading.Lock()

    def write(self, event: str, **fields: Any) -> None:
        record = {"ts": round(time.time(), 6), "event": event, **fields}
        line = json.dumps(record, ensure_ascii=False, separators=(",", ":"), default=str)
        stream = self._stream or sys.stdout
        with self._lock:
            stream.write(line + "\n")
            stream.flush()
