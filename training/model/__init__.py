"""HTDet: network, assignment and loss, GPU-resident data, ONNX export (needs PyTorch)."""
