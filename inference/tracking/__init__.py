"""One verdict per physical tag on a moving line: tracking, best-shot reading, verdicts per track. Qt-free.

    tracker.py    ByteTrack's two-stage association on the detector's hangtag boxes -> a track id per tag
    records.py    TagTrack (what is known about one tag so far) and TagVerdict (its one final answer)
    worker.py     the reading worker: OCR beside detection, a bounded queue where a tag's newest best shot wins
    line.py       LineInspector: detect, read each tag's best fully-inside shot, judge it when it leaves
    symbols.py    LoneSymbols: a barcode / QR code that crossed on no tag's outline is a tag the detector missed
    pace.py       DetectionPace: how often a live line detects (seldom while the reader is busy)
    reader_share.py  ReaderShare: the share of a core the reading thread got over its last reads
    triggered.py  TriggeredInspector: one frame per trigger, one verdict per trigger id
    station.py    PerTagInspector: the station's worker runs the line through it (an Inspector's stand-in)
    recent.py     RecentTags: what the operator's view shows (last tags, NG tags held until acknowledged)
"""

from __future__ import annotations

from inference.tracking.line import LineInspector, LineSettings
from inference.tracking.pace import DetectionPace
from inference.tracking.records import TagTrack, TagVerdict, best_evidence
from inference.tracking.tracker import TagTracker, TrackerSettings
from inference.tracking.triggered import TriggeredInspector

__all__ = ["DetectionPace", "LineInspector", "LineSettings", "TagTrack", "TagTracker", "TagVerdict", "TrackerSettings",
           "TriggeredInspector", "best_evidence"]
