"""Adapt the detector to a line's own tags: collect, correct, fine-tune, compare, adopt, roll back.

Qt-free; the station's Adapt window (app/adapt/) and `hangtag-inspect adapt` both drive it. Only the
fine-tune needs PyTorch (the 'train' extra), imported when a fine-tune starts.
"""
