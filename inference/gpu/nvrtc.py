"""Compile CUDA C++ with NVRTC for the device in hand, load it, and launch its kernels on a stream.

Kernels are compiled to a cubin for the exact compute capability (sm_90 on the H200), so nothing is
JIT-compiled from PTX by the driver at first launch. Compiled cubins are cached per process.
"""

from __future__ import annotations

import ctypes
import threading
from typing import Sequence

import numpy as np

from inference.gpu.cuda import CudaError, check, driver, make_current, nvrtc

_cache_lock = threading.Lock()
_cubin_cache: dict[tuple[str, str], bytes] = {}


def compile_cubin(source: str, arch: str, name: str = "kernels.cu", options: Sequence[str] = ()) -> bytes:
    """NVRTC → cubin bytes for `arch` (e.g. "sm_90"); the compile log is in the error when it fails."""
    key = (source + "\0".join(options), arch)
    with _cache_lock:
        if key in _cubin_cache:
            return _cubin_cache[key]
    lib = nvrtc()
    program = check(lib.nvrtcCreateProgram(source.encode(), name.encode(), 0, [], []), "nvrtcCreateProgram")
    try:
        opts = [f"--gpu-architecture={arch}".encode(), b"--std=c++17",
                *(o.encode() for o in options)]
        (status,) = lib.nvrtcCompileProgram(program, len(opts), opts)
        if int(status) != 0:
            size = check(lib.nvrtcGetProgramLogSize(program), "nvrtcGetProgramLogSize")
            log = b" " * int(size)
            lib.nvrtcGetProgramLog(program, log)
            raise CudaError(f"NVRTC could not compile {name}", expected="a clean compile",
                            found=log.decode(errors="replace").strip()[-2000:],
                            hint=f"arch {arch}; check the kernel source in inference/gpu")
        size = check(lib.nvrtcGetCUBINSize(program), "nvrtcGetCUBINSize")
        cubin = b" " * int(size)
        check(lib.nvrtcGetCUBIN(program, cubin), "nvrtcGetCUBIN")
    finally:
        lib.nvrtcDestroyProgram(program)
    with _cache_lock:
        _cubin_cache[key] = cubin
    return cubin


class KernelArgs:
    """The `void**` array cuLaunchKernel reads, built once; set() rewrites values in place each frame."""

    def __init__(self, ctypes_types: Sequence[type]) -> None:
        self._values = [t() for t in ctypes_types]
        self._pointers = (ctypes.c_void_p * len(self._values))(*[ctypes.addressof(v) for v in self._values])

    def set(self, *values: int | float) -> KernelArgs:
        if len(values) != len(self._values):
            raise ValueError(f"kernel takes {len(self._values)} arguments, got {len(values)}")
        for slot, value in zip(self._values, values):
            slot.value = value
        return self

    @property
    def address(self) -> int:
        return ctypes.addressof(self._pointers)


class Module:
    """A loaded cubin. free() unloads it; kernels looked up from it must not be launched afterwards."""

    def __init__(self, cubin: bytes, device_id: int = 0) -> None:
        make_current(device_id)
        self.device_id = device_id
        image = np.frombuffer(cubin, dtype=np.uint8)  # held for the call; the driver copies the image
        self._handle = check(driver().cuModuleLoadData(image.ctypes.data), "cuModuleLoadData")
        self._functions: dict[str, object] = {}

    def function(self, name: str) -> object:
        if self._handle is None:
            raise CudaError(f"kernel '{name}' asked of an unloaded module", expected="a loaded module",
                            found="free() was called")
        if name not in self._functions:
            self._functions[name] = check(driver().cuModuleGetFunction(self._handle, name.encode()),
                                          f"looking up kernel '{name}'", hint="is it declared extern \"C\"?")
        return self._functions[name]

    def launch(self, name: str, grid: tuple[int, int, int], block: tuple[int, int, int], args: KernelArgs,
               stream_handle: int, shared_bytes: int = 0) -> None:
        make_current(self.device_id)
        check(driver().cuLaunchKernel(self.function(name), *grid, *block, shared_bytes, stream_handle,
                                      args.address, 0), f"launching {name}")

    def free(self) -> None:
        handle, self._handle = self._handle, None
        self._functions.clear()
        if handle is not None:
            check(driver().cuModuleUnload(handle), "cuModuleUnload")


def grid_for(width: int, height: int, block: tuple[int, int]) -> tuple[int, int, int]:
    return ((width + block[0] - 1) // block[0], (height + block[1] - 1) // block[1], 1)
