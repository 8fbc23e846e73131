"""One OpenBLAS in the bundle instead of two.

opencv-python-headless carries its own OpenBLAS (39 MB, with libgfortran and libquadmath) for 19
BLAS/LAPACK routines; NumPy carries another. After PyInstaller has collected the bundle, this
compiles `blas_shim.c` into a library with the soname cv2.abi3.so asks for, whose routines forward
to NumPy's OpenBLAS, and puts it where OpenCV's copy was. It changes nothing when the pieces are not
as expected (no C compiler, other wheel layouts, a routine the shim does not provide): the original
stays and the report says why.
"""

from __future__ import annotations

import shutil
import subprocess
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import elf

SHIM_SOURCE = Path(__file__).resolve().parent / "blas_shim.c"
AOM_STUB_SOURCE = Path(__file__).resolve().parent / "aom_stub.c"


@dataclass
class ShimReport:
    replaced: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    saved_bytes: int = 0
    skipped: str | None = None


def needed(path: Path) -> list[str]:
    """The DT_NEEDED entries of a shared object (readelf, from binutils like strip)."""
    out = subprocess.run(["readelf", "-d", "--wide", str(path)], capture_output=True, text=True, check=True).stdout
    return [line.split("[", 1)[1].rstrip("]") for line in out.splitlines() if "(NEEDED)" in line and "[" in line]


def dynamic_symbols(path: Path, *, defined: bool) -> set[str]:
    flag = "--defined-only" if defined else "--undefined-only"
    out = subprocess.run(["nm", "-D", flag, str(path)], capture_output=True, text=True, check=True).stdout
    return {line.split()[-1].split("@")[0] for line in out.splitlines() if line.strip()}


def share_numpy_openblas(bundle: Path, compiler: str = "cc") -> ShimReport:
    internal = bundle / "_internal" if (bundle / "_internal").is_dir() else bundle
    cv2_so = next(iter(sorted((internal / "cv2").glob("cv2*.so"))), None)
    cv2_libs, numpy_libs = internal / "opencv_python_headless.libs", internal / "numpy.libs"
    numpy_blas = next(iter(sorted(numpy_libs.glob("libscipy_openblas64_*.so"))), None)
    if cv2_so is None or numpy_blas is None or not cv2_libs.is_dir():
        return ShimReport(skipped="OpenCV or NumPy's OpenBLAS is not laid out as expected")
    blas = next((name for name in needed(cv2_so) if name.startswith("libopenblas")), None)
    if blas is None or not (cv2_libs / blas).is_file():
        return ShimReport(skipped="cv2 links no OpenBLAS of its own")
    if shutil.which(compiler) is None:
        return ShimReport(skipped=f"no C compiler ({compiler}) to build the BLAS shim")
    original = cv2_libs / blas
    wanted = dynamic_symbols(cv2_so, defined=False) & dynamic_symbols(original, defined=True)
    with tempfile.TemporaryDirectory(prefix="blas-shim-") as tmp:
        shim = Path(tmp) / blas
        build = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(shim), str(SHIM_SOURCE),
                                f"-Wl,-soname,{blas}", f"-L{numpy_libs}", f"-l:{numpy_blas.name}",
                                "-Wl,-rpath,$ORIGIN/../numpy.libs", "-Wl,--no-undefined"],
                               capture_output=True, text=True)
        if build.returncode != 0:
            return ShimReport(skipped=f"the BLAS shim did not compile: {build.stderr.strip()[-300:]}")
        missing = wanted - dynamic_symbols(shim, defined=True)
        if missing:
            return ShimReport(skipped=f"cv2 needs routines the shim lacks: {', '.join(sorted(missing))}")
        dropped_deps = [name for name in needed(original) if (cv2_libs / name).is_file()]
        report = ShimReport(replaced=[str(original.relative_to(bundle))])
        report.saved_bytes = original.stat().st_size - shim.stat().st_size
        shutil.copyfile(shim, original)
    # OpenBLAS's Fortran runtime (and what only it linked) goes too, unless something else links it.
    candidates = list(dropped_deps)
    while candidates:
        still_needed = {name for path in internal.rglob("*.so*") if path.is_file() and not path.is_symlink()
                        and path.name not in candidates and elf.is_elf(path) for name in needed(path)}
        removable = [name for name in candidates if name not in still_needed and (cv2_libs / name).is_file()]
        if not removable:
            break
        candidates = [dep for name in removable for dep in needed(cv2_libs / name) if (cv2_libs / dep).is_file()]
        for name in removable:
            path = cv2_libs / name
            report.saved_bytes += path.stat().st_size
            path.unlink()
            report.removed.append(str(path.relative_to(bundle)))
    for link in internal.iterdir():  # PyInstaller's top-level links to what was removed
        if link.is_symlink() and not link.exists():
            link.unlink()
    return report


def stub_av1(bundle: Path, compiler: str = "cc") -> ShimReport:
    """libaom (8 MB) replaced by `aom_stub.c` where libavif is the only library that links it: OpenCV's AVIF
    support, which the station never uses, then fails as on a damaged file. Nothing changes when another
    library links libaom, the stub lacks a routine libavif needs, or there is no C compiler."""
    internal = bundle / "_internal" if (bundle / "_internal").is_dir() else bundle
    libs = internal / "opencv_python_headless.libs"
    aom = next(iter(sorted(libs.glob("libaom-*.so*"))), None) if libs.is_dir() else None
    if aom is None:
        return ShimReport(skipped="no libaom in OpenCV's libraries")
    users = [path for path in internal.rglob("*.so*") if path.is_file() and not path.is_symlink() and path != aom
             and elf.is_elf(path) and aom.name in needed(path)]
    if [path.name for path in users if not path.name.startswith("libavif")] or not users:
        return ShimReport(skipped=f"libaom is linked by {', '.join(p.name for p in users) or 'nothing'}, not by libavif alone")
    if shutil.which(compiler) is None:
        return ShimReport(skipped=f"no C compiler ({compiler}) to build the AV1 stub")
    wanted = set().union(*(dynamic_symbols(path, defined=False) for path in users)) & dynamic_symbols(aom, defined=True)
    with tempfile.TemporaryDirectory(prefix="aom-stub-") as tmp:
        stub = Path(tmp) / aom.name
        build = subprocess.run([compiler, "-O2", "-shared", "-fPIC", "-o", str(stub), str(AOM_STUB_SOURCE),
                                f"-Wl,-soname,{aom.name}", "-Wl,--no-undefined"], capture_output=True, text=True)
        if build.returncode != 0:
            return ShimReport(skipped=f"the AV1 stub did not compile: {build.stderr.strip()[-300:]}")
        missing = wanted - dynamic_symbols(stub, defined=True)
        if missing:
            return ShimReport(skipped=f"libavif needs routines the stub lacks: {', '.join(sorted(missing))}")
        report = ShimReport(replaced=[str(aom.relative_to(bundle))], saved_bytes=aom.stat().st_size - stub.stat().st_size)
        shutil.copyfile(stub, aom)
    return report
