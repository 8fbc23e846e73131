"""Fine-tuning the station's PP-OCR recognizer on synthetic small print (issue 14).

`lines` renders text lines as the station's reader cuts them (camera-degraded, then the station's own
resampling and batching from `inference/`); `train` fine-tunes the GB 2312 recognizer on them on a GPU and
exports an ONNX file with the station's input/output contract; `evaluate` counts exact reads by glyph height.
Nothing here is imported by `inference/` or `app/`, and nothing here imports `training.tagsets` (the test sets).
"""
