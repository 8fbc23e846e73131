"""One frame, start to verdict: read every tag, judge, and ask the VLM only about tags in doubt.

The VLM is the expensive second opinion, so it sees a tag only when the recipe would otherwise
answer REVIEW for it; a tag already NG or OK is never sent. The frame is judged again afterwards.
"""

from __future__ import annotations

import numpy as np

from inference.detections import Detections
from inference.reading.reader import TagReader
from inference.reading.recipe import Recipe
from inference.reading.types import TagReading
from inference.reading.verdict import FrameVerdict, Verdict, judge, judge_tag
from inference.reading.vlm import VlmClient


def inspect_frame(
    reader: TagReader,
    recipe: Recipe,
    image_bgr: np.ndarray,
    detections: Detections,
    vlm: VlmClient | None = None,
) -> tuple[tuple[TagReading, ...], FrameVerdict]:
    readings = reader.read(image_bgr, detections, recipe=recipe)
    verdict = judge(recipe, detections, readings)
    if vlm is None or verdict.verdict is not Verdict.REVIEW:
        return readings, verdict
    refined = tuple(
        vlm.refine(tag, reader.upright_crop(image_bgr, tag)) if judge_tag(recipe, tag).verdict is Verdict.REVIEW else tag
        for tag in readings
    )
    return refined, judge(recipe, detections, refined)
