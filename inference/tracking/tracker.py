"""ByteTrack's association on hangtag boxes: a track id per tag, stable while the tag crosses the view.

ByteTrack (Zhang et al., 2022) matches confident boxes to the tracks first, then gives the tracks left over a
second chance with the low-confidence boxes (a tag half-blurred or half out of the view scores low but is the
same tag), and starts tracks only from confident boxes. supervision's `ByteTrack` was the first choice, but the
releases that still carry it (<= 0.26) require `opencv-python`, whose cv2 overwrites the station's
`opencv-python-headless` and ships its own Qt beside PySide6; the algorithm is small, so it lives here, with
a constant-velocity prediction in place of the Kalman filter (a conveyor moves tags at a steady speed).

Frames are counted by the source's index, so frames the detector skipped on a busy machine widen the
prediction rather than breaking tracks.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

import numpy as np

Box = tuple[float, float, float, float]


@dataclass(frozen=True)
class TrackerSettings:
    high: float = 0.25  # a box this confident is matched first and may start a track (the detector's own threshold:
    # a tag the frame's edge cuts scores 0.3, and it must become a track, to be counted)
    low: float = 0.1  # boxes between low and high only continue tracks (ByteTrack's second stage)
    match_iou: float = 0.2  # overlap with a track's predicted box needed to continue it
    lost_frames: int = 15  # frames (source index) a track may go unseen before it ends; one whose box is
    # predicted out of the view ends at once, and so does one leaving through an edge once less of it is
    # predicted in view than the detector was seeing of the last tags that left (below that it cannot see it).
    edge_px: float = 2.0  # a box this close to the frame's edge touches it
    max_jump: float = 0.75  # last chance for a confident box: centre within this share of the track's diagonal
    # The belt's speed as the line knows it (px per source frame, x then y; + is rightwards/down), or None to
    # learn it from the tags. A detector that sees each tag once or twice cannot learn it: a box half a tag
    # behind is as near as the same tag half a tag ahead, and only the belt's direction tells them apart.
    belt_px_per_frame: tuple[float, float] | None = None


@dataclass
class _Track:
    track_id: int
    box: np.ndarray  # last seen, float64 (4,)
    last_frame: int
    velocity: np.ndarray = field(default_factory=lambda: np.zeros(4))  # per source frame
    hits: int = 1
    belt: np.ndarray | None = None  # the last step's (vx, vy) from the sides the frame's edge did not cut
    span: np.ndarray = field(default_factory=lambda: np.zeros(2))  # the widest and tallest it was seen (px)

    def predicted(self, frame: int) -> np.ndarray:
        return self.box + self.velocity * (frame - self.last_frame)

    def update(self, box: np.ndarray, frame: int, frame_wh: tuple[int, int], edge_px: float) -> None:
        step = max(1, frame - self.last_frame)
        moved = (box - self.box) / step
        self.velocity = moved if self.hits == 1 else 0.5 * self.velocity + 0.5 * moved
        free = ~(_cut(self.box, frame_wh, edge_px) | _cut(box, frame_wh, edge_px))
        vx = [moved[i] for i in (0, 2) if free[i]]
        vy = [moved[i] for i in (1, 3) if free[i]]
        self.belt = np.array([np.mean(vx) if vx else np.nan, np.mean(vy) if vy else np.nan])
        self.box, self.last_frame = box, frame
        self.span = np.maximum(self.span, box[2:] - box[:2])
        self.hits += 1


def _cut(box: np.ndarray, frame_wh: tuple[int, int], edge_px: float) -> np.ndarray:
    """Which of x1, y1, x2, y2 the frame's edge set (that side of the tag is out of view)."""
    w, h = frame_wh
    return np.array([box[0] <= edge_px, box[1] <= edge_px, box[2] >= w - edge_px, box[3] >= h - edge_px])


