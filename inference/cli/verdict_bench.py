"""`hangtag-inspect verdict-bench`: the station's verdicts on a labelled set of tags it was never built for.

The set (written by `python -m training.tagsets`, read here as plain files) is organised in jobs, each
with its recipe; a known share of its frames has one planted defect. The station runs exactly as on
the line (detector, reader, recipe) and is scored per camera condition: good frames must be OK,
defective ones NG, and every printed field read exactly.
"""

from __future__ import annotations

import argparse
import json
import platform
import re
import sys
import time
import zlib
from collections import Counter
from pathlib import Path

import numpy as np

from inference.cli.wrong_recipes import wrong_recipe
from inference.detections import iou
from inference.errors import ConfigError
from inference.reading.types import FIELD_NAMES
from inference.resources import default_model_path

BUCKETS = ("nominal", "blurred", "small")
VERDICTS = ("OK", "REVIEW", "NG", "ERROR")
MATCH_IOU = 0.5
# Issue 14's "done when", for the nominal condition (blur <= 1.5 px, tags >= 300 px tall).
TARGETS = (
    ("correct: OK", "correct.ok_rate", ">=", 0.97),
    ("correct: NG", "correct.ng_rate", "<=", 0.005),
    ("defects: escape", "defective.escape_rate", "<=", 0.002),
    ("defects: NG", "defective.ng_rate", ">=", 0.95),
    ("every field exact", "fields.min_rate", ">=", 0.98),
    ("detect+read p50 ms/tag", "time_per_tag_ms.p50", "<=", 250.0),
)


class TagsetFormatError(ConfigError):
    """The --data folder is not a test set this command can read."""


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("verdict-bench", help="verdicts, field reads and tag boxes on a labelled test set (training.tagsets)")
    parser.add_argument("--data", type=Path, required=True, help="folder with manifest.json, truth.jsonl, images/, recipes/")
    parser.add_argument("--model", type=Path, default=default_model_path(), help="ONNX detector (default: the shipped one)")
    parser.add_argument("--backend", default=None, help="engine backend (default: the best available)")
    parser.add_argument("--limit", type=int, default=0, help="first N images only (0 = all)")
    parser.add_argument("--bucket", choices=BUCKETS, default=None, help="only frames of this camera condition")
    parser.add_argument("--design", default=None, help="only frames of this tag design (names in manifest.json)")
    parser.add_argument("--json", type=Path, default=None, help="write every number and per-image rows here")
    parser.add_argument("--wrong-recipes", action="store_true",
                        help="also judge every good frame against its recipe with one value changed (next size, a price or "
                             "style number one digit off, another colour): escapes measured on every good frame")
    parser.add_argument("--ocr-rec", type=Path, default=None,
                        help="read with this PP-OCR recognizer ONNX instead of the station's stock one (first and second "
                             "reads; the small-print recognizer's last read of fields in doubt stays), to compare recognizers")
    parser.add_argument("--ocr-reread", type=Path, default=None,
                        help="give fields still in doubt their last read with this small-print recognizer ONNX instead of "
                             "the shipped one (first and second reads stay the station's), to judge a candidate")
    parser.set_defaults(func=verdict_bench)


# -- reading the set ----------------------------------------------------------------------------------
def load_truth(data: Path) -> tuple[dict, list[dict]]:
    manifest_path, truth_path = data / "manifest.json", data / "truth.jsonl"
    if not manifest_path.is_file() or not truth_path.is_file():
        raise TagsetFormatError(f"{data} is not a tag test set", expected="manifest.json and truth.jsonl in the folder",
                                found=", ".join(p.name for p in sorted(data.iterdir())[:8]) if data.is_dir() else "no such folder",
                                hint="make one with: python -m training.tagsets --out DIR --count 300 --seed 1401")
    try:
        manifest = json.loads(manifest_path.read_text(encoding="utf-8"))
        rows = [json.loads(line) for line in truth_path.read_text(encoding="utf-8").splitlines() if line.strip()]
    except (json.JSONDecodeError, UnicodeDecodeError) as exc:
        raise TagsetFormatError(f"{data}: truth files are not valid JSON", expected="manifest.json and JSON lines",
                                found=str(exc), hint="regenerate the set") from exc
    needed = ("image", "job", "recipe", "bucket", "expected_verdict", "tags")
    for number, row in enumerate(rows, start=1):
        missing = [k for k in needed if k not in row]
        if missing:
            raise TagsetFormatError(f"{truth_path}, line {number}: incomplete row", expected=", ".join(needed),
                                    found=f"missing {', '.join(missing)}", hint="regenerate the set")
    return manifest, rows


