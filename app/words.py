"""Numbers and names in the operator's sentences: "1 recipe", "3 recipes", never "1 recipe(s)"; a file named once."""

from __future__ import annotations


def named(name: str, message: str) -> str:
    """`message` about the file `name`, naming it once: '000002.jpg: 000002.jpg could not be decoded' said it twice."""
    return message if message.startswith(name) else f"{name}: {message}"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    return f"{count} {noun if count == 1 else plural or noun + 's'}"


def frame_name(name: str, index: int | None) -> str:
    """A frame as a person reads it: a camera's is "camera 0 #57" or "camera line.avi #57", not
    "camera-/tmp/…/line.avi#57" (a live frame's own name ends in its number); files keep their own name."""
    if not name.startswith("camera-"):
        return name
    target = name[len("camera-"):]
    if index is not None and target.endswith(f"#{index}"):
        target = target[: -len(f"#{index}")]
    label = f"camera {target}" if target.isdigit() else f"camera {target.rstrip('/').rsplit('/', 1)[-1]}"
    return f"{label} #{index}"
