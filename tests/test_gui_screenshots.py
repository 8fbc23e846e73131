"""Golden screenshots: the real window, offscreen, with the shipped detector and reader, in operator and
engineer mode (OK, NG, ERROR) at 1280×720 and 1920×1080, compared with docs/screenshots/ within a
tolerance. After an intended change: `make screenshots`, look at every picture, commit them."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("PySide6")

from app.screenshots import MODES, SIZES, STATES, capture, differing_share, shot_name  # noqa: E402

GOLDEN = Path(__file__).resolve().parents[1] / "docs" / "screenshots"
ARTIFACTS = Path(__file__).resolve().parents[1] / "test-artifacts" / "screenshots"
TOLERANCE = 0.03  # share of 4×4 cells allowed to differ; two runs here differ by ≤ 0.7 % (clock, OCR jitter)


def test_the_goldens_cover_every_mode_state_and_size():
    expected = {shot_name(m, s, z) for m in MODES for s in STATES for z in SIZES}
    assert expected <= {p.name for p in GOLDEN.glob("*.png")}, "run `make screenshots`, review and commit them"


def test_the_window_looks_like_its_golden_screenshots(qapp, tmp_path):
    from PySide6.QtGui import QImage

    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    differences = {}
    for path in capture(tmp_path):
        golden = QImage(str(GOLDEN / path.name))
        assert not golden.isNull(), f"no golden for {path.name}: run `make screenshots`"
        share = differing_share(golden, QImage(str(path)))
        if share > TOLERANCE:
            (ARTIFACTS / path.name).write_bytes(path.read_bytes())  # for a person to compare
            differences[path.name] = round(share, 3)
    assert differences == {}, f"differ from docs/screenshots (see {ARTIFACTS}); if intended, `make screenshots`"


def test_the_comparison_notices_a_different_verdict(qapp):
    from PySide6.QtGui import QImage

    ok = QImage(str(GOLDEN / shot_name("operator", "ok", SIZES[0])))
    ng = QImage(str(GOLDEN / shot_name("operator", "ng", SIZES[0])))
    assert differing_share(ok, ok) == 0.0
    assert differing_share(ok, ng) > TOLERANCE
    assert differing_share(ok, ok.scaled(640, 360)) == 1.0
