"""Strip the bundle's ELF files, keeping any original that `strip` would break.

PyInstaller's own `strip=True` corrupts libraries that auditwheel rewrote with patchelf: NumPy's
OpenBLAS came out with LOAD segments the loader refuses ("ELF load command address/offset not
page-aligned"), and the bundle died on `import numpy`. So each file is stripped into a copy, the
copy's program headers are checked the way ld.so checks them, and only a smaller, loadable copy
replaces the original.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import tempfile
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path

PT_LOAD = 1
PAGE = 4096


def is_elf(path: Path) -> bool:
    try:
        with path.open("rb") as f:
            return f.read(4) == b"\x7fELF"
    except OSError:
        return False


def load_segments_aligned(path: Path) -> bool:
    """True when every PT_LOAD segment passes ld.so's two alignment checks (64-bit little-endian ELF)."""
    with path.open("rb") as f:
        header = f.read(64)
        if len(header) < 64 or header[:4] != b"\x7fELF" or header[4] != 2 or header[5] != 1:
            return False
        phoff, = struct.unpack_from("<Q", header, 0x20)
        phentsize, phnum = struct.unpack_from("<HH", header, 0x36)
        f.seek(phoff)
        table = f.read(phentsize * phnum)
    if len(table) < phentsize * phnum:
        return False
    for i in range(phnum):
        p_type, _flags, offset, vaddr, _paddr, _filesz, _memsz, align = struct.unpack_from("<IIQQQQQQ", table,
                                                                                           i * phentsize)
        if p_type != PT_LOAD:
            continue
        if align % PAGE or (vaddr - offset) % PAGE or (align and (vaddr - offset) % align):
            return False
    return True


@dataclass
class StripReport:
    saved_bytes: int = 0
    stripped: int = 0
    kept: list[str] = field(default_factory=list)  # originals kept because strip broke them


def strip_file(path: Path, tool: str = "strip") -> tuple[int, bool]:
    """(bytes saved, whether the original was kept because the stripped copy would not load)."""
    if not load_segments_aligned(path):
        return 0, False  # not a 64-bit ELF we can vouch for: leave it exactly as shipped
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / path.name
        shutil.copy2(path, copy)
        result = subprocess.run([tool, str(copy)], capture_output=True, text=True)
        if result.returncode != 0:
            return 0, False
        if not load_segments_aligned(copy):
            return 0, True
        saved = path.stat().st_size - copy.stat().st_size
        if saved <= 0:
            return 0, False
        mode = path.stat().st_mode
        shutil.move(copy, path)
        path.chmod(mode)
        return saved, False


def strip_bundle(root: Path, *, workers: int = 2, tool: str = "strip") -> StripReport:
    report = StripReport()
    if shutil.which(tool) is None:
        return report
    files = [p for p in root.rglob("*") if p.is_file() and not p.is_symlink() and is_elf(p)]
    with ThreadPoolExecutor(max_workers=workers) as pool:
        for path, (saved, kept) in zip(files, pool.map(lambda p: strip_file(p, tool), files)):
            if kept:
                report.kept.append(str(path.relative_to(root)))
            elif saved:
                report.saved_bytes += saved
                report.stripped += 1
    return report
