"""What the bundle leaves out, as rules over destination paths: one table the spec applies and the
tests read, so every byte dropped has a reason next to it.

PyInstaller's defaults gave a 523 MB bundle; much of it is never loaded by the station: the GTK
platform theme with GTK, cairo, pango and GIO behind it, Qt's QML/Quick stack and translations,
platform plugins for framebuffers and Wayland compositors, Pillow's AVIF/WebP codecs, test suites.
"""

from __future__ import annotations

import fnmatch
import re
from dataclasses import dataclass

# Python packages the station never imports; some arrive through optional imports in libraries.
EXCLUDED_MODULES: tuple[str, ...] = (
    # heavy ML stacks a developer's environment may hold
    "torch", "torchvision", "tensorflow", "jax", "ultralytics", "matplotlib", "scipy", "pandas", "sympy",
    # development tools
    "pytest", "_pytest", "pytestqt", "pytest_timeout", "importlinter", "grimp", "IPython", "jupyter",
    "pycocotools", "fontTools", "pip", "setuptools", "pkg_resources", "distutils", "lib2to3",
    "tkinter", "_tkinter", "unittest", "pydoc_data", "idlelib", "ensurepip", "doctest", "readline", "curses",
    # NumPy's Fortran wrapper generator and build helpers (they pull in charset_normalizer and yaml)
    "numpy.f2py", "numpy.distutils", "yaml", "charset_normalizer", "requests", "urllib3",
    # the project's own training and tests
    "training", "tests",
    # rapidocr: the bundle ships the reader's prepared OCR models instead (packaging/ocr_models.py)
    "rapidocr", "omegaconf", "shapely", "pyclipper", "rich", "pygments", "colorlog", "tqdm",
    # Qt modules the station does not use; pyqtgraph imports some optionally. It imports QtOpenGL and
    # QtOpenGLWidgets unconditionally but uses them only for OpenGL drawing, which the station keeps off:
    # small stand-ins take their place (packaging/stubs, QT_STUBS below; 9.8 MB).
    "PySide6.QtOpenGL", "PySide6.QtOpenGLWidgets",
    "PySide6.QtNetwork", "PySide6.QtSvgWidgets", "PySide6.QtTest", "PySide6.QtQml", "PySide6.QtQuick", "PySide6.QtQuickWidgets",
    "PySide6.QtQuickControls2", "PySide6.QtSql", "PySide6.QtXml", "PySide6.QtConcurrent", "PySide6.QtDesigner",
    "PySide6.QtHelp", "PySide6.QtUiTools", "PySide6.QtPdf", "PySide6.QtPdfWidgets", "PySide6.QtDBus",
    "PySide6.QtStateMachine", "PySide6.QtMultimedia", "PySide6.QtWebEngineCore", "PySide6.Qt3DCore",
    "pyqtgraph.opengl", "pyqtgraph.examples", "pyqtgraph.jupyter", "pyqtgraph.canvas", "pyqtgraph.flowchart",
    "OpenGL",
    # Pillow draws the Chinese labels on archived images (FreeType); its AVIF/WebP/CMS/Tk codecs are 6 MB
    "PIL._avif", "PIL._webp", "PIL._imagingcms", "PIL._imagingtk", "PIL.ImageQt", "PIL.ImageTk", "PIL.ImageCms",
    # ONNX Runtime pieces for training and transformer tooling
    "onnxruntime.training", "onnxruntime.transformers", "onnxruntime.tools",
    # server-room features a desktop station does not carry (pip install the package for them): the Triton
    # client (tritonclient, gRPC: 21 MB) and the OPC UA stack (asyncua with cryptography and aiohttp: 53 MB).
    # Modbus and MQTT stay in the bundle.
    "tritonclient", "grpc", "asyncua", "cryptography", "aiohttp", "aiofiles", "aiosqlite",
    # the HTTP service and its load generator (hangtag-inspect serve / load) run from a pip install on a server
    "starlette", "uvicorn", "anyio", "sniffio", "httpx", "httpcore", "h11", "prometheus_client", "httptools",
    "uvloop", "websockets", "watchfiles",
    # industrial cameras: PyGObject for GigE Vision through the system's Aravis (a bundle cannot carry the
    # system's typelibs), and harvesters + genicam (13 MB with their own OpenSSL) for GenTL producers, which
    # would take the bundle past its 350 MB target; a station on an industrial camera runs from a pip install
    "gi", "cairo", "harvesters", "genicam",
)

# Pure-Python stand-ins shipped in place of excluded bindings: (stub file in packaging/stubs, bundle path).
QT_STUBS: tuple[tuple[str, str], ...] = (("QtOpenGL.py", "PySide6"), ("QtOpenGLWidgets.py", "PySide6"))

# The GPU variant keeps these; the CPU variant must not pick them up even when installed.
GPU_MODULES: tuple[str, ...] = ("tensorrt", "tensorrt_libs", "tensorrt_bindings", "cuda", "cuda.bindings",
                                "nvidia")

