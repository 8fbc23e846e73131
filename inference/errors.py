"""One small exception hierarchy: every message says what was expected, what was found, and a hint."""

from __future__ import annotations


class HangtagError(Exception):
    """Root of every error the station raises on purpose."""

    def __init__(self, message: str, *, expected: str = "", found: str = "", hint: str = "") -> None:
        self.message = message
        self.expected = expected
        self.found = found
        self.hint = hint
        super().__init__(self.__str__())

    def __str__(self) -> str:
        lines = [self.message]
        if self.expected:
            lines.append(f"  expected: {self.expected}")
        if self.found:
            lines.append(f"  found:    {self.found}")
        if self.hint:
            lines.append(f"  hint:     {self.hint}")
        return "\n".join(lines)


class ImageDecodeError(HangtagError):
    """A file that should hold an image could not be turned into pixels."""


class SourceError(HangtagError):
    """A frame source (folder, file, video, camera) cannot be opened or stopped delivering."""


class ModelError(HangtagError):
    """A model file is missing, unreadable or has a layout the station does not know."""


class UnknownOutputLayoutError(ModelError):
    """The model's output shape matches none of the decoders."""


class BackendUnavailableError(HangtagError):
    """An engine backend was asked for but its library or device is missing."""


class EngineStateError(HangtagError):
    """An engine was used outside its lifecycle (infer before load, after close)."""


class InputShapeError(HangtagError):
    """An array handed to an engine or decoder has the wrong shape or dtype."""


class ConfigError(HangtagError):
    """A settings or recipe value is out of range or malformed."""
