"""A copy of a test set whose recipes expect the other price the tag prints: the offer, or the struck old price.

    PYTHONPATH=. python benchmarks/other_price_probe.py SET OUT
    hangtag-inspect verdict-bench --data OUT --bucket nominal --json J   # no --wrong-recipes

The wrong-recipe bench never changes a price to the other one printed on the tag, so a pass on the wrong candidate
goes unmeasured. In the copy, each `promo_price` job's recipe expects the shop's offer (the price under 活动价/折后价/
会员价 …, drawn by the design's own `offer_price`), and each `sale_reprice` job's recipe the old price the markdown
strikes through (`old_price`): both re-drawn from the job's seed exactly as `training.tagsets` drew them. Only those
designs' frames are kept. Every good frame judged OK on the copy passed on a price the tag does not charge.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
from pathlib import Path

import numpy as np

from training.tagsets import eleventh_designs, twentysecond_designs
from training.tagsets.values import random_values
from training.tagsets.writer import DESIGNS, JOB_VALUES

# The design, and the module function that draws the other price it prints.
OTHER_PRICE = {"promo_price": (twentysecond_designs, "offer_price"), "sale_reprice": (eleventh_designs, "old_price")}


def other_price(seed: int, job: int, design: str) -> str:
    """The other price job `job` of a set made with `seed` prints (generator.generate's draws for that job)."""
    module, name = OTHER_PRICE[design]
    job_rng = np.random.default_rng([seed, 1_000_000 + job])
    values, style_seed = random_values(job_rng), int(job_rng.integers(2**31))
    if design in JOB_VALUES:
        values = JOB_VALUES[design](job_rng, values)
    drawn: list[str] = []
    original = getattr(module, name)
    setattr(module, name, lambda *args: drawn.append(original(*args)) or drawn[-1])
    try:
        DESIGNS[design](style_seed, values, 4.0)
    finally:
        setattr(module, name, original)
    if not drawn:
        raise RuntimeError(f"{design} job {job} drew no other price: the design no longer calls {name}; update OTHER_PRICE")
    return f"¥{drawn[-1]}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("set", type=Path, help="a set written by python -m training.tagsets")
    parser.add_argument("out", type=Path, help="where the copy goes (replaced)")
    args = parser.parse_args()
    manifest = json.loads((args.set / "manifest.json").read_text(encoding="utf-8"))
    rows = [json.loads(line) for line in (args.set / "truth.jsonl").read_text(encoding="utf-8").splitlines()]
    designs = {row["job"]: row["design"] for row in rows}
    probed = {job for job, design in designs.items() if design in OTHER_PRICE}
    if not probed:
        raise SystemExit(f"no {' or '.join(OTHER_PRICE)} frames in {args.set}: nothing to probe")
    if args.out.exists():
        shutil.rmtree(args.out)
    shutil.copytree(args.set, args.out)
    for job in sorted(probed):
        other = other_price(int(manifest["seed"]), int(job.removeprefix("job")), designs[job])
        path = args.out / "recipes" / f"{job}.toml"
        text = path.read_text(encoding="utf-8")
        printed = re.search(r'^price = "(.*)"$', text, re.M)
        if printed is None:
            raise SystemExit(f"{path}: expected a line 'price = \"...\"', found none")
        path.write_text(text.replace(printed.group(0), f'price = "{other}"'), encoding="utf-8")
        print(f"{job} {designs[job]}: price {printed.group(1)} -> {other}")
    kept = "".join(json.dumps(row, ensure_ascii=False) + "\n" for row in rows if row["job"] in probed)
    (args.out / "truth.jsonl").write_text(kept, encoding="utf-8")


if __name__ == "__main__":
    main()