def iou_matrix(a: np.ndarray, b: np.ndarray, *, of_smaller: np.ndarray | None = None) -> np.ndarray:
    """Intersection over union; where `of_smaller` (rows x cols, bool) says so, over the smaller box instead:
    a tag coming in at the edge shows a sliver that grows, and the sliver lies inside the next box."""
    if len(a) == 0 or len(b) == 0:
        return np.zeros((len(a), len(b)))
    ix = np.clip(np.minimum(a[:, None, 2], b[None, :, 2]) - np.maximum(a[:, None, 0], b[None, :, 0]), 0, None)
    iy = np.clip(np.minimum(a[:, None, 3], b[None, :, 3]) - np.maximum(a[:, None, 1], b[None, :, 1]), 0, None)
    inter = ix * iy
    area_a = (a[:, 2] - a[:, 0]) * (a[:, 3] - a[:, 1])
    area_b = (b[:, 2] - b[:, 0]) * (b[:, 3] - b[:, 1])
    union = area_a[:, None] + area_b[None, :] - inter
    if of_smaller is not None:
        union = np.where(of_smaller, np.minimum(area_a[:, None], area_b[None, :]), union)
    return inter / np.maximum(union, 1e-9)


def _greedy(overlap: np.ndarray, minimum: float) -> list[tuple[int, int]]:
    """(row, col) pairs, best overlap first, each row and column once (a few tags per frame: greedy is exact
    enough, and needs no solver)."""
    pairs = []
    if overlap.size == 0:
        return pairs
    rows, cols = set(), set()
    for flat in np.argsort(-overlap, axis=None):
        r, c = divmod(int(flat), overlap.shape[1])
        if overlap[r, c] < minimum:
            break
        if r not in rows and c not in cols:
            pairs.append((r, c))
            rows.add(r)
            cols.add(c)
    return pairs


def touches_edge(box: Box | np.ndarray, frame_wh: tuple[int, int], edge_px: float = 2.0) -> bool:
    x1, y1, x2, y2 = (float(v) for v in box)
    w, h = frame_wh
    return x1 <= edge_px or y1 <= edge_px or x2 >= w - edge_px or y2 >= h - edge_px


@dataclass(frozen=True)
class TrackUpdate:
    """One frame's answer: a track id per given box (None: a weak box that continues no track) and the ids
    of tracks that ended (left the view) at this frame."""

    ids: tuple[int | None, ...]
    ended: tuple[int, ...]