# -- scoring one frame --------------------------------------------------------------------------------

def match(truth_boxes: list, found_boxes: list, grown: bool = False) -> dict[int, int]:
    """Truth index -> found index, best overlap first, each box used once, IoU >= 0.5. `grown` (the boxes a tag
    was read from, which the reader grows past a detector box that cut the tag): a box that holds most of the truth
    box and is at most a few times its size matches too."""
    score = _cover if grown else iou
    pairs = sorted(((score(t, f), i, j) for i, t in enumerate(truth_boxes) for j, f in enumerate(found_boxes)), reverse=True)
    taken_t, taken_f, out = set(), set(), {}
    for overlap, i, j in pairs:
        if overlap < MATCH_IOU:
            break
        if i not in taken_t and j not in taken_f:
            out[i] = j
            taken_t.add(i)
            taken_f.add(j)
    return out


def _cover(truth, found) -> float:
    """IoU, or where `found` holds 80 % of `truth` and is at most four times its area, the IoU threshold itself."""
    overlap = iou(truth, found)
    tw, th = truth[2] - truth[0], truth[3] - truth[1]
    fw, fh = found[2] - found[0], found[3] - found[1]
    iw = max(0.0, min(truth[2], found[2]) - max(truth[0], found[0]))
    ih = max(0.0, min(truth[3], found[3]) - max(truth[1], found[1]))
    if tw > 0 and th > 0 and iw * ih >= 0.8 * tw * th and fw * fh <= 4 * tw * th:
        return max(overlap, MATCH_IOU)
    return overlap


_LABELS = sorted((name.replace("_", " ") for name in FIELD_NAMES), key=len, reverse=True) + ["barcode"]


def reason_kind(reason: str) -> str:
    """A reason with its values masked, so the same failure on different tags counts together."""
    text = re.sub(r"^tag \d+: ", "", reason)
    for label in _LABELS:
        differs = re.match(rf"{re.escape(label)} .+ (≠ expected|does not match) ", text)
        if differs:
            text = f"{label} … {differs.group(1)} …"
            break
    text = re.sub(r"\d+(\.\d+)?%?", "#", text)
    text = re.sub(r"(≠ expected|expected|read as|is) [^,;()]+", r"\1 …", text)
    return text.strip()


def score_frame(row: dict, result, field_key) -> dict:
    """Everything the tables need from one inspected frame, as plain values."""
    verdict = "ERROR" if not result.ok else _verdict_text(result.verdict)
    reasons = list(getattr(result.verdict, "reasons", ()) or ()) if result.ok else [result.error.splitlines()[0]]
    truth_tags = row["tags"]
    found = [tuple(map(float, b)) for b in result.detections.of_class("hangtag").xyxy] if result.ok else []
    tag_match = match([t["xyxy"] for t in truth_tags], found)
    readings = list(result.readings) if result.ok else []
    read_match = match([t["xyxy"] for t in truth_tags], [r.xyxy for r in readings], grown=True)
    fields: dict[str, list[int]] = {}
    misreads = []
    for i, tag in enumerate(truth_tags):
        if i not in read_match:
            continue
        reading = readings[read_match[i]]
        canonical = tag.get("values", {})  # the printed value in the recipe's form, where the set gives it
        for name, printed in tag["fields"].items():
            printed = canonical.get(name, printed)
            got = reading.fields.get(name)
            ok = got is not None and field_key(name, got.value) == field_key(name, printed)
            hit = fields.setdefault(name, [0, 0])
            hit[0] += ok
            hit[1] += 1
            if not ok:
                misreads.append({"field": name, "printed": printed, "read": got.value if got else None})
        decoded = {b.text for b in reading.barcodes}
        for code in tag.get("barcodes", []):
            hit = fields.setdefault("barcode", [0, 0])
            hit[0] += code["text"] in decoded
            hit[1] += 1
    n_read = len(readings)
    per_tag = result.timings.total_ms / n_read if result.ok and n_read else None
    defect = row.get("defect") or None
    return {
        "image": row["image"], "job": row["job"], "design": row.get("design", ""), "bucket": row["bucket"],
        "defect": defect["kind"] if defect else None, "expected": row["expected_verdict"], "verdict": verdict,
        "reasons": reasons, "reason_kinds": [reason_kind(r) for r in reasons],
        "tags_truth": len(truth_tags), "tags_found": len(tag_match), "false_boxes": len(found) - len(tag_match),
        "fields": fields, "misreads": misreads,
        "text_px": min((r.text_px for r in readings if r.text_px is not None), default=None),
        "smallest_print_px": row.get("condition", {}).get("smallest_print_px"),
        "ms_per_tag": round(per_tag, 2) if per_tag is not None else None,
        # each read tag's reader stages (ms), to say where a tag's time goes
        "tag_stages_ms": [{k: round(v, 2) for k, v in r.timings_ms.items()} for r in readings],
        "read_ms": round(result.timings.get("read"), 2) if result.ok else None,
        "total_ms": round(result.timings.total_ms, 2) if result.ok else None,
    }


