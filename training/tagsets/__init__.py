"""An independent hangtag test set: designs, fonts and scenes that share nothing with training.synth.

    python -m training.tagsets --out datasets/tagset-v1 --count 300 --seed 1401

The station is judged on tags nobody on the team designed; this set stands in for them, so it must not
resemble the training generator. `hangtag-inspect verdict-bench --data DIR` reads what it writes.
"""

from __future__ import annotations

from training.tagsets.designs import DESIGNS
from training.tagsets.writer import generate

__all__ = ["DESIGNS", "generate"]
