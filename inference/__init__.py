"""Hangtag Station's Qt-free inference library.

Engines, pre/post-processing, the pipeline, telemetry and tag reading live here;
nothing in this package imports Qt or pyqtgraph (checked by import-linter in CI).
"""

from __future__ import annotations

__version__ = "0.1.0"