def score_wrong(row: dict, result, field: str, right: str, wrong: str) -> dict:
    """A good frame judged against a recipe expecting `wrong` for `field`: OK here is an escape."""
    verdict = "ERROR" if not result.ok else _verdict_text(result.verdict)
    reasons = list(getattr(result.verdict, "reasons", ()) or ()) if result.ok else [result.error.splitlines()[0]]
    return {"image": row["image"], "design": row.get("design", ""), "bucket": row["bucket"], "field": field,
            "printed": right, "expected": wrong, "verdict": verdict, "reasons": reasons}


def summarize_wrong(rows: list[dict]) -> dict:
    counts = Counter(r["verdict"] for r in rows)
    by_field = {f: dict(Counter(r["verdict"] for r in rows if r["field"] == f)) for f in sorted({r["field"] for r in rows})}
    n = len(rows)
    return {"frames": n, "ng": counts.get("NG", 0), "review": counts.get("REVIEW", 0), "escape": counts.get("OK", 0),
            "error": counts.get("ERROR", 0), "escape_rate": round(counts.get("OK", 0) / n, 4) if n else None,
            "ng_rate": round(counts.get("NG", 0) / n, 4) if n else None, "by_field": by_field}


def _verdict_text(verdict) -> str:
    if verdict is None:
        return "ERROR"
    value = getattr(verdict, "verdict", verdict)
    return str(getattr(value, "value", value))


# -- summing up ---------------------------------------------------------------------------------------
def _rates(counts: Counter, n: int) -> dict:
    out = {"images": n}
    for v in VERDICTS:
        out[v.lower()] = counts.get(v, 0)
    for v in ("OK", "REVIEW", "NG"):
        out[f"{v.lower()}_rate"] = round(counts.get(v, 0) / n, 4) if n else None
    return out


# Good frames by the em of their smallest print in the frame (the set's truth), pixels: where reading stops being sure.
PRINT_BINS = ((0.0, 10.0), (10.0, 14.0), (14.0, float("inf")))


def _print_bin(low: float, high: float) -> str:
    return f"< {high:.0f} px" if low == 0 else (f">= {low:.0f} px" if high == float("inf") else f"{low:.0f}-{high:.0f} px")


def by_print_size(correct: list[dict]) -> dict:
    """Good frames' verdicts per smallest-print bin; empty when the set does not record print sizes."""
    sized = [r for r in correct if r.get("smallest_print_px")]
    return {_print_bin(low, high): _rates(Counter(r["verdict"] for r in sized if low <= r["smallest_print_px"] < high),
                                         sum(low <= r["smallest_print_px"] < high for r in sized))
            for low, high in PRINT_BINS} if sized else {}


