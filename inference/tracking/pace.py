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
"""

from __future__ import annotations

from dataclasses import dataclass

from inference.errors import ConfigError


@dataclass(frozen=True)
class DetectionPace:
    shot_fps: float | None = None  # detections per second at most (None: every frame the detector can take)
    whole_looks: float | None = 2.0  # while following: detections in the frames a tag is wholly in view
    # (None: never slower than shot_fps)

    def __post_init__(self) -> None:
        for name in ("shot_fps", "whole_looks"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ConfigError(f"detection pace {name} must be above 0", expected="a number > 0, or none",
                                  found=str(value), hint="leave it out for the default")

    def due(self, *, shot_wanted: bool, seconds_since: float, frames_since: int, whole_frames: float | None) -> bool:
        """Is the frame `frames_since` source frames (`seconds_since` s) after the last detected one worth
        detecting? `shot_wanted`: a tag in view waits for a read the free reader could start now; `whole_frames`:
        how many frames a tag stays wholly in view at the belt's given speed (None: not known)."""
        if self.shot_fps is not None and seconds_since < 1.0 / self.shot_fps:
            return False
        if shot_wanted or whole_frames is None or self.whole_looks is None:
            return True
        return frames_since >= whole_frames / self.whole_looks
