"""How often a live line's detector runs: often only while a tag waits for a read the reader could start now.

On a CPU station one detection costs about a quarter of one tag's read (110-120 ms of one core against
0.4-0.7 s on the 2-core VM, issue 18), so a detector run on every frame it can take spends most of the CPU
and the reader, which every verdict waits for, gets the rest. The detector is needed often only to find a
tag's first whole, sharp shot as soon as there is one, and only when the reader is free to read it at once:
then it runs on every frame it can (at most `shot_fps`). The rest of the time (a read running or waiting,
every tag in view read or being read, nothing in view) it only follows the tags and notices the next one:
`whole_looks` detections in the time a tag is wholly in view (the belt's speed and the tags' size say how
many frames that is), so a tag the reader is too busy for is still seen whole to be read later. With the
belt's speed given, one detection a second keeps each tag's id (BENCHMARKS, issue 18, third pass). Without
it the detector runs as when looking for a shot: a speed learned from tags seen every 10th frame split three
tags in four into several ids in that pass.

Following pays only where the reader is short of CPU. On an idle station the reader has a core of its own and a
paced detector only ends tracks later (p95 0.38-0.48 s paced against 0.19-0.30 s at full rate, fifth pass). So
with `starved_below` set, the detector follows only while the reader has work and its thread got less than that
share of a core over its last reads (reader_share.ReaderShare), and at full rate while the reader gets its core
or before its first read has said. A starved reader's line follows even while the reader is idle: with a third
of a core a detection comes every ~0.3 s, later than the belt's own expiry ends a read tag's track, and detecting
while idle took 0.15-0.2 of a core more and put the verdicts later (sixth pass, tried first).
"""

from __future__ import annotations

from dataclasses import dataclass

from inference.errors import ConfigError


@dataclass(frozen=True)
class DetectionPace:
    shot_fps: float | None = None  # detections per second at most (None: every frame the detector can take)
    whole_looks: float | None = 2.0  # while following: detections in the frames a tag is wholly in view
    # (None: never slower than shot_fps)
    starved_below: float | None = 0.75  # follow only while the reader got less than this share of a core over its
    # last reads (None: follow whenever no tag waits for the free reader, however much CPU the reader gets)

    def __post_init__(self) -> None:
        for name in ("shot_fps", "whole_looks"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ConfigError(f"detection pace {name} must be above 0", expected="a number > 0, or none",
                                  found=str(value), hint="leave it out for the default")
        if self.starved_below is not None and not 0 < self.starved_below <= 1:
            raise ConfigError("detection pace starved_below is a share of one core", expected="a number in (0, 1], or none",
                              found=str(self.starved_below), hint="0.75 paces a reader that waits a quarter of its reads")

    def due(self, *, shot_wanted: bool, seconds_since: float, frames_since: int, whole_frames: float | None,
            reader_share: float | None) -> bool:
        """Is the frame `frames_since` source frames (`seconds_since` s) after the last detected one worth
        detecting? `shot_wanted`: a tag in view waits for a read the free reader could start now; `whole_frames`:
        how many frames a tag stays wholly in view at the belt's given speed (None: not known); `reader_share`: the
        share of a core the reader got over its last reads (None: no read finished yet)."""
        if self.shot_fps is not None and seconds_since < 1.0 / self.shot_fps:
            return False
        if shot_wanted or whole_frames is None or self.whole_looks is None or not self.starved(reader_share):
            return True
        return frames_since >= whole_frames / self.whole_looks

    def starved(self, reader_share: float | None) -> bool:
        """Do the reader's reads wait for CPU the detector takes? Always, without `starved_below`."""
        if self.starved_below is None:
            return True
        return reader_share is not None and reader_share < self.starved_below
