"""The station without a screen: the same inspection over a source, results printed as lines.

It records exactly as the window does (one journal session per run, NG/REVIEW images archived), so
`hangtag-inspect report --last` finds a headless run too. A data folder that cannot take records is
said at start, and every frame that was not recorded is marked on its line; inspection goes on.
"""

from __future__ import annotations

import gc
import signal
import sys
import threading
from collections import deque
from contextlib import contextmanager
from pathlib import Path

import numpy as np

from inference.engines.triton.watch import FleetWatch, journal_events
from inference.errors import HangtagError
from inference.gpu.degrade import journal_pressure, pressure_guard
from inference.inspection import Inspector
from inference.records.station import StationRecords, session_key
from inference.sources import Frame, FrameSource, Waiting, open_source


SUMMARY_FRAMES = 10_000  # the closing percentiles are over the last this many frames
# A full garbage collection this often. A frame leaves no reference cycles (tests/reliability/test_cycles.py); what
# grows without it is CPython's free lists: freed tuples (up to 2 000 of each length 1-20, ~4.5 MiB), kept for reuse
# and emptied only by a full collection, which CPython runs ever more rarely as a process grows. With reading the
# station's Python objects grew 7.4 MiB per 1 000 frames over frames 50-180 without it, 0.5 with it (BENCHMARKS.md,
# issue 15, "Cycles, free lists"). One collection: ~40 ms of CPU here. The window does not collect: there it holds
# the GIL for 150-350 ms, which the GUI thread would wait out, and the free lists are bounded anyway.
COLLECT_FRAMES = 25


def run_headless(source: str | FrameSource, model: Path, backend: str | None, recipe: Path | None, *,
                 read: bool = True, out=sys.stdout, err=sys.stderr, journal_path: Path | None = None) -> int:
    """0 when the source was inspected to its end; 2, with the reason on `err`, when the model, recipe or
    source cannot be used (results printed before a source broke off stay printed); 130 when stopped by
    Ctrl+C or SIGTERM, with the session closed."""
    try:
        with _stopped_by_sigterm():
            return _inspect(source, model, backend, recipe, read, out, err, journal_path)
    except HangtagError as exc:
        print(f"error: {exc}", file=err)
        return 2
    except KeyboardInterrupt as stop:  # Ctrl+C, or the service manager's SIGTERM: the session ends normally
        print(f"stopped ({stop.args[0] if stop.args else 'Ctrl+C'}); the session was closed", file=err)
        return 130


@contextmanager
def _stopped_by_sigterm():
    """SIGTERM (systemctl stop, docker stop) ends the run like Ctrl+C, so the journal closes the session."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame) -> None:
        raise KeyboardInterrupt("SIGTERM")

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def _inspect(source: str | FrameSource, model: Path, backend: str | None, recipe: Path | None, read: bool, out,
             err, journal_path: Path | None) -> int:
    with Inspector.open(model, backend, recipe_path=recipe, read=read) as inspector:
        frames = open_source(source) if isinstance(source, str) else source
        print(f"Hangtag Station (headless) — model {model.name}, backend {inspector.pipeline.backend}, "
              f"recipe {inspector.recipe_name or 'none'}", file=out)
        records = StationRecords.open(journal_path, err)
        records.use(session_key(source, inspector, recipe))
        counts: dict[str, int] = {}
        totals: deque[float] = deque(maxlen=SUMMARY_FRAMES)  # a list would grow by 32 bytes a frame for weeks
        fleet = FleetWatch.of(inspector)  # the triton backend: its server events go to the journal too
        pressure = pressure_guard(inspector)  # the GPU pipeline under memory pressure: its changes too
        try:
            for seen, (result, image) in enumerate(_inspected(inspector, frames), 1):
                if seen % COLLECT_FRAMES == 0:
                    gc.collect()
                mark = records.frame(result, image)
                _note_fleet(fleet, records, err)  # after the frame: its session is open
                _note_pressure(pressure, records, err)
                print(inspector.describe(result) + mark, file=out)
                key = inspector.verdict_text(result)
                counts[key] = counts.get(key, 0) + 1
                if result.ok:
                    totals.append(result.timings.total_ms)
        finally:
            _note_fleet(fleet, records, err)
            _note_pressure(pressure, records, err)
            records.close()
        detect = inspector.pipeline.stats.summary().get("total", {})
        p50, p95 = (float(v) for v in np.percentile(totals, [50, 95])) if totals else (0.0, 0.0)
        print("summary: " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
              + f"; per frame p50 {p50:.0f} ms, p95 {p95:.0f} ms"
              + (f" (last {len(totals)} frames)" if len(totals) == SUMMARY_FRAMES else "")
              + (f" (detection alone p50 {detect.get('p50', 0):.0f} ms)" if inspector.reader else ""), file=out)
    return 0


def _inspected(inspector: Inspector, source: FrameSource):
    """(result, the frame's pixels or None) for each frame; the pixels go to the archive for NG/REVIEW."""
    source.lend_frames(inspector.frame_memory)
    try:
        for item in source.frames():
            if not isinstance(item, Waiting):
                yield inspector.inspect(item), item.image if isinstance(item, Frame) else None
    finally:
        source.close()


def _note_pressure(guard, records: StationRecords, err) -> None:
    """The detector's variant changed under GPU memory pressure: a warning line each, and journaled."""
    events = guard.new_events() if guard is not None else []
    for event in events:
        print(f"warning: {event.text}", file=err, flush=True)
    journal_pressure(records, events)


def _note_fleet(fleet: FleetWatch | None, records: StationRecords, err) -> None:
    """Triton server events (down, back, none answering, local fallback): a warning line each, and journaled."""
    events = fleet.new_events() if fleet is not None else []
    for found in events:
        print(f"warning: {found.text}", file=err, flush=True)
    journal_events(records, events)  # a journal that cannot take them is said once, by `records`
