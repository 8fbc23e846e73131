"""The numbers a report shows, computed once from journal rows and shared by the HTML and the PDF.

Yield is OK over judged frames (OK + NG + REVIEW + errors): a frame that could not be inspected was
not passed. Frames inspected without a recipe are counted but left out of the yield. A moving line's session
has one row per physical tag: its counts, yield and Pareto are of tags (a tag that passed unread is a REVIEW),
and its frames are only counted.
"""

from __future__ import annotations

import re
import statistics
import time
from collections import Counter
from datetime import datetime, timezone
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import numpy as np

from inference.reading.types import FIELD_LABELS_ZH
from inference.records.tag_rows import TagRecord
from inference.records.types import FrameRecord, SessionInfo
from inference.telemetry import STAGES

MAX_PLOT_POINTS = 1200
PARETO_BARS = 12
LATENCY_BUCKETS = 300
GAP_FACTOR = 10  # a pause this many typical sample intervals long is a pause, not a slope
GAP_MIN_SHARE = 0.02  # ... and at least this share of the axis: narrower ones mislead nobody


@dataclass(frozen=True)
class StageStats:
    stage: str
    p50: float
    p95: float
    p99: float
    max: float
    n: int


@dataclass(frozen=True)
class ParetoBar:
    label: str
    count: int
    share: float
    cumulative: float


@dataclass(frozen=True)
class Series:
    name: str
    x: tuple[float, ...]
    y: tuple[float, ...]
    color: str = ""


@dataclass(frozen=True)
class FlaggedFrame:
    """An NG/REVIEW frame as the report shows it; image paths are relative to the report folder."""

    record: FrameRecord
    image: str = ""
    thumb: str = ""
    thumb_wh: tuple[int, int] = (0, 0)
    note: str = ""


@dataclass(frozen=True)
class ReportData:
    session: SessionInfo
    generated_at: float
    first_time: float | None
    last_time: float | None
    counts: Mapping[str, int]
    yield_: float | None
    pareto: tuple[ParetoBar, ...]
    latency: tuple[StageStats, ...]
    time_unit: str
    latency_series: tuple[Series, ...]
    rss_series: Series
    vram_series: Series | None
    flagged: tuple[FlaggedFrame, ...] = ()
    errors: tuple[FrameRecord, ...] = ()
    thresholds_used: tuple[str, ...] = ()
    files: tuple[str, ...] = field(default=())
    unit: str = "frames"  # what counts, yield and Pareto count: "frames", or "tags" on a moving line
    tags: tuple[TagRecord, ...] = ()
    untimed: int = 0  # frames that could not be inspected: no timing, left out of latency plots and percentiles
    tag_thumbs: Mapping[int, tuple[str, tuple[int, int]]] = field(default_factory=dict)  # tag row id → thumb, w×h
    acknowledged: Mapping[str, float] = field(default_factory=dict)  # tag label ("#7", "T41") → when it was acknowledged

    @property
    def judged(self) -> int:
        return sum(self.counts.get(k, 0) for k in ("OK", "NG", "REVIEW", "ERROR"))