def summarize(rows: list[dict]) -> dict:
    correct = [r for r in rows if r["expected"] == "OK"]
    defective = [r for r in rows if r["expected"] != "OK"]
    good = _rates(Counter(r["verdict"] for r in correct), len(correct))
    bad = _rates(Counter(r["verdict"] for r in defective), len(defective))
    bad["escape"] = bad["ok"]
    bad["escape_rate"] = bad.pop("ok_rate")
    kinds = sorted({r["defect"] for r in defective})
    bad["by_kind"] = {k: _rates(Counter(r["verdict"] for r in defective if r["defect"] == k),
                                sum(r["defect"] == k for r in defective)) for k in kinds}
    fields: dict[str, list[int]] = {}
    for r in rows:
        for name, (hit, total) in r["fields"].items():
            acc = fields.setdefault(name, [0, 0])
            acc[0] += hit
            acc[1] += total
    field_table = {name: {"exact": h, "total": t, "rate": round(h / t, 4)} for name, (h, t) in sorted(fields.items())}
    text_fields = [v for k, v in field_table.items() if k != "barcode"]
    all_hit, all_total = sum(v["exact"] for v in text_fields), sum(v["total"] for v in text_fields)
    times = [r["ms_per_tag"] for r in rows if r["ms_per_tag"] is not None]
    cpu = [r["cpu_ms"] / len(r.get("tag_stages_ms") or ()) for r in rows if r.get("cpu_ms") is not None and r.get("tag_stages_ms")]
    tag_stages = [t for r in rows for t in r.get("tag_stages_ms") or ()]
    stage_names = sorted({k for t in tag_stages for k in t}, key=lambda k: (k == "total", k))
    timed = [r for r in rows if r["total_ms"] is not None]
    detect = [r["total_ms"] - r["read_ms"] for r in timed]
    read = [r["read_ms"] for r in timed]
    truth_tags = sum(r["tags_truth"] for r in rows)
    found = sum(r["tags_found"] for r in rows)
    trouble = Counter(k for r in correct if r["verdict"] in ("REVIEW", "NG") for k in r["reason_kinds"])
    return {
        "images": len(rows),
        "correct": good,
        "correct_by_smallest_print": by_print_size(correct),
        "defective": bad,
        "fields": {"by_field": field_table,
                   "exact_rate": round(all_hit / all_total, 4) if all_total else None,
                   "min_rate": min((v["rate"] for v in text_fields), default=None)},
        "tags": {"truth": truth_tags, "found": found, "recall": round(found / truth_tags, 4) if truth_tags else None,
                 "false_boxes": sum(r["false_boxes"] for r in rows)},
        "time_per_tag_ms": {"p50": _percentile(times, 50), "p95": _percentile(times, 95), "tags": len(times),
                            "detect_per_frame_p50": _percentile(detect, 50), "read_per_frame_p50": _percentile(read, 50),
                            "cpu_p50": _percentile(cpu, 50),
                            "reader_stages_p50": {k: _percentile([t[k] for t in tag_stages if k in t], 50) for k in stage_names}},
        "top_reasons_on_correct": trouble.most_common(10),
    }


def _percentile(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 1) if values else None


def _lookup(stats: dict, path: str):
    value = stats
    for key in path.split("."):
        value = value.get(key) if isinstance(value, dict) else None
    return value


def check_targets(nominal: dict) -> list[dict]:
    out = []
    for name, path, op, goal in TARGETS:
        value = _lookup(nominal, path)
        met = value is not None and (value >= goal if op == ">=" else value <= goal)
        out.append({"target": name, "value": value, "goal": f"{op} {goal}", "met": bool(met)})
    return out


def _check_ocr_rec(path: Path) -> None:
    if not path.is_file() or path.suffix != ".onnx":
        raise TagsetFormatError("no recognizer model there", expected="a PP-OCR rec .onnx file",
                                found=str(path) if path.exists() else f"{path} does not exist",
                                hint="pass the ONNX file a recognizer fine-tune wrote")


