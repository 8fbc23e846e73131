"""Two `hangtag-inspect verdict-bench --json` runs of the same set side by side: the verdict summary of each,
and every frame (and wrong-recipe row) whose verdict or reasons changed.

    python -m benchmarks.verdict_changes BEFORE.json AFTER.json [--reasons]

Without --reasons only verdict changes are listed; with it, frames whose reasons changed too.
"""

from __future__ import annotations

import argparse
import json
from collections import Counter
from pathlib import Path


def _summary(run: dict) -> str:
    good = Counter(r["verdict"] for r in run["rows"] if r["expected"] == "OK")
    bad = Counter(r["verdict"] for r in run["rows"] if r["expected"] != "OK")
    wrong = Counter(r["verdict"] for r in run.get("wrong_recipe_rows", []))
    fmt = lambda c: " / ".join(f"{k} {c.get(k, 0)}" for k in ("OK", "REVIEW", "NG"))  # noqa: E731
    return f"good: {fmt(good)} | defects: {fmt(bad)} | wrong recipes: {fmt(wrong)}"


def _key(row: dict) -> str:
    return row["image"] + (f" [{row['field']}]" if "field" in row else "")


def changes(before: dict, after: dict, reasons: bool) -> list[str]:
    out = []
    for table in ("rows", "wrong_recipe_rows"):
        old = {_key(r): r for r in before.get(table, [])}
        for row in after.get(table, []):
            was = old.get(_key(row))
            if was is None:
                continue
            moved = was["verdict"] != row["verdict"]
            if moved or (reasons and was["reasons"] != row["reasons"]):
                tag = f"{row.get('design', '')} {row.get('expected', 'wrong recipe')}"
                out.append(f"{_key(row)} ({tag}): {was['verdict']} -> {row['verdict']}")
                out.append(f"    before: {'; '.join(was['reasons'])[:400]}")
                out.append(f"    after:  {'; '.join(row['reasons'])[:400]}")
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("before", type=Path)
    parser.add_argument("after", type=Path)
    parser.add_argument("--reasons", action="store_true", help="list frames whose reasons changed too")
    args = parser.parse_args(argv)
    before, after = (json.loads(p.read_text(encoding="utf-8")) for p in (args.before, args.after))
    print("before:", _summary(before))
    print("after: ", _summary(after))
    for line in changes(before, after, args.reasons):
        print(line)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