class TagTracker:
    """Not thread-safe: one tracker per line, updated from the detection loop."""

    def __init__(self, frame_wh: tuple[int, int], settings: TrackerSettings = TrackerSettings(),
                 first_id: int = 1) -> None:
        self.frame_wh = frame_wh
        self.settings = settings
        self._tracks: dict[int, _Track] = {}
        self._next_id = first_id  # a station's later lines go on from its earlier ones: an id names one tag
        # A belt moves every tag alike: a new track starts at the speed the others were seen moving, so a
        # detector that sees a tag once every several frames still finds it where it went.
        belt = settings.belt_px_per_frame
        self.belt_velocity = np.zeros(4) if belt is None else np.array([belt[0], belt[1], belt[0], belt[1]], float)
        self._belt_known = [belt is not None, belt is not None]
        # How much of each of the last tags that left was in view when the detector last saw it: a track unseen
        # while predicted to show more than that is a detection gap (the tag comes back), not a tag gone.
        self._last_seen_shares: deque[float] = deque(maxlen=25)

    @property
    def next_id(self) -> int:
        """The id the next new tag gets."""
        return self._next_id

    @property
    def live_ids(self) -> tuple[int, ...]:
        return tuple(self._tracks)

    @property
    def belt_known(self) -> bool:
        """The belt's speed was given or learned on both axes: tags seen seldom can be followed."""
        return all(self._belt_known)

    def update(self, frame: int, xyxy: np.ndarray, confidence: np.ndarray) -> TrackUpdate:
        s = self.settings
        boxes = np.asarray(xyxy, np.float64).reshape(-1, 4)
        conf = np.asarray(confidence, np.float64).reshape(-1)
        ids: list[int | None] = [None] * len(boxes)
        tracks = list(self._tracks.values())
        free_tracks = list(range(len(tracks)))
        for stage in (conf >= s.high, (conf >= s.low) & (conf < s.high)):
            dets = [i for i in np.flatnonzero(stage)]
            if not dets or not free_tracks:
                continue
            w, h = self.frame_wh
            predicted = np.array([tracks[t].predicted(frame) for t in free_tracks]).reshape(-1, 4)
            predicted = np.clip(predicted, 0, [w, h, w, h])  # as the detector's boxes are: cut at the edge
            at_edge = np.array([touches_edge(b, self.frame_wh, s.edge_px) for b in boxes[dets]])
            overlap = iou_matrix(boxes[dets], predicted, of_smaller=at_edge[:, None] & np.ones(len(free_tracks), bool))
            taken = []
            for r, c in _greedy(overlap, s.match_iou):
                track = tracks[free_tracks[c]]
                track.update(boxes[dets[r]], frame, self.frame_wh, s.edge_px)
                ids[dets[r]] = track.track_id
                taken.append(free_tracks[c])
            free_tracks = [t for t in free_tracks if t not in taken]
        self._by_distance(frame, boxes, conf, ids, tracks, free_tracks)
        for i in np.flatnonzero(conf >= s.high):
            if ids[i] is None:
                track = _Track(self._next_id, boxes[i], frame, velocity=self.belt_velocity.copy(),
                               span=boxes[i][2:] - boxes[i][:2])
                self._tracks[track.track_id] = track
                ids[i] = track.track_id
                self._next_id += 1
        self._learn_belt([t.belt for t in tracks if t.last_frame == frame and t.belt is not None])
        ended = []
        for t in free_tracks:
            track = tracks[t]
            if track.track_id not in self._tracks:
                continue
            if self._gone(track, frame):
                ended.append(track.track_id)
                del self._tracks[track.track_id]
                seen = self._share_in_view(track, track.box)
                if seen is not None:
                    self._last_seen_shares.append(seen)
        return TrackUpdate(tuple(ids), tuple(ended))

    def _gone(self, track: _Track, frame: int) -> bool:
        """An unseen track has left: predicted out of the view, or leaving with less of it predicted in view than
        the detector saw of the last tags that left, or unseen for `lost_frames`. A tag leaving through an edge is
        missed more often than a whole one; ending its track at its first miss split a tag still half in view
        into two ids (two verdicts for one tag)."""
        predicted = track.predicted(frame)
        if self._out_of_view(predicted):
            return True
        share = self._share_in_view(track, predicted)
        if share is not None and self._last_seen_shares and share < float(np.median(self._last_seen_shares)):
            return True
        return frame - track.last_frame >= self.settings.lost_frames

    def _share_in_view(self, track: _Track, box: np.ndarray) -> float | None:
        """How much of the tag `box` leaves in view along the edge its last box touched while moving towards it
        (1: all of its width or height), or None when it is not leaving through an edge."""
        x1, y1, x2, y2 = track.box
        w, h = self.frame_wh
        e = self.settings.edge_px
        vx = (track.velocity[0] + track.velocity[2]) / 2
        vy = (track.velocity[1] + track.velocity[3]) / 2
        span_w, span_h = (max(1.0, float(v)) for v in track.span)
        shares = []
        if x2 >= w - e and vx > 0:
            shares.append((w - box[0]) / span_w)
        if x1 <= e and vx < 0:
            shares.append(box[2] / span_w)
        if y2 >= h - e and vy > 0:
            shares.append((h - box[1]) / span_h)
        if y1 <= e and vy < 0:
            shares.append(box[3] / span_h)
        return min(shares) if shares else None

    @property
    def learned_belt(self) -> tuple[float, float] | None:
        """The belt's (x, y) speed in px per source frame as learned from the tags so far; None while nothing is
        learned, or when the line gave the speed. The engineer can keep it: a speed given holds on a starved
        worker, where one still being learned split tags into two ids (GUI walk, session 26)."""
        if self.settings.belt_px_per_frame is not None or not any(self._belt_known):
            return None
        return float(self.belt_velocity[0]), float(self.belt_velocity[1])

    def _learn_belt(self, measured: list[np.ndarray]) -> None:
        """The belt's speed from this frame's moves, each side the edge did not cut (an entering tag's front,
        a leaving tag's back), so a detector that sees each tag only twice still learns it."""
        if not measured:
            return
        stack = np.array(measured)
        for axis in (0, 1):
            values = stack[:, axis][~np.isnan(stack[:, axis])]
            if values.size:
                v = float(np.mean(values))
                old = self.belt_velocity[axis]
                new = v if not self._belt_known[axis] else 0.6 * old + 0.4 * v
                self.belt_velocity[axis] = self.belt_velocity[axis + 2] = new
                self._belt_known[axis] = True

    def _by_distance(self, frame: int, boxes: np.ndarray, conf: np.ndarray, ids: list, tracks: list[_Track],
                     free_tracks: list[int]) -> None:
        """Confident boxes no track overlapped, and tracks nothing overlapped: matched when the box's centre is
        near where the track was predicted and its size alike (a slow detector, a belt that changed speed).
        `free_tracks` loses the tracks matched here."""
        s = self.settings
        left = [i for i in np.flatnonzero(conf >= s.high) if ids[i] is None]
        if not left or not free_tracks or not all(self._belt_known):
            return  # without the belt's speed a nearby box is as likely the next tag as this one
        pairs = []
        for i in left:
            for t in free_tracks:
                p = tracks[t].predicted(frame)
                diag = float(np.hypot(p[2] - p[0], p[3] - p[1]))
                dist = float(np.hypot((boxes[i][0] + boxes[i][2] - p[0] - p[2]) / 2, (boxes[i][1] + boxes[i][3] - p[1] - p[3]) / 2))
                h_ratio = (boxes[i][3] - boxes[i][1]) / max(1e-6, p[3] - p[1])
                if dist <= s.max_jump * diag and 0.6 <= h_ratio <= 1.67:
                    pairs.append((dist / max(diag, 1e-6), i, t))
        used_i, used_t = set(), set()
        for _, i, t in sorted(pairs):
            if i in used_i or t in used_t:
                continue
            tracks[t].update(boxes[i], frame, self.frame_wh, s.edge_px)
            ids[i] = tracks[t].track_id
            used_i.add(i)
            used_t.add(t)
        free_tracks[:] = [t for t in free_tracks if t not in used_t]

    def _out_of_view(self, box: np.ndarray) -> bool:
        w, h = self.frame_wh
        return bool(box[0] >= w or box[2] <= 0 or box[1] >= h or box[3] <= 0)

    def expire(self, frame: int) -> tuple[int, ...]:
        """A frame the detector skipped (a paced line): the tracks the belt has carried wholly out of the view end
        at it, so their tags' verdicts need not wait for the next detection. Nothing else changes: a track merely
        unseen, or leaving with a part still in view, waits for a detection to say so. The belt's speed moves them,
        not each track's own: a box the edge cut while the tag came in says its cut side stood still."""
        if not self.belt_known:
            return ()
        ended = tuple(t.track_id for t in self._tracks.values()
                      if self._out_of_view(t.box + self.belt_velocity * (frame - t.last_frame)))
        for track_id in ended:
            del self._tracks[track_id]
        return ended

    def end_all(self) -> tuple[int, ...]:
        """The stream ended: every track still open has left."""
        ended = tuple(self._tracks)
        self._tracks.clear()
        return ended
