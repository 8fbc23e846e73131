"""LineInspector: one verdict per physical tag on a moving line.

Every frame: detect, follow each hangtag box with the tracker, and measure the sharpness of the tags that
are fully inside the view (not touching its edge). A tag is read as soon as it is whole and sharp enough
(`sharp_focus`, the reader's own bar), else on its sharpest whole shot of the first `look_frames`, so the read
runs while the tag still crosses the view and its verdict is ready when it leaves. It is read again only while
its reads leave it unresolved (REVIEW) and it is still in view, and never once a read settled it (OK or NG).
Reading runs on the worker's thread. When the tracker says the tag left (or its time ran out) and no read of
it is still running, its verdict is final: the best evidence over its reads (records.best_evidence). A second
try still waiting when the tag leaves is dropped (it would only delay a verdict that already has a read); a tag
that left unread is read once from its best shot, and a tag that left with no whole shot at all is a REVIEW.
A symbol (barcode, QR code) that crossed the view on no tag's outline is a tag the detector did not outline: it gets
a REVIEW row when it leaves (symbols.py).

A tag that left waits for its read; given `on_verdict`, its verdict goes there from the reading thread the moment
that read lands, not at the next frame the loop steps (a detection on a loaded CPU is 0.1-1 s: BENCHMARKS, issue
18, "where a leaving tag's verdict waits"). Without it, verdicts come only from `step`, `follow` and `finish`.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

import cv2
import numpy as np

from inference.detections import Detections, centre_inside
from inference.errors import ConfigError
from inference.reading.verdict import SHARP_FOCUS, Verdict
from inference.tracking.pace import DetectionPace
from inference.tracking.records import UNREAD, UNREAD_BUSY, Read, TagTrack, TagVerdict, unread_because, verdict_of
from inference.tracking.symbols import SYMBOLS, LoneSymbol, LoneSymbols, lone_reason
from inference.tracking.tracker import TagTracker, TrackerSettings, touches_edge
from inference.tracking.worker import ReadWorker, Shot, read_shot

VerdictListener = Callable[[TagVerdict], None]
READ_CUT_SHORT = "its read was still running when the run ended (the station closed or stopped): check this tag by hand"


@dataclass(frozen=True)
class LineSettings:
    look_frames: int = 3  # a tag never sharp enough is read on its sharpest of this many whole frames
    sharp_focus: float = SHARP_FOCUS  # a whole shot this sharp is read at once (no better one is worth waiting for)
    reread_after_leaving: bool = False  # a second try of a tag that left delays its verdict by a whole read
    max_reads: int = 3  # reads of one unresolved tag at most
    # a tag still in view this long gets its verdict anyway (a stopped belt); None: never, for a recording played
    # frame by frame, where a tag's wall time in view is how slow the station is, not the belt (station.py)
    timeout_s: float | None = 20.0
    queue: int = 4  # tags waiting to be read at most (worker.ReadWorker)
    drain_s: float = 60.0  # at the end of a run, how long to wait for the reads still running
    # A tag that left waits this long at most for its read to start; then it is judged on the reads it has (none:
    # REVIEW, passed unread while the reader was busy). On an overloaded CPU a verdict seconds after the tag passed
    # the reject point is worth less than a REVIEW in time, and each late read pushes every tag behind it later.
    # None: every read is waited for.
    read_wait_s: float | None = None
    edge_px: float = 2.0
    lone_symbol_looks: int = 3  # a symbol on no tag's outline in this many looks is a tag (symbols.LoneSymbols)
    tracker: TrackerSettings = field(default_factory=TrackerSettings)
    pace: DetectionPace = field(default_factory=DetectionPace)  # how often a live line's detector runs


class NoRecipeError(ConfigError):
    """The line judges every tag against a job's recipe; without one there is no verdict to give."""


@dataclass
class _State:
    track_id: int
    first_frame: int
    started_at: float
    last_frame: int = -1
    last_box: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    frames_seen: int = 0
    best_frame: int | None = None
    best_focus: float | None = None
    fully_inside: bool = False
    reads: list[Read] = field(default_factory=list)
    shot: Shot | None = None  # the sharpest whole shot since the last one sent to be read
    whole_frames: int = 0  # frames seen whole since the last shot sent
    sent_shot: Shot | None = None  # the last shot sent to be read: sent again as the tag leaves, if a full queue
    # dropped it and the tag left unread with no whole shot since
    gone_at: float | None = None
    timed_out: bool = False

    def record(self) -> TagTrack:
        return TagTrack(self.track_id, self.frames_seen, self.first_frame, self.last_frame, self.last_box,
                        self.best_frame, self.best_focus, self.fully_inside, tuple(self.reads))


