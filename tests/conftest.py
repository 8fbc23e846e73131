"""Every test writes its settings, caches, journals and archives under a temporary folder."""

from __future__ import annotations

import pytest


@pytest.fixture(autouse=True)
def _isolated_user_data(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path_factory.mktemp("user-data")))
