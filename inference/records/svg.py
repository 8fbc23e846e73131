"""Static SVG charts: no script, presentation attributes only (SVG Tiny), so a browser and Qt's SVG
renderer draw the same picture. Every piece of text goes through `html.escape`.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Sequence
from html import escape

from inference.records.report import INSPECTION_ERROR, ParetoBar, Series, sampling_gaps

FONT = "Noto Sans SC, Noto Sans CJK SC, Microsoft YaHei, PingFang SC, sans-serif"
INK, GRID, MUTED = "#1f2933", "#d9dee3", "#616e7c"
PALETTE = ("#1f6feb", "#e8590c", "#2f9e44", "#9c36b5", "#c92a2a")
PARETO_BAR, PARETO_LINE = "#c92a2a", "#1f2933"
GAP_FILL = "#f1f3f5"
LABEL_SIZE, LABEL_SLANT, LABEL_PAD = 11, 35, 4  # a bar's label: px, degrees up from the baseline, px kept clear


def nice_ticks(lo: float, hi: float, count: int = 5, whole: bool = False) -> list[float]:
    """Round ticks covering [lo, hi]; `whole`: counts, ticked in whole numbers only (no '2.5 frames')."""
    if not math.isfinite(lo) or not math.isfinite(hi):
        return [0.0]
    if hi <= lo:  # one value (a session of one frame): a band around it, the value mid-axis
        half = abs(lo) * 0.01
        lo, hi = (lo - half, hi + half) if half else (lo, lo + 1.0)
    raw = (hi - lo) / max(1, count)
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw and not (whole and m * mag % 1))
    start = math.floor(lo / step) * step
    ticks = [round(start, 10)]
    while ticks[-1] < hi - step * 1e-9:  # the last tick reaches the data: no curve runs past the axis
        ticks.append(round(ticks[-1] + step, 10))
    return ticks


def tick_labels(ticks: Sequence[float]) -> list[str]:
    """Every tick written with the decimals its step needs: a flat RSS axis ticked 650.25 apart was labelled
    '650 650 651 651', and 407.5 on a 2.5 step read '408'."""
    step = min((abs(b - a) for a, b in zip(ticks, ticks[1:]) if b != a), default=1.0)
    decimals = next((d for d in range(7) if abs(round(step, d) - step) <= step * 1e-6), 6)
    return [f"{t:.{decimals}f}" for t in ticks]


def text_width(text: str, size: float) -> float:
    """A generous estimate of a label's width in px (no font at hand here: the PDF draws with Qt, a browser with
    its own): Chinese is 1 em, Latin and digits at most 0.58 em in Noto Sans."""
    return size * sum(1.0 if unicodedata.east_asian_width(ch) in "WF" else 0.58 for ch in text)


def _fmt(value: float) -> str:
    if value == 0:
        return "0"
    if abs(value) >= 100:
        return f"{value:.0f}"
    if abs(value) >= 10:
        return f"{value:.1f}".rstrip("0").rstrip(".")
    return f"{value:.2f}".rstrip("0").rstrip(".")


def _open(width: int, height: int, title: str) -> list[str]:
    return [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="{escape(FONT)}" font-size="12" role="img" '
            f'aria-label="{escape(title)}">',
            f"<title>{escape(title)}</title>",
            f'<rect x="0" y="0" width="{width}" height="{height}" fill="#ffffff"/>']


def _text(x: float, y: float, text: str, *, anchor: str = "start", size: int = 12, fill: str = INK,
          rotate: float | None = None, weight: str = "normal") -> str:
    transform = f' transform="rotate({rotate:.0f} {x:.1f} {y:.1f})"' if rotate else ""
    return (f'<text x="{x:.1f}" y="{y:.1f}" text-anchor="{anchor}" font-size="{size}" fill="{fill}" '
            f'font-weight="{weight}"{transform}>{escape(text)}</text>')


def empty_chart(title: str, message: str, width: int = 760, height: int = 90) -> str:
    parts = _open(width, height, title)
    parts.append(_text(16, 28, title, size=14, weight="bold"))
    parts.append(_text(16, 60, message, fill=MUTED))
    return "\n".join(parts + ["</svg>"])


def pareto_svg(bars: Sequence[ParetoBar], *, title: str = "", width: int = 760, height: int = 340,
               unit: str = "frames") -> str:
    """`unit`: what the bars count, "frames" or on a moving line "tags" (whose chart said frames)."""
    # a frame that could not be inspected is a bar too: the title said NG/REVIEW only, over one bar more than those
    errors = " and inspection errors" if any(b.label == INSPECTION_ERROR for b in bars) else ""
    title = title or f"NG/REVIEW {unit}{errors} by their first failed check (Pareto)"
    if not bars:
        return empty_chart(title, f"No NG or REVIEW {unit} in this session.", width)
    left, right, top, bottom = 52, 52, 34, 120
    labels, left = _slanted_labels([b.label for b in bars], left, width - right, bottom - 20)
    plot_w, plot_h = width - left - right, height - top - bottom
    peak = max(b.count for b in bars)
    ticks = nice_ticks(0, peak, 4, whole=True)
    y_max = ticks[-1] or 1
    y = lambda v: top + plot_h * (1 - v / y_max)  # noqa: E731
    parts = _open(width, height, title)
    parts.append(_text(left, 20, title, size=14, weight="bold"))
    for t, label in zip(ticks, tick_labels(ticks)):
        parts.append(f'<line x1="{left}" y1="{y(t):.1f}" x2="{left + plot_w}" y2="{y(t):.1f}" stroke="{GRID}"/>')
        parts.append(_text(left - 6, y(t) + 4, label, anchor="end", fill=MUTED))
    for pct in (0, 25, 50, 75, 100):
        yy = top + plot_h * (1 - pct / 100)
        parts.append(_text(left + plot_w + 6, yy + 4, f"{pct}%", fill=MUTED))
    slot = plot_w / len(bars)
    bar_w = slot * 0.64
    line_points = []
    for i, bar in enumerate(bars):
        cx = left + slot * (i + 0.5)
        parts.append(f'<rect x="{cx - bar_w / 2:.1f}" y="{y(bar.count):.1f}" width="{bar_w:.1f}" '
                     f'height="{top + plot_h - y(bar.count):.1f}" fill="{PARETO_BAR}">'
                     f"<title>{escape(bar.label)}: {bar.count} ({bar.share:.0%})</title></rect>")
        parts.append(_text(cx, y(bar.count) - 4, str(bar.count), anchor="middle", size=11))
        label = _text(cx + 4, top + plot_h + 14, labels[i], anchor="end", size=LABEL_SIZE, rotate=-LABEL_SLANT)
        parts.append(label if labels[i] == bar.label else f"<g><title>{escape(bar.label)}</title>{label}</g>")
        line_points.append(f"{cx:.1f},{top + plot_h * (1 - bar.cumulative):.1f}")
    parts.append(f'<polyline points="{" ".join(line_points)}" fill="none" stroke="{PARETO_LINE}" stroke-width="2"/>')
    for point, bar in zip(line_points, bars):
        px, py = point.split(",")
        parts.append(f'<circle cx="{px}" cy="{py}" r="3" fill="{PARETO_LINE}"/>')
    parts.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="{INK}"/>')
    parts.append(_text(14, top + plot_h / 2, unit, anchor="middle", fill=MUTED, rotate=-90))
    parts.append(_text(width - 10, top + plot_h / 2, "cumulative", anchor="middle", fill=MUTED, rotate=90))
    return "\n".join(parts + ["</svg>"])


def split_at_gaps(x: Sequence[float], y: Sequence[float],
                  gaps: Sequence[tuple[float, float]]) -> list[list[tuple[float, float]]]:
    """The runs of a curve between gaps, in order."""
    runs: list[list[tuple[float, float]]] = []
    for a, b in zip(x, y):
        if not runs or any(min(runs[-1][-1][0], a) <= lo and hi <= max(runs[-1][-1][0], a) for lo, hi in gaps):
            runs.append([])
        runs[-1].append((a, b))
    return runs


def middle_ellipsis(text: str, max_px: float, size: float = LABEL_SIZE) -> str:
    """`text` if it fits in `max_px`, else its start and end around '…': a reason's end says its verdict."""
    if text_width(text, size) <= max_px:
        return text
    for keep in range(len(text) - 1, 0, -1):
        head, tail = text[:(keep + 1) // 2].rstrip(), text[len(text) - keep // 2:].lstrip()
        if text_width(f"{head}…{tail}", size) <= max_px:
            return f"{head}…{tail}"
    return "…"


def _slanted_labels(labels: Sequence[str], left: float, right_edge: float, drop_px: float) -> tuple[list[str], float]:
    """Bar labels slanted under their bars, each whole inside the chart: the plot moves right as far as a third of
    the chart for the first labels' run to the left (the first was cut to 'ot readable (REVIEW)'); a label
    longer than its room is shortened in the middle. Returns the labels and the plot's left edge."""
    cos, sin = math.cos(math.radians(LABEL_SLANT)), math.sin(math.radians(LABEL_SLANT))
    shown = [middle_ellipsis(label, drop_px / sin) for label in labels]
    widths = [text_width(label, LABEL_SIZE) * cos for label in shown]
    for _ in range(8):  # the slots narrow as the plot moves right
        slot = (right_edge - left) / len(labels)
        need = max(w - slot * (i + 0.5) for i, w in enumerate(widths)) + LABEL_PAD + 1
        left = min(max(left, need), right_edge / 3)
    slot = (right_edge - left) / len(labels)
    return [middle_ellipsis(label, (left + slot * (i + 0.5) - LABEL_PAD) / cos)
            for i, label in enumerate(shown)], round(left, 1)


def line_chart_svg(series: Sequence[Series], *, title: str, x_label: str, y_label: str,
                   width: int = 760, height: int = 250, y_floor_zero: bool = True, x_unit: str = "",
                   gap_label: str = "no samples") -> str:
    drawn = [s for s in series if s.x]
    if not drawn:
        return empty_chart(title, "Not measured in this session.", width)
    left, right, top, bottom = 60, 20, 34, 44
    plot_w, plot_h = width - left - right, height - top - bottom
    xs = [v for s in drawn for v in s.x]
    ys = [v for s in drawn for v in s.y]
    x_ticks = nice_ticks(min(xs), max(xs), 6)
    y_ticks = nice_ticks(0.0 if y_floor_zero else min(ys), max(ys), 4)
    x0, x1, y0, y1 = x_ticks[0], x_ticks[-1], y_ticks[0], y_ticks[-1]
    sx = lambda v: left + plot_w * (v - x0) / ((x1 - x0) or 1)  # noqa: E731
    sy = lambda v: top + plot_h * (1 - (v - y0) / ((y1 - y0) or 1))  # noqa: E731
    parts = _open(width, height, title)
    parts.append(_text(left, 20, title, size=14, weight="bold"))
    gaps = sampling_gaps(xs)
    for lo, hi in gaps:
        parts += _gap_band(sx(lo), sx(hi), top, plot_h, f"{gap_label} for {_fmt(hi - lo)} {x_unit}".strip(),
                           f"{gap_label} from {_fmt(lo)} to {_fmt(hi)} {x_unit}".strip())
    for t, label in zip(y_ticks, tick_labels(y_ticks)):
        parts.append(f'<line x1="{left}" y1="{sy(t):.1f}" x2="{left + plot_w}" y2="{sy(t):.1f}" stroke="{GRID}"/>')
        parts.append(_text(left - 6, sy(t) + 4, label, anchor="end", fill=MUTED))
    for t, label in zip(x_ticks, tick_labels(x_ticks)):
        parts.append(f'<line x1="{sx(t):.1f}" y1="{top + plot_h}" x2="{sx(t):.1f}" y2="{top + plot_h + 4}" stroke="{INK}"/>')
        parts.append(_text(sx(t), top + plot_h + 17, label, anchor="middle", fill=MUTED))
    parts.append(f'<line x1="{left}" y1="{top + plot_h}" x2="{left + plot_w}" y2="{top + plot_h}" stroke="{INK}"/>')
    for i, s in enumerate(drawn):
        color = s.color or PALETTE[i % len(PALETTE)]
        for run in split_at_gaps(s.x, s.y, gaps):
            if len(run) == 1:  # a lone sample between pauses: a dot, not an invisible one-point line
                parts.append(f'<circle cx="{sx(run[0][0]):.1f}" cy="{sy(run[0][1]):.1f}" r="2" fill="{color}"/>')
                continue
            points = " ".join(f"{sx(a):.1f},{sy(b):.1f}" for a, b in run)
            parts.append(f'<polyline points="{points}" fill="none" stroke="{color}" stroke-width="1.3" '
                         f'stroke-linejoin="round"/>')
        lx = left + plot_w - 130 * (len(drawn) - i)
        parts.append(f'<rect x="{lx:.1f}" y="12" width="14" height="4" fill="{color}"/>')
        parts.append(_text(lx + 18, 18, s.name, size=11))
    parts.append(_text(left + plot_w / 2, height - 8, x_label, anchor="middle", fill=MUTED))
    parts.append(_text(14, top + plot_h / 2, y_label, anchor="middle", fill=MUTED, rotate=-90))
    return "\n".join(parts + ["</svg>"])


def _gap_band(x0: float, x1: float, top: float, plot_h: float, note: str, tooltip: str) -> list[str]:
    """A pause in sampling: a light band with dashed edges, its length written in it where it fits."""
    parts = [f'<rect x="{x0:.1f}" y="{top}" width="{x1 - x0:.1f}" height="{plot_h}" fill="{GAP_FILL}">'
             f"<title>{escape(tooltip)}</title></rect>"]
    for x in (x0, x1):
        parts.append(f'<line x1="{x:.1f}" y1="{top}" x2="{x:.1f}" y2="{top + plot_h}" stroke="{MUTED}" '
                     'stroke-width="0.8" stroke-dasharray="3 3"/>')
    if text_width(note, 11) + 8 <= x1 - x0:
        parts.append(_text((x0 + x1) / 2, top + 14, note, anchor="middle", size=11, fill=MUTED))
    return parts
