"""An RSS-over-frames curve as a small static SVG (matplotlib is not a dependency of the station)."""

from __future__ import annotations

import csv
from html import escape
from pathlib import Path

from inference.records.svg import nice_ticks


def write_rss_svg(path: Path, rows: list[tuple[int, float, float]], warmup: int, *, title: str) -> None:
    width, height, left, right, top, bottom = 760, 360, 70, 20, 40, 50
    frames = [r[0] for r in rows] or [0]
    rss = [r[2] for r in rows] or [0.0]
    xticks = nice_ticks(0, max(frames))
    yticks = nice_ticks(min(rss) - 1, max(rss) + 1)
    x0, x1, y0, y1 = xticks[0], xticks[-1], yticks[0], yticks[-1]
    sx = lambda f: left + (f - x0) / max(1e-9, x1 - x0) * (width - left - right)  # noqa: E731
    sy = lambda v: height - bottom - (v - y0) / max(1e-9, y1 - y0) * (height - top - bottom)  # noqa: E731
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" font-family="sans-serif" '
             f'font-size="12"><rect width="100%" height="100%" fill="white"/>',
             f'<text x="{left}" y="22" font-size="14">{escape(title)}</text>']
    for t in yticks:
        parts.append(f'<line x1="{left}" x2="{width - right}" y1="{sy(t):.1f}" y2="{sy(t):.1f}" stroke="#d9dee3"/>'
                     f'<text x="{left - 6}" y="{sy(t) + 4:.1f}" text-anchor="end">{t:g}</text>')
    for t in xticks:
        parts.append(f'<text x="{sx(t):.1f}" y="{height - bottom + 18}" text-anchor="middle">{t:g}</text>')
    parts.append(f'<text x="{(left + width - right) / 2}" y="{height - 12}" text-anchor="middle">frames</text>'
                 f'<text x="16" y="{(top + height - bottom) / 2}" transform="rotate(-90 16 {(top + height - bottom) / 2})"'
                 f' text-anchor="middle">RSS (MiB)</text>')
    if warmup and warmup < max(frames):
        parts.append(f'<line x1="{sx(warmup):.1f}" x2="{sx(warmup):.1f}" y1="{top}" y2="{height - bottom}" '
                     f'stroke="#e8590c" stroke-dasharray="4 3"/><text x="{sx(warmup) + 4:.1f}" y="{top + 12}" '
                     f'fill="#e8590c">warm-up ends</text>')
    points = " ".join(f"{sx(f):.1f},{sy(v):.1f}" for f, _, v in rows)
    parts.append(f'<polyline fill="none" stroke="#1f6feb" stroke-width="1.5" points="{points}"/></svg>')
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(parts), encoding="utf-8")


def read_rows(csv_path: Path) -> list[tuple[int, float, float]]:
    with csv_path.open() as handle:
        return [(int(r["frames"]), float(r["seconds"]), float(r["rss_mib"])) for r in csv.DictReader(handle)]
