"""Where a process's memory is: RSS, and glibc's own account of its heap (mallinfo2).

RSS alone cannot tell a leak from a fragmented heap: `heap_used` is what the program still holds
through malloc (a leak grows it), `heap_free` what glibc keeps but nobody holds (fragmentation grows
it), `mmapped` the large blocks malloc maps one by one (ONNX Runtime's arena chunks, image buffers).
Memory that Python's small-object allocator (pymalloc) maps itself is in RSS but in none of the three: its
arenas and the bytes its live objects take are read apart (`pymalloc_arenas`, `pymalloc_used`). Part of those
bytes are no live object at all: CPython keeps freed tuples (up to 2 000 of each length 1-20), floats, lists and
dicts on free lists for reuse, and only a full garbage collection empties them (`free_lists`): up to about 4.5 MiB
that fills as a run goes and looks like a leak whose rate falls (BENCHMARKS.md, issue 15).
RSS itself splits (Linux) into anonymous memory (heaps, arenas, buffers: what can leak) and file-backed
pages (shared libraries' code and data, faulted in as code paths first run: bounded by the libraries).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
import os
import re
import sys
import threading
from dataclasses import dataclass

import psutil

MIB = 2**20


class _MallInfo2(ctypes.Structure):
    _fields_ = [(name, ctypes.c_size_t) for name in
                ("arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks", "uordblks", "fordblks",
                 "keepcost")]


def _mallinfo2():
    """glibc's mallinfo2 (2.33+), or None on another C library."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        function = libc.mallinfo2
    except (OSError, AttributeError):
        return None
    function.restype = _MallInfo2
    return function


@dataclass(frozen=True)
class MemorySample:
    rss_mib: float
    heap_used_mib: float
    heap_free_mib: float
    mmapped_mib: float
    rss_anon_mib: float
    rss_file_mib: float
    pymalloc_arenas_mib: float = math.nan  # mapped by pymalloc (1 MiB arenas); 0 under PYTHONMALLOC=malloc
    pymalloc_used_mib: float = math.nan  # in its allocated blocks: Python's small objects alive
    free_lists_mib: float = math.nan  # of those, objects parked on CPython's free lists (freed, kept for reuse)


class MemoryProbe:
    def __init__(self) -> None:
        self._process = psutil.Process()
        self._mallinfo = _mallinfo2()

    def sample(self) -> MemorySample:
        rss = self._process.memory_info().rss / MIB
        anon, file = _rss_split()
        stats = _debugmallocstats()
        arenas, used = _pymalloc(stats)
        parked = free_lists_mib(stats)
        if self._mallinfo is None:
            return MemorySample(rss, math.nan, math.nan, math.nan, anon, file, arenas, used, parked)
        info = self._mallinfo()
        return MemorySample(rss, info.uordblks / MIB, info.fordblks / MIB, info.hblkhd / MIB, anon, file, arenas, used,
                            parked)


def _rss_split() -> tuple[float, float]:
    """(RssAnon, RssFile) in MiB from /proc/self/status, NaN where there is none."""
    found = {}
    try:
        with open("/proc/self/status", encoding="ascii") as status:
            for line in status:
                if line.startswith(("RssAnon:", "RssFile:")):
                    found[line.split(":")[0]] = int(line.split()[1]) / 1024
    except OSError:
        pass
    return found.get("RssAnon", math.nan), found.get("RssFile", math.nan)


def pymalloc_stats() -> tuple[float, float]:
    """(MiB of arenas pymalloc holds mapped, MiB in its allocated blocks): it maps its own 1 MiB arenas, so
    neither shows in glibc's accounting. Under PYTHONMALLOC=malloc both are 0."""
    return _pymalloc(_debugmallocstats())


def free_lists_mib(stats: str) -> float:
    """MiB of freed objects CPython keeps on its free lists (tuples by length, floats, lists, dicts…), from
    `sys._debugmallocstats`' lines "N free 3-sized PyTupleObjects * 48 bytes each = …"; a full collection empties
    them. Counted as CPython counts them, without the garbage collector's 16-byte header of a tuple."""
    total = 0
    for found in re.finditer(r"^\s*\d+ free .+? \* \d+ bytes each\s*=\s*([\d,]+)\s*$", stats, re.MULTILINE):
        total += int(found.group(1).replace(",", ""))
    return total / MIB


def _pymalloc(text: str) -> tuple[float, float]:
    arenas = re.search(r"arenas allocated current\s*=\s*([\d,]+)", text)
    used = re.search(r"bytes in allocated blocks\s*=\s*([\d,]+)", text)
    arena_bytes = re.search(r"arenas \* (\d+) bytes/arena", text)
    size = int(arena_bytes.group(1)) if arena_bytes else 2**20
    return ((int(arenas.group(1).replace(",", "")) * size / 2**20) if arenas else 0.0,
            (int(used.group(1).replace(",", "")) / 2**20) if used else 0.0)


def _debugmallocstats() -> str:
    """What `sys._debugmallocstats()` writes to the C stderr (fd 2), caught through a pipe."""
    read, write = os.pipe()
    saved = os.dup(2)
    try:
        os.dup2(write, 2)
        os.close(write)
        done = threading.Event()
        chunks: list[bytes] = []

        def drain() -> None:
            while chunk := os.read(read, 65536):
                chunks.append(chunk)
            done.set()

        reader = threading.Thread(target=drain, daemon=True)
        reader.start()
        sys._debugmallocstats()
    finally:
        os.dup2(saved, 2)
        os.close(saved)
    done.wait(5)
    os.close(read)
    return b"".join(chunks).decode("ascii", "replace")