# Qt plugins the station loads: X11, offscreen and minimal platforms; JPEG (PNG is built into QtGui) and SVG;
# compose and IBus input so operators can type Chinese job and lot names.
KEPT_QT_PLUGINS: tuple[str, ...] = (
    "platforms/libqxcb.so", "platforms/libqoffscreen.so", "platforms/libqminimal.so",
    "imageformats/libqjpeg.so",
    # the PDF report's charts are SVG files its HTML points to; QTextDocument reads them through this plugin
    "imageformats/libqsvg.so",
    "platforminputcontexts/libcomposeplatforminputcontextplugin.so",
    "platforminputcontexts/libibusplatforminputcontextplugin.so",
    "xcbglintegrations/libqxcb-glx-integration.so",
    # Windows and macOS equivalents, for builds there
    "platforms/qwindows.dll", "platforms/qoffscreen.dll", "platforms/qminimal.dll", "imageformats/qjpeg.dll",
    "imageformats/qsvg.dll",
    "styles/qmodernwindowsstyle.dll", "platforms/libqcocoa.dylib", "platforms/libqoffscreen.dylib",
    "imageformats/libqjpeg.dylib", "imageformats/libqsvg.dylib", "styles/libqmacstyle.dylib",
)


@dataclass(frozen=True)
class Drop:
    pattern: str  # fnmatch over the destination path, forward slashes
    why: str


# Never in any variant. The NVIDIA driver belongs to the machine, never to the bundle.
ALWAYS_DROPPED: tuple[Drop, ...] = (
    Drop("libcuda.so*", "the NVIDIA driver comes from the machine"),
    Drop("*/libcuda.so*", "the NVIDIA driver comes from the machine"),
    Drop("libnvidia-*", "the NVIDIA driver comes from the machine"),
    Drop("*/libnvidia-*", "the NVIDIA driver comes from the machine"),
    Drop("PySide6/Qt/translations/*", "the station loads no Qt translations"),
    Drop("PySide6/Qt/lib/libQt6Qml*", "no QML"),
    Drop("PySide6/Qt/lib/libQt6Quick*", "no Qt Quick"),
    Drop("PySide6/Qt/lib/libQt6Network*", "no Qt networking; cameras come through OpenCV"),
    Drop("PySide6/Qt/lib/libQt6Pdf*", "PDF reports are written, not viewed"),
    Drop("PySide6/Qt/lib/libQt6SvgWidgets*", "SVG is only rasterized (PDF charts), never shown as a widget"),
    Drop("PySide6/Qt/lib/libQt6VirtualKeyboard*", "no virtual keyboard"),
    Drop("PySide6/Qt/lib/libQt6Wayland*", "X11 (xcb) and offscreen only"),
    Drop("PySide6/Qt/lib/libQt6Egl*", "no EGLFS"),
    Drop("PySide6/Qt/lib/libQt6Designer*", "no Designer"),
    Drop("PySide6/Qt/lib/libQt6OpenGL*", "no OpenGL drawing; the bindings are stubbed (packaging/stubs)"),
    Drop("libQt6OpenGL*", "no OpenGL drawing; the bindings are stubbed (packaging/stubs)"),
    Drop("PySide6/Qt/qml/*", "no QML"),
    Drop("*/tests/*", "test suites"),
    Drop("numpy/*/tests/*", "test suites"),
    Drop("cv2/data/*", "Haar cascades: the station detects with its own model"),
)

CPU_ONLY_DROPPED: tuple[Drop, ...] = (
    # The CPU wheel's Python binding is self-contained and never loads this 34 MB C-API copy. PyInstaller's
    # hook skips it today (its versioned name); the rule keeps it out if a hook update starts collecting it.
    Drop("onnxruntime/capi/libonnxruntime.so*", "the Python binding does not load ORT's C-API library"),
)

_QT_PLUGIN = re.compile(r"^PySide6/Qt/plugins/(?P<rel>[^/]+/[^/]+)$")


def dropped_by(dest: str, variant: str = "cpu") -> Drop | None:
    """The rule that drops this destination path from the bundle, or None to keep it."""
    dest = dest.replace("\\", "/")
    rules = ALWAYS_DROPPED + (CPU_ONLY_DROPPED if variant == "cpu" else ())
    for rule in rules:
        if fnmatch.fnmatch(dest, rule.pattern):
            return rule
    plugin = _QT_PLUGIN.match(dest)
    if plugin and not keeps_qt_plugin(plugin.group("rel")):
        return Drop("PySide6/Qt/plugins/*", "a Qt plugin the station never loads")
    return None


def keeps_qt_plugin(relative: str) -> bool:
    """`relative` is `<plugin type>/<file name>`, e.g. `platforms/libqxcb.so`."""
    return relative.replace("\\", "/") in KEPT_QT_PLUGINS


def excluded_modules(variant: str = "cpu") -> list[str]:
    return list(EXCLUDED_MODULES) + (list(GPU_MODULES) if variant == "cpu" else [])
