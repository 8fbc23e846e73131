"""The report's Pareto counts an NG frame under what was read against the recipe, not under a second tag that could
not be read: in the GUI walk 7 of 15 NG frames were 'tag not readable (NG)', among them frames the banner called NG
for '2 hangtags, expected 1' or 'style number 21526674 ≠ expected 22HX-1489'."""

from __future__ import annotations

import pytest

from inference.records.report import primary_reason
from tests.test_records_report import make_frame


def check(subject: str, verdict: str, read: str | None) -> dict:
    reason = f"{subject} not found" if read is None else f"{subject} {read} ≠ expected"
    return {"subject": subject, "verdict": verdict, "read": read, "reason": reason}


UNREAD_TAG = [check(f, "NG", None) for f in ("product_name", "color", "size")]


@pytest.mark.parametrize(("checks", "verdict", "expected"), [
    ([check("count:hangtag", "NG", "2"), check("print size", "REVIEW", "7 px"), *UNREAD_TAG], "NG",
     "hangtag count · NG"),
    ([check("print size", "REVIEW", "11 px"), *UNREAD_TAG, check("style_number", "NG", "21526674")], "NG",
     "style number 货号 · NG"),
    (UNREAD_TAG, "NG", "tag not readable (NG)"),  # nothing read: the tag could not be read
    ([check("print size", "REVIEW", "10 px"), *[check(f, "REVIEW", None) for f in ("color", "size", "grade")]],
     "REVIEW", "tag not readable (REVIEW)"),
    ([check("size", "REVIEW", "L"), check("price", "NG", "¥299.00")], "NG", "price 价格 · NG"),
])
def test_an_ng_frame_counts_under_what_was_read_against_the_recipe(checks, verdict, expected):
    assert primary_reason(make_frame(0, verdict, checks=checks)) == expected


def test_a_pdf_row_names_an_ng_frames_ng_checks_before_its_doubts():
    """The PDF row of an NG frame led with 'print size: expected >= 21 px lines, read 14 px' and three more REVIEW
    lines, and its wrong style number was in 'and 7 more check(s) failed'."""
    from inference.records.html_report import _flagged_rows
    from inference.records.report import FlaggedFrame

    doubts = [check(f, "REVIEW", "?") for f in ("print size", "product_name", "color", "size")]
    html = _flagged_rows((FlaggedFrame(make_frame(0, "NG", checks=[*doubts, check("style_number", "NG", "WU23F2722")])),))
    assert html.index("style number 货号") < html.index("print size") and "and 1 more check(s) failed" in html


@pytest.mark.parametrize(("verdicts", "said", "not_said"), [
    (["", ""], "None, and none passed either: 2 not judged (inspected without a recipe).", "every judged"),
    (["OK", "OK"], "None: every judged frame passed.", "not judged"),
    (["OK", "", "ERROR"], "None: every judged frame passed: 1 not judged (inspected without a recipe); 1 could not be "
                          "inspected.", "none passed"),
])
def test_no_flagged_frames_never_reads_as_a_pass_when_nothing_was_judged(verdicts, said, not_said):
    """A session inspected without a recipe: 'NG and REVIEW frames (0) · None: every judged tag passed'."""
    from inference.records.html_report import render_html
    from inference.records.report import summarize
    from tests.test_records_report import make_session

    frames = [make_frame(i, "" if v == "ERROR" else v, error="bad file" if v == "ERROR" else "")
              for i, v in enumerate(verdicts)]
    html = render_html(summarize(make_session(), frames), flavor="qt")
    assert said in html and not_said not in html.split("NG and REVIEW frames")[1].split("</p>")[0]
