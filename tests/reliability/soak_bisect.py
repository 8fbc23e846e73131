"""Where the headless station's memory drift comes from: the soak's frames through one part of the station at a time.

    nice .venv/bin/python -m tests.reliability.soak_bisect --stage read --minutes 20 --csv /tmp/read.csv
    PYTHONMALLOC=malloc nice .venv/bin/python -m tests.reliability.soak_bisect --stage read --minutes 20

Stages, each a superset of the one before where it can be:
  detect    the detector pipeline alone (no reader, no recipe, no journal)
  ocr       the reader with the recipe, zxing answering nothing (no barcode work; the reader orients by text)
  read      the reader with the recipe and barcodes: the station's inspection, no journal
  station   the headless station itself (journal and archive in a scratch folder): what `soak` runs
and two replays of native calls captured from one pass over the folder, looped without the Python around them:
  ocr-engines   the OCR sessions' own calls (text detector and recognizer), inputs exactly as the reader made them
  zxing         zxing-cpp's `read_barcodes` calls, exactly as the reader made them
  read-recorded the `read` stage with the OCR sessions answered from that pass (everything but ONNX Runtime's OCR)

Each sample splits memory where it can be told apart: RSS anonymous; glibc's heap in use / free / mmapped
(mallinfo2, all arenas); Python's small-object allocator (pymalloc: arenas mapped, bytes in use, from
`sys._debugmallocstats`), which glibc never sees; and the thread count. The slope of each after the warm-up
is printed per 1 000 frames. `--tracemalloc` traces Python's allocations from the end of the warm-up and shows
where those still held at the end were made (what grew; tracing only then keeps the warm-up fast). `--ort-arena off` and `--ort-pattern on` change the ONNX Runtime session options the
reader uses; `--rec-buckets` pads the recognizer's batches to fixed widths (replay only: padding changes reads).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from tests.reliability.memory_probe import MemoryProbe
from tests.reliability.soak import ROOT, LoopingFolder

COLUMNS = ("frames", "seconds", "rss_mib", "rss_anon_mib", "heap_used_mib", "heap_free_mib", "mmapped_mib",
           "pymalloc_arenas_mib", "pymalloc_used_mib", "brk_heap_rss_mib", "threads")
SLOPED = COLUMNS[2:]


class Sampler:
    def __init__(self, every: int, csv_path: Path | None) -> None:
        self.every, self.csv_path, self.rows = every, csv_path, []
        self.probe = MemoryProbe()
        self.start = time.monotonic()
        if csv_path:
            csv_path.parent.mkdir(parents=True, exist_ok=True)
            csv_path.write_text(",".join(COLUMNS) + "\n")

    def frame_done(self, frames: int) -> None:
        if frames % self.every:
            return
        m = self.probe.sample()
        row = (frames, round(time.monotonic() - self.start, 1), m.rss_mib, m.rss_anon_mib, m.heap_used_mib,
               m.heap_free_mib, m.mmapped_mib, m.pymalloc_arenas_mib, m.pymalloc_used_mib, _brk_heap_rss(), _threads())
        row = tuple(round(v, 3) if isinstance(v, float) else v for v in row)
        self.rows.append(row)
        if self.csv_path:
            with self.csv_path.open("a") as handle:
                handle.write(",".join(map(str, row)) + "\n")
        print(" ".join(f"{k}={v}" for k, v in zip(COLUMNS, row)), flush=True)


def _brk_heap_rss() -> float:
    """Resident MiB of glibc's main heap (the [heap] mapping, grown by brk): the rest of anonymous RSS is mmapped
    (pymalloc arenas, glibc's thread arenas and large blocks, thread stacks, libraries' own mappings)."""
    try:
        with open("/proc/self/smaps", encoding="ascii", errors="replace") as smaps:
            inside, total = False, 0
            for line in smaps:
                if "-" in line.split(" ", 1)[0] and not line.startswith(("Rss", "Size")):
                    inside = line.rstrip().endswith("[heap]")  # it may be split in several mappings
                elif inside and line.startswith("Rss:"):
                    total += int(line.split()[1])
            return total / 1024
    except OSError:
        return float("nan")


def smaps(pid: str = "self") -> dict[str, tuple[str, str, int, int]]:
    """Each mapping of a process: address range -> (permissions, name, size KiB, resident KiB)."""
    out: dict[str, tuple[str, str, int, int]] = {}
    key, head = "", ("", "", 0, 0)
    with open(f"/proc/{pid}/smaps", encoding="ascii", errors="replace") as lines:
        for line in lines:
            parts = line.split()
            if parts and "-" in parts[0] and not parts[0].endswith(":"):
                key, head = parts[0], (parts[1], parts[5] if len(parts) > 5 else "", 0, 0)
                out[key] = head
            elif parts and parts[0] == "Size:":
                out[key] = (out[key][0], out[key][1], int(parts[1]), out[key][3])
            elif parts and parts[0] == "Rss:":
                out[key] = (out[key][0], out[key][1], out[key][2], int(parts[1]))
    return out


def smaps_growth(before: dict, after: dict, top: int = 12) -> list[str]:
    """Where anonymous resident memory grew between two `smaps` snapshots, region by region, largest first.

    Mappings split, merge and grow between snapshots, so each earlier mapping's resident size is charged to the
    later mappings it overlaps, in proportion to the overlap; a later region's growth is its resident size less
    what was charged to it. "[heap]" is glibc's brk heap; the other anonymous regions are mmapped (pymalloc's arenas,
    glibc's thread arenas and large blocks, ONNX Runtime's arena chunks, thread stacks)."""
    def anonymous(maps: dict) -> list[tuple[int, int, str, str, int, int]]:
        out = []
        for key, (perms, name, size, rss) in maps.items():
            if name and not name.startswith("["):
                continue  # file-backed: libraries' pages, bounded by the libraries
            lo, hi = (int(x, 16) for x in key.split("-"))
            out.append((lo, hi, perms, name or "anon", size, rss))
        return sorted(out)

    earlier, later = anonymous(before), anonymous(after)  # sorted by address
    charged = [0.0] * len(later)
    unplaced = 0.0
    for lo, hi, _perms, _name, _size, rss in earlier:  # its resident pages spread evenly over its range
        placed = 0.0
        for i, m in enumerate(later):
            overlap = min(hi, m[1]) - max(lo, m[0])
            if overlap > 0:
                charged[i] += rss * overlap / (hi - lo)
                placed += rss * overlap / (hi - lo)
        unplaced += rss - placed  # unmapped since
    rows = [(m[5] - charged[i], m) for i, m in enumerate(later)]
    by_kind: dict[str, int] = {}
    for grew, m in rows:
        by_kind[m[3]] = by_kind.get(m[3], 0) + grew
    total = sum(g for g, _ in rows) - unplaced
    out = [f"smaps: anonymous resident {total / 1024:+.2f} MiB: "
           + ", ".join(f"{kind} {grew / 1024:+.2f}" for kind, grew in sorted(by_kind.items()) if abs(grew) >= 10)
           + f", unmapped since {-unplaced / 1024:+.2f} MiB"]
    for grew, (lo, hi, perms, name, size, rss) in sorted(rows, key=lambda r: -abs(r[0]))[:top]:
        if grew:
            out.append(f"  {grew / 1024:+7.2f} MiB  {lo:x}-{hi:x} {perms} {name} size {size / 1024:.1f} MiB, "
                       f"resident {rss / 1024:.1f} MiB")
    return out


def _threads() -> int:
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return -1


def slope_per_1000(points: list[tuple[int, float]]) -> float:
    n = len(points)
    if n < 2:
        return float("nan")
    mx = sum(f for f, _ in points) / n
    my = sum(v for _, v in points) / n
    den = sum((f - mx) ** 2 for f, _ in points)
    return sum((f - mx) * (v - my) for f, v in points) / den * 1000 if den else float("nan")


def report(rows: list[tuple], warmup: int) -> list[str]:
    kept = [r for r in rows if r[0] > warmup]
    if len(kept) < 2:
        return [f"bisect: fewer than two samples after the warm-up ({warmup} frames)"]
    out = [f"bisect: frames {kept[0][0]}-{kept[-1][0]} after warm-up, per 1 000 frames (least squares) and last - first:"]
    for k, name in enumerate(COLUMNS):
        if name not in SLOPED:
            continue
        points = [(r[0], float(r[k])) for r in kept]
        out.append(f"  {name:20s} {slope_per_1000(points):+8.3f} /1000   {points[-1][1] - points[0][1]:+8.2f}")
    return out


# -- ONNX Runtime options the reader's sessions get --------------------------------------------------------------
def patch_ort(arena: str, pattern: str) -> None:
    from inference.engines.onnxrt import OnnxRuntimeEngine

    original = OnnxRuntimeEngine._session_options

    def options(self):
        opts = original(self)
        if arena == "off":
            opts.enable_cpu_mem_arena = False
        if pattern == "on":
            opts.enable_mem_pattern = True
        return opts

    OnnxRuntimeEngine._session_options = options


def no_barcodes() -> None:
    """zxing answers nothing: the reader still runs, orienting tags by their text."""
    import zxingcpp

    zxingcpp.read_barcodes = lambda *args, **kwargs: []


# -- stages ------------------------------------------------------------------------------------------------------
def run_inspection(args, sampler: Sampler, read: bool) -> int:
    from inference.inspection import Inspector
    from inference.resources import default_model_path
    from inference.sources import Frame

    recipe = args.recipe if read else None
    frames = 0
    with Inspector.open(default_model_path(), None, recipe_path=recipe, read=read) as inspector:
        for item in LoopingFolder(args.source, args.frames, args.minutes).frames():
            if isinstance(item, Frame):
                inspector.inspect(item)
            frames += 1
            sampler.after(frames)
    return frames


def run_station(args, sampler: Sampler) -> int:
    from app.headless import run_headless
    from inference.resources import default_model_path

    os.environ["HANGTAG_DATA_DIR"] = tempfile.mkdtemp(prefix="hangtag-bisect-")
    counter = _Lines(sampler)
    run_headless(LoopingFolder(args.source, args.frames, args.minutes), default_model_path(), None, args.recipe,
                 read=True, out=counter, err=sys.stderr)
    return counter.frames


class _Lines:
    """stdout of the headless station: one result line a frame."""

    def __init__(self, sampler: Sampler) -> None:
        self.sampler, self.frames = sampler, 0

    def write(self, text: str) -> int:
        for line in text.splitlines():
            if line.strip() and not line.startswith(("Hangtag Station", "summary:")):
                self.frames += 1
                self.sampler.after(self.frames)
        return len(text)

    def flush(self) -> None:
        pass


def capture(args) -> tuple[list[list[tuple]], object]:
    """One pass over the folder through the reader with the recipe; per frame, the native calls it made:
    ("det"|"rec", feeds) for the OCR sessions, ("zxing", array, kwargs) for zxing. Returns them and the reader."""
    import numpy as np
    import zxingcpp

    from inference.inspection import Inspector
    from inference.resources import default_model_path
    from inference.sources import Frame

    calls: list[tuple] = []
    real_read = zxingcpp.read_barcodes

    def read_barcodes(image, **kwargs):
        calls.append(("zxing", np.array(image, copy=True), dict(kwargs)))
        return real_read(image, **kwargs)

    zxingcpp.read_barcodes = read_barcodes
    inspector = Inspector.open(default_model_path(), None, recipe_path=args.recipe, read=True)
    for kind, engine in (("det", inspector.reader.detector.engine), ("rec", inspector.reader.recognizer.engine)):
        real = engine.infer

        def infer(feeds, _real=real, _kind=kind):
            outputs = _real(feeds)
            calls.append((_kind, {k: np.array(v, copy=True) for k, v in feeds.items()},
                          {k: np.array(v, copy=True) for k, v in outputs.items()}))
            return outputs

        engine.infer = infer
    per_frame: list[list[tuple]] = []
    for item in LoopingFolder(args.source, len(LoopingFolder(args.source, 1).paths), 0).frames():
        if isinstance(item, Frame):
            inspector.inspect(item)
        per_frame.append(list(calls))
        calls.clear()
    zxingcpp.read_barcodes = real_read
    for engine in (inspector.reader.detector.engine, inspector.reader.recognizer.engine):
        del engine.infer  # the class's own again: nothing more is recorded
    return per_frame, inspector


def bucketed(feeds: dict, buckets: list[int]) -> dict:
    """The recognizer's batch right-padded with zeros (what prepare_batch pads with) to the next bucket width."""
    import numpy as np

    out = {}
    for name, batch in feeds.items():
        width = batch.shape[-1]
        target = next((b for b in buckets if b >= width), width)
        if target > width:
            padded = np.zeros(batch.shape[:-1] + (target,), batch.dtype)
            padded[..., :width] = batch
            batch = padded
        out[name] = batch
    return out


