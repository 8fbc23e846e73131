"""Numbers in the operator's sentences: "1 recipe", "3 recipes", never "1 recipe(s)"."""

from __future__ import annotations


def counted(count: int, noun: str, plural: str | None = None) -> str:
    return f"{count} {noun if count == 1 else plural or noun + 's'}"
