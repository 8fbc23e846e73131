"""The wide training domain: designs held out whole, labels that stay tight, hard negatives that are not tags."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PIL", reason="the generator renders text with Pillow (pip install -e '.[dev]')")

from training.synth.__main__ import main as synth_main  # noqa: E402
from training.synth.fonts import cjk_faces  # noqa: E402
from training.synth.negatives import coin, packaging, receipt  # noqa: E402
from training.synth.wide_scene import generate_wide_scene, held_out_design  # noqa: E402
from training.synth.wide_tag import HELD_OUT_FACE, HELD_OUT_LAYOUT, design_split, render_wide_card  # noqa: E402


def test_held_out_designs_never_appear_in_training_designs():
    train, held = design_split()
    assert train and held
    assert not {d.name for d in train} & {d.name for d in held}
    assert all(d.layout != HELD_OUT_LAYOUT and HELD_OUT_FACE not in d.regular for d in train)
    assert any(d.layout == HELD_OUT_LAYOUT for d in held)


def test_training_faces_exclude_the_independent_test_sets_fonts():
    assert not [f for f in cjk_faces() if any(n in Path(f).name.lower() for n in ("wqy", "ukai", "uming"))]


def test_same_seed_gives_the_same_scene():
    a, b = generate_wide_scene(100000123, 320), generate_wide_scene(100000123, 320)
    assert np.array_equal(a.image, b.image) and np.array_equal(a.xyxy, b.xyxy)


@pytest.mark.parametrize("seed", [111000000, 111000001, 111000002, 111000003])
def test_held_out_scene_uses_only_its_design(seed: int):
    scene = generate_wide_scene(seed, 320, held_out=True)
    assert {t.design for t in scene.tags} <= {held_out_design(seed).name}


@pytest.mark.parametrize("seed", range(100000000, 100000012))
def test_labels_lie_inside_the_image_and_codes_on_a_tag_or_a_negative(seed: int):
    scene = generate_wide_scene(seed, 320)
    h, w = scene.image.shape[:2]
    assert scene.image.dtype == np.uint8 and scene.image.shape[2] == 3
    assert (scene.xyxy[:, :2] >= 0).all() and (scene.xyxy[:, 2] <= w).all() and (scene.xyxy[:, 3] <= h).all()
    assert ((scene.xyxy[:, 2] - scene.xyxy[:, 0]) >= 3).all() and ((scene.xyxy[:, 3] - scene.xyxy[:, 1]) >= 3).all()
    tag_symbols = sum(len(t.symbols) for t in scene.tags)
    assert int((scene.class_id == 0).sum()) == len(scene.tags)
    assert len(scene.xyxy) >= len(scene.tags) + tag_symbols  # the rest are barcodes on receipts and packaging
    for tag in scene.tags:
        x1, y1, x2, y2 = tag.xyxy
        for s in tag.symbols:
            assert x1 - 1 <= s.xyxy[0] and s.xyxy[2] <= x2 + 1 and y1 - 1 <= s.xyxy[1] and s.xyxy[3] <= y2 + 1


def test_a_card_labels_its_codes_inside_the_card():
    train, _ = design_split()
    card = render_wide_card(np.random.default_rng(5), 6.0, train[0], back_side=False)
    for k, symbol in enumerate(card.symbols, start=1):
        ys, xs = np.nonzero(card.label_map == k)
        assert len(xs), f"symbol {symbol.kind} has no pixels"
        assert (card.alpha[ys, xs] > 0).all()


@pytest.mark.parametrize("maker", [coin, receipt, packaging])
def test_negatives_label_exactly_their_own_barcodes(maker):
    for seed in range(6):
        patch, labels, texts = maker(np.random.default_rng(seed), 600.0)
        assert patch.shape[2] == 4 and patch.shape[:2] == labels.shape
        assert set(np.unique(labels)) - {0} == set(range(1, len(texts) + 1))


def test_cli_writes_a_wide_held_out_set(tmp_path: Path):
    out = tmp_path / "wide"
    assert synth_main(["--out", str(out), "--count", "3", "--seed", "111000000", "--domain", "wide", "--held-out",
                       "--imgsz", "320"]) == 0
    doc = json.loads((out / "annotations.json").read_text())
    assert [i["id"] for i in doc["images"]] == [111000000, 111000001, 111000002]
    truth = json.loads((out / "truth" / "111000000.json").read_text())
    assert all(t["design"] == held_out_design(111000000).name for t in truth["tags"])


@pytest.mark.parametrize("seed", range(6))
def test_heavy_fronts_print_faux_bold_numerals_that_are_never_labelled(seed: int, monkeypatch):
    """Issue 17: heavy prices and boxed sizes are what the detector took for barcodes on unseen designs."""
    import training.synth.wide_tag as wide_tag

    design = design_split()[0][seed * 3 % len(design_split()[0])]
    plain = render_wide_card(np.random.default_rng(seed), 8.0, design, back_side=False)
    monkeypatch.setattr(wide_tag, "HEAVY_SHARE", 1.0)
    heavy = render_wide_card(np.random.default_rng(seed), 8.0, design, back_side=False)
    assert not np.array_equal(plain.rgb, heavy.rgb)
    # only the codes are labelled (heavy print draws random numbers, so the code mix may differ from plain's)
    assert set(np.unique(heavy.label_map)) == set(range(len(heavy.symbols) + 1))
