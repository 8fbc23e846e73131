"""Step 4, Compare: candidate and model in use on the held-out frames and the bundled golden set.

Box metrics for every frame, and the verdicts each model leads to on a capped sample (reading costs
seconds per tag here): a detector that finds more tags can still turn good frames NG.
"""

from __future__ import annotations

from pathlib import Path

from PySide6.QtGui import QColor
from PySide6.QtWidgets import (QFileDialog, QHBoxLayout, QHeaderView, QLabel, QListWidget, QListWidgetItem,
                               QProgressBar, QPushButton, QSpinBox, QTableWidget, QTableWidgetItem, QVBoxLayout,
                               QWidget)

from app.adapt.job import Job
from app.words import counted
from inference.adapt.verdicts import DEFAULT_CAP

BETTER, WORSE = QColor("#188038"), QColor("#d93025")


class ComparePage(QWidget):
    def __init__(self, state, parent=None) -> None:
        super().__init__(parent)
        self.state = state
        self.job: Job | None = None
        self.run_button = QPushButton("Compare candidate with the model in use")
        self.run_button.clicked.connect(self.start)
        self.open_button = QPushButton("Open a candidate folder…")
        self.open_button.clicked.connect(self._choose_candidate)
        self.verdict_frames = QSpinBox()
        self.verdict_frames.setRange(0, 999)
        self.verdict_frames.setValue(DEFAULT_CAP)
        self.verdict_frames.setSpecialValueText("all")
        self.verdict_frames.setPrefix("frames judged per set: ")
        self.verdict_frames.setToolTip("Frames read and judged with each model, those whose tag boxes differ most. "
                                       "Reading takes seconds per tag on this computer; 'all' judges every frame.")
        self.bar = QProgressBar()
        self.table = QTableWidget(0, 4)
        self.table.setHorizontalHeaderLabels(["Frames / measure", "In use", "Candidate", "Change"])
        self.table.horizontalHeader().setSectionResizeMode(0, QHeaderView.ResizeMode.Stretch)
        self.table.verticalHeader().setVisible(False)
        self.changes = QListWidget()
        self.changes.setMaximumHeight(120)
        self.status = QLabel()
        self.status.setWordWrap(True)
        self.status.setMinimumHeight(3 * self.status.fontMetrics().lineSpacing())  # a wrapped message is never cut
        row = QHBoxLayout()
        row.addWidget(self.run_button)
        row.addWidget(self.open_button)
        row.addWidget(self.verdict_frames)
        row.addWidget(self.bar, 1)
        layout = QVBoxLayout(self)
        layout.addLayout(row)
        layout.addWidget(self.table, 1)
        layout.addWidget(QLabel("Frames whose verdict, reads or shown tags would change (verdict changes first):"))
        layout.addWidget(self.changes)
        layout.addWidget(self.status)
        state.candidate_changed.connect(self._describe)
        state.comparison_changed.connect(self._show)
        self._describe()

    def _describe(self) -> None:
        c = self.state.candidate
        self.run_button.setEnabled(c is not None and not (self.job is not None and self.job.running))
        self.status.setStyleSheet("")
        self.status.setText("Fine-tune a candidate in step 3 first." if c is None else
                            f"Candidate {c.directory.name} against {self.state.link.model_path.name}"
                            + (": held-out frames judged under the recipe on screen" if self.state.link.recipe is not None
                               else ": no recipe loaded, so the held-out frames' reads are compared, not verdicts")
                            + "; golden frames judged under what their tags print.")

    def open_candidate(self, directory: Path) -> None:
        """A candidate fine-tuned elsewhere (hangtag-inspect adapt on a GPU server), copied here."""
        from inference.adapt.finetune import Candidate

        try:
            candidate = Candidate.load(directory)
        except (OSError, ValueError, KeyError) as exc:
            self.status.setText(f"Not a candidate folder: {directory}\n  expected: training.json and hangtag_det.onnx "
                                f"(hangtag-inspect adapt writes them)\n  found: {exc}")
            return
        self.state.set_candidate(candidate)

    def _choose_candidate(self) -> None:
        path = QFileDialog.getExistingDirectory(self, "Candidate folder (candidates/<stamp>)",
                                                str(self.state.folder.root / "candidates"))
        if path:
            self.open_candidate(Path(path))

    def start(self) -> None:
        from inference.adapt.compare import compare, frames_to_run, golden_frames, held_out_frames

        c = self.state.candidate
        if c is None or (self.job is not None and self.job.running):
            return
        link, folder, names = self.state.link, self.state.folder, self.state.class_names
        current, recipe, confidence = link.model_path, link.recipe, link.confidence
        sets = {"held-out frames": held_out_frames(folder), "golden set": golden_frames()}
        cap = self.verdict_frames.value() or None
        self.bar.setRange(0, frames_to_run(sets, cap))
        self.bar.setValue(0)

        def work(report, should_stop):
            result = compare(current, c.model_path, sets, names, recipe=recipe, confidence=confidence,
                             verdict_cap=cap, should_stop=should_stop, progress=report, backend="onnxruntime-cpu")
            result.save(c.directory / "comparison.json")
            return result

        self.job = Job(work)
        self.job.progress.connect(lambda n: self.bar.setValue(self.bar.value() + n))
        self.job.finished.connect(self.state.set_comparison)
        self.job.failed.connect(lambda m: self.status.setText(f"The comparison failed:\n{m}"))
        self.job.thread.finished.connect(self._describe_buttons)
        self.run_button.setEnabled(False)
        self.status.setText("Comparing… (every frame detected; the sample is read and judged with each model)")
        self.job.start()

    def _describe_buttons(self) -> None:
        self.run_button.setEnabled(self.state.candidate is not None)

    def _show(self) -> None:
        result = self.state.comparison
        self.table.setRowCount(0)
        self.changes.clear()
        if result is None:
            return
        for s in result.sets:
            cur, cand = s.current.to_json(), s.candidate.to_json()
            self._row(f"{s.name} ({cur['frames']} frames)", "", "", None, header=True)
            for name, a in cur["ap50"].items():
                if a is not None:
                    self._row(f"    AP50 {name}", a, cand["ap50"][name], +1)
            self._row("    false tags per 100 frames", cur["false_tags_per_100"], cand["false_tags_per_100"], -1)
            self._row("    frames whose shown tag count changes", "", str(len(s.changes)), None)
            self._verdict_rows(s)
        for s in result.sets:
            for ch in (s.verdicts.changes if s.verdicts is not None else ()):
                if ch.current != ch.candidate:
                    self._change(f"{s.name}: {ch.describe()}", WORSE if ch.candidate == "NG" or ch.current == "OK"
                                 else BETTER if ch.candidate == "OK" else None)
        for s in result.sets:
            for ch in (s.verdicts.changes if s.verdicts is not None else ()):
                if ch.current == ch.candidate:
                    self._change(f"{s.name}: {ch.describe()}", None)
            for ch in s.changes:
                self._change(f"{s.name}: {ch.frame}: {ch.current} → {ch.candidate} shown", None)
        flips = result.ok_to_ng
        if flips:
            self.status.setText(f"Warning: the candidate turns {counted(len(flips), 'frame')} judged OK with the model in use "
                                f"into NG ({', '.join(c.frame for _, c in flips)}). Look at them before adopting: "
                                "step 5 asks you to confirm.")
            self.status.setStyleSheet(f"color: {WORSE.name()}")
        else:
            judged = "; ".join(f"{s.name}: {s.verdicts.extent}" for s in result.sets if s.verdicts is not None)
            self.status.setText(f"Compared. No judged frame turns from OK to NG ({judged}). Adopt the candidate in "
                                "step 5 only if it is better where it matters to the line.")
            self.status.setStyleSheet("")

    def _verdict_rows(self, s) -> None:
        v = s.verdicts
        if v is None:
            self._row("    verdicts: not judged", "", "", None)
            return
        self._row(f"    verdicts on {len(v.frames)} of {v.eligible} frames (tag boxes differing most)", "", "", None)
        self.table.item(self.table.rowCount() - 1, 0).setToolTip(v.sample_note)
        a, b = v.current, v.candidate
        for verdict in ("OK", "REVIEW", "NG", "no recipe", "ERROR"):
            if a.counts.get(verdict) or b.counts.get(verdict):
                label = "read, not judged (no recipe on screen)" if verdict == "no recipe" else verdict
                self._row(f"        {label}", a.counts.get(verdict, 0), b.counts.get(verdict, 0),
                          {"OK": +1, "NG": -1, "ERROR": -1}.get(verdict))
        if a.good:
            self._row(f"        good frames OK (of {a.good})", a.good_ok, b.good_ok, +1)
            self._row("        false NG (good frames judged NG)", a.false_ng, b.false_ng, -1)
        self._row("        verdicts that would change", "", str(len(v.verdict_changes)), None)

    def _change(self, text: str, colour: QColor | None) -> None:
        item = QListWidgetItem(text)
        item.setToolTip(text)
        if colour is not None:
            item.setForeground(colour)
        self.changes.addItem(item)

    def _row(self, label: str, a, b, good_sign: int | None, header: bool = False) -> None:
        r = self.table.rowCount()
        self.table.insertRow(r)
        texts = [label, _fmt(a), _fmt(b), ""]
        delta = None
        if isinstance(a, float | int) and isinstance(b, float | int) and not header:
            delta = b - a
            texts[3] = f"{delta:+d}" if isinstance(delta, int) else f"{delta:+.3f}"
        for c, text in enumerate(texts):
            item = QTableWidgetItem(text)
            if c == 3 and delta and good_sign is not None:
                item.setForeground(BETTER if delta * good_sign > 0 else WORSE)
            if header:
                font = item.font()
                font.setBold(True)
                item.setFont(font)
            self.table.setItem(r, c, item)

    def close_resources(self) -> None:
        if self.job is not None:
            self.job.cancel()
            self.job.wait()


def _fmt(v) -> str:
    if isinstance(v, float):
        return f"{v:.3f}"
    return "" if v is None else str(v)