class _InlineWorker:
    """The worker's interface, reading at once on the caller's thread: for offline analysis and tests."""

    def __init__(self, reader: Any, recipe: Any) -> None:
        self.reader, self.recipe = reader, recipe
        self.dropped, self.busy_s, self.cpu_s = 0, 0.0, 0.0
        self._done: list[tuple[int, Read]] = []

    def submit(self, shot: Shot) -> None:
        start, cpu_start = time.perf_counter(), time.thread_time()
        self._done.append((shot.track_id, read_shot(self.reader, self.recipe, shot)))
        self.busy_s += time.perf_counter() - start
        self.cpu_s += time.thread_time() - cpu_start

    reading = False
    cpu_share = None  # its reads run on the detection loop's thread: there is no reader to pace for

    def busy_with(self, track_id: int) -> bool:
        return False

    def cancel(self, track_id: int) -> bool:
        return False

    def left(self, track_id: int) -> None:
        pass

    def collect(self) -> list[tuple[int, Read]]:
        done, self._done = self._done, []
        return done

    def wait_for(self, track_id: int, timeout_s: float) -> bool:
        return True

    def hurry(self, seconds: float) -> None:
        pass

    def close(self, timeout_s: float = 0.0) -> None:
        pass


def tag_focus(image: np.ndarray, box, symbol_boxes) -> float:
    """Variance of the Laplacian on the tag's crop (its largest barcode where it has one), at the reader's
    fixed working size, so it compares with the reader's own focus numbers."""
    from inference.reading.reader import focus_of

    h, w = image.shape[:2]
    x1, y1 = max(0, int(box[0])), max(0, int(box[1]))
    x2, y2 = min(w, int(np.ceil(box[2]))), min(h, int(np.ceil(box[3])))
    crop = image[y1:y2, x1:x2]
    if crop.size == 0:
        return 0.0
    gray = cv2.cvtColor(crop, cv2.COLOR_BGR2GRAY) if crop.ndim == 3 else crop
    shifted = [(b[0] - x1, b[1] - y1, b[2] - x1, b[3] - y1) for b in symbol_boxes]
    return focus_of(gray, shifted)


