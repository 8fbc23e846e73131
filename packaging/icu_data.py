"""Qt's ICU data, cut to what a Chinese/English station uses: 32 MB → about 9 MB.

PySide6's libicudata carries every locale, converter and transliterator ICU knows. Qt needs ICU for
collation, case mapping, normalization, IDNA and break dictionaries; the station's text is Chinese
and English, and files are read and written by Python, not by Qt's codecs. So the bundle keeps:
all data that is not per-locale, the per-locale resources of root, en* and zh*, the GB 2312/GBK/
GB 18030 converters, and no transliterators. The rest is dropped.

The data is ICU's "common data" package (a TOC of named items) behind the symbol icudt<N>_dat. This
reads it out of the library, writes a package with only the kept items in ICU's own layout (TOC
sorted as before, items 16-byte aligned), and assembles a library with the same soname and symbol
around it. Needs binutils (readelf, nm) and a C compiler, like the BLAS shim; without them the
original stays and the report says why.
"""

from __future__ import annotations

import re
import shutil
import struct
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

KEPT_LANGUAGES = ("en", "zh")
KEPT_CONVERTERS = re.compile(r"gb|936|1386", re.IGNORECASE)  # GB 2312, GBK (windows-936), GB 18030
DROPPED_TREES = ("translit",)
_LOCALE = re.compile(r"^[a-z]{2,3}(_[A-Za-z0-9]+)*$")
_ALIGN = 16


@dataclass
class IcuReport:
    library: str = ""
    items_before: int = 0
    items_after: int = 0
    saved_bytes: int = 0
    skipped: str | None = None


def keeps(item: str) -> bool:
    """`item` is a package item name such as `icudt73l/coll/zh.res` or `icudt73l/ibm-943_P15A-2003.cnv`."""
    path = item.split("/", 1)[1] if "/" in item else item
    tree, _, leaf = path.rpartition("/")
    stem, _, ext = leaf.rpartition(".")
    if tree in DROPPED_TREES:
        return False
    if ext == "cnv":
        return bool(KEPT_CONVERTERS.search(stem))
    if ext == "res" and stem != "root" and _LOCALE.match(stem):
        return stem.split("_")[0] in KEPT_LANGUAGES
    return True


def read_package(blob: bytes) -> tuple[bytes, list[tuple[str, bytes]]]:
    """(header, [(name, item bytes)]) of an ICU common-data package."""
    header_size, magic1, magic2 = struct.unpack_from("<HBB", blob, 0)
    if (magic1, magic2) != (0xDA, 0x27) or blob[12:16] != b"CmnD":
        raise ValueError("not an ICU common data package (magic or CmnD format missing)")
    toc = header_size
    (count,) = struct.unpack_from("<I", blob, toc)
    entries = [struct.unpack_from("<II", blob, toc + 4 + 8 * i) for i in range(count)]
    items = []
    for i, (name_offset, data_offset) in enumerate(entries):
        name = blob[toc + name_offset:blob.index(b"\0", toc + name_offset)].decode("ascii")
        end = entries[i + 1][1] if i + 1 < count else len(blob) - toc
        items.append((name, blob[toc + data_offset:toc + end]))
    return blob[:header_size], items


def write_package(header: bytes, items: list[tuple[str, bytes]]) -> bytes:
    """ICU's layout: header, count, (name offset, data offset) pairs, names, then 16-byte aligned items."""
    count = len(items)
    names = b"".join(name.encode("ascii") + b"\0" for name, _ in items)
    table = 4 + 8 * count
    data_start = _aligned(len(header) + table + len(names)) - len(header)
    offsets, name_at, position = [], table, data_start
    for name, data in items:
        offsets.append((name_at, position))
        name_at += len(name) + 1
        position = _aligned(len(header) + position + len(data)) - len(header)
    out = bytearray(header)
    out += struct.pack("<I", count) + b"".join(struct.pack("<II", *pair) for pair in offsets) + names
    for (_, data_offset), (_, data) in zip(offsets, items):
        out += b"\xaa" * (len(header) + data_offset - len(out))  # ICU pads with 0xaa
        out += data
    return bytes(out)


