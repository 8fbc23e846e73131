"""Where GenTL producers (.cti) are: given paths, then HANGTAG_GENTL_CTI, then GENICAM_GENTL64_PATH (the GenTL
standard's own variable), then the places the common camera vendors install theirs."""

from __future__ import annotations

import glob
import os
from pathlib import Path
from typing import Iterable

from inference.errors import SourceError

ENV_CTI = "HANGTAG_GENTL_CTI"  # one or more .cti files or folders, separated like PATH
# Linux and Windows install locations of the vendors' producers (globs); README lists them for operators.
VENDOR_PRODUCERS = (
    "/opt/pylon*/lib*/gentlproducer/gtl/*.cti",  # Basler pylon
    "/opt/spinnaker/lib/spinnaker-gentl/*.cti",  # Teledyne FLIR Spinnaker
    "/opt/VimbaX*/cti/*.cti",  # Allied Vision Vimba X
    "/opt/Vimba_*/Vimba*TL/CTI/x86_64bit/*.cti",  # Allied Vision Vimba
    "/opt/mvIMPACT_Acquire/lib/x86_64/*.cti",  # Balluff / MATRIX VISION mvIMPACT Acquire
    "/opt/MVS/lib/64/*.cti",  # Hikrobot MVS
    "/opt/ids-peak*/lib/ids/cti/*.cti",  # IDS peak
    "/opt/euresys/egrabber/lib/x86_64/*.cti",  # Euresys eGrabber
    "/usr/lib/*/genicam/*.cti",
    "C:/Program Files/Basler/pylon */Runtime/x64/*.cti",
    "C:/Program Files/Teledyne/Spinnaker/cti64/*/*.cti",
    "C:/Program Files/Allied Vision/Vimba X/cti/*.cti",
    "C:/Program Files/MATRIX VISION/mvIMPACT Acquire/bin/x64/*.cti",
    "C:/Program Files (x86)/Common Files/MVS/Runtime/Win64_x64/*.cti",
    "C:/Program Files/IDS/ids_peak/ids_gentl/*/*.cti",
)


def simulated_producer() -> Path | None:
    """The `genicam` wheel's simulated producer (viky.cti, three bouncing-ball cameras), if installed."""
    try:
        import genicam
    except ImportError:
        return None
    path = Path(genicam.__file__).with_name("viky.cti")
    return path if path.is_file() else None


def _expand(entry: str | Path) -> list[Path]:
    path = Path(entry).expanduser()
    if path.is_dir():
        return sorted(path.glob("*.cti"))
    return [path]


def find_producers(given: Iterable[str | Path] | None = None, *, vendors: bool = True) -> list[Path]:
    """The producers to load, first-named first, each once. Given paths must exist (a typo is said now);
    with none given, the environment and the vendors' locations are searched."""
    found: list[Path] = []
    for entry in given or ():
        paths = _expand(entry)
        missing = [p for p in paths if not p.is_file()]
        if missing or not paths:
            raise SourceError(f"no GenTL producer at {entry}", expected="a .cti file, or a folder holding some",
                              found="nothing there" if missing else "a folder without .cti files",
                              hint="install the camera vendor's SDK and point --cti at its .cti file")
        found += paths
    if not found:
        for variable in (ENV_CTI, "GENICAM_GENTL64_PATH"):
            for entry in filter(None, os.environ.get(variable, "").split(os.pathsep)):
                found += [p for p in _expand(entry) if p.is_file()]
        if vendors:
            for pattern in VENDOR_PRODUCERS:
                found += [Path(p) for p in sorted(glob.glob(pattern))]
    unique: dict[str, Path] = {}
    for path in found:
        unique.setdefault(str(path.resolve()), path)
    return list(unique.values())


def no_producer_error() -> SourceError:
    return SourceError("no GenTL producer (.cti) found", expected="the camera vendor's GenTL producer",
                       found=f"none given, none in ${ENV_CTI} or $GENICAM_GENTL64_PATH, none where vendors install",
                       hint=f"pass --cti PATH (or set {ENV_CTI}); the README lists where vendors put theirs")
