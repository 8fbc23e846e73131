"""gpu-bench's target lines say which row each was read from (issue 19: the batch-8 headline printed the
throughput section's 0.72 as MISSED while the 0.90 claim came from the frame-pool row)."""

from __future__ import annotations

from inference.cli.gpu_bench import _print_summary, _targets

RECORD = {
    "model": {"kind": "shipped"},
    "environment": {"gpu": "NVIDIA H200"},
    "errors": {},
    "latency": {"best": "cuda_graph", "cuda_graph": {"overhead_ms_p50": 1.2}},
    "throughput": {"batch_8": {"ratio": 0.72}},
    "acquisition": {"batch_1": {"frame_pool": {"overhead_ms_p50": 0.39}},
                    "batch_8": {"staged": {"ratio": 0.75}, "frame_pool": {"ratio": 0.912}}},
}


def test_each_target_names_its_row():
    targets = _targets(RECORD)
    assert targets["batch8_ge_90pct_engine"] == {"ratio": 0.72, "met": False,
                                                 "row": "throughput.batch_8 (frames staged from ordinary memory)"}
    assert targets["batch8_ge_90pct_engine_frame_pool"] == {"ratio": 0.912, "met": True, "row": "acquisition.batch_8.frame_pool"}
    assert targets["overhead_le_1ms"]["row"] == "latency.cuda_graph"
    assert targets["overhead_le_1ms_frame_pool"] == {"value_ms": 0.39, "met": True, "row": "acquisition.batch_1.frame_pool"}
    assert all("row" in t for t in targets.values())


def test_the_summary_prints_where_each_number_comes_from(capsys):
    _print_summary({**RECORD, "targets": _targets(RECORD)})
    lines = {line.split()[0]: line for line in capsys.readouterr().out.splitlines()[1:]}
    assert "MISSED" in lines["batch8_ge_90pct_engine"] and lines["batch8_ge_90pct_engine"].endswith(
        "from throughput.batch_8 (frames staged from ordinary memory)")
    assert " met " in lines["batch8_ge_90pct_engine_frame_pool"]
    assert lines["batch8_ge_90pct_engine_frame_pool"].endswith("from acquisition.batch_8.frame_pool")