def _aligned(n: int) -> int:
    return -(-n // _ALIGN) * _ALIGN


def data_symbol(library: Path) -> tuple[str, int, int]:
    """(symbol, file offset, size) of the package inside the library."""
    out = subprocess.run(["nm", "-D", "-S", "--defined-only", str(library)], capture_output=True, text=True,
                         check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if len(parts) == 4 and re.fullmatch(r"icudt\d+_dat", parts[3]):
            address, size, name = int(parts[0], 16), int(parts[1], 16), parts[3]
            return name, _file_offset(library, address), size
    raise ValueError(f"no icudt<N>_dat symbol in {library.name}")


def _file_offset(library: Path, address: int) -> int:
    out = subprocess.run(["readelf", "-l", "-W", str(library)], capture_output=True, text=True, check=True).stdout
    for line in out.splitlines():
        parts = line.split()
        if parts and parts[0] == "LOAD":
            offset, vaddr, filesz = int(parts[1], 16), int(parts[2], 16), int(parts[4], 16)
            if vaddr <= address < vaddr + filesz:
                return address - vaddr + offset
    raise ValueError(f"address {address:#x} is in no LOAD segment of {library.name}")


def build_library(package: bytes, symbol: str, soname: str, out: Path, compiler: str = "cc") -> None:
    with tempfile.TemporaryDirectory(prefix="icu-data-") as tmp:
        blob = Path(tmp) / "package.dat"
        blob.write_bytes(package)
        source = Path(tmp) / "icudata.c"
        source.write_text(
            "/* ICU common data for Hangtag Station (packaging/icu_data.py). */\n"
            f'__asm__(".section .rodata\\n.global {symbol}\\n.type {symbol}, @object\\n.balign 16\\n'
            f'{symbol}:\\n.incbin \\"{blob}\\"\\n.size {symbol}, .-{symbol}\\n.previous\\n");\n',
            encoding="utf-8")
        subprocess.run([compiler, "-shared", "-fPIC", "-nostdlib", "-o", str(out), str(source),
                        f"-Wl,-soname,{soname}"], check=True, capture_output=True, text=True)


def slim_icu(bundle: Path, compiler: str = "cc") -> IcuReport:
    internal = bundle / "_internal" if (bundle / "_internal").is_dir() else bundle
    library = next(iter(sorted(internal.glob("PySide6/Qt/lib/libicudata.so.*"))), None)
    if library is None or library.is_symlink():
        return IcuReport(skipped="no libicudata in the bundle")
    for tool in ("nm", "readelf", compiler):
        if shutil.which(tool) is None:
            return IcuReport(skipped=f"{tool} not found; ICU data left whole")
    try:
        symbol, offset, size = data_symbol(library)
        with open(library, "rb") as fh:
            fh.seek(offset)
            header, items = read_package(fh.read(size))
        kept = [item for item in items if keeps(item[0])]
        with tempfile.TemporaryDirectory(prefix="icu-lib-") as tmp:
            built = Path(tmp) / library.name
            build_library(write_package(header, kept), symbol, library.name, built, compiler)
            check_symbol, _, _ = data_symbol(built)
            if check_symbol != symbol:
                return IcuReport(skipped=f"rebuilt library exports {check_symbol}, not {symbol}")
            before = library.stat().st_size
            shutil.copyfile(built, library)
    except (ValueError, OSError, subprocess.CalledProcessError) as exc:
        detail = getattr(exc, "stderr", "") or str(exc)
        return IcuReport(skipped=f"ICU data left whole: {str(detail).strip()[-300:]}")
    return IcuReport(str(library.relative_to(bundle)), len(items), len(kept), before - library.stat().st_size)
