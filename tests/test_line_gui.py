"""The window in per-tag mode end to end: a conveyor recording through the shipped detector and reader, the real
worker, tracker and reading thread; each tag ends as one journal row and one cell of the strip, and the banner
names the last one. The recording is played as a plain video (every frame, no clock), so what is asserted does
not depend on how fast this machine is: nor does the line's own timing, as a recording's tags are never timed out
by the wall clock (on a loaded machine, 112 s for its 144 frames, both tags were judged 'still in view when its
time ran out' while they crossed the view)."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")
from PySide6.QtCore import QSettings  # noqa: E402

from app.main_window import MainWindow  # noqa: E402
from app.settings import StationSettings  # noqa: E402
from inference.records import Journal  # noqa: E402
from tests.factories import conveyor_recording  # noqa: E402


@pytest.fixture(scope="module")
def recording(tmp_path_factory):
    out = tmp_path_factory.mktemp("line-gui")
    return out, conveyor_recording(out)


def test_each_tag_of_a_recording_is_one_journal_row_and_one_cell_of_the_strip(qtbot, tmp_path, recording):
    out, truth = recording
    settings = StationSettings(QSettings(str(tmp_path / "station.ini"), QSettings.Format.IniFormat))
    settings.set("line/per_tag", "1")
    window = MainWindow(source=str(out / "line.avi"), backend="onnxruntime-cpu", recipe=out / "recipe.toml",
                        settings=settings, read=True, journal_path=tmp_path / "journal.sqlite3", testing=True)
    qtbot.addWidget(window)
    window.show()
    qtbot.waitUntil(lambda: window.pipeline is not None and window.line.shows_tags, timeout=60000)
    window.start()
    qtbot.waitUntil(lambda: len(window.line.model.tags) >= len(truth["tags"]) and not window.source_bar.running,
                    timeout=240000)
    tags = window.line.model.tags
    assert len(tags) == len(truth["tags"]) == 2 and len({t.tag_id for t in tags}) == 2
    assert [t.verdict for t in tags] == ["OK", "OK"] and all(t.reasons == () for t in tags)  # judged when each left
    assert window.banner.verdict.text() == f"{tags[-1].verdict} {tags[-1].label}"
    assert window.line.strip.isVisible()
    window.close()
    with Journal.open(tmp_path / "journal.sqlite3", read_only=True) as journal:
        session = journal.last_session_id()
        rows = journal.tags(session)
        frames = journal.frame_count(session)
    assert [r.tag_id for r in rows] == [t.tag_id for t in tags]  # journaled in the order shown
    assert all(r.reads >= 1 and not r.missed and r.archive_crop for r in rows)
    assert frames == truth["frames"]  # the per-frame rows stay, one per frame the worker took
