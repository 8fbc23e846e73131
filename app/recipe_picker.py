"""Choosing a recipe: the engineer browses the recipes folder; the operator picks from the recipes an
engineer approved (Mode → Approve current recipe for operators), so a restart never leaves the line
on "no recipe" with no way out, and an operator cannot load an arbitrary file."""

from __future__ import annotations

from pathlib import Path

from PySide6.QtWidgets import QFileDialog, QInputDialog, QMessageBox, QWidget

from app.settings import StationSettings
from inference.resources import resource_path, user_data_dir


def recipes_folder(settings: StationSettings, source: str = "") -> Path:
    """Where the recipe dialog opens: the folder of the last recipe; else recipes beside the source (a set's
    recipes/ next to its images/); else the user's recipes, where Teach saves; the bundled examples last. It opened
    in the bundled examples with a set's recipes beside the folder on screen."""
    bundled = resource_path("recipes")
    last = settings.recipe_path
    if last and Path(last).parent.is_dir() and Path(last).parent.resolve() != bundled.resolve():
        return Path(last).parent
    for folder in _beside(source):
        if any(folder.glob("*.toml")):
            return folder
    if last and Path(last).parent.is_dir():
        return Path(last).parent
    return bundled


def _beside(source: str) -> list[Path]:
    """Folders a source's recipes may be in: its own folder, a recipes/ in it or beside it; then
    the user's recipes."""
    folders = []
    path = Path(source.removeprefix("watch:")) if source and not source.isdigit() and "://" not in source else None
    if path is not None and path.exists():
        folder = path if path.is_dir() else path.parent
        folders += [folder, folder / "recipes", folder.parent / "recipes"]
    return [f for f in folders if f.is_dir()] + [user_data_dir() / "recipes"]


def ask_engineer(parent: QWidget, settings: StationSettings) -> Path | None:
    folder = recipes_folder(settings, str(settings.last_source))
    chosen, _ = QFileDialog.getOpenFileName(parent, "Recipe", str(folder), "Recipes (*.toml)")
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
