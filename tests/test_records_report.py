"""The report's numbers: yield, Pareto grouping, percentiles, curve thinning and axis ticks."""

from __future__ import annotations

import dataclasses
import re
from html import escape

import numpy as np
import pytest

from inference.records.html_report import render_html
from inference.records.report import (FlaggedFrame, Series, downsample, latency_stats, local_time, pareto, primary_reason,
                                      sampling_gaps, summarize)
from inference.records.svg import line_chart_svg, middle_ellipsis, nice_ticks, pareto_svg
from inference.records.types import FrameRecord, SessionInfo


def make_frame(i: int, verdict: str = "OK", *, checks=(), reasons=(), error: str = "", total: float = 10.0) -> FrameRecord:
    return FrameRecord(id=i + 1, session_id=1, frame_index=i, timestamp=1_790_000_000 + i, source_name=f"{i}.jpg",
                       image_path="", image_hash="", image_hw=(10, 10), verdict=verdict, reasons=tuple(reasons),
                       checks=tuple(checks), detections=(), tags=(), thresholds={"confidence": 0.3, "iou": 0.5},
                       timings_ms={"infer": total / 2, "total": total}, rss_mb=400.0 + i, vram_mb=None, error=error,
                       archive_original="", archive_annotated="")


def make_session() -> SessionInfo:
    return SessionInfo(1, 1_790_000_000, None, "st", "job", "lot", "recipe", "", "", "", "", "", None, "")


def failed(subject: str, verdict: str = "NG") -> dict:
    return {"subject": subject, "verdict": verdict, "reason": f"{subject} wrong"}


def test_counts_and_yield_count_errors_as_not_passed_and_leave_unjudged_out():
    frames = [make_frame(0, "OK"), make_frame(1, "OK"), make_frame(2, "NG", checks=[failed("price")]),
              make_frame(3, "", error="bad file"), make_frame(4, "")]
    report = summarize(make_session(), frames)
    assert report.counts == {"OK": 2, "NG": 1, "REVIEW": 0, "ERROR": 1, "NOT JUDGED": 1, "frames": 5}
    assert report.yield_ == pytest.approx(2 / 4)
    assert [e.frame_index for e in report.errors] == [3]
    assert summarize(make_session(), [make_frame(0, "")]).yield_ is None


def test_pareto_ranks_accumulates_and_folds_the_tail_into_other():
    frames = [make_frame(i, "NG", checks=[failed(f"s{i % 5}")]) for i in range(5) for _ in range(i + 1)]
    bars = pareto(frames, bars=3)
    assert [b.label for b in bars] == ["s4 · NG", "s3 · NG", "other"]
    assert [b.count for b in bars] == [5, 4, 6] and bars[-1].cumulative == pytest.approx(1.0)


def test_latency_percentiles_per_stage_in_pipeline_order():
    frames = [make_frame(i, total=float(i + 1)) for i in range(100)]
    stats = {s.stage: s for s in latency_stats(frames)}
    assert list(stats) == ["infer", "total"]
    assert stats["total"].p50 == pytest.approx(50.5) and stats["total"].max == 100 and stats["total"].n == 100


def test_downsampling_keeps_every_spike():
    y = np.ones(10_000)
    y[7_777] = 500.0
    x, yy = downsample(np.arange(10_000.0), y, max_points=200)
    assert x.size <= 200 and yy.max() == 500.0 and 7_777.0 in x


@pytest.mark.parametrize("lo, hi, count, expected", [
    (0, 18, 4, [0, 5, 10, 15, 20]),
    (0, 1, 4, [0, 0.25, 0.5, 0.75, 1.0]),
    (405.2, 414.9, 4, [405, 407.5, 410, 412.5, 415]),
])
def test_axis_ticks_are_round_and_cover_the_data(lo, hi, count, expected):
    assert nice_ticks(lo, hi, count) == pytest.approx(expected)


