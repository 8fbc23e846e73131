"""The synthetic scene generator: determinism, label geometry, and symbols that really scan."""

from __future__ import annotations

import hashlib
from pathlib import Path

import numpy as np
import pytest

pytest.importorskip("PIL", reason="the generator renders text with Pillow (pip install -e '.[dev]')")

from training.synth import FIELD_KEYS, CLASS_NAMES, generate_scene, render_tag  # noqa: E402
from training.synth.__main__ import main as synth_main  # noqa: E402
from training.synth.barcodes import code128_values, ean13_check_digit, ean13_is_valid  # noqa: E402
from training.synth.content import draw_fields  # noqa: E402
from training.synth.labels import encode_jpeg, truth_json, yolo_lines  # noqa: E402

BARCODE, QR = CLASS_NAMES.index("barcode"), CLASS_NAMES.index("qr_code")


def _digest(scene) -> str:
    h = hashlib.sha256()
    h.update(encode_jpeg(scene.image, 90))
    h.update(yolo_lines(scene).encode())
    h.update(repr(truth_json(scene, "x.jpg")).encode())
    return h.hexdigest()


@pytest.mark.parametrize("seed", [0, 7, 123456])
def test_same_seed_gives_identical_bytes(seed: int) -> None:
    first, second = generate_scene(seed, 320), generate_scene(seed, 320)
    assert np.array_equal(first.image, second.image)
    assert _digest(first) == _digest(second)


def test_different_seeds_give_different_scenes() -> None:
    assert _digest(generate_scene(1, 320)) != _digest(generate_scene(2, 320))


def test_cli_writes_the_same_files_for_any_worker_count(tmp_path: Path) -> None:
    for workers, out in ((1, tmp_path / "a"), (2, tmp_path / "b")):
        assert synth_main(["--out", str(out), "--count", "4", "--seed", "300", "--workers", str(workers),
                           "--imgsz", "256", "--chunk", "2"]) == 0
    files = sorted(p.relative_to(tmp_path / "a") for p in (tmp_path / "a").rglob("*") if p.is_file())
    assert len([f for f in files if f.suffix == ".jpg"]) == 4
    for rel in files:
        if rel.name == "data.yaml":  # holds the absolute path
            continue
        assert (tmp_path / "a" / rel).read_bytes() == (tmp_path / "b" / rel).read_bytes(), rel


@pytest.mark.parametrize(("first12", "check"), [("400638133393", 1), ("978030640615", 7), ("690123456789", 2)])
def test_ean13_check_digit_matches_published_codes(first12: str, check: int) -> None:
    assert ean13_check_digit(first12) == check
    assert ean13_is_valid(first12 + str(check))
    assert not ean13_is_valid(first12 + str((check + 1) % 10))


@pytest.mark.parametrize(("text", "expected"), [
    # set B: checksum (104 + 48 + 2*42 + 3*42 + 4*17 + 5*18 + 6*19 + 7*35) mod 103 = 879 mod 103 = 55
    ("PJJ123C", [104, 48, 42, 42, 17, 18, 19, 35, 55]),
    # digits pair up in set C: (105 + 12 + 2*34) mod 103 = 82
    ("1234", [105, 12, 34, 82]),
])
def test_code128_symbol_values_and_checksum(text: str, expected: list[int]) -> None:
    assert code128_values(text) == expected


def test_every_generated_ean13_is_valid() -> None:
    codes = [draw_fields(np.random.default_rng(s))["ean13"] for s in range(300)]
    codes += [s.text for seed in range(20) for t in generate_scene(seed, 256).tags for s in t.symbols
              if s.format == "EAN13"]
    assert all(ean13_is_valid(c) and c.startswith("69") for c in codes)


def test_fields_carry_every_key_and_match_the_symbols() -> None:
    for seed in range(12):
        tag = render_tag(seed)
        assert tuple(tag.fields) == FIELD_KEYS
        by_format = {s.format: s.text for s in tag.symbols}
        assert by_format["EAN13"] == tag.fields["ean13"]
        if "Code128" in by_format:
            assert by_format["Code128"] == tag.fields["style_number"]
        assert tag.fields["price"].startswith("¥") and tag.fields["price"].endswith(".00")
        assert "GB 18401" in tag.fields["safety_category"]


def test_back_of_a_tag_prints_the_brand_only() -> None:
    tag = render_tag(5, back_side=True)
    assert tag.symbols == ()
    assert tag.fields["brand"] and all(tag.fields[k] is None for k in FIELD_KEYS if k != "brand")