def summarize(session: SessionInfo, frames: Sequence[FrameRecord], *, flagged: Sequence[FlaggedFrame] = (),
              now: float | None = None, tags: Sequence[TagRecord] = ()) -> ReportData:
    if tags:
        counts = Counter(t.verdict for t in tags)
        counts_full = {k: counts.get(k, 0) for k in ("OK", "NG", "REVIEW")} | {"ERROR": 0, "NOT JUDGED": 0}
        counts_full.update(tags=len(tags), missed=sum(t.missed for t in tags))
    else:
        counts = Counter("ERROR" if f.error else (f.verdict or "NOT JUDGED") for f in frames)
        counts_full = {k: counts.get(k, 0) for k in ("OK", "NG", "REVIEW", "ERROR", "NOT JUDGED")}
    counts_full["frames"] = len(frames)
    judged = sum(counts_full[k] for k in ("OK", "NG", "REVIEW", "ERROR"))
    times = np.array([f.timestamp for f in frames], dtype=np.float64)
    first = float(times.min()) if times.size else None
    last = float(times.max()) if times.size else None
    scale, unit = _time_scale((last - first) if first is not None else 0.0)
    x = (times - (first or 0.0)) / scale
    timed = [(xi, f) for xi, f in zip(x, frames) if not f.error]
    rss = [(xi, f.rss_mb) for xi, f in zip(x, frames) if f.rss_mb is not None]
    vram = [(xi, f.vram_mb) for xi, f in zip(x, frames) if f.vram_mb is not None]
    return ReportData(
        session=session, generated_at=now or time.time(), first_time=first, last_time=last,
        counts=counts_full, yield_=counts_full["OK"] / judged if judged else None,
        pareto=tag_pareto(tags) if tags else pareto(frames), latency=latency_stats(frames), time_unit=unit,
        latency_series=_latency_series([f for _, f in timed], np.array([xi for xi, _ in timed])),
        rss_series=_series("RSS (MiB)", rss),
        vram_series=_series("VRAM (MiB)", vram) if vram else None,
        flagged=tuple(flagged), errors=tuple(f for f in frames if f.error),
        thresholds_used=tuple(sorted({_thresholds_text(f.thresholds) for f in frames})),
        unit="tags" if tags else "frames", tags=tuple(tags), untimed=len(frames) - len(timed),
    )


def subject_label(subject: str) -> str:
    """`price` → `price 价格`; `count:hangtag` → `hangtag count`; others as written."""
    if subject in FIELD_LABELS_ZH:
        return f"{subject.replace('_', ' ')} {FIELD_LABELS_ZH[subject]}"
    if subject.startswith("count:"):
        return f"{subject[6:].replace('_', ' ')} count"
    return subject.replace("_", " ").replace(".", " ")


ANY_VALUE = "any value 任意值"
PATTERN = "pattern 格式: "


def expected_label(subject: str, expected: str) -> str:
    """A check's expected value in the operator's words. The judge writes a field the recipe names without a value as
    'present' and a field checked by a pattern as '/regex/': an operator read both as the job's own values. 'Any
    value' does not add 'must be printed': a field with `required = false` is written 'present' too."""
    if subject not in FIELD_LABELS_ZH:
        return expected
    if expected == "present":
        return ANY_VALUE
    if len(expected) > 2 and expected.startswith("/") and expected.endswith("/"):
        return PATTERN + expected[1:-1]
    return expected


INSPECTION_ERROR = "inspection error"  # a frame that could not be inspected counts in the Pareto under this
UNREADABLE_FIELDS = 3  # this many fields "not found" on one frame: the tag was not readable, not 3 faults


def primary_reason(frame: FrameRecord) -> str | None:
    """The one category a flagged frame counts under in the Pareto: so every bar counts frames, the bars add
    up to the flagged frames, and "other" can never outgrow the session (issue 16: "other = 107" for 24
    frames). An NG check comes before a REVIEW one; a tag whose fields were mostly not found is
    "tag not readable" rather than its first missing field."""
    if frame.error:
        return INSPECTION_ERROR
    by_check = check_category(frame.checks, frame.verdict)
    if by_check is not None:
        return by_check
    if frame.verdict in ("NG", "REVIEW"):
        return frame.reasons[0][:60] if frame.reasons else f"{frame.verdict} (no reason given)"
    return None


def check_category(checks: Sequence[dict], verdict: str) -> str | None:
    """The failed check a flagged frame or tag counts under, by its subject (never its values); None when no check
    failed."""
    failed = [c for c in checks if c.get("verdict") in ("NG", "REVIEW")]
    missing = [c for c in failed if "not found" in str(c.get("reason", "")) or c.get("read") in (None, "")]
    # Something read that contradicts the recipe ('2 hangtags', a style number ≠ the job's) is why the frame is NG,
    # even when another tag in it was unreadable: 7 of 15 NG frames counted as 'tag not readable (NG)', 4 of them
    # with a readable tag of another job beside the unreadable one.
    contradiction = next((c for c in failed if c.get("verdict") == "NG" and c not in missing), None)
    if contradiction is not None:
        return f"{subject_label(str(contradiction.get('subject', '?')))} · NG"
    if len(missing) >= UNREADABLE_FIELDS:
        return f"tag not readable ({verdict})"
    for kind in ("NG", "REVIEW"):
        first = next((c for c in failed if c.get("verdict") == kind), None)
        if first is not None:
            return f"{subject_label(str(first.get('subject', '?')))} · {kind}"
    return None


