"""Every good frame of a test set judged against its recipe with one field moved to a neighbour, both ways.

`hangtag-inspect verdict-bench --wrong-recipes` changes one field a frame (picked by a hash of the image's name), so
on a small set it seldom asks the question a design puts: is a wrong size seen against a size printed huge, a wrong
price under a clear film? This asks it of every good frame: the recipe's `--fields` each moved to the value a
neighbouring job would expect (`inference.cli.wrong_recipes.neighbour`: the next size up and down, a price's leading
digit one more and one less …). OK is an escape.

    python -m benchmarks.neighbour_probe --data /tmp/sets/twentyseventh_b --json /tmp/probe.json [--fields size,price]
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path

from inference.cli.verdict_bench import _verdict_text, load_truth
from inference.cli.wrong_recipes import neighbour


def moved_recipes(recipe, fields: list[str]):
    """(field, right, wrong, recipe) for each field of `fields` the recipe expects, moved up and then down."""
    expected = {rule.name: rule.expected for rule in recipe.fields if rule.expected}
    for field in fields:
        if field not in expected:
            continue
        for step in (1, -1):
            wrong = neighbour(field, expected[field], step)
            if wrong is None or wrong == expected[field]:
                continue
            rules = tuple(replace(rule, expected=wrong) if rule.name == field else rule for rule in recipe.fields)
            yield field, expected[field], wrong, replace(recipe, fields=rules)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--data", type=Path, required=True, help="a set from python -m training.tagsets")
    parser.add_argument("--json", type=Path, required=True, help="every judgement, one row each")
    parser.add_argument("--fields", default="size,price", help="fields to move, comma-separated (default size,price)")
    parser.add_argument("--bucket", default="nominal", help="camera condition of the frames judged (default nominal)")
    args = parser.parse_args(argv)

    from inference.imageio import read_image
    from inference.inspection import Inspector
    from inference.reading.recipe import load_recipe
    from inference.resources import default_model_path

    _manifest, truth = load_truth(args.data)
    fields = [f.strip() for f in args.fields.split(",") if f.strip()]
    rows = []
    with Inspector.open(default_model_path(), None, read=True) as inspector:
        for number, row in enumerate(truth):
            if row["bucket"] != args.bucket or row["expected_verdict"] != "OK":
                continue
            image = read_image(args.data / row["image"])
            for field, right, wrong, recipe in moved_recipes(load_recipe(args.data / row["recipe"]), fields):
                inspector.recipe = recipe
                path = args.data / row["image"]
                result = inspector.inspect_image(image, source_name=row["image"], source_path=str(path), index=number)
                verdict = "ERROR" if not result.ok else _verdict_text(result.verdict)
                reasons = (list(getattr(result.verdict, "reasons", ()) or ()) if result.ok
                           else [result.error.splitlines()[0]])
                rows.append({"image": row["image"], "design": row.get("design", ""), "field": field, "printed": right,
                             "expected": wrong, "verdict": verdict, "reasons": [str(r) for r in reasons]})
    args.json.write_text(json.dumps(rows, ensure_ascii=False, indent=1), encoding="utf-8")
    counts = Counter((r["design"], r["field"], r["verdict"]) for r in rows)
    print("design               field          NG  REVIEW  OK (escape)")
    for design, field in sorted({(d, f) for d, f, _ in counts}):
        print(f"{design:20} {field:12} {counts[(design, field, 'NG')]:4} {counts[(design, field, 'REVIEW')]:7} "
              f"{counts[(design, field, 'OK')]:3}")
    for r in rows:
        if r["verdict"] == "OK":
            print(f"escape: {r['image']} ({r['design']}) {r['field']} printed {r['printed']}, recipe {r['expected']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
