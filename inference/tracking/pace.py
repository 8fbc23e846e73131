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
it the detector runs as when looking for a shot until the tags' moves, seen on every frame, agree on the belt's
speed (the tracker's BELT_AGREE), and then follows by that learned speed: a speed learned from tags seen every 10th
frame split three tags in four into several ids in that pass, and a line that never followed a learned belt left its
reader 0.12 of a core, and its NG tags' verdicts 1.3-2 s late (twenty-eighth session, helper line2).

Until the run's first read has finished the detector runs at full rate whatever the setting: following during it
let one track take the first two tags (one duplicated, one missed) at 0.6 s spacing in 8 of 12 runs, none of 12
with it (BENCHMARKS, issue 18, sixth pass).

Following pays only where the reader is short of CPU, so with `starved_below` set the detector runs at full rate
while the reader's thread got at least that share of a core over its last reads (reader_share.ReaderShare). It is
off by default: on the 2-core VM at load 4-11 it did not help (sixth pass). The reader got 0.4-0.73 of a core
there, around any bar "well below 1", so the line went back and forth, detected 1.4x as often for 0.1 of a core
more, and its p95 was 0.09-0.13 s against 0.03-0.09 s paced at 1.25 s; following only while the reader was busy
cost 0.15-0.2 of a core and 0.06 s at p50. The case it is made for, an idle station (fifth pass: p95 0.19-0.30 s
at full rate against 0.38-0.48 s paced, both within the 1 s target), could not be measured then.
"""

from __future__ import annotations

from dataclasses import dataclass

from inference.errors import ConfigError


@dataclass(frozen=True)
class DetectionPace:
    shot_fps: float | None = None  # detections per second at most (None: every frame the detector can take)
    whole_looks: float | None = 2.0  # while following: detections in the frames a tag is wholly in view
    # (None: never slower than shot_fps)
    starved_below: float | None = None  # follow only while the reader got less than this share of a core over its
    # last reads, e.g. 0.75 (None: follow whenever no tag waits for the free reader, whatever CPU the reader gets)

    def __post_init__(self) -> None:
        for name in ("shot_fps", "whole_looks"):
            value = getattr(self, name)
            if value is not None and not value > 0:
                raise ConfigError(f"detection pace {name} must be above 0", expected="a number > 0, or none",
                                  found=str(value), hint="leave it out for the default")
        if self.starved_below is not None and not 0 < self.starved_below <= 1:
            raise ConfigError("detection pace starved_below is a share of one core",
                              expected="a number in (0, 1], or none", found=str(self.starved_below),
                              hint="0.75 paces a reader that waits a quarter of its reads")

    def due(self, *, shot_wanted: bool, seconds_since: float, frames_since: int, whole_frames: float | None,
            reader_share: float | None) -> bool:
        """Is the frame `frames_since` source frames (`seconds_since` s) after the last detected one worth
        detecting? `shot_wanted`: a tag in view waits for a read the free reader could start now; `whole_frames`:
        how many frames a tag stays wholly in view at the belt's speed, given or learned (None: not known yet);
        `reader_share`: the share of a core the reader got over its last reads (None: no read finished yet)."""
        if self.shot_fps is not None and seconds_since < 1.0 / self.shot_fps:
            return False
        if shot_wanted or whole_frames is None or self.whole_looks is None or not self.starved(reader_share):
            return True
        return frames_since >= whole_frames / self.whole_looks

    def starved(self, reader_share: float | None) -> bool:
        """Do the reader's reads wait for CPU the detector takes? Not known before the run's first read has finished,
        and the detector runs at full rate until then: following during the first read let one track take two of
        the first tags (one missed, one duplicated) at 0.6 s spacing in 8 of 12 runs (sixth pass). After it: always,
        without `starved_below`."""
        if reader_share is None:
            return False
        return self.starved_below is None or reader_share < self.starved_below