def local_time(timestamp: float | None) -> str:
    """A time as the QA manager reads it: the station's local time with its zone, "2026-12-01 23:39:54 CST
    (UTC+08:00)". Machine-readable exports keep ISO 8601 (types.iso_time)."""
    if timestamp is None:
        return ""
    moment = datetime.fromtimestamp(timestamp, timezone.utc).astimezone()
    offset = moment.strftime("%z")
    return f"{moment:%Y-%m-%d %H:%M:%S} {moment.tzname() or ''} (UTC{offset[:3]}:{offset[3:]})".replace("  ", " ")


def pareto(frames: Sequence[FrameRecord], bars: int = PARETO_BARS) -> tuple[ParetoBar, ...]:
    """Flagged frames by their primary reason, largest first; the tail beyond `bars` - 1 bars is "other"."""
    return _ranked(Counter(reason for reason in map(primary_reason, frames) if reason), bars)


def _ranked(counter: Counter, bars: int) -> tuple[ParetoBar, ...]:
    ranked = counter.most_common()
    if len(ranked) > bars:
        ranked = ranked[: bars - 1] + [("other", sum(n for _, n in ranked[bars - 1:]))]
    total = sum(n for _, n in ranked)
    out, running = [], 0
    for label, n in ranked:
        running += n
        out.append(ParetoBar(label, n, n / total, running / total))
    return tuple(out)


def tag_reason(tag: TagRecord) -> str | None:
    """The category an NG/REVIEW tag counts under: its first failed check's subject, as for frames; without checks
    (older journals, a box not read as a tag) its first reason's head, before the details that follow a '(' or a
    ':'. The whole reason split one cause into a bar per measurement or per value read: 'print too small to read
    surely (12 px lines…' and '(13 px lines…' were two bars."""
    if tag.verdict not in ("NG", "REVIEW"):
        return None
    if tag.missed:
        return "passed unread (REVIEW)"
    by_check = check_category(tag.checks, tag.verdict)
    if by_check is not None:  # as a frame counts: 'style number MT78030C ≠ expected …' was a bar per value read
        return by_check
    if not tag.reasons:
        return f"{tag.verdict} (no reason given)"
    head = re.split(r"\s*[(:]", tag.reasons[0], maxsplit=1)[0].strip() or tag.reasons[0]
    return f"{head[:60]} · {tag.verdict}"


def tag_pareto(tags: Sequence[TagRecord], bars: int = PARETO_BARS) -> tuple[ParetoBar, ...]:
    return _ranked(Counter(r for r in map(tag_reason, tags) if r), bars)


def latency_stats(frames: Sequence[FrameRecord]) -> tuple[StageStats, ...]:
    """Per-stage percentiles over the frames that were inspected: an error frame's stages never ran, and its
    0 ms total once pulled the total's p50 below the read stage's alone."""
    values: dict[str, list[float]] = {}
    for f in frames:
        if f.error:
            continue
        for stage, ms in f.timings_ms.items():
            if isinstance(ms, (int, float)):
                values.setdefault(stage, []).append(float(ms))
    order = [s for s in STAGES if s in values] + sorted(s for s in values if s not in STAGES and s != "total")
    order += ["total"] if "total" in values else []
    out = []
    for stage in order:
        arr = np.asarray(values[stage])
        p50, p95, p99 = np.percentile(arr, [50, 95, 99])
        out.append(StageStats(stage, float(p50), float(p95), float(p99), float(arr.max()), int(arr.size)))
    return tuple(out)


