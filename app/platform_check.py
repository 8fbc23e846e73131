"""Before Qt starts: is there a display, and can Qt's xcb plugin load? Qt aborts the process
when the platform plugin fails, so we look first and explain in words an operator can act on."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

# Shared library → Debian/Ubuntu package that provides it.
XCB_PACKAGES = {
    "libxcb-cursor.so.0": "libxcb-cursor0",
    "libxcb-icccm.so.4": "libxcb-icccm4",
    "libxcb-image.so.0": "libxcb-image0",
    "libxcb-keysyms.so.1": "libxcb-keysyms1",
    "libxcb-randr.so.0": "libxcb-randr0",
    "libxcb-render-util.so.0": "libxcb-render-util0",
    "libxcb-shape.so.0": "libxcb-shape0",
    "libxcb-xinerama.so.0": "libxcb-xinerama0",
    "libxcb-xkb.so.1": "libxcb-xkb1",
    "libxkbcommon-x11.so.0": "libxkbcommon-x11-0",
    "libxkbcommon.so.0": "libxkbcommon0",
    "libEGL.so.1": "libegl1",
    "libGL.so.1": "libgl1",
    "libOpenGL.so.0": "libopengl0",
    "libfontconfig.so.1": "libfontconfig1",
    "libdbus-1.so.3": "libdbus-1-3",
    "libX11-xcb.so.1": "libx11-xcb1",
    "libxcb.so.1": "libxcb1",
}


def has_display() -> bool:
    if os.environ.get("QT_QPA_PLATFORM", "").startswith(("offscreen", "minimal")):
        return True
    if sys.platform != "linux":
        return True
    return bool(os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))


def _xcb_plugin() -> Path | None:
    try:
        import PySide6
    except ImportError:
        return None
    candidates = list(Path(PySide6.__file__).parent.glob("Qt/plugins/platforms/libqxcb.so"))
    return candidates[0] if candidates else None


def missing_xcb_libraries() -> list[str]:
    """Libraries libqxcb.so needs that the dynamic loader cannot find (Linux, X11 sessions only)."""
    if sys.platform != "linux" or os.environ.get("QT_QPA_PLATFORM", "xcb") not in ("", "xcb"):
        return []
    plugin = _xcb_plugin()
    if plugin is None:
        return []
    libs = [plugin]
    qt_lib = plugin.parents[2] / "lib" / "libQt6XcbQpa.so.6"
    if qt_lib.exists():
        libs.append(qt_lib)
    missing: set[str] = set()
    for lib in libs:
        try:
            out = subprocess.run(["ldd", str(lib)], capture_output=True, text=True, timeout=10).stdout
        except (OSError, subprocess.TimeoutExpired):
            return []
        missing |= set(re.findall(r"^\s*(\S+) => not found", out, flags=re.M))
    return sorted(missing)


def install_hint(missing: list[str]) -> str:
    packages = sorted({XCB_PACKAGES.get(lib, lib) for lib in missing})
    return "sudo apt-get install -y " + " ".join(packages)
