"""Where a process's memory is: RSS, and glibc's own account of its heap (mallinfo2).

RSS alone cannot tell a leak from a fragmented heap: `heap_used` is what the program still holds
through malloc (a leak grows it), `heap_free` what glibc keeps but nobody holds (fragmentation grows
it), `mmapped` the large blocks malloc maps one by one (ONNX Runtime's arena chunks, image buffers).
Memory that Python's small-object allocator maps itself is in RSS but in none of the three.
RSS itself splits (Linux) into anonymous memory (heaps, arenas, buffers: what can leak) and file-backed
pages (shared libraries' code and data, faulted in as code paths first run: bounded by the libraries).
"""

from __future__ import annotations

import ctypes
import ctypes.util
import math
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


class MemoryProbe:
    def __init__(self) -> None:
        self._process = psutil.Process()
        self._mallinfo = _mallinfo2()

    def sample(self) -> MemorySample:
        rss = self._process.memory_info().rss / MIB
        anon, file = _rss_split()
        if self._mallinfo is None:
            return MemorySample(rss, math.nan, math.nan, math.nan, anon, file)
        info = self._mallinfo()
        return MemorySample(rss, info.uordblks / MIB, info.fordblks / MIB, info.hblkhd / MIB, anon, file)


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
