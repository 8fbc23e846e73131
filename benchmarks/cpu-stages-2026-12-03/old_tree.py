"""This session's modules as another tree has them (the tree before the change), loaded beside the current ones in
one process, so old and new run on the same inputs in turn.

Each old module is loaded under its own name ("old.<module>"); while one loads, the old modules it imports stand in
for the current ones (sys.modules and the package attribute), so old code calls old code throughout."""

from __future__ import annotations

import importlib
import importlib.util
import sys
from pathlib import Path
from types import ModuleType

# in import order: a module after the ones it imports
OWNED = ("inference.reading.symbol_views", "inference.reading.barcodes", "inference.reading.symbols",
         "inference.reading.seals", "inference.reading.ocr.recognizer", "inference.reading.ocr.detector",
         "inference.reading.ocr.buckets", "inference.reading.ocr.topk")


def load_old(tree: Path) -> dict[str, ModuleType]:
    current = {name: importlib.import_module(name) for name in OWNED}
    old: dict[str, ModuleType] = {}
    try:
        for name in OWNED:
            spec = importlib.util.spec_from_file_location(f"old.{name}", Path(tree) / (name.replace(".", "/") + ".py"))
            module = importlib.util.module_from_spec(spec)
            sys.modules[f"old.{name}"] = module
            spec.loader.exec_module(module)
            old[name] = module
            _stand_in(name, module)
    finally:
        for name, module in current.items():
            _stand_in(name, module)
    return old


def _stand_in(name: str, module: ModuleType) -> None:
    sys.modules[name] = module
    package, _, attr = name.rpartition(".")
    setattr(sys.modules[package], attr, module)