def run_replay(args, sampler: Sampler, kinds: tuple[str, ...]) -> int:
    import zxingcpp

    per_frame, inspector = capture(args)
    det = inspector.reader.detector.engine
    rec = inspector.reader.recognizer.engine
    real_read = zxingcpp.read_barcodes
    buckets = [int(b) for b in args.rec_buckets.split(",")] if args.rec_buckets else []
    counts = {k: sum(1 for frame in per_frame for c in frame if c[0] == k) for k in ("det", "rec", "zxing")}
    print(f"replay: {len(per_frame)} frames captured; calls per loop {counts}", flush=True)
    deadline = time.monotonic() + args.minutes * 60 if args.minutes else float("inf")
    frames = 0
    try:
        while frames < args.frames and time.monotonic() < deadline:
            for call in per_frame[frames % len(per_frame)]:
                if call[0] not in kinds:
                    continue
                if call[0] == "zxing":
                    real_read(call[1], **call[2])
                elif call[0] == "det":
                    det.infer(call[1])
                else:
                    rec.infer(bucketed(call[1], buckets) if buckets else call[1])
            frames += 1
            sampler.after(frames)
    finally:
        inspector.close()
    return frames


def run_recorded(args, sampler: Sampler) -> int:
    """The station's inspection (detector, reader, zxing, OpenCV, the recipe) with the OCR sessions answered from
    one recorded pass: everything the reader does in Python and in the other native libraries, at several times
    the frame rate. A call whose input shape differs from the recording runs the real session (counted)."""
    import numpy as np

    from inference.sources import Frame

    per_frame, inspector = capture(args)
    for frame in per_frame:
        for call in frame:
            if call[0] != "zxing":
                for array in call[2].values():
                    array.flags.writeable = False
    queue: list[tuple] = []
    missed = [0]
    for kind, engine in (("det", inspector.reader.detector.engine), ("rec", inspector.reader.recognizer.engine)):
        real = type(engine).infer.__get__(engine)

        def infer(feeds, _real=real, _kind=kind):
            if queue and queue[0][0] == _kind and all(queue[0][1][k].shape == v.shape for k, v in feeds.items()):
                return queue.pop(0)[2]  # read-only arrays: a reader writing into its outputs would raise
            missed[0] += 1
            return _real(feeds)

        engine.infer = infer
    frames = 0
    try:
        for item in LoopingFolder(args.source, args.frames, args.minutes).frames():
            queue[:] = [c for c in per_frame[item.index % len(per_frame)] if c[0] != "zxing"]
            if isinstance(item, Frame):
                inspector.inspect(item)
            frames += 1
            sampler.after(frames)
    finally:
        inspector.close()
    print(f"recorded: {missed[0]} OCR calls did not match the recording and ran the real session", flush=True)
    return frames


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="soak_bisect")
    parser.add_argument("--stage", required=True,
                        choices=("detect", "ocr", "read", "station", "ocr-engines", "zxing", "read-recorded"))
    parser.add_argument("--frames", type=int, default=100_000)
    parser.add_argument("--minutes", type=float, default=10.0)
    parser.add_argument("--every", type=int, default=25)
    parser.add_argument("--warmup", type=int, default=300)
    parser.add_argument("--source", type=Path, default=ROOT / "resources" / "samples")
    parser.add_argument("--recipe", type=Path, default=ROOT / "resources" / "recipes" / "example.toml")
    parser.add_argument("--csv", type=Path, default=None)
    parser.add_argument("--tracemalloc", type=int, default=0, metavar="N", help="trace Python's allocations after the warm-up; show the N largest still held")
    parser.add_argument("--ort-arena", choices=("on", "off"), default="on")
    parser.add_argument("--ort-pattern", choices=("off", "on"), default="off", help="memory pattern in the OCR sessions")
    parser.add_argument("--read-budget", type=float, default=0.0, help="reading's time allowance per frame, s (0: the station's)")
    parser.add_argument("--gc-every", type=int, default=0, help="a full garbage collection every N frames (0: Python's own)")
    parser.add_argument("--rec-buckets", default="", help="replay only: widths to pad recognizer batches to, e.g. 128,256,512,1024,1600")
    args = parser.parse_args(argv)
    if args.ort_arena == "off" or args.ort_pattern == "on":
        patch_ort(args.ort_arena, args.ort_pattern)
    if args.stage == "ocr":
        no_barcodes()
    if args.read_budget:
        from inference.inspection import Inspector

        Inspector.read_budget_s = args.read_budget
    sampler = Sampler(args.every, args.csv)
    import tracemalloc

    maps: list[dict] = []

    def after(frames: int) -> None:
        if args.gc_every and frames % args.gc_every == 0:
            import gc

            gc.collect()
        sampler.frame_done(frames)
        if frames == args.warmup:
            maps.append(smaps())
            if args.tracemalloc:  # from here on only: what is still held at the end was allocated after warm-up
                tracemalloc.start(6)

    sampler.after = after
    print(f"bisect: stage {args.stage}, PYTHONMALLOC={os.environ.get('PYTHONMALLOC', 'default')}, ORT arena "
          f"{args.ort_arena}, OCR memory pattern {args.ort_pattern}, rec buckets {args.rec_buckets or 'none'}", flush=True)
    if args.stage in ("detect", "ocr", "read"):
        frames = run_inspection(args, sampler, read=args.stage != "detect")
    elif args.stage == "read-recorded":
        frames = run_recorded(args, sampler)
    elif args.stage == "station":
        frames = run_station(args, sampler)
    else:
        frames = run_replay(args, sampler, ("det", "rec") if args.stage == "ocr-engines" else ("zxing",))
    print(f"bisect: {frames} frames in {time.monotonic() - sampler.start:.0f} s", flush=True)
    for line in report(sampler.rows, args.warmup):
        print(line, flush=True)
    if maps:
        print(f"bisect: resident memory by mapping, frame {args.warmup} -> {frames}:")
        for line in smaps_growth(maps[0], smaps()):
            print(line, flush=True)
    if args.tracemalloc and tracemalloc.is_tracing():
        held = tracemalloc.take_snapshot().filter_traces([tracemalloc.Filter(False, tracemalloc.__file__)])
        stats = held.statistics("traceback")
        print(f"bisect: Python allocations made after frame {args.warmup} and still held at frame {frames}: "
              f"{sum(s.size for s in stats) / 2**20:.2f} MiB in {sum(s.count for s in stats)} blocks; top {args.tracemalloc}:")
        for stat in stats[: args.tracemalloc]:
            print(f"  {stat.size / 1024:+9.1f} KiB {stat.count:7d} blocks  "
                  + " <- ".join(f"{f.filename.replace(str(ROOT) + '/', '')}:{f.lineno}" for f in reversed(stat.traceback)))
    return 0


if __name__ == "__main__":
    sys.exit(main())
