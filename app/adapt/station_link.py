"""What the Adapt window needs from the station's main window, in one place.

The main window is edited by many hands; Adapt reads its frames and results and asks it to switch
models only through this class, so a change there touches one file here.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

from inference.adapt.folder import IMAGE_SUFFIXES
from inference.imageio import read_image


class StationLink:
    def __init__(self, window) -> None:
        self.window = window

    @property
    def model_path(self) -> Path:
        return Path(self.window.model_path)

    @property
    def recipe(self):
        return getattr(self.window, "recipe", None)

    @property
    def backend(self) -> str | None:
        return getattr(self.window, "backend_name", None)

    @property
    def confidence(self) -> float:
        return float(self.window.thresholds.confidence)

    def frame_on_screen(self) -> tuple[np.ndarray, object] | None:
        image, result = self.window.current_image, self.window.current
        if image is None or result is None:
            return None
        return image, result

    def rows(self) -> list[int]:
        return list(range(len(self.window.results.results)))

    def selected_rows(self) -> list[int]:
        return sorted({i.row() for i in self.window.table.selectionModel().selectedRows()})

    def result_at(self, row: int):
        return self.window.results.results[row]

    def frame_at(self, row: int) -> tuple[np.ndarray | None, object]:
        """The row's image: kept in memory for camera frames, read again for files."""
        results = self.window.results
        result = results.results[row]
        image = self.window.images.get(results.dropped + row)
        path = frame_file(result)
        if image is None and result.ok and path:
            image = read_image(path)
        return image, result

    def use_model(self, path: Path) -> None:
        """The running engine keeps inspecting until the new one is ready (the main window's swap)."""
        self.window.model_path = Path(path)
        self.window.request_engine(self.backend, getattr(self.window, "precision", "fp32"))


def frame_file(result) -> str | None:
    """The image file that is this result's frame, if it still exists. A video's frames name the video as their
    source path: 'Keep frame on screen' copied line.avi and said 'not an image the station can read … pick image
    files' over a frame on screen; such a frame is kept from its pixels."""
    path = getattr(result, "source_path", None)
    return str(path) if path and Path(path).suffix.lower() in IMAGE_SUFFIXES and Path(path).is_file() else None