class LineInspector:
    """`step`, `follow` and `finish` are called from one detection loop. With `on_verdict` (and `threaded`), a tag
    that left waiting for its read gets its verdict on the reading thread as the read lands: `on_verdict` is then
    called from that thread, each verdict once, either there or returned by the loop's calls."""

    def __init__(self, detect: Callable[[np.ndarray], Detections] | None, reader: Any, recipe: Any,
                 settings: LineSettings = LineSettings(), *, threaded: bool = True,
                 clock: Callable[[], float] = time.monotonic, first_id: int = 1,
                 on_verdict: VerdictListener | None = None) -> None:
        if recipe is None:
            raise NoRecipeError("the line needs a job's recipe", expected="a recipe (--recipe JOB.toml)",
                                found="none", hint="teach or load the job's recipe, then start the line")
        self.detect = detect
        self.recipe = recipe
        self.settings = settings
        self.clock = clock
        self.on_verdict = on_verdict
        # the loop's calls and a landing read change the same tags: one at a time (re-entrant: step -> _finalize)
        self._lock = threading.RLock()
        self._landed = False  # a read landed while the loop held the lock: the loop looks again as it lets go
        woken = self._read_landed if on_verdict is not None else None
        self.worker = (ReadWorker(reader, recipe, settings.queue, on_read=woken) if threaded
                       else _InlineWorker(reader, recipe))
        self.tracker: TagTracker | None = None
        self.symbols: LoneSymbols | None = None
        self.first_id = first_id
        self.frames = 0
        self._live: dict[int, _State] = {}
        self._leaving: dict[int, _State] = {}
        self._closed: set[int] = set()  # ids given a verdict (after a timeout the tracker may still see them)
        self._previous_frame: int | None = None
        self._slow = False  # the detector skips look_frames or more between its frames: waiting buys nothing
        self.reads_given_up = 0  # waiting reads of tags that left, dropped after `read_wait_s`
        self._stepped: tuple[int, float] | None = None  # the last detected frame and when its step began
        self._whole_span = (0.0, 0.0)  # the widest and tallest whole tag seen (px): with the belt's speed, how
        # long a tag stays whole

    @classmethod
    def around(cls, inspector: Any, settings: LineSettings = LineSettings(), **options: Any) -> LineInspector:
        """Over an `inference.inspection.Inspector`: its detector every frame, its reader and recipe per tag."""
        pipeline = inspector.pipeline
        return cls(lambda image: pipeline.process(image).detections, inspector.reader, inspector.recipe,
                   settings, **options)

    # -- the loop ---------------------------------------------------------------------------------------
    def step(self, frame: int, image: np.ndarray, detections: Detections | None = None) -> list[TagVerdict]:
        """One frame (its source index, the image, and its detections when the caller already has them);
        returns the verdicts of tags that became final at this frame."""
        if detections is None:
            detections = self.detect(image)  # outside the lock: a read landing meanwhile gives its verdict at once
        with self._lock:
            verdicts = self._step(frame, image, detections)
        self._after_lock()
        return verdicts

    def _step(self, frame: int, image: np.ndarray, detections: Detections) -> list[TagVerdict]:
        now = self.clock()
        self._stepped = (frame, now)
        if self.tracker is None:
            frame_wh = (image.shape[1], image.shape[0])
            self.tracker = TagTracker(frame_wh, self.settings.tracker, self.first_id)
            self.symbols = LoneSymbols(frame_wh, self.settings.tracker, self.settings.lone_symbol_looks)
        self.frames += 1
        self._slow = self._previous_frame is not None and frame - self._previous_frame >= self.settings.look_frames
        self._previous_frame = frame
        self._collect()
        tags = np.flatnonzero(np.array([label == "hangtag" for label in detections.labels], dtype=bool))
        update = self.tracker.update(frame, detections.xyxy[tags], detections.confidence[tags])
        for i, track_id in zip(tags, update.ids):
            if track_id is not None and track_id not in self._closed:
                self._seen(track_id, frame, image, detections, int(i), now)
        for track_id in update.ended:
            self._leave(track_id, now)
        for state in list(self._live.values()):
            if self.settings.timeout_s is not None and now - state.started_at > self.settings.timeout_s:
                state.timed_out = True
                self._leave(state.track_id, now)
            else:
                self._schedule(state, leaving=False)
        marks = np.flatnonzero(np.array([label in SYMBOLS for label in detections.labels], dtype=bool))
        lone = self.symbols.update(frame, image, detections.xyxy[marks], detections.confidence[marks],
                                   [detections.labels[j] for j in marks], self.tracker.outlines(frame))
        return self._finalize(wait_s=0.0) + self._lone_verdicts(lone)

    def follow(self, frame: int) -> list[TagVerdict]:
        """A frame the paced detector skips (`detection_due` said no): with the belt's speed known, the tags it has
        carried wholly out of the view leave at this frame, and tags whose reads came back get their verdicts now,
        not at the next detection. Costs no detection and no image."""
        if self.tracker is None:
            return []
        with self._lock:
            now = self.clock()
            self._collect()
            for track_id in self.tracker.expire(frame):
                self._leave(track_id, now)
            verdicts = self._finalize(wait_s=0.0) + self._lone_verdicts(self.symbols.expire(frame))
        self._after_lock()
        return verdicts

    def finish(self, drain_s: float | None = None, cause: str | None = None) -> list[TagVerdict]:
        """The stream ended: every tag still in view leaves now. The reads still running are waited for, `drain_s`
        at most in all (the settings' by default); a tag whose read outlasts that still gets its verdict, from the
        reads it has (REVIEW when none) and saying so: a tag is never dropped for want of time. `cause` (the line was
        stopped, the station closed): a tag in view that was never read says that, not "the frame's edge cut it"
        or "the reader was busy", which were not why."""
        with self._lock:
            now = self.clock()
            lone: list[LoneSymbol] = []
            if self.tracker is not None:
                self.tracker.end_all()
                lone = self.symbols.end_all()
            in_view = set(self._live)
            for track_id in in_view:
                self._leave(track_id, now)
            verdicts = (self._finalize(wait_s=self.settings.drain_s if drain_s is None else drain_s)
                        + self._cut_short() + self._lone_verdicts(lone))
        if cause is None:
            return verdicts
        return [replace(v, reasons=(unread_because(cause),) + v.reasons[1:])
                if v.track_id in in_view and v.unread and v.reasons[:1] in ((UNREAD,), (UNREAD_BUSY,)) else v
                for v in verdicts]

    def detection_due(self, frame: int) -> bool:
        """Is this live frame (its source index) worth detecting (`step`), or only following (`follow`)? Often
        while a tag waits for a read the free reader could start, or a symbol on no tag's outline for the looks that
        tell it is a tag (symbols.LoneSymbols.undecided), or while the reader gets the CPU it needs; seldom while its
        reads wait for CPU (settings.pace)."""
        if self._stepped is None:
            return True
        last_frame, last_at = self._stepped
        with self._lock:
            self._collect()  # a read that landed settles its tag now: no detection is needed to learn it
        # a symbol on no tag's outline wants its looks as a tag waiting for the free reader wants its shot
        wanted = self._shot_wanted() or (self.symbols is not None and self.symbols.undecided())
        return self.settings.pace.due(shot_wanted=wanted, seconds_since=self.clock() - last_at,
                                      frames_since=frame - last_frame, whole_frames=self._whole_frames(),
                                      reader_share=self.worker.cpu_share)

    def _whole_frames(self) -> float | None:
        """Source frames a tag stays wholly in view, from the belt's speed and the tags seen whole so far. The speed
        given, or else learned from the tags (the tracker's, once its moves agree): a line whose belt nobody entered
        detected on every frame it could for the whole run, and the reader, which every verdict waits for, got 0.12
        of a core against 0.18 with the speed given (BENCHMARKS, issue 18, twenty-eighth session, helper line2)."""
        belt = None if self.tracker is None else self.tracker.belt
        if belt is None:
            return None  # not known yet: every frame it can, so the tags' moves teach it
        along = 0 if abs(belt[0]) >= abs(belt[1]) else 1
        speed, span = abs(belt[along]), self._whole_span[along]
        if speed <= 0 or span <= 0:
            return None
        return max(0.0, self.tracker.frame_wh[along] - span) / speed

    def _shot_wanted(self) -> bool:
        """A tag in view still needs a read, and the reader is free to start it at once."""
        if self.worker.reading:
            return False
        limit = self.settings.max_reads
        return any(len(state.reads) < limit and not self._settled(state) for state in self._live.values())

    @property
    def next_id(self) -> int:
        """The id this line's next new tag would get: where a line after it goes on numbering."""
        return self.tracker.next_id if self.tracker is not None else self.first_id

    def tracks(self) -> tuple[TagTrack, ...]:
        """The tags in view (and those waiting for a read before their verdict), as plain records."""
        with self._lock:  # a landing read may judge a leaving tag meanwhile
            return tuple(s.record() for s in (*self._live.values(), *self._leaving.values()))

    def hurry(self, seconds: float) -> None:
        """Thread-safe: a `finish` waiting for reads (now or later) gives up on them within `seconds` from now."""
        self.worker.hurry(seconds)

    def close(self, timeout_s: float = 30.0) -> None:
        """`timeout_s`: how long to wait for a read still running (its thread is a daemon: it cannot hold the
        process open once abandoned)."""
        self.worker.close(timeout_s)

    def __enter__(self) -> LineInspector:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- per tag ----------------------------------------------------------------------------------------
    def _seen(self, track_id: int, frame: int, image: np.ndarray, detections: Detections, index: int,
              now: float) -> None:
        state = self._live.get(track_id)
        if state is None:
            state = self._live[track_id] = _State(track_id, frame, now)
        box = tuple(float(v) for v in detections.xyxy[index])
        state.frames_seen += 1
        state.last_frame, state.last_box = frame, box
        if touches_edge(box, (image.shape[1], image.shape[0]), self.settings.edge_px):
            return
        symbols = [j for j, label in enumerate(detections.labels)
                   if label in SYMBOLS and centre_inside(detections.xyxy[j], box)]
        focus = tag_focus(image, box, [tuple(detections.xyxy[j]) for j in symbols])
        self._whole_span = (max(self._whole_span[0], box[2] - box[0]), max(self._whole_span[1], box[3] - box[1]))
        state.fully_inside = True
        state.whole_frames += 1
        if state.best_focus is None or focus > state.best_focus:
            state.best_frame, state.best_focus = frame, focus
        if state.shot is None or focus > state.shot.focus:
            neighbours = tuple(tuple(float(v) for v in detections.xyxy[j]) for j, label in enumerate(detections.labels)
                               if label == "hangtag" and j != index)
            state.shot = Shot(track_id, frame, focus, image, detections[np.array([index, *symbols], dtype=np.intp)],
                              neighbours=neighbours)

    def _settled(self, state: _State) -> bool:
        return state.record().settled

    def _schedule(self, state: _State, *, leaving: bool) -> None:
        """Send the tag's best shot to be read when it is due: at once when it is sharp enough, else after
        `look_frames` whole frames (at once when the tag is leaving unread, or when the detector is so slow that
        the next frame it sees is that far away); only while unresolved, one read of a tag at a time,
        `max_reads` at most, and a second try only while the tag is in view."""
        s = self.settings
        if state.shot is None or self._settled(state) or len(state.reads) >= s.max_reads:
            return
        if self.worker.busy_with(state.track_id):
            return
        if leaving and state.reads and not s.reread_after_leaving:
            return
        due = leaving or self._slow or state.whole_frames >= s.look_frames or state.shot.focus >= s.sharp_focus
        if not due:
            return
        # a shot dropped from a full queue was never read: the tag's next one is still its first read, not a second
        # try (the reader puts every first read before second tries and drops second tries first)
        self.worker.submit(replace(state.shot, attempt=len(state.reads) + 1, leaving=leaving))
        state.sent_shot, state.shot, state.whole_frames = state.shot, None, 0

    def _leave(self, track_id: int, now: float) -> None:
        state = self._live.pop(track_id, None)
        if state is None:
            return
        state.gone_at = now
        self._closed.add(track_id)
        self._leaving[track_id] = state
        if state.reads and not self.settings.reread_after_leaving:
            self.worker.cancel(track_id)  # a second try not started yet: the verdict goes with the reads it has
        self.worker.left(track_id)  # its read still waiting goes before those of the tags in view
        if state.shot is None and not state.reads and not self.worker.busy_with(track_id):
            state.shot = state.sent_shot  # its shot was dropped from a full queue: read once as it leaves
        self._schedule(state, leaving=True)

    def _collect(self) -> None:
        for track_id, read in self.worker.collect():
            state = self._live.get(track_id) or self._leaving.get(track_id)
            if state is not None:
                state.reads.append(read)

    def _finalize(self, wait_s: float) -> list[TagVerdict]:
        deadline = time.monotonic() + wait_s  # one allowance for all the tags leaving, not one each
        out = []
        for track_id, state in list(self._leaving.items()):
            if wait_s > 0:
                self.worker.wait_for(track_id, max(0.0, deadline - time.monotonic()))
            self._collect()
            late = wait_s <= 0 and self._past_read_wait(state)
            if late and self.worker.cancel(track_id):  # its read never started in time: judged on what it has
                self.reads_given_up += 1
            if self.worker.busy_with(track_id):
                continue
            if state.shot is not None and not late:  # a read came back unresolved while it was leaving: one more try
                self._schedule(state, leaving=True)
                self._collect()
                if self.worker.busy_with(track_id):
                    if wait_s <= 0 or not self.worker.wait_for(track_id, max(0.0, deadline - time.monotonic())):
                        continue
                    self._collect()
            del self._leaving[track_id]
            out.append(verdict_of(state.record(), latency_s=max(0.0, self.clock() - (state.gone_at or 0.0)),
                                  timed_out=state.timed_out))
        return out

    def _past_read_wait(self, state: _State) -> bool:
        limit = self.settings.read_wait_s
        return limit is not None and state.gone_at is not None and self.clock() - state.gone_at > limit

    def _cut_short(self) -> list[TagVerdict]:
        """The tags whose read was still running when the run's allowance ran out: their verdict now, from the
        reads they have; the read still running is left to end on its own (its result is no longer waited for)."""
        out = []
        for track_id, state in list(self._leaving.items()):
            self.worker.cancel(track_id)
            del self._leaving[track_id]
            verdict = verdict_of(state.record(), latency_s=max(0.0, self.clock() - (state.gone_at or 0.0)),
                                 timed_out=state.timed_out)
            reasons = verdict.reasons if verdict.reads else ()  # "the reader was busy" would not say why
            out.append(replace(verdict, reasons=reasons + (READ_CUT_SHORT,)))
        return out

    def _lone_verdicts(self, lone: list[LoneSymbol]) -> list[TagVerdict]:
        """A symbol that crossed on no tag's outline: a tag the detector did not outline, one REVIEW row, unread."""
        return [TagVerdict(self.tracker.take_id(), Verdict.REVIEW, (lone_reason(s.label),), s.looks, s.first_frame,
                           s.last_frame, s.last_box, None, None, 0, 0.0, crop=s.crop) for s in lone]

    # -- a read landing (the reading thread) ------------------------------------------------------------
    def _read_landed(self) -> None:
        """The worker's thread, after each read: the tags that left and waited for it get their verdicts now. When
        the loop holds the lock, it looks again as it lets go (`_after_lock`): never waited for here, since the loop
        may be waiting for this thread's next read (finish)."""
        self._landed = True
        if not self._lock.acquire(blocking=False):
            return
        try:
            self._landed = False
            self._collect()
            verdicts = self._finalize(wait_s=0.0) if self._leaving else []
        finally:
            self._lock.release()
        for verdict in verdicts:
            self.on_verdict(verdict)

    def _after_lock(self) -> None:
        if self._landed and self.on_verdict is not None:
            self._read_landed()
