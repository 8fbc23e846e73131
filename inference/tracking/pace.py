"""How often a live line's detector runs: often only while a tag waits for a read the reader could start now.

On a CPU station one detection costs about a quarter of one tag's read (110-120 ms of one core against
0.4-0.6 s on the 2-core VM, issue 18), so a detector run on every frame it can take spends most of the CPU
and the reader, which every verdict waits for, gets the rest. The detector is needed often only to find a
tag's first whole, sharp shot as soon as there is one, and only when the reader is free to read it at once:
then it runs at `shot_fps`. The rest of the time (a read running or waiting, every tag in view read or
being read, nothing in view) it only follows the tags and notices the next one coming in: `follow_fps`.
With the belt's speed given (a line setting) one detection a second keeps each tag's id (BENCHMARKS, issue
18, third pass); a few a second also see each tag whole more than once on its ~1 s across. Without it the
detector runs at `shot_fps` whatever the reader does: a speed learned from tags seen every 10th frame split
three tags in four into several ids in that pass.
"""

from __future__ import annotations

from dataclasses import dataclass

from inference.errors import ConfigError


@dataclass(frozen=True)
class DetectionPace:
    shot_fps: float | None = None  # detections per second while a tag waits for a read the reader could start
    # now (None: every frame the detector can take)
    follow_fps: float | None = 3.0  # otherwise (None: as shot_fps)

    def __post_init__(self) -> None:
        for name in ("shot_fps", "follow_fps"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ConfigError(f"detection pace {name} must be above 0", expected="detections per second > 0, "
                                  "or none for every frame", found=str(value), hint="leave it out for the default")

    def period_s(self, *, shot_wanted: bool, belt_given: bool) -> float:
        """Seconds from one detection's start to the next one's. `shot_wanted`: a tag in view waits for a shot
        to read and the reader is free."""
        fps = self.shot_fps
        if not shot_wanted and belt_given and self.follow_fps is not None:
            fps = self.follow_fps if fps is None else min(fps, self.follow_fps)
        return 1.0 / fps if fps else 0.0
