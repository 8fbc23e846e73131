"""Item 4 (headless part): the headless station's memory stays flat over a long run. The full soak is a
benchmark (tests/reliability/soak.py, BENCHMARKS.md); this release check runs a short one and fails
on a leak the size of the one the window had (every result kept: ~40 MiB per 1000 frames)."""

from __future__ import annotations

import re

import pytest

from tests.reliability.helpers import run_user_command


@pytest.mark.release
@pytest.mark.timeout(900)
def test_the_headless_station_does_not_grow_over_a_looping_run(tmp_path) -> None:
    proc = run_user_command(["-m", "tests.reliability.soak", "--frames", "600", "--every", "20", "--warmup", "200",
                             "--no-read", "--csv", str(tmp_path / "rss.csv")], data_dir=tmp_path, timeout=900)
    assert proc.returncode == 0, proc.stderr[-2000:]
    match = re.search(r"soak: (\d+) frames .*? RSS after warm-up .*? last - first ([+-][\d.]+) MiB", proc.stdout)
    assert match and int(match[1]) == 600, proc.stdout[-1000:]
    assert float(match[2]) <= 10.0, proc.stdout[-1000:]  # 400 frames after warm-up; the window's leak was ~16 MiB
