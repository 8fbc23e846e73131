"""Verdict agreement across precisions: the same tag must get the same verdict at FP32, FP16 and INT8.

Boxes that move by a pixel at INT8 change the tag's crop, and with it what the reader reads; box
agreement alone does not show whether an operator would see a different verdict. This runs the
whole inspection (detect, read, verify, judge) with each precision's detector over the same images
and one reader, and counts the images whose verdict differs from FP32.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, Sequence

from inference.imageio import read_image


def verdicts_by_precision(models: dict[str, Path], backend: str, images: Sequence[Path], recipe: Any, *,
                          threads: int | None = None) -> dict[str, dict[str, str]]:
    """{precision: {image name: "OK" | "NG" | "REVIEW" | "ERROR"}}, one reader shared by all."""
    from inference.inspection import Inspector
    from inference.pipeline import Pipeline
    from inference.reading import TagReader

    options: dict[str, Any] = {"threads": threads} if threads else {}
    frames = [(path.name, read_image(path)) for path in images]
    out: dict[str, dict[str, str]] = {}
    with TagReader.open() as reader:
        for name, path in models.items():
            with Pipeline.open(path, backend, **options) as pipeline:
                inspector = Inspector(pipeline, reader=reader, recipe=recipe)
                out[name] = {image_name: Inspector.verdict_text(inspector.inspect_image(image, source_name=image_name))
                             for image_name, image in frames}
    return out


def agreement_with_fp32(verdicts: dict[str, dict[str, str]]) -> dict[str, dict[str, Any]]:
    """Per precision: verdict counts, and the images whose verdict is not FP32's."""
    reference = verdicts.get("fp32", {})
    report: dict[str, dict[str, Any]] = {}
    for name, by_image in verdicts.items():
        counts: dict[str, int] = {}
        for verdict in by_image.values():
            counts[verdict] = counts.get(verdict, 0) + 1
        differ = sorted(image for image, verdict in by_image.items() if reference.get(image) != verdict)
        same = len(by_image) - len(differ)
        report[name] = {"verdicts": counts, "images": len(by_image), "same_as_fp32": same,
                        "rate": round(same / len(by_image), 4) if by_image else 1.0, "differ": differ}
    return report
