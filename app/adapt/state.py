"""The Adapt workflow's shared state: the data folder, the latest candidate and its comparison.

Pages render from it and change it through its methods; each change is announced once.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtCore import QObject, Signal

from inference.adapt.finetune import Candidate
from inference.adapt.folder import AdaptFolder
from inference.adapt.models import ModelStore, spec_of


class AdaptState(QObject):
    frames_changed = Signal()
    candidate_changed = Signal()
    comparison_changed = Signal()
    model_changed = Signal()

    def __init__(self, link, data_dir: Path, store: ModelStore) -> None:
        super().__init__()
        self.link = link
        self.store = store
        self.class_names = tuple(spec_of(link.model_path).class_names)
        self.folder = AdaptFolder(data_dir, self.class_names)
        self.candidate: Candidate | None = None
        self.comparison = None  # inference.adapt.compare.Comparison of `candidate` against the model in use

    def open_folder(self, data_dir: Path) -> None:
        self.folder = AdaptFolder(data_dir, self.class_names)
        self.set_candidate(None)
        self.frames_changed.emit()

    def set_candidate(self, candidate: Candidate | None) -> None:
        self.candidate = candidate
        self.comparison = None
        self.candidate_changed.emit()
        self.comparison_changed.emit()

    def set_comparison(self, comparison) -> None:
        self.comparison = comparison
        self.comparison_changed.emit()

    def announce_frames(self) -> None:
        self.frames_changed.emit()

    def model_switched(self) -> None:
        self.model_changed.emit()
