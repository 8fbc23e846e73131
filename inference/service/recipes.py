"""The recipes /inspect judges against: one loaded at start (`--recipe`), and/or a folder of recipes
named by id (the file's stem) with `?recipe=ID`. All are loaded and checked at start, never per request."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from inference.service.errors import UnknownRecipe


class RecipeBook:
    def __init__(self, default: Any = None, by_id: dict[str, Any] | None = None) -> None:
        self.default = default
        self.by_id = dict(by_id or {})

    @classmethod
    def load(cls, default_path: Path | None, folder: Path | None) -> RecipeBook:
        from inference.reading import load_recipe

        default = load_recipe(default_path) if default_path is not None else None
        by_id = {p.stem: load_recipe(p) for p in sorted(Path(folder).glob("*.toml"))} if folder is not None else {}
        return cls(default, by_id)

    def pick(self, recipe_id: str | None) -> Any:
        """The recipe named by id, else the default; None when there is none (the answer then has no verdict)."""
        if not recipe_id:
            return self.default
        if recipe_id not in self.by_id:
            known = ", ".join(sorted(self.by_id)) or "none (start the service with --recipes DIR)"
            raise UnknownRecipe("no recipe with this id", expected=f"one of: {known}", found=recipe_id,
                                hint="the id is the recipe file's name without .toml")
        return self.by_id[recipe_id]
