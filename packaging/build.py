"""Build the one-folder HangtagStation bundle from the project's own environment.

    python packaging/build.py [--variant cpu|gpu] [--dist dist] [--work build/pyinstaller]

Prints the bundle size with its largest parts, and fails if the NVIDIA driver slipped in or the
CPU bundle outgrew its budget, so a dependency bump that doubles the download is noticed at build time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SPEC = ROOT / "packaging" / "HangtagStation.spec"
APP_NAME = "HangtagStation"
CPU_TARGET_MB = 350  # the target; the CPU bundle meets it once the shrink steps ran (BENCHMARKS.md)
CPU_CEILING_MB = 460  # what the bundle would be with no shrink step: beyond it the build fails
DRIVER_PREFIXES = ("libcuda.so", "libnvidia-", "nvcuda.dll", "nvml.dll")


def folder_bytes(path: Path) -> int:
    return sum(f.stat().st_size for f in path.rglob("*") if f.is_file() and not f.is_symlink())


def largest_parts(bundle: Path, top: int = 15) -> list[tuple[str, int]]:
    """Sizes of the top-level entries under _internal/ (packages, shared libraries)."""
    internal = bundle / "_internal"
    base = internal if internal.is_dir() else bundle
    sizes = [(entry.name, folder_bytes(entry) if entry.is_dir() else entry.stat().st_size)
             for entry in base.iterdir() if not entry.is_symlink()]
    return sorted(sizes, key=lambda item: -item[1])[:top]


def driver_files(bundle: Path) -> list[str]:
    return sorted(str(p.relative_to(bundle)) for p in bundle.rglob("*") if p.name.startswith(DRIVER_PREFIXES))


def unloadable_elf_files(bundle: Path) -> list[str]:
    sys.path.insert(0, str(ROOT / "packaging"))
    import elf

    return sorted(str(p.relative_to(bundle)) for p in bundle.rglob("*")
                  if p.is_file() and not p.is_symlink() and elf.is_elf(p) and not elf.load_segments_aligned(p))


def build(variant: str, dist: Path, work: Path, *, strip: bool = True, quiet: bool = False) -> Path:
    command = [sys.executable, "-m", "PyInstaller", "--noconfirm", "--clean", "--distpath", str(dist),
               "--workpath", str(work), "--log-level", "WARN" if quiet else "INFO", str(SPEC), "--",
               "--variant", variant]
    if not strip:
        command.append("--no-strip")
    env = dict(os.environ, PYTHONDONTWRITEBYTECODE="1")
    subprocess.run(command, cwd=ROOT, check=True, env=env)
    return dist / APP_NAME


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--variant", choices=("cpu", "gpu"), default="cpu")
    parser.add_argument("--dist", type=Path, default=ROOT / "dist")
    parser.add_argument("--work", type=Path, default=ROOT / "build" / "pyinstaller")
    parser.add_argument("--no-strip", action="store_true", help="keep symbols (debugging a crash in a library)")
    parser.add_argument("--quiet", action="store_true")
    args = parser.parse_args(argv)

    start = time.perf_counter()
    bundle = build(args.variant, args.dist, args.work, strip=not args.no_strip, quiet=args.quiet)
    seconds = time.perf_counter() - start
    total = folder_bytes(bundle)
    print(f"\n{bundle}  ({args.variant}): {total / 1e6:.1f} MB in {seconds:.0f} s")
    for name, size in largest_parts(bundle):
        print(f"  {size / 1e6:8.1f} MB  {name}")

    problems = []
    drivers = driver_files(bundle)
    if drivers:
        problems.append("the NVIDIA driver must come from the machine, not the bundle: " + ", ".join(drivers))
    if args.variant == "cpu" and total > CPU_CEILING_MB * 1e6:
        problems.append(f"CPU bundle is {total / 1e6:.0f} MB, over the {CPU_CEILING_MB} MB ceiling "
                        "(see packaging/trim.py for what is left out, and the largest parts above)")
    elif args.variant == "cpu" and total > CPU_TARGET_MB * 1e6:
        print(f"note: {total / 1e6:.0f} MB is {total / 1e6 - CPU_TARGET_MB:.0f} MB over the {CPU_TARGET_MB} MB target")
    misaligned = unloadable_elf_files(bundle)
    if misaligned:
        problems.append("ELF files the loader would refuse (misaligned LOAD segments): " + ", ".join(misaligned))
    for problem in problems:
        print(f"error: {problem}", file=sys.stderr)
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
