"""Scenes whose frame edge cuts a tag (training/synth/edge_cut.py): the cut tag is a positive with its box clipped,
nothing else is left as an unlabelled piece, and share 0 keeps every set's bytes."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PIL", reason="the generator renders text with Pillow (pip install -e '.[dev]')")

from training.synth.__main__ import _make  # noqa: E402
from training.synth.__main__ import main as synth_main  # noqa: E402
from training.synth.edge_cut import (  # noqa: E402
    FRACTION, HOLE_FRACTION, KEEP_AREA, cut_by_edge, hole_end_side, maybe_cut,
)
from training.synth.labels import encode_jpeg, truth_json, yolo_lines  # noqa: E402
from training.synth.scene import generate_scene  # noqa: E402
from training.synth.wide_scene import generate_wide_scene  # noqa: E402


def _bytes(scene) -> tuple:
    return encode_jpeg(scene.image, 90), yolo_lines(scene), json.dumps(truth_json(scene, "x.jpg"))


@pytest.mark.parametrize("domain, seed", [("classic", 3), ("wide", 100_000_004)])
def test_share_zero_keeps_the_scene_as_drawn(domain: str, seed: int) -> None:
    drawn = generate_scene(seed, 320) if domain == "classic" else generate_wide_scene(seed, 320)
    assert _bytes(_make(seed, 320, False, 0, domain)) == _bytes(drawn)
    assert maybe_cut(drawn, 0.0) is drawn


@pytest.mark.parametrize("seed", range(8))
def test_the_cut_tag_keeps_its_visible_part_as_its_box(seed: int) -> None:
    """On flat cloth the card's pixels give its visible extent: the clipped box is their bounding box."""
    scene = generate_scene(seed, 640, n_tags=1, clean=True)
    cut, info = cut_by_edge(scene, np.random.default_rng([seed, 7]))
    assert info is not None, "a lone clean tag always fits a window"
    x0, y0, x1, y1 = info["window"]
    h, w = cut.image.shape[:2]
    assert (w, h) == (x1 - x0, y1 - y0)
    assert len(cut.tags) == 1 and cut.class_id[0] == 0
    bx1, by1, bx2, by2 = cut.tags[0].xyxy
    touches = {"top": by1 == 0, "bottom": by2 == h, "left": bx1 == 0, "right": bx2 == w}
    assert touches[info["side"]], (info, cut.tags[0].xyxy)
    ox1, oy1, ox2, oy2 = scene.tags[0].xyxy
    extent, kept = {"top": (oy2 - oy1, by2 - by1), "bottom": (oy2 - oy1, by2 - by1),
                    "left": (ox2 - ox1, bx2 - bx1), "right": (ox2 - ox1, bx2 - bx1)}[info["side"]]
    share_cut = 1 - kept / extent
    assert FRACTION[0] - 1.5 / extent <= share_cut <= FRACTION[1] + 1.5 / extent, (info, share_cut)
    image = cut.image.astype(np.int16)
    corner = next((y, x) for y, x in ((0, 0), (0, w - 1), (h - 1, 0), (h - 1, w - 1))
                  if not (bx1 - 1 <= x <= bx2 and by1 - 1 <= y <= by2))  # plain cloth
    ys, xs = np.nonzero(np.abs(image - image[corner]).max(2) > 24)
    assert abs(xs.min() - bx1) <= 1.5 and abs(ys.min() - by1) <= 1.5, (info, cut.tags[0].xyxy, xs.min(), ys.min())
    assert abs(xs.max() + 1 - bx2) <= 1.5 and abs(ys.max() + 1 - by2) <= 1.5, (info, cut.tags[0].xyxy, xs.max(), ys.max())


@pytest.mark.parametrize("seed", range(100_000_000, 100_000_010))
def test_every_label_stays_in_view_and_no_tag_is_left_an_unlabelled_piece(seed: int) -> None:
    scene = generate_wide_scene(seed, 640)
    cut, info = cut_by_edge(scene, np.random.default_rng([seed, 7]))
    if info is None:
        assert cut is scene
        return
    h, w = cut.image.shape[:2]
    x1, y1, x2, y2 = cut.xyxy.T
    assert (x1 >= 0).all() and (y1 >= 0).all() and (x2 <= w).all() and (y2 <= h).all()
    assert (x2 > x1).all() and (y2 > y1).all()
    assert len(cut.tags) == len(scene.tags), "every tag stays labelled"
    on_tags = len(cut.tags) + sum(len(t.symbols) for t in cut.tags)
    assert (cut.class_id[[0]] == 0).all() and len(cut.xyxy) >= on_tags
    for i, (before, after) in enumerate(zip(scene.tags, cut.tags)):
        area = lambda b: (b[2] - b[0]) * (b[3] - b[1])  # noqa: E731
        if i != info["tag"]:
            assert area(after.xyxy) >= KEEP_AREA * area(before.xyxy) - 1, (i, before.xyxy, after.xyxy)
        tx1, ty1, tx2, ty2 = after.xyxy
        for s in after.symbols:
            assert tx1 - 1 <= s.xyxy[0] and ty1 - 1 <= s.xyxy[1] and s.xyxy[2] <= tx2 + 1 and s.xyxy[3] <= ty2 + 1


