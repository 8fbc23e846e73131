"""Hangtag Station GUI (PySide6). The only package that imports Qt."""
