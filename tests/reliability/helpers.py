"""Run the real CLI and the real headless station as a user does, and check what reaches them."""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np

ROOT = Path(__file__).resolve().parents[2]
SAMPLES = ROOT / "resources" / "samples"
MODEL = ROOT / "resources" / "models" / "hangtag_det.onnx"


def run_user_command(args: list[str], *, data_dir: Path, timeout: float = 120, address_space: int = 0,
                     file_size: int = 0, cwd: Path | None = None) -> subprocess.CompletedProcess:
    """`python -m …` with the station's data folder at `data_dir`; limits apply to the child only."""
    env = {**os.environ, "HANGTAG_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}

    def limit() -> None:
        if address_space:
            resource.setrlimit(resource.RLIMIT_AS, (address_space, address_space))
        if file_size:  # a disk that fills up: writes past this size fail with EFBIG (SIGXFSZ ignored)
            import signal

            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_size, file_size))

    return subprocess.run([sys.executable, *args], capture_output=True, text=True, timeout=timeout, env=env,
                          cwd=cwd or ROOT, preexec_fn=limit)


def cli(*args: str, **options) -> subprocess.CompletedProcess:
    return run_user_command(["-m", "inference.cli", *args], **options)


def headless(*args: str, **options) -> subprocess.CompletedProcess:
    return run_user_command(["-m", "app.main", "--headless", *args], **options)


def assert_no_traceback(proc: subprocess.CompletedProcess) -> str:
    """The whole of what the user saw; fails when a Python traceback is in it."""
    seen = proc.stdout + proc.stderr
    assert "Traceback (most recent call last)" not in seen, seen[-3000:]
    return seen


def assert_explained(message: str) -> None:
    """A message an operator can act on: what was expected and what was found."""
    assert "expected:" in message and "found:" in message, message


def watching_station(watched: Path, data_dir: Path, *, merge_stderr: bool = False) -> subprocess.Popen:
    """The headless station (no reading) watching a folder, started: its two banner lines read."""
    env = {**os.environ, "HANGTAG_DATA_DIR": str(data_dir), "PYTHONUNBUFFERED": "1"}
    station = subprocess.Popen([sys.executable, "-m", "app.main", "--headless", "--no-read", "--source", f"watch:{watched}"],
                               cwd=ROOT, env=env, stdout=subprocess.PIPE,
                               stderr=subprocess.STDOUT if merge_stderr else subprocess.PIPE, text=True)
    assert station.stdout.readline().startswith("Backends")
    assert station.stdout.readline().startswith("Hangtag Station (headless)")
    return station


def png_bomb(path: Path, width: int = 30_000, height: int = 30_000) -> Path:
    """A small PNG whose header declares `width` × `height` (a real image of that size is 2.7 GB of pixels)."""
    import struct
    import zlib

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    rows = zlib.compress(b"\x00" * (width * 3 + 1) * 64, 9)  # the first 64 rows; decoders fail or allocate all
    path.write_bytes(b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
                     + chunk(b"IDAT", rows) + chunk(b"IEND", b""))
    return path


def jpeg_bytes(seed: int = 0, hw: tuple[int, int] = (240, 320)) -> bytes:
    image = np.random.default_rng(seed).integers(0, 255, (*hw, 3), dtype=np.uint8)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


# Python's re took over 20 s (then killed) for this pattern on "FZ/T 81006-2017" and "GB 18401-2010 B类",
# the standard and safety category printed on sample 090000022, holding the GIL all the while:
# with re, the first frame would stop the station's worker and its GUI thread alike, Stop included.
BACKTRACKING = "(.*.*)*!"


def backtracking_recipe(folder: Path) -> Path:
    """Sample 090000022's recipe with three printed fields checked against BACKTRACKING instead."""
    from inference.resources import resource_path

    text = resource_path("recipes", "sample_090000022.toml").read_text(encoding="utf-8")
    for line in ('standard = "FZ/T 81006-2017"', "composition = \"莫代尔 85% 桑蚕丝 15%\"",
                 "safety_category = { pattern = 'GB 18401-2010 [AB]类' }"):
        assert line in text, line
        text = text.replace(line, f"{line.split(' = ')[0]} = {{ pattern = '{BACKTRACKING}' }}")
    recipe = folder / "backtracking.toml"
    recipe.write_text(text, encoding="utf-8")
    return recipe
