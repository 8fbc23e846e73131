"""The numbers of BENCHMARKS.md's fourteenth-session section, read from this folder's gpu_read records.

    python3 benchmarks/gpu-2026-12-03c/summarize.py > benchmarks/gpu-2026-12-03c/summary.json
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent


def row(mode: dict) -> dict:
    one, four, four4 = mode["one_tag"], mode["four_tags"], mode.get("four_tags_4_threads", {})
    stages = one["stages_ms"]
    second = one["second_reads"]
    return {
        "one_tag_p50_p95_p99_mean": [one["detect_read_ms"][k] for k in ("p50", "p95", "p99", "mean")],
        "four_tags_p50_1_4_threads": [four["detect_read_ms"]["p50"], four4.get("detect_read_ms", {}).get("p50")],
        "tag_stage_p50": {k: stages.get("tag:" + k, {}).get("p50") for k in ("barcode", "rectify", "ocr_det", "ocr_rec", "verify", "total")},
        "detector_infer_p50": stages.get("infer", {}).get("p50"),
        "second_read_share_ms_per_tag": [second["stock"]["share_of_tags"], second["stock"]["ms_per_tag"]],
        "small_print_share_ms_per_tag_per_read_p50_network_ms_per_tag": [
            second["small"]["share_of_tags"], second["small"]["ms_per_tag"], second["small"]["ms_per_read"].get("p50"),
            second["small"]["network_ms_per_tag"]],
        "four_tag_small_print_share_ms_per_tag": [four["second_reads"]["small"]["share_of_tags"], four["second_reads"]["small"]["ms_per_tag"]],
        "equal_to_cpu": {k: mode["equality"][k] for k in ("one_tag_frames_equal", "one_tag_frames", "fields_equal", "fields",
                                                          "four_tag_frames_equal_by_tag_threads", "small_print_lines_equal")},
        "truth": mode["truth_accuracy"],
        "cpu_reader_one_tag_p50": mode["cpu_reader_ms_one_tag"]["p50"],
        "cpu_small_print_share_ms_per_tag_per_read_p50": [mode["cpu_second_reads_one_tag"]["small"]["share_of_tags"],
                                                          mode["cpu_second_reads_one_tag"]["small"]["ms_per_tag"],
                                                          mode["cpu_second_reads_one_tag"]["small"]["ms_per_read"].get("p50")],
    }


def main() -> int:
    out = {}
    for path in sorted(HERE.glob("read_*.json")):
        r = json.loads(path.read_text(encoding="utf-8"))
        out[path.stem] = {
            "date": r["date"], "environment": r["environment"], "open_s": r["open_s"], "ocr_opens": r["ocr_opens"],
            "first_result_after_open_ms": r["first_result_after_open_ms"], "warm_frames_s": r["warm_frames_s"],
            "graphs_before_timed": r["cuda_graphs_before_timed"], "graphs_after": r["cuda_graphs_after"],
            "new_shapes_after_warmup": r["new_shapes_after_warmup"], "cpu_reader": r["cpu_reader"],
            "modes": {m: row(v) for m, v in r["modes"].items()},
            "reread_turns": {s: {"one_tag_p50": v["one_tag_ms"]["p50"], "one_tag_mean": v["one_tag_ms"]["mean"],
                                 "four_tags_p50": v["four_tags_ms"]["p50"],
                                 "by_turn_one_tag_p50": [t["one_tag_p50"] for t in v["by_turn"]],
                                 "by_turn_verify_p50": [t["tag_verify_p50"] for t in v["by_turn"]]}
                             for s, v in r["reread_turns"].items()},
        }
    json.dump(out, sys.stdout, indent=1, ensure_ascii=False)
    print()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
