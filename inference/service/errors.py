"""What the service answers when it cannot: each error knows its HTTP status and renders a JSON body
that says what was expected, what was found, and what to do."""

from __future__ import annotations

from inference.errors import HangtagError


class ServiceError(HangtagError):
    """A request the service refuses; `status` is the HTTP status, `kind` a stable machine-readable name."""

    status = 500
    kind = "internal"

    def headers(self) -> dict[str, str]:
        return {}

    def to_json(self) -> dict:
        return {"code": self.status, "error": self.kind, "message": self.message, "expected": self.expected,
                "found": self.found, "hint": self.hint}


class BadRequest(ServiceError):
    status = 400
    kind = "bad_request"


class UndecodableImage(BadRequest):
    kind = "undecodable_image"


class BadParameter(BadRequest):
    kind = "bad_parameter"


class UnknownRecipe(ServiceError):
    status = 404
    kind = "unknown_recipe"


class BodyTooLarge(ServiceError):
    status = 413
    kind = "body_too_large"


class UnsupportedMediaType(ServiceError):
    status = 415
    kind = "unsupported_media_type"


class Unavailable(ServiceError):
    """503: the client may retry; `retry_after_s` goes into the Retry-After header."""

    status = 503
    kind = "unavailable"

    def __init__(self, message: str, *, retry_after_s: int = 1, **parts: str) -> None:
        self.retry_after_s = max(1, int(retry_after_s))
        super().__init__(message, **parts)

    def headers(self) -> dict[str, str]:
        return {"Retry-After": str(self.retry_after_s)}


class QueueFull(Unavailable):
    kind = "queue_full"


class DeadlineExceeded(Unavailable):
    kind = "deadline_exceeded"


class ShuttingDown(Unavailable):
    kind = "shutting_down"


class NotReady(Unavailable):
    kind = "not_ready"


class InferenceFailed(ServiceError):
    kind = "inference_failed"
