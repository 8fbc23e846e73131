"""HTDet in PyTorch: the network, its loss, the way back from a shipped ONNX, and the export.

Every module here imports torch at the top; nothing outside `inference.adapt.finetune` imports them,
and that only after `require_torch()` has said what to install when torch is missing.
"""