@pytest.mark.parametrize("y, expected_mid", [((650.3,), "650"), ((650.3, 650.4), None), ((405.2, 414.9), None),
                                             ((0.0,), None), ((12.0, 12.0), "12.0")])
def test_each_axis_label_is_its_own_value(y, expected_mid):
    """A session of one frame: the RSS axis read '650 650 651 651' (ticks 0.25 apart written as whole MiB), and
    a 2.5 step's 407.5 read '408'. Every tick's label differs from its neighbours and, read back, is the tick."""
    import re

    from inference.records.report import Series

    svg = line_chart_svg([Series("host RSS", tuple(range(len(y))), y)], title="Host memory (RSS)", x_label="min",
                         y_label="MiB", y_floor_zero=False)
    labels = re.findall(r'text-anchor="end" font-size="12" fill="#616e7c"[^>]*>([^<]+)</text>', svg)
    ticks = nice_ticks(min(y), max(y), 4)
    assert len(labels) == len(ticks) == len(set(labels)) >= 3
    assert [float(label) for label in labels] == pytest.approx(ticks)
    if len(set(y)) == 1 and y[0]:  # a flat series mid-axis, not on its edge
        assert ticks[0] < y[0] < ticks[-1]
    assert expected_mid is None or labels[len(labels) // 2] == expected_mid


def test_charts_escape_their_labels_and_say_when_there_is_nothing_to_draw():
    frames = [make_frame(0, "NG", checks=[failed("<script>alert(1)</script>")])]
    svg = pareto_svg(pareto(frames))
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert "No NG or REVIEW frames" in pareto_svg(())
    assert "Not measured" in line_chart_svg([], title="VRAM", x_label="t", y_label="MiB")


def test_the_pareto_counts_each_flagged_frame_once_so_no_bar_outgrows_the_session():
    """Issue 16: "other = 107" on a frames axis for a 24-frame session."""
    unreadable = [{"subject": f, "verdict": "NG", "reason": f"{f} not found", "read": None}
                  for f in ("brand", "price", "size", "color", "style_number")]
    frames = ([make_frame(i, "NG", checks=unreadable) for i in range(10)]
              + [make_frame(10 + i, "NG", checks=[failed(f"s{i}"), failed("price")]) for i in range(14)]
              + [make_frame(30, "", error="bad file"), make_frame(31, "OK")])
    bars = pareto(frames)
    assert sum(b.count for b in bars) == 25 <= len(frames)  # every flagged or failed frame once
    assert bars[0].label == "tag not readable (NG)" and bars[0].count == 10
    assert all(b.count <= len(frames) for b in bars) and bars[-1].cumulative == pytest.approx(1.0)


@pytest.mark.parametrize("frame, expected", [
    (make_frame(0, "NG", checks=[failed("size", "REVIEW"), failed("price")]), "price 价格 · NG"),  # NG before REVIEW
    (make_frame(0, "REVIEW", checks=[failed("count:hangtag", "REVIEW")]), "hangtag count · REVIEW"),
    (make_frame(0, "NG", reasons=["barcode unreadable"]), "barcode unreadable"),
    (make_frame(0, "", error="could not be decoded"), "inspection error"),
    (make_frame(0, "OK"), None),
])
def test_a_flagged_frame_has_one_primary_reason(frame, expected):
    assert primary_reason(frame) == expected


def test_report_times_are_local_with_the_zone(monkeypatch):
    import time

    monkeypatch.setenv("TZ", "Asia/Shanghai")
    time.tzset()
    try:
        assert local_time(1_790_000_000) == "2026-09-21 22:13:20 CST (UTC+08:00)"
    finally:
        monkeypatch.undo()
        time.tzset()


def test_chart_text_is_drawn_in_the_bundled_family_by_its_exact_name():
    pytest.importorskip("PySide6")
    from app.report_pdf import svg_in_family

    svg = svg_in_family(pareto_svg(pareto([make_frame(0, "NG", checks=[failed("price")])])), "Noto Sans SC")
    assert 'font-family="Noto Sans SC"' in svg and "Microsoft YaHei" not in svg


@pytest.mark.parametrize("peak", [1, 3, 7, 10, 13, 25, 120])
def test_a_count_axis_is_ticked_in_whole_numbers(peak: int) -> None:
    """The reasons' Pareto counts frames or tags: no tick at 2.5 frames."""
    from inference.records.svg import nice_ticks

    ticks = nice_ticks(0, peak, 4, whole=True)
    assert all(float(t).is_integer() for t in ticks)
    assert ticks[0] == 0 and ticks[-1] >= peak


ERROR_TEXT = ("bad.jpg could not be decoded\n  expected: a complete JPEG\n  found:    truncated or corrupt image\n"
              "  hint:     re-capture the image")


def test_frames_that_could_not_be_inspected_have_no_timing_in_the_latency_numbers_or_plot():
    """A corrupt JPEG's frame was plotted at 0 ms and pulled the total's p50 below the read stage's."""
    frames = [make_frame(i, "OK", total=1000.0 + i) for i in range(4)]
    frames += [make_frame(4 + i, "", error=ERROR_TEXT, total=0.0) for i in range(3)]
    report = summarize(make_session(), frames)
    total = next(s for s in report.latency if s.stage == "total")
    assert (total.n, total.p50) == (4, pytest.approx(1001.5))
    plotted = {s.name: s.y for s in report.latency_series}
    assert len(plotted["total"]) == 4 and min(plotted["total"]) == 1000.0
    assert report.untimed == 3
    assert "3 frame(s) could not be inspected and have no timing" in render_html(report, flavor="qt")


@pytest.mark.parametrize("flavor", ["browser", "qt"])
def test_an_errors_expected_found_and_hint_stay_on_lines_of_their_own(flavor):
    html = render_html(summarize(make_session(), [make_frame(0, "", error=ERROR_TEXT)]), flavor=flavor)
    assert ("bad.jpg could not be decoded<br>expected: a complete JPEG<br>found: truncated or corrupt image<br>"
            "hint: re-capture the image") in " ".join(html.split())


@pytest.mark.parametrize("check, expected", [
    ({"subject": "count:qr_code", "expected": "1", "read": "none found"}, "qr code count: expected 1, none found"),
    ({"subject": "count:qr_code", "expected": "1", "read": "1 found, none readable"},
     "qr code count: expected 1, 1 found, none readable"),
    ({"subject": "count:hangtag", "expected": "1", "read": "0"}, "hangtag count: expected 1, none found"),
    ({"subject": "count:hangtag", "expected": "1", "read": "2"}, "hangtag count: expected 1, 2 found"),
    ({"subject": "price", "expected": "¥199", "read": "¥189"}, "price 价格: expected ¥199, read ¥189"),
    ({"subject": "price", "expected": "¥199", "read": None}, "price 价格: expected ¥199, read nothing"),
])
def test_a_pdf_row_says_what_a_count_found_without_read_before_it(check, expected):
    """The PDF row read "qr code count: expected 1, read none found"."""
    frame = make_frame(0, "NG", checks=[{**check, "verdict": "NG"}])
    report = dataclasses.replace(summarize(make_session(), [frame]), flagged=(FlaggedFrame(frame),))
    assert escape(expected) in render_html(report, flavor="qt", chart_svgs={})


STEP_THEN_START = [0.0] + [6.4 + 0.05 * i for i in range(40)]  # minutes: a Step, six idle minutes, then Start


@pytest.mark.parametrize("xs, expected", [
    (STEP_THEN_START, [(0.0, 6.4)]),
    ([0.05 * i for i in range(40)], []),  # steady sampling: no gap
    ([0.0, 6.4], []),  # two samples say nothing of a typical interval
    ([0.1 * i for i in range(20)] + [30 + 0.1 * i for i in range(20)], [(pytest.approx(1.9), 30.0)]),
])
def test_a_pause_far_longer_than_the_typical_sample_interval_is_a_gap(xs, expected):
    assert sampling_gaps(xs) == expected


def polylines(svg: str) -> list[list[float]]:
    """Each polyline's x coordinates."""
    return [[float(p.split(",")[0]) for p in pts.split()] for pts in re.findall(r'<polyline points="([^"]*)"', svg)]


def test_a_curve_is_not_drawn_across_an_idle_gap_and_the_gap_is_marked():
    """Issue from the GUI walk: a Step at 0 min, Start at 6.4 min drew one straight rise over six idle minutes."""
    series = Series("total", tuple(STEP_THEN_START), tuple([200.0] + [3000.0 + i for i in range(40)]))
    svg = line_chart_svg([series], title="Latency over time", x_label="time since start (min)", y_label="ms",
                         x_unit="min", gap_label="no frames")
    band = re.search(r'<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)" height="[\d.]+" fill="#f1f3f5">', svg)
    assert band is not None and "no frames for 6.4 min" in svg
    lo, hi = float(band.group(1)), float(band.group(1)) + float(band.group(2))
    lines = polylines(svg)
    assert lines and all(not (a <= lo + 0.5 and b >= hi - 0.5) for xs in lines for a, b in zip(xs, xs[1:]))
    assert '<circle cx="60.0"' in svg  # the lone Step sample is still shown, as a dot


def test_a_long_sessions_buckets_do_not_put_a_point_inside_an_idle_gap():
    frames = [make_frame(i, total=10.0 + i % 7) for i in range(401)]
    frames += [dataclasses.replace(make_frame(401 + i, total=10.0), timestamp=1_790_000_000 + 4000 + i)
               for i in range(400)]
    report = summarize(make_session(), frames)
    (lo, hi), = sampling_gaps([x for s in report.latency_series for x in s.x])
    assert all(not (lo < x < hi) for s in report.latency_series for x in s.x)


def test_a_reason_too_long_for_its_slant_is_shortened_in_the_middle_and_whole_in_its_tooltip():
    long = "composition 成分 of a label the recipe names at great length · REVIEW"
    frames = [make_frame(i, "REVIEW", checks=[failed(long, "REVIEW")]) for i in range(3)]
    bars = pareto(frames)
    svg = pareto_svg(bars)
    shown = re.search(r'<g><title>([^<]*)</title><text [^>]*>([^<]*)</text></g>', svg)
    assert shown is not None and shown.group(1) == escape(bars[0].label)
    assert "…" in shown.group(2) and shown.group(2).startswith("composition") and shown.group(2).endswith("· REVIEW")


@pytest.mark.parametrize("text, room, expected", [
    ("tag not readable (REVIEW)", 500, "tag not readable (REVIEW)"),
    ("tag not readable (REVIEW)", 100, "tag not…REVIEW)"),
    ("货号 style number", 60, "货号…ber"),
])
def test_middle_ellipsis_keeps_both_ends(text, room, expected):
    assert middle_ellipsis(text, room, 11) == expected


@pytest.mark.parametrize("flavor", ["qt", "browser"])
def test_the_reports_verdict_words_are_readable_on_white(flavor):
    """The PDF wrote REVIEW in #e67700 (3.0:1 on white) and OK in #2f9e44 (3.5:1), 9-pt words and the counts."""
    import re
    from types import SimpleNamespace

    from inference.records.html_report import _css
    from tests.colours import contrast

    def rgb(hex_colour: str):
        r, g, b = (int(hex_colour[i:i + 2], 16) / 255 for i in (1, 3, 5))
        return SimpleNamespace(redF=lambda: r, greenF=lambda: g, blueF=lambda: b)

    css = _css(flavor)
    for verdict in ("OK", "NG", "REVIEW"):
        colour = re.search(rf"\.{verdict} \{{ color: (#[0-9a-f]{{6}}); \}}", css).group(1)
        assert contrast(rgb(colour), rgb("#ffffff")) >= 4.5, (verdict, colour)
        assert contrast(rgb(colour), rgb("#fff0f0")) >= 4.5  # a failed check's cell
