"""How many threads a reader gives a tag's CPU stages to run side by side (issue 19).

On the GPU a tag's OCR takes a few milliseconds, and its CPU stages (barcode decoding, warping the tag upright,
the text detector's contours) are about half of its time. zxing-cpp and OpenCV let go of the GIL while they work,
so those that do not wait on each other can run at once: every symbol box of the tag decoded together, the
whole-crop QR search begun beside them, and the tag warped upright both ways while its codes are still saying
which way is up (symbols.read_symbols, barcodes.decode_symbols, levelling.level_tag), and the GPU reader's text
detector run in the first of those warps meanwhile (ocr/gpu.py `detect_ahead`: most tags are read in that very crop;
where the lines level it again, or the codes turn it over, the crop is another and is detected as before). Each gives
exactly what it gives alone; a warp, a search or a detection that turns out not to be needed is thrown away.

Nothing runs side by side unless asked: HANGTAG_READ_OVERLAP=N gives a GPU reader N threads (8 measured), running
DEFAULT_PARTS (the text detector ahead; the rest on request: TagReader.overlap_parts); the CPU reader never does
(its OCR is most of its time, and the station's cores are busy with it). benchmarks/gpu_read.py --overlap-threads
compares settings in one process. On the H200 (BENCHMARKS.md, 2026-12-03) it bought no reliable time: a tag's text
detection fell from ~10 to ~4.5 ms, but the frame moved by -2 to +5 ms p50 from run to run (the pool's Python work
and the reading thread's take turns at the GIL, and the barcode stage slowed beside it), so it stays off by default.
"""

from __future__ import annotations

import os

OVERLAP_ENV = "HANGTAG_READ_OVERLAP"
# The threads measured on the H200 (HANGTAG_READ_OVERLAP=8). A tag starts at most five such jobs at once: two warps,
# the text detector on the first, the QR search, a second symbol box; fewer threads than that queue the detector
# behind the rest (it then starts late).
GPU_OVERLAP_THREADS = 8
GPU_READERS = ("onnxruntime-cuda", "torch-cuda")
# What runs side by side (TagReader.overlap_parts): the symbol boxes and the QR search ("decode"), the warp the
# other way up ("flipped": needed only where the codes turn the tag over), the text detector in the first warp
# ("ahead"). The first warp itself always runs beside the decoding.
OVERLAP_PARTS = frozenset({"decode", "flipped", "ahead"})
# What a GPU reader runs side by side by default: the text detector ahead. On the H200 (BENCHMARKS.md, 2026-12-03)
# the other parts gained nothing measurable: the decoding of a tag's second box and its QR search are short, a tag
# was never turned over by its codes there, and every thread's Python work waits for the same GIL.
DEFAULT_PARTS = frozenset({"ahead"})


def overlap_threads_for(backend: str) -> int:
    """The threads TagReader.open gives a reader on `backend`: for a GPU reader what HANGTAG_READ_OVERLAP asks
    (GPU_OVERLAP_THREADS is what was measured), else 0; 0 (one stage after another) for every other backend. Off
    unless asked: on the H200 it bought no reliable time (module note)."""
    if backend not in GPU_READERS:
        return 0
    value = os.environ.get(OVERLAP_ENV, "").strip()
    if not value:
        return 0
    try:
        threads = int(value)
    except ValueError:
        raise ValueError(f"{OVERLAP_ENV} must be a whole number of threads (0 turns the overlap off), not {value!r}") from None
    if threads < 0:
        raise ValueError(f"{OVERLAP_ENV} must be 0 or more threads, not {threads}")
    return threads


def parse_setting(text: str) -> tuple[int, frozenset[str]]:
    """A benchmark's overlap setting "N" (every part, not only DEFAULT_PARTS) or "N:part+part" (only those parts),
    e.g. "8:ahead" (the default's parts)."""
    threads, _, parts = text.partition(":")
    chosen = frozenset(p for p in parts.split("+") if p) if parts else OVERLAP_PARTS
    unknown = chosen - OVERLAP_PARTS
    if unknown or not threads.isdigit():
        raise ValueError(f"an overlap setting is N or N:part+part with parts from {sorted(OVERLAP_PARTS)}, not {text!r}")
    return int(threads), chosen
