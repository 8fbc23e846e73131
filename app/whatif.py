"""The what-if line of the tuning dock: how many recorded frames would change verdict at the thresholds
being tried, from their cached detector outputs (no inference)."""

from __future__ import annotations

from inference.inspection import Inspector, rejudge
from inference.pipeline import FrameResult


def whatif_text(results: list[FrameResult], thresholds, recipe) -> str:
    """How many frames on record would change verdict at `thresholds`, each compared with its own recorded
    thresholds under the *current* recipe: a recipe change alone flips nothing (it used to count every
    frame judged without a recipe)."""
    if len(results) < 2:
        return ""
    flips = compared = 0
    for result in results:
        if not result.ok or not len(result.candidates):
            continue
        compared += 1
        before = rejudge(result, result.thresholds, recipe)
        flips += Inspector.verdict_text(rejudge(result, thresholds, recipe)) != Inspector.verdict_text(before)
    return (f"What-if: {flips} of the last {compared} inspected frames would change verdict at these thresholds "
            "(re-filtered from cached outputs, no new inference).")
