"""Stand-in for PySide6.QtOpenGL in the Hangtag Station bundle, which leaves out the 9 MB binding.

pyqtgraph imports QtOpenGL at module level but uses it only with its `useOpenGL` option on; the
station keeps that off (app/widgets/plots_panel.py). Any use says so instead of failing obscurely.
"""


def __getattr__(name: str):
    raise ImportError(f"PySide6.QtOpenGL.{name} is not part of the Hangtag Station bundle: plots are drawn "
                      "without OpenGL (pyqtgraph useOpenGL=False)")
