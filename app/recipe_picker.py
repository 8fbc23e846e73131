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
    names = offered_names(approved)
    name, ok = QInputDialog.getItem(parent, "Recipe", "Recipe for this job:", names, 0, False)
    return Path(approved[names.index(name)]) if ok and name in names else None


def offered_names(paths: list[str]) -> list[str]:
    """Each recipe by the job it names, then its file: the operator was offered 'sample_090000022
    (/work/…/sample_090000022.toml)' for 'ZEPHYRA 女士连衣裙 22HX-1489'. The whole path only where two files share a
    name."""
    from inference.reading.recipe import load_recipe

    def job(path: str) -> str:
        try:
            return load_recipe(path).name or Path(path).stem
        except Exception:  # noqa: BLE001 - a recipe that no longer loads is offered by its file; loading it says why
            return Path(path).stem

    files = [Path(p).name for p in paths]
    return [f"{job(p)}  ({p if files.count(f) > 1 else f})" for p, f in zip(paths, files)]


def approve(settings: StationSettings, path: Path | None) -> list[str]:
    """Add the current recipe to the operators' list; returns the list."""
    if path is not None:
        settings.approved_recipes = settings.approved_recipes + [str(Path(path).resolve())]
    return settings.approved_recipes
