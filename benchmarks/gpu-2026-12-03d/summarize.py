"""The numbers BENCHMARKS.md quotes for the fourteenth session's warmed graphs (issue 19; 2026-12-03d), from the
device JSON here: run.sh's two gpu_read processes at 0dc63ba (read_1, read_2) and run_ab.sh's turns on one
machine (ab_1_old, ab_3_old at 202efcb; ab_2_head at 0dc63ba).  python3 benchmarks/gpu-2026-12-03d/summarize.py"""
import json
from pathlib import Path

HERE = Path(__file__).parent


def row(name):
    d = json.loads((HERE / name).read_text())
    r = d["modes"]["recipe"]
    one = r["one_tag"]
    g0, g1 = d["cuda_graphs"], d["cuda_graphs_after"]
    parts = [k for k in g0 if isinstance(g0[k], dict)]
    small = one["second_reads"]["small"]
    return {
        "file": name, "open_s": d["open_s"], "warmup_s": d["warmup_s"],
        "one_tag_ms": {k: one["detect_read_ms"][k] for k in ("p50", "p95", "p99", "mean")},
        "four_tags_p50_ms_1_4_threads": [r["four_tags"]["detect_read_ms"]["p50"], r["four_tags_4_threads"]["detect_read_ms"]["p50"]],
        "tag_stages_p50": {k: v["p50"] for k, v in one["stages_ms"].items() if k in ("infer", "tag:barcode", "tag:rectify", "tag:ocr_det", "tag:ocr_rec", "tag:verify")},
        "captures_at_open": {k: g0[k]["captures"] for k in parts},
        "captures_after_open": {k: g1[k]["captures"] - g0[k]["captures"] for k in parts},
        "graph_output_mib_open_after": {k: [g0[k]["output_mib"], g1[k]["output_mib"]] for k in parts},
        "torch_reserved_mib_open_after": [g0.get("torch_reserved_mib"), g1.get("torch_reserved_mib")],
        "new_shapes_after_warmup": d["new_shapes_after_warmup"],
        "small_print_network_ms_per_tag": small.get("network_ms_per_tag"), "small_print_calls": small.get("network_calls"),
        "equality": {k: v for k, v in r["equality"].items() if "differences" not in k},
        "cpu_reader_p50_ms": r["cpu_reader_ms_one_tag"]["p50"],
    }


if __name__ == "__main__":
    out = [row(n) for n in ("read_1.json", "read_2.json", "ab_1_old.json", "ab_2_head.json", "ab_3_old.json")]
    (HERE / "summary.json").write_text(json.dumps(out, indent=1) + "\n")
    for r in out:
        print(json.dumps(r))
