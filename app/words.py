"""Numbers and names in the operator's sentences: "1 recipe", "3 recipes", never "1 recipe(s)"; a file named once."""

from __future__ import annotations


def named(name: str, message: str) -> str:
    """`message` about the file `name`, naming it once: '000002.jpg: 000002.jpg could not be decoded' said it twice."""
    return message if message.startswith(name) else f"{name}: {message}"


def counted(count: int, noun: str, plural: str | None = None) -> str:
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
