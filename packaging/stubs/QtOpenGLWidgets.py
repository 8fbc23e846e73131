"""Stand-in for PySide6.QtOpenGLWidgets in the Hangtag Station bundle (see QtOpenGL.py beside it).

pyqtgraph subclasses QOpenGLWidget at import time and tests views with isinstance(); a plain QWidget
subclass that refuses to be made keeps both working while nothing draws with OpenGL.
"""

from PySide6.QtWidgets import QWidget


class QOpenGLWidget(QWidget):
    def __init__(self, *args, **kwargs) -> None:
        raise RuntimeError("QOpenGLWidget is not part of the Hangtag Station bundle: plots are drawn without OpenGL")


def __getattr__(name: str):
    raise ImportError(f"PySide6.QtOpenGLWidgets.{name} is not part of the Hangtag Station bundle")