def test_cli_edge_share_writes_cut_tags_and_zero_writes_todays_bytes(tmp_path: Path, monkeypatch) -> None:
    import training.synth.edge_cut as edge_cut

    monkeypatch.setattr(edge_cut, "EDGE_SHARE", edge_cut.EDGE_SHARE)  # the CLI sets both; undone after the test
    monkeypatch.delenv("HTS_SYNTH_EDGE_SHARE", raising=False)
    for share, out in ((None, tmp_path / "plain"), ("0", tmp_path / "zero"), ("1", tmp_path / "cut")):
        extra = [] if share is None else ["--edge-share", share]
        assert synth_main(["--out", str(out), "--count", "3", "--seed", "11", "--imgsz", "320", *extra]) == 0
    for name in ("000000011", "000000012", "000000013"):
        plain = (tmp_path / "plain" / "images" / f"{name}.jpg").read_bytes()
        assert (tmp_path / "zero" / "images" / f"{name}.jpg").read_bytes() == plain
        assert (tmp_path / "zero" / "labels" / f"{name}.txt").read_text() == (tmp_path / "plain" / "labels" / f"{name}.txt").read_text()
    touching = 0
    for label in (tmp_path / "cut" / "labels").glob("*.txt"):
        rows = np.loadtxt(label, ndmin=2)
        tags = rows[rows[:, 0] == 0]
        touching += int(((tags[:, 1] - tags[:, 3] / 2 < 1e-3) | (tags[:, 2] - tags[:, 4] / 2 < 1e-3)
                         | (tags[:, 1] + tags[:, 3] / 2 > 1 - 1e-3) | (tags[:, 2] + tags[:, 4] / 2 > 1 - 1e-3)).any())
    assert touching >= 2, "share 1 cuts a tag in every scene that has one (seeds 11-13 all do)"


UPRIGHT = ((10, 10), (40, 10), (40, 90), (10, 90))  # TL TR BR BL of a card 30 wide, 80 high


def _turned(quad, quarter_turns: int):
    """The same card turned by quarter turns clockwise in the image (its corner order follows the card)."""
    pts = list(quad)
    for _ in range(quarter_turns):
        pts = [(-y, x) for x, y in pts]
    return tuple(pts)


@pytest.mark.parametrize("quad, expected", [
    (UPRIGHT, "top"),
    (_turned(UPRIGHT, 1), "right"),
    (_turned(UPRIGHT, 2), "bottom"),
    (_turned(UPRIGHT, 3), "left"),
    (((10, 10), (90, 10), (90, 40), (10, 40)), "left"),  # landscape: the hole sits at the left end
    (((90, 40), (10, 40), (10, 10), (90, 10)), "right"),  # landscape upside down
])
def test_hole_end_side(quad, expected: str) -> None:
    assert hole_end_side(quad) == expected


@pytest.mark.parametrize("seed, side, window", [  # drawn by edge_cut.py before the option existed (9a337c8)
    (0, "left", (71, 0, 480, 640)),
    (1, "right", (0, 0, 508, 360)),
    (3, "left", (135, 0, 480, 640)),
    (5, "bottom", (0, 0, 640, 533)),
])
def test_hole_end_share_zero_cuts_as_before(seed: int, side: str, window: tuple) -> None:
    scene = generate_scene(seed, 640, n_tags=1, clean=True)
    _, info = cut_by_edge(scene, np.random.default_rng([seed, 7]), hole_end=0.0)
    assert (info["side"], info["window"]) == (side, window)


def test_hole_end_share_one_cuts_the_hole_off() -> None:
    """Where the hole end's side leaves no window of half the frame the scene is left whole; else the hole is gone."""
    cuts = 0
    for seed in range(12):
        scene = generate_scene(seed, 640, n_tags=1, clean=True)
        cut, info = cut_by_edge(scene, np.random.default_rng([seed, 7]), hole_end=1.0)
        if info is None:
            assert cut is scene
            continue
        cuts += 1
        assert info["side"] == hole_end_side(scene.tags[0].quad)
        assert HOLE_FRACTION[0] <= info["fraction"] <= 0.5
        tl, tr, br, bl = (np.float64(p) for p in scene.tags[0].quad)
        upright = np.linalg.norm(tl - bl) >= np.linalg.norm(tl - tr)
        a, b = ((tl + tr) / 2, (bl + br) / 2) if upright else ((tl + bl) / 2, (tr + br) / 2)
        hole = a + 0.08 * (b - a)  # benchmarks/edge_cut_tags.py's hole, near enough
        x0, y0, x1, y1 = info["window"]
        assert not (x0 <= hole[0] < x1 and y0 <= hole[1] < y1), (seed, info, hole)
        assert len(cut.tags) == 1 and cut.class_id[0] == 0
    assert cuts >= 6, cuts


def test_cli_hole_end_zero_writes_the_edge_shares_bytes(tmp_path: Path, monkeypatch) -> None:
    import training.synth.edge_cut as edge_cut

    monkeypatch.setattr(edge_cut, "EDGE_SHARE", edge_cut.EDGE_SHARE)
    monkeypatch.setattr(edge_cut, "HOLE_END_SHARE", edge_cut.HOLE_END_SHARE)
    monkeypatch.delenv("HTS_SYNTH_EDGE_SHARE", raising=False)
    monkeypatch.delenv("HTS_SYNTH_EDGE_HOLE_END", raising=False)
    for extra, out in (([], "edge"), (["--edge-hole-end", "0"], "zero"), (["--edge-hole-end", "1"], "hole")):
        assert synth_main(["--out", str(tmp_path / out), "--count", "3", "--seed", "11", "--imgsz", "320",
                           "--edge-share", "1", *extra]) == 0
    names = ("000000011", "000000012", "000000013")
    for name in names:
        for sub, ext in (("images", "jpg"), ("labels", "txt")):
            edge = (tmp_path / "edge" / sub / f"{name}.{ext}").read_bytes()
            assert (tmp_path / "zero" / sub / f"{name}.{ext}").read_bytes() == edge
    assert any((tmp_path / "hole" / "labels" / f"{n}.txt").read_bytes() != (tmp_path / "edge" / "labels" / f"{n}.txt").read_bytes()
               for n in names), "share 1 moves at least one cut to the hole end"
