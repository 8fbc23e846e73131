"""The recognizer fine-tune's line generator (training/ocr_finetune): lines as the station cuts them, made with
the station's own preprocessing, never in a test-set font, never from the test sets' word lists; and the
trainable graph, which must give ONNX Runtime's outputs and export to the same contract."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from inference.reading import rectify, text_lines
from inference.reading.ocr import recognizer
from inference.reading.ocr.charset import gb2312_charset
from training.ocr_finetune import fonts, lines, render, train
from training.ocr_finetune.text import line_text

REPO = Path(__file__).resolve().parents[1]


def bundled() -> list[str]:
    return [str(p) for p in fonts.training_fonts(None)]


def test_lines_come_as_the_station_cuts_them():
    made = lines.generate(60, seed=5, fonts=bundled())
    assert len(made) == 60
    for line in made:
        assert line.crop.dtype == np.uint8 and line.crop.ndim == 3 and line.crop.shape[2] == 3
        assert line.crop.shape[1] >= 4
        assert line.squeeze in (render.FIRST_SQUEEZE, render.SECOND_SQUEEZE)
        if line.enlarged:  # the second read's 2x of a line still under 32 px after the station's resampling
            assert line.squeeze == render.SECOND_SQUEEZE
            assert line.crop.shape[0] < 2 * text_lines.SMALL_PRINT_PX and line.crop.shape[0] % 2 == 0
        elif line.glyph_px < 14:  # resampled to the station's 32 px, at most 4x
            assert line.crop.shape[0] <= text_lines.SMALL_PRINT_PX, (line.glyph_px, line.crop.shape)
        else:
            assert line.crop.shape[0] >= text_lines.SMALL_PRINT_PX
    assert sum(line.crop.shape[0] == text_lines.SMALL_PRINT_PX for line in made) > 20
    assert sum(line.glyph_px < 14 for line in made) > 30  # mostly small print
    assert {line.squeeze for line in made} == {render.FIRST_SQUEEZE, render.SECOND_SQUEEZE}


def test_the_station_s_own_preprocessing_is_used_not_a_copy():
    assert render._widened is text_lines._widened
    assert render.enlarged is text_lines.enlarged
    assert render.Upright is rectify.Upright
    assert render.SMALL_PRINT_PX == text_lines.SMALL_PRINT_PX
    assert train.prepare_batch is recognizer.prepare_batch
    assert train.rec_width is recognizer.rec_width


def test_the_same_seed_makes_the_same_lines():
    a, b = (lines.generate(5, seed=11, fonts=bundled()) for _ in range(2))
    assert [x.text for x in a] == [x.text for x in b]
    assert all(np.array_equal(x.crop, y.crop) for x, y in zip(a, b))


@pytest.mark.parametrize("name", ["wqy-zenhei.ttc", "ukai.ttc", "uming.ttc", "LiberationSans-Regular.ttf", "wqy-microhei.ttc"])
def test_a_test_set_font_is_never_picked(tmp_path, name):
    shutil.copy(fonts.BUNDLED[0], tmp_path / name)
    with pytest.raises(fonts.TestFontError, match="test-set fonts"):
        fonts.training_fonts(tmp_path)
    with pytest.raises(fonts.TestFontError):
        lines.font_paths(tmp_path, test=False)


def test_training_fonts_are_none_of_the_test_fonts():
    chosen = {Path(p).name for p in lines.font_paths(None, test=False)}
    chosen |= {s.name for s in fonts.TRAINING_SOURCES} | {Path(s.path).name for s in fonts.TRAINING_SOURCES}
    assert not [n for n in chosen if fonts.is_test_font(n)]
    assert all(fonts.is_test_font(p) for p, _index in fonts.TEST_FONTS)
    made = lines.generate(30, seed=2, fonts=bundled())
    assert not [line.font for line in made if fonts.is_test_font(line.font)]


def thin_cut(out: Path, hanzi: int) -> Path:
    """The bundled Noto Sans SC cut to ASCII, 全 and the first `hanzi` characters of GB 2312 level 1."""
    from fontTools import subset
    from fontTools.ttLib import TTFont

    font = TTFont(str(fonts.BUNDLED[0]))
    sub = subset.Subsetter(subset.Options())
    sub.populate(text="".join(chr(c) for c in range(0x20, 0x7F)) + "全" + fonts.level1()[:hanzi])
    sub.subset(font)
    font.save(str(out))
    return out


def test_a_font_lacking_much_of_level_1_is_never_picked(tmp_path):
    assert len(fonts.level1()) == 3755 and fonts.level1()[0] == "啊"
    thin_cut(tmp_path / "Thin.otf", 3000)  # 80 % of level 1: most lines would lose characters
    with pytest.raises(fonts.CoverageError, match="GB 2312 level 1"):
        fonts.training_fonts(tmp_path)
    with pytest.raises(fonts.CoverageError):
        lines.font_paths(tmp_path, test=False)
    (tmp_path / "Thin.otf").unlink()
    thin_cut(tmp_path / "Nearly.otf", 3700)  # 98.5 %: used
    assert tmp_path / "Nearly.otf" in fonts.training_fonts(tmp_path)


def test_a_face_is_asked_only_for_characters_it_holds(tmp_path):
    """No tofu: a character the face's cmap lacks leaves the line's text (and its label) rather than being drawn."""
    face = str(thin_cut(tmp_path / "Few.otf", 10))
    held = set(fonts.level1()[:10]) | {chr(c) for c in range(0x20, 0x7F)}
    rng = np.random.default_rng(4)
    line = render.render_line(rng, face, text="啊阿 纤维 ¥129", glyph_px=12.0, variety=True)
    assert line.text == "啊阿 129"
    assert set(line.text) <= held
    made = render.render_many(9, 20, [face])
    assert all(set(m.text) <= held for m in made)


def test_the_v3_faces_are_training_sources_and_most_of_them():
    """v3 trains mostly on faces v2 never saw: more new faces than the seven v1 and v2 used."""
    names = [s.name for s in fonts.TRAINING_SOURCES]
    new = {"LXGWWenKai-Regular.ttf", "SmileySans-Oblique.ttf", "BabelStoneHan.ttf", "HanaMinA.ttf", "NotoSansSC-Light.otf",
           "NotoSerifSC-Black.otf"}
    assert new <= set(names)
    assert len(names) - 5 > 5 + len(fonts.BUNDLED)
    assert len(set(names)) == len(names)


def test_text_is_within_the_recognizer_s_characters():
    rng = np.random.default_rng(3)
    allowed = gb2312_charset()
    texts = [line_text(rng) for _ in range(500)]
    assert all(1 <= len(t) <= 24 for t in texts)
    assert not {ch for t in texts for ch in t} - allowed
    assert any("GB" in t or "FZ/T" in t for t in texts)  # the grammars are used


def test_the_test_sets_are_never_imported():
    code = ("import sys; import training.ocr_finetune.lines, training.ocr_finetune.train, training.ocr_finetune.evaluate, "
            "training.ocr_finetune.model, training.ocr_finetune.real_lines; "
            "bad = [m for m in sys.modules if m.startswith('training.tagsets')]; print(bad); sys.exit(1 if bad else 0)")
    done = subprocess.run([sys.executable, "-c", code], cwd=REPO, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"expected no training.tagsets module, found {done.stdout} {done.stderr[-500:]}"


def test_the_trainable_graph_matches_onnx_runtime_and_exports_the_same_contract(tmp_path):
    pytest.importorskip("torch")
    import onnx

    from inference.reading.ocr.models import find_ocr_models
    from training.ocr_finetune.model import TrainableRecognizer, export, max_diff_against_ort

    source = find_ocr_models("fp32", "gb2312").rec
    model = TrainableRecognizer(source, device="cpu")
    made = lines.generate(6, seed=8, fonts=bundled())
    batch, _widths = recognizer.prepare_batch([line.crop for line in made], render.FIRST_SQUEEZE)
    assert max_diff_against_ort(source, model, [batch]) < 1e-3
    assert model.encode("GB 18401-2010 A类") is not None and model.encode("\u20ac") is None
    with model.torch.no_grad():
        first = next(iter(model.trainable.values()))
        first.add_(0.01)  # a trained weight: the export must carry it
    out = export(source, model, tmp_path / "rec.onnx")
    assert max_diff_against_ort(out, model, [batch]) < 1e-3
    a, b = onnx.load(str(source)), onnx.load(str(out))
    assert {p.key: p.value for p in a.metadata_props} == {p.key: p.value for p in b.metadata_props}
    assert [i.name for i in a.graph.input] == [i.name for i in b.graph.input]
    assert str(a.graph.output[0].type) == str(b.graph.output[0].type)
    assert out.stat().st_size <= 16 * 1024 * 1024