# -- the command --------------------------------------------------------------------------------------
def verdict_bench(args: argparse.Namespace) -> int:
    from inference.imageio import read_image
    from inference.inspection import Inspector
    from inference.pipeline import error_result
    from inference.reading.normalize import field_key
    from inference.reading.recipe import load_recipe

    data = args.data
    manifest, truth = load_truth(data)
    for path in (args.ocr_rec, args.ocr_reread):
        if path is not None:
            _check_ocr_rec(path)
    if args.bucket:
        truth = [row for row in truth if row["bucket"] == args.bucket]
    if args.design:
        designs = sorted({row.get("design", "") for row in truth})
        if args.design not in designs:
            raise TagsetFormatError("no frames of that design", expected=f"one of {', '.join(designs)}",
                                    found=args.design, hint="design names are listed in manifest.json")
        truth = [row for row in truth if row.get("design") == args.design]
    if args.limit:
        truth = truth[: args.limit]
    recipes: dict[str, object] = {}
    rows = []
    crossed: list[dict] = []
    load_before = _load()
    start = time.perf_counter()
    with Inspector.open(args.model, args.backend, read=True) as inspector:
        if args.ocr_rec is not None:
            inspector.reader.use_recognizer(args.ocr_rec)
        if args.ocr_reread is not None:
            inspector.reader.use_rereader(args.ocr_reread)
        for number, row in enumerate(truth, start=1):
            if row["job"] not in recipes:
                recipes[row["job"]] = load_recipe(data / row["recipe"])
            inspector.recipe = recipes[row["job"]]
            image = read_image(data / row["image"])
            cpu = time.process_time()
            try:
                result = inspector.inspect_image(image, source_name=row["image"], source_path=str(data / row["image"]),
                                                 index=number - 1)
            except Exception as exc:  # a station fault on one frame is a result to count, not the end of the run
                print(f"warning: {row['image']}: {type(exc).__name__}: {exc}", file=sys.stderr)
                result = error_result(number - 1, row["image"], str(data / row["image"]), f"{type(exc).__name__}: {exc}",
                                      inspector.pipeline.thresholds, inspector.pipeline.class_names)
            scored = score_frame(row, result, field_key)
            # this process's CPU for the frame, ONNX Runtime's threads included: on a shared machine the wall
            # time follows the load, the CPU a tag needs much less
            scored["cpu_ms"] = round((time.process_time() - cpu) * 1000, 2)
            rows.append(scored)
            if args.wrong_recipes and row["expected_verdict"] == "OK":
                wrong = wrong_recipe(recipes[row["job"]], zlib.crc32(row["image"].encode()))  # the same field whatever the filter
                if wrong is not None:
                    inspector.recipe = wrong[0]
                    again = inspector.inspect_image(image, source_name=row["image"], source_path=str(data / row["image"]),
                                                    index=number - 1)
                    crossed.append(score_wrong(row, again, *wrong[1:]))
            if number % 25 == 0 and number < len(truth):
                print(f"verdict-bench: {number}/{len(truth)} images, {time.perf_counter() - start:.0f} s", file=sys.stderr)
        backend = inspector.pipeline.backend
        # which OCR pair read: the text detector's precision changes reads (an INT8 copy in the cache is used when built)
        ocr_models = getattr(inspector.reader, "models", "")
    wall = time.perf_counter() - start
    report = {
        "data": str(data), "generator": manifest.get("generator"), "seed": manifest.get("seed"),
        "model": str(args.model), "backend": backend, "ocr_models": ocr_models, "images": len(rows), "wall_s": round(wall, 1),
        "buckets": {b: summarize([r for r in rows if r["bucket"] == b]) for b in BUCKETS},
        "overall": summarize(rows),
        "by_design": {d: summarize([r for r in rows if r["design"] == d]) for d in sorted({r["design"] for r in rows})},
        "environment": {"python": platform.python_version(), "machine": platform.machine(), "processor_count": _cpus(),
                        "load_average_1min": {"start": load_before, "end": _load()}},
        "date": time.strftime("%Y-%m-%d"),
    }
    report["targets_nominal"] = check_targets(report["buckets"]["nominal"])
    if args.wrong_recipes:
        report["wrong_recipes"] = {b: summarize_wrong([c for c in crossed if c["bucket"] == b]) for b in BUCKETS}
    print(render_table({**report, "_rows": rows}))
    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps({**report, "rows": rows, "wrong_recipe_rows": crossed}, ensure_ascii=False, indent=1) + "\n",
                             encoding="utf-8")
        print(f"wrote {args.json}")
    return 0


def _cpus() -> int:
    import os

    return os.cpu_count() or 0


def _load() -> float | None:
    import os

    try:
        return round(os.getloadavg()[0], 2)
    except OSError:  # not on every platform
        return None


def _pct(value) -> str:
    return "  —  " if value is None else f"{value * 100:5.1f}%"


