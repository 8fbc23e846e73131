"""History's session list counts the frames that got no verdict: a session of one undecodable file read 'Frames 1 ·
OK 0 · NG 0 · REVIEW 0', its one frame in no column, and a quality manager could not tell what became of it."""

from __future__ import annotations

import pytest

pytest.importorskip("PySide6")

from PySide6.QtCore import Qt  # noqa: E402

from app.history.models import SESSION_COLUMNS  # noqa: E402
from inference.pipeline import error_result  # noqa: E402
from inference.postprocess import Thresholds  # noqa: E402
from inference.records.journal import Journal  # noqa: E402
from inference.records.recorder import Recorder  # noqa: E402
from tests.test_history_window import open_window  # noqa: E402
from tests.test_records_tags import KEY  # noqa: E402


def test_a_session_whose_frame_could_not_be_inspected_counts_it_under_other(qtbot, tmp_path):
    with Journal.open(tmp_path / "j.sqlite3") as journal:
        recorder = Recorder(journal)
        recorder.use(KEY)
        recorder.record(error_result(0, "fake.jpg", None, "fake.jpg could not be decoded", Thresholds()), None)
        session = recorder.session_id
    window = open_window(qtbot, tmp_path / "j.sqlite3")
    row = window.sessions.row_of(session)
    said = {c: window.sessions.index(row, i).data() for i, c in enumerate(SESSION_COLUMNS)}
    assert (said["Frames"], said["OK"], said["NG"], said["REVIEW"], said["Other"]) == ("1", "0", "0", "0", "1")
    tip = window.sessions.index(row, SESSION_COLUMNS.index("Other")).data(Qt.ItemDataRole.ToolTipRole)
    assert "could not be inspected" in tip
