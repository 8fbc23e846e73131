"""Engine-file errors: the station refuses the engine, says why, suggests a rebuild, and keeps running."""

from __future__ import annotations

from inference.errors import ModelError

REBUILD_HINT = ("rebuild the engine for this machine (Precision panel → Build engine, or delete the cache "
                "entry); the station keeps using its previous engine")


class EngineFileError(ModelError):
    """A serialized engine or its sidecar is missing, truncated or corrupt."""


class EngineMismatchError(ModelError):
    """An engine was built for another TensorRT version, GPU or model than the one here."""


class BuildError(ModelError):
    """TensorRT could not build an engine from the ONNX graph."""
