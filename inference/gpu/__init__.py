"""The GPU pipeline: CUDA owners, NVRTC pre/post-processing kernels, device-resident engines.

Nothing here imports cuda-python, CuPy or onnxruntime at module import: each is loaded on first
real use, and `gpu_unavailable_reason()` says in one line why the GPU path cannot run here, so the
station falls back to CPU preprocessing instead of failing.

The seam to other backends is `inference.gpu.engine.DeviceEngine`: an engine that reads its input
from, and writes its output to, device buffers the pipeline owns, enqueued on the pipeline's stream.
"""

from __future__ import annotations

from inference.gpu.cuda import gpu_unavailable_reason

__all__ = ["gpu_unavailable_reason"]
