"""The reliability battery (issue 15). Fast cases run in `make test`; cases marked `release` take minutes
and run in `make reliability` (HANGTAG_RELIABILITY=1), before each release."""

from __future__ import annotations

import os

import pytest


def pytest_collection_modifyitems(config, items):
    if os.environ.get("HANGTAG_RELIABILITY") == "1":
        return
    skip = pytest.mark.skip(reason="slow reliability case: run with `make reliability`")
    for item in items:
        if "release" in item.keywords:
            item.add_marker(skip)