def test_every_rendered_symbol_decodes_with_zxing() -> None:
    zxingcpp = pytest.importorskip("zxingcpp")
    kinds = set()
    for seed in range(16):
        tag = render_tag(seed)
        read = {(r.format.name, r.text) for r in zxingcpp.read_barcodes(tag.image)}
        for symbol in tag.symbols:
            assert (symbol.format, symbol.text) in read, (seed, symbol, read)
            kinds.add(symbol.format)
    assert kinds == {"EAN13", "Code128", "QRCode"}


def _dark(gray: np.ndarray) -> np.ndarray:
    return gray < 110


@pytest.mark.parametrize("seed", range(10))
def test_flat_tag_boxes_touch_the_outermost_bars(seed: int) -> None:
    tag = render_tag(seed)
    gray = tag.image.mean(2)
    assert tag.class_id[0] == CLASS_NAMES.index("hangtag")
    ys, xs = np.nonzero(tag.alpha > 127)
    assert tuple(tag.xyxy[0]) == (xs.min(), ys.min(), xs.max() + 1, ys.max() + 1)
    for symbol in tag.symbols:
        x1, y1, x2, y2 = (int(v) for v in symbol.xyxy)
        inside = _dark(gray[y1:y2, x1:x2])
        assert inside[:, 0].any() and inside[:, -1].any() and inside[0].any() and inside[-1].any(), symbol
        # quiet zone: nothing dark just left, right and above the symbol
        assert not _dark(gray[y1:y2, x1 - 2:x1]).any() and not _dark(gray[y1:y2, x2:x2 + 2]).any(), symbol
        assert not _dark(gray[y1 - 2:y1, x1:x2]).any(), symbol


@pytest.mark.parametrize("seed", range(12))
def test_scene_boxes_are_inside_the_image_and_nested(seed: int) -> None:
    scene = generate_scene(seed, 320)
    h, w = scene.image.shape[:2]
    x1, y1, x2, y2 = scene.xyxy.T if len(scene.xyxy) else (np.zeros(0),) * 4
    assert (x1 >= 0).all() and (y1 >= 0).all() and (x2 <= w).all() and (y2 <= h).all()
    assert (x2 > x1).all() and (y2 > y1).all()
    assert len(scene.xyxy) == len(scene.tags) + sum(len(t.symbols) for t in scene.tags)
    for tag in scene.tags:
        tx1, ty1, tx2, ty2 = tag.xyxy
        for s in tag.symbols:
            assert tx1 <= s.xyxy[0] and ty1 <= s.xyxy[1] and s.xyxy[2] <= tx2 and s.xyxy[3] <= ty2


def test_clean_scene_boxes_are_tight() -> None:
    """On flat cloth, a hangtag box is the bounding box of the pixels that differ from the
    cloth, and a barcode box (where bars are at least a pixel wide) has dark bars on all four
    of its edges: the first and last bars and, for EAN-13, the long guard bars."""
    checked_barcodes = 0
    for seed in range(10):
        scene = generate_scene(seed, 1280, n_tags=1, clean=True)
        assert len(scene.tags) == 1
        tag = scene.tags[0]
        image = scene.image.astype(np.int16)
        corner = (0, 0) if tag.xyxy[0] > 0 or tag.xyxy[1] > 0 else (-1, -1)
        changed = np.abs(image - image[corner]).max(2) > 24
        ys, xs = np.nonzero(changed)
        x1, y1, x2, y2 = tag.xyxy
        assert abs(xs.min() - x1) <= 1 and abs(ys.min() - y1) <= 1, (seed, tag.xyxy, xs.min(), ys.min())
        assert abs(xs.max() + 1 - x2) <= 1 and abs(ys.max() + 1 - y2) <= 1, (seed, tag.xyxy, xs.max(), ys.max())
        gray = scene.image.mean(2)
        for s in tag.symbols:
            bx1, by1, bx2, by2 = (int(v) for v in s.xyxy)
            if s.class_id != BARCODE or bx2 - bx1 < 130:
                continue
            dark = gray[by1:by2, bx1:bx2] < 150
            assert dark[:, :2].any() and dark[:, -2:].any() and dark[:2].any() and dark[-2:].any(), (seed, s)
            checked_barcodes += 1
    assert checked_barcodes >= 3
