"""Adapt's Compare and Adopt steps in the station's window, with a candidate that turns a good frame NG:
the verdicts are shown next to AP50, and adopting it needs the engineer's confirmation (issue 17)."""

from __future__ import annotations

import json
import time
from pathlib import Path

import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QSettings  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.settings import StationSettings  # noqa: E402
from inference.records.convert import file_hash  # noqa: E402
from inference.resources import default_model_path, samples_dir  # noqa: E402
from tests.detector_variants import cut_box_candidate, kept_twice  # noqa: E402

ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts"
REPO = Path(__file__).resolve().parents[1]
FRAME = "090000022.jpg"  # one big front tag the shipped detector and reader judge OK under its recipe


def test_compare_shows_verdicts_and_adopting_a_candidate_that_turns_ok_to_ng_needs_a_confirmation(
        qtbot, tmp_path, monkeypatch):
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path / "data"))
    line = tmp_path / "line"
    line.mkdir()
    (line / FRAME).write_bytes((samples_dir() / FRAME).read_bytes())
    _, kept_name = kept_twice(tmp_path / "data" / "adapt", samples_dir() / FRAME)  # one copy held out
    recipe = tmp_path / "job.toml"  # the job's recipe, strict: a field not found is NG
    recipe.write_text((REPO / "resources/recipes/sample_090000022.toml").read_text(encoding="utf-8")
                      + '\n[verdict]\nmissing_field = "ng"\n', encoding="utf-8")

    settings = StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))
    window = MainWindow(source=str(line), backend="onnxruntime-cpu", settings=settings, read=False,
                        journal_path=tmp_path / "journal.sqlite3", testing=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None, timeout=60000)
    window.load_recipe(recipe)
    window.adapt_detector()
    adapt = window.adapt_window
    qtbot.waitExposed(adapt)
    adapt.resize(1280, 720)
    state = adapt.state
    state.set_candidate(cut_box_candidate(tmp_path / "data" / "adapt" / "candidates" / "cut"))  # boxes at 0.2

    adapt.tabs.setCurrentIndex(3)
    page = adapt.compare
    assert "judged under the recipe on screen" in page.status.text()
    page.verdict_frames.setValue(1)  # one frame per set keeps this test short
    page.run_button.click()
    qtbot.waitUntil(lambda: state.comparison is not None or "failed" in page.status.text(), timeout=600000)
    assert state.comparison is not None, page.status.text()
    held_out, golden = state.comparison.sets
    assert held_out.verdicts.frames == (kept_name,) and golden.verdicts.eligible == 10 and len(golden.verdicts.frames) == 1
    assert held_out.verdicts.current.counts == {"OK": 1} and held_out.verdicts.candidate.counts == {"NG": 1}
    labels = [page.table.item(r, 0).text().strip() for r in range(page.table.rowCount())]
    assert "AP50 hangtag" in labels and "good frames OK (of 1)" in labels and "false NG (good frames judged NG)" in labels
    assert any(label.startswith("verdicts on 1 of 10 frames") for label in labels)
    first = page.changes.item(0).text()
    assert first.startswith(f"held-out frames: {kept_name}: OK→NG (tag box") and "Δh -" in first
    assert page.status.text().startswith("Warning: the candidate turns 1 frame judged OK")  # not "1 frame(s)"
    ARTIFACTS.mkdir(exist_ok=True)
    adapt.grab().save(str(ARTIFACTS / "adapt_4_compare_verdicts.png"))
    saved = json.loads((state.candidate.directory / "comparison.json").read_text(encoding="utf-8"))
    assert saved["sets"][0]["verdicts"]["changes"][0]["candidate"] == "NG"

    adapt.tabs.setCurrentIndex(4)
    adopt = adapt.adopt
    assert adopt.warning.isVisible() and kept_name in adopt.warning.text()
    assert not adopt.adopt_button.isEnabled()  # not until the engineer says they looked
    adopt.adopt()  # even called directly, it refuses
    assert "tick that you have looked" in adopt.status.text() and window.model_path == default_model_path()
    adopt.confirm.setChecked(True)
    assert adopt.adopt_button.isEnabled()
    adapt.grab().save(str(ARTIFACTS / "adapt_5_adopt_confirm.png"))
    adopt.adopt_button.click()
    assert file_hash(window.model_path) == state.candidate.model_hash
    adopt.back_button.click()
    assert window.model_path == default_model_path()
    deadline = time.monotonic() + 60
    qtbot.waitUntil(lambda: Path(window.pipeline.engine.model_path) == default_model_path() or time.monotonic() > deadline,
                    timeout=70000)
    adapt.close()
