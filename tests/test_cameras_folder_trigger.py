"""The trigger folder on its own, with real files: each new file fires once, its number is the trigger id, it is
consumed, stale files are left alone, and a trigger the camera refuses is recorded, not dropped. (With a real
camera behind it: tests/test_cameras_gui.py.)"""

from __future__ import annotations

import time

import pytest

from inference.cameras.acquisition import CameraLost
from inference.cameras.folder_trigger import FolderTrigger, trigger_id_of
from inference.errors import SourceError


@pytest.mark.parametrize(("name", "expected"), [
    ("000123.trg", 123), ("42", 42), ("7.txt.tmp", 7), ("garment.trg", None), ("12a.trg", None), ("", None),
])
def test_a_numbered_file_names_its_trigger(name, expected):
    assert trigger_id_of(name) == expected


def wait_until(predicate, budget_s: float = 10.0) -> None:
    start = time.monotonic()
    while not predicate():
        assert time.monotonic() - start < budget_s, "not within the budget"
        time.sleep(0.01)


def test_each_new_file_fires_once_and_is_consumed_stale_ones_stay(tmp_path):
    (tmp_path / "5.trg").write_text("")  # there before the station looked
    fired: list[int | None] = []
    watcher = FolderTrigger(tmp_path, lambda i: fired.append(i) or 0, lambda *refused: None)
    try:
        for name in ("101.trg", "line-a.trg", ".hidden", "102.trg"):
            (tmp_path / name).write_text("")
            if not name.startswith("."):
                wait_until(lambda: not (tmp_path / name).exists())
        wait_until(lambda: len(fired) == 3)
    finally:
        watcher.close()
    assert fired == [101, None, 102] and watcher.fired == 3
    assert sorted(p.name for p in tmp_path.iterdir()) == [".hidden", "5.trg"]


def test_a_trigger_the_camera_refuses_is_recorded_with_its_file(tmp_path):
    refused: list[tuple] = []

    def camera_away(trigger_id):
        raise CameraLost("GigE Vision camera GV01 is lost; trigger not sent", found="no answer")

    watcher = FolderTrigger(tmp_path, camera_away, lambda *why: refused.append(why))
    try:
        (tmp_path / "17.trg").write_text("")
        wait_until(lambda: refused)
    finally:
        watcher.close()
    assert refused == [(17, "17.trg", "GigE Vision camera GV01 is lost; trigger not sent")] and watcher.fired == 0


def test_a_trigger_folder_that_is_not_there_says_what_to_do(tmp_path):
    with pytest.raises(SourceError, match="cannot watch the trigger folder") as caught:
        FolderTrigger(tmp_path / "missing", lambda i: 0, lambda *why: None)
    assert caught.value.hint