def render_table(report: dict) -> str:
    ocr = f"; OCR {report['ocr_models']}" if report.get("ocr_models") else ""
    lines = [f"verdict-bench: {report['images']} images from {report['data']} ({report['backend']}{ocr}, {report['wall_s']} s)", ""]
    head = f"{'condition':<10}{'imgs':>5} | {'good: OK':>9}{'REVIEW':>8}{'NG':>8} | {'bad: NG':>8}{'REVIEW':>8}{'escape':>8} | {'fields':>7}{'barcode':>8} | {'tags':>7}{'false':>6} | {'ms/tag p50':>10}{'p95':>7}"
    lines += [head, "-" * len(head)]
    for name, stats in [*report["buckets"].items(), ("overall", report["overall"])]:
        if not stats["images"]:
            lines.append(f"{name:<10}{0:>5} | (no images)")
            continue
        g, d, f, t, ms = stats["correct"], stats["defective"], stats["fields"], stats["tags"], stats["time_per_tag_ms"]
        barcode = f["by_field"].get("barcode", {}).get("rate")
        p50 = "—" if ms["p50"] is None else f"{ms['p50']:.0f}"
        p95 = "—" if ms["p95"] is None else f"{ms['p95']:.0f}"
        lines.append(f"{name:<10}{stats['images']:>5} | {_pct(g['ok_rate']):>9}{_pct(g['review_rate']):>8}{_pct(g['ng_rate']):>8} | "
                     f"{_pct(d['ng_rate']):>8}{_pct(d['review_rate']):>8}{_pct(d['escape_rate']):>8} | "
                     f"{_pct(f['exact_rate']):>7}{_pct(barcode):>8} | {_pct(t['recall']):>7}{t['false_boxes']:>6} | {p50:>10}{p95:>7}")
    ms = report["overall"]["time_per_tag_ms"]
    if ms["tags"]:
        lines.append(f"per frame, all conditions: detect p50 {ms['detect_per_frame_p50']} ms, read p50 {ms['read_per_frame_p50']} ms")
        stages = ", ".join(f"{k} {v:.0f}" for k, v in ms.get("reader_stages_p50", {}).items() if v is not None)
        load = report.get("environment", {}).get("load_average_1min", {})
        lines.append(f"per tag, p50 ms: this process's CPU {ms.get('cpu_p50')} (wall time follows the machine's load: "
                     f"{load.get('start')} -> {load.get('end')}); reader stages (wall) {stages}")
    lines += ["", "nominal condition against issue 14's targets:"]
    for target in report["targets_nominal"]:
        value = target["value"]
        shown = "—" if value is None else (f"{value:.1f}" if "ms" in target["target"] else f"{value * 100:.1f}%")
        lines.append(f"  {target['target']:<24}{shown:>8}  (goal {target['goal']})  {'met' if target['met'] else 'MISSED'}")
    nominal = report["buckets"]["nominal"]
    if nominal["images"]:
        lines += ["", "nominal: exact reads per field"]
        lines += [f"  {name:<16}{_pct(v['rate'])}  ({v['exact']}/{v['total']})" for name, v in nominal["fields"]["by_field"].items()]
        if nominal.get("correct_by_smallest_print"):
            lines += ["", "nominal: good frames by the height of their smallest print (OK / REVIEW / NG)"]
            lines += [f"  {name:<10}{v['ok']:>4} /{v['review']:>4} /{v['ng']:>4}  of {v['images']}  OK {_pct(v['ok_rate'])}"
                      for name, v in nominal["correct_by_smallest_print"].items()]
        lines += ["", "nominal: planted defects by kind (NG / REVIEW / escape)"]
        lines += [f"  {k:<20}{v['ng']:>3} /{v['review']:>3} /{v['ok']:>3}  of {v['images']}"
                  for k, v in nominal["defective"]["by_kind"].items()] or ["  (none in this condition)"]
    misreads = [m for r in report.get("_rows", []) if r["bucket"] == "nominal" for m in r["misreads"]]
    if misreads:
        lines += ["", "nominal: misreads, first of each field (printed -> read)"]
        seen: set[str] = set()
        for m in misreads:
            if m["field"] not in seen:
                seen.add(m["field"])
                lines.append(f"  {m['field']:<16}{m['printed']!r} -> {m['read']!r}")
    lines += ["", "by design, all conditions (good frames OK / fields exact / barcodes decoded)"]
    for name, stats in report["by_design"].items():
        barcode = stats["fields"]["by_field"].get("barcode", {}).get("rate")
        lines.append(f"  {name:<20}{_pct(stats['correct']['ok_rate'])} /{_pct(stats['fields']['exact_rate'])} /{_pct(barcode)}"
                     f"  ({stats['images']} images)")
    if "wrong_recipes" in report:
        lines += ["", "good frames against a recipe with one value changed (NG / REVIEW / escape)"]
        for bucket, stats in report["wrong_recipes"].items():
            if stats["frames"]:
                fields = ", ".join(f"{f} {c.get('NG', 0)}/{c.get('REVIEW', 0)}/{c.get('OK', 0)}" for f, c in stats["by_field"].items())
                lines.append(f"  {bucket:<9}{stats['ng']:>4} /{stats['review']:>4} /{stats['escape']:>4}  of {stats['frames']}"
                             f"  escape {_pct(stats['escape_rate'])}   ({fields})")
    lines += ["", "top reasons for REVIEW/NG on correct frames (all conditions)"]
    lines += [f"  {n:>4}  {reason}" for reason, n in report["overall"]["top_reasons_on_correct"]] or ["  (none)"]
    return "\n".join(lines)
