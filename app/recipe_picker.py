"""Choosing a recipe: the engineer browses the recipes folder; the operator picks from the recipes an
engineer approved (Mode → Approve current recipe for operators), so a restart never leaves the line
on "no recipe" with no way out, and an operator cannot load an arbitrary file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

from app.settings import StationSettings
from inference.resources import resource_path


def recipes_folder(settings: StationSettings) -> Path:
    """Where the recipe dialog opens: the folder of the last recipe, else the bundled recipes."""
    last = settings.recipe_path
    if last and Path(last).parent.is_dir():
        return Path(last).parent
    return resource_path("recipes")


def ask_engineer(parent: QWidget, settings: StationSettings) -> Path | None:
    chosen, _ = QFileDialog.getOpenFileName(parent, "Recipe", str(recipes_folder(settings)), "Recipes (*.toml)")
    return Path(chosen) if chosen else None


def ask_operator(parent: QWidget, settings: StationSettings) -> Path | None:
    approved = [p for p in settings.approved_recipes if Path(p).is_file()]
    if not approved:
        QMessageBox.information(parent, "Recipe", "No recipe is approved for operators yet.\n"
                                "Ask an engineer to load the job's recipe and choose Mode → Approve current "
                                "recipe for operators.")
        return None
    names = [f"{Path(p).stem}  ({p})" for p in approved]
    name, ok = QInputDialog.getItem(parent, "Recipe", "Recipe for this job:", names, 0, False)
    return Path(approved[names.index(name)]) if ok and name in names else None


def approve(settings: StationSettings, path: Path | None) -> list[str]:
    """Add the current recipe to the operators' list; returns the list."""
    if path is not None:
        settings.approved_recipes = settings.approved_recipes + [str(Path(path).resolve())]
    return settings.approved_recipes
