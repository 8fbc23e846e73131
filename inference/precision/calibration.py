"""Calibration images for INT8, fed through the station's own letterbox so scales match production."""

from __future__ import annotations

from pathlib import Path
from typing import Callable, Sequence

import numpy as np

from inference.errors import ImageDecodeError
from inference.imageio import list_images, read_image
from inference.precision.errors import CalibrationError, Cancelled
from inference.preprocess import Letterboxer

DEFAULT_LIMIT = 64


def find_images(folder: Path) -> list[Path]:
    """Images in `folder`, or in its `images/` subfolder (the YOLO dataset layout)."""
    folder = Path(folder)
    if not folder.is_dir():
        raise CalibrationError("calibration folder not found", expected="a folder of images",
                               found=str(folder), hint="pick a folder with 20–200 images like the line's tags")
    images = list_images(folder)
    if not images and (folder / "images").is_dir():
        images = list_images(folder / "images")
    return images


def select_images(folder: Path, limit: int = DEFAULT_LIMIT) -> list[Path]:
    """Up to `limit` images spread evenly over the folder, each proven decodable.

    An empty or unreadable folder fails here, before minutes of quantization, with the counts.
    """
    candidates = find_images(folder)
    if limit > 0 and len(candidates) > limit:
        step = len(candidates) / limit
        candidates = [candidates[int(i * step)] for i in range(limit)]
    readable, failures = [], []
    for path in candidates:
        try:
            read_image(path)
        except ImageDecodeError as exc:
            failures.append(f"{path.name}: {exc.message}")
            continue
        readable.append(path)
    if not readable:
        found = f"{len(candidates)} image file(s), none decodable" if candidates else "no image files"
        if failures:
            found += f" (first: {failures[0]})"
        raise CalibrationError("no readable calibration images", expected="JPEG/PNG/BMP/TIFF/WebP images",
                               found=f"{found} in {folder}",
                               hint="choose another folder, or use the bundled samples (the default)")
    return readable


class LetterboxCalibrationReader:
    """ONNX Runtime's CalibrationDataReader protocol (`get_next`, `rewind`) over image files.

    Reports progress per image and checks the cancel flag between images.
    """

    def __init__(self, paths: Sequence[Path], input_name: str, input_hw: tuple[int, int], *,
                 progress: Callable[[int, int], None] | None = None,
                 cancel: Callable[[], bool] | None = None) -> None:
        self.paths = list(paths)
        self.input_name = input_name
        self.letterbox = Letterboxer(input_hw, dtype=np.float32)
        self._progress = progress
        self._cancel = cancel
        self._index = 0

    def get_next(self) -> dict[str, np.ndarray] | None:
        while self._index < len(self.paths):
            if self._cancel is not None and self._cancel():
                raise Cancelled("calibration cancelled", found=f"after {self._index} of {len(self.paths)} images")
            path = self.paths[self._index]
            self._index += 1
            if self._progress is not None:
                self._progress(self._index, len(self.paths))
            try:
                image = read_image(path)
            except ImageDecodeError:
                continue  # it decoded during selection; a file changed since is skipped, not fatal
            self.letterbox(image)
            return {self.input_name: self.letterbox.tensor.copy()}
        return None

    def rewind(self) -> None:
        self._index = 0

    def __len__(self) -> int:
        return len(self.paths)