def downsample(x: np.ndarray, y: np.ndarray, max_points: int = MAX_PLOT_POINTS) -> tuple[np.ndarray, np.ndarray]:
    """Min and max per bucket, in order: a 10,000-frame curve keeps every spike in 1,200 points."""
    if x.size <= max_points:
        return x, y
    buckets = max_points // 2
    edges = np.linspace(0, x.size, buckets + 1).astype(int)
    xs, ys = [], []
    for lo, hi in zip(edges[:-1], edges[1:]):
        if hi <= lo:
            continue
        seg = y[lo:hi]
        i_min, i_max = lo + int(np.argmin(seg)), lo + int(np.argmax(seg))
        for i in sorted({i_min, i_max}):
            xs.append(x[i])
            ys.append(y[i])
    return np.asarray(xs), np.asarray(ys)


def _series(name: str, points: Sequence[tuple[float, float]]) -> Series:
    if not points:
        return Series(name, (), ())
    x, y = downsample(np.array([p[0] for p in points]), np.array([p[1] for p in points], dtype=np.float64))
    return Series(name, tuple(float(v) for v in x), tuple(float(v) for v in y))


def _latency_series(frames: Sequence[FrameRecord], x: np.ndarray) -> tuple[Series, ...]:
    """Short sessions: every frame's total, infer and read. Long ones: per time bucket, p50 and p95 of the
    total with its max (spikes stay visible) and p50 of infer, since 10,000 raw frames plot as a solid band."""
    def points(stage: str) -> tuple[np.ndarray, np.ndarray]:
        pairs = [(xi, float(f.timings_ms[stage])) for xi, f in zip(x, frames) if stage in f.timings_ms]
        return np.array([p[0] for p in pairs]), np.array([p[1] for p in pairs])

    if len(frames) <= LATENCY_BUCKETS:
        return tuple(Series(stage, tuple(map(float, px)), tuple(map(float, py)))
                     for stage in ("total", "infer", "read") for px, py in [points(stage)] if px.size)
    out = []
    tx, ty = points("total")
    if tx.size:
        out += [Series(f"total {name}", *_bucketed(tx, ty, q), color=color)
                for name, q, color in (("max", 100, "#b8c0c8"), ("p95", 95, "#e8590c"), ("p50", 50, "#1f6feb"))]
    ix, iy = points("infer")
    if ix.size:
        out.append(Series("infer p50", *_bucketed(ix, iy, 50), color="#2f9e44"))
    return tuple(out)


def _bucketed(x: np.ndarray, y: np.ndarray, q: float) -> tuple[tuple[float, ...], tuple[float, ...]]:
    """Per bucket of frames; no bucket spans a pause, which would put a point where no frame was."""
    edges = np.linspace(0, x.size, min(LATENCY_BUCKETS, x.size) + 1).astype(int)
    edges = np.unique(np.concatenate([edges, np.searchsorted(x, [hi for _, hi in sampling_gaps(x.tolist())])]))
    xs = [float(x[lo:hi].mean()) for lo, hi in zip(edges[:-1], edges[1:]) if hi > lo]
    ys = [float(np.percentile(y[lo:hi], q)) for lo, hi in zip(edges[:-1], edges[1:]) if hi > lo]
    return tuple(xs), tuple(ys)


def sampling_gaps(xs: Sequence[float], factor: float = GAP_FACTOR) -> list[tuple[float, float]]:
    """Stretches with no sample, far longer than the typical interval: a line drawn across one showed a rise
    nobody measured (a Step at 0 min, Start at 6.4 min)."""
    points = sorted(set(xs))
    if len(points) < 3:
        return []
    steps = [b - a for a, b in zip(points, points[1:])]
    limit = max(factor * statistics.median(steps), GAP_MIN_SHARE * (points[-1] - points[0]))
    return [(a, b) for a, b in zip(points, points[1:]) if b - a > limit]


def _time_scale(span_s: float) -> tuple[float, str]:
    if span_s >= 3 * 3600:
        return 3600.0, "h"
    if span_s >= 180:
        return 60.0, "min"
    return 1.0, "s"


def _thresholds_text(t: Mapping) -> str:
    text = f"confidence {t.get('confidence', '?')}, IoU {t.get('iou', '?')}, max {t.get('max_detections', '?')}"
    per_class = t.get("class_confidence") or {}
    if per_class:
        text += ", " + ", ".join(f"{k} ≥ {v}" for k, v in sorted(per_class.items()))
    if t.get("disabled_classes"):
        text += ", off: " + ", ".join(t["disabled_classes"])
    return text
