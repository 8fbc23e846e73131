"""Errors of the precision step: each says what was expected, what was found, and a hint."""

from __future__ import annotations

from inference.errors import HangtagError, ModelError


class PrecisionError(ModelError):
    """A model could not be converted to the requested precision."""


class CalibrationError(PrecisionError):
    """The calibration folder cannot feed INT8 calibration (missing, empty, unreadable)."""


class CacheError(HangtagError):
    """The cache folder for converted models or engines cannot be written."""


class Cancelled(HangtagError):
    """The engineer cancelled a long conversion; nothing was written to the cache."""
