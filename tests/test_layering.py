"""inference/ never imports Qt: checked by import-linter's contract and by a clean-interpreter import."""

from __future__ import annotations

import importlib.util
import pkgutil
import subprocess
import sys
from pathlib import Path

import inference

ROOT = Path(__file__).resolve().parents[1]


def test_import_linter_contract_holds():
    lint = Path(sys.executable).with_name("lint-imports")
    result = subprocess.run([str(lint)], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr


def test_importing_every_inference_module_loads_no_qt():
    # inference.adapt.htdet is PyTorch itself (the optional 'train' extra): imported only once torch is there.
    torch_only = "inference.adapt.htdet." if importlib.util.find_spec("torch") is None else "-"
    modules = [m.name for m in pkgutil.walk_packages(inference.__path__, "inference.")
               if not m.name.endswith("__main__") and not m.name.startswith(torch_only)]
    code = ("import importlib, sys\n"
            f"for m in {modules!r}: importlib.import_module(m)\n"
            "bad = [m for m in sys.modules if m.split('.')[0] in ('PySide6', 'pyqtgraph', 'shiboken6', 'app')]\n"
            "print(bad); sys.exit(1 if bad else 0)")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
