"""The source bar names GenICam cameras as their own kind and gives their spec back unchanged."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(("spec", "kind", "field"), [
    ("genicam:22918301", "GenICam camera", "22918301"),
    ("genicam:0?cti=/opt/pylon/lib/gentlproducer/gtl/ProducerGEV.cti&trigger=software", "GenICam camera",
     "0?cti=/opt/pylon/lib/gentlproducer/gtl/ProducerGEV.cti&trigger=software"),
    ("aravis:GV01", "Camera", "aravis:GV01"),
])
def test_an_industrial_camera_spec_shows_as_its_kind_and_comes_back_unchanged(qtbot, spec, kind, field):
    from app.widgets.source_bar import KINDS, SourceBar

    bar = SourceBar()
    qtbot.addWidget(bar)
    bar.kind.setCurrentIndex(KINDS.index("Single image"))  # whatever was picked before
    bar.set_spec(spec)
    assert (KINDS[bar.kind.currentIndex()], bar.path.text()) == (kind, field)
    assert bar.spec() == spec
    assert bar.browse.isHidden() and (bar.resolution.isHidden() == (kind == "GenICam camera"))
