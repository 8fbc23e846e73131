"""The sidecar `model_info.json` written next to every engine plan, and its check against this machine.

A TensorRT plan only runs on the TensorRT version and GPU it was built for, and only means
something for the ONNX graph it was built from. Every one of those facts is recorded at build
time and compared on load; `check_against` returns every difference in words, so the refusal
tells the engineer all that is wrong at once.
"""

from __future__ import annotations

import json
from dataclasses import MISSING, asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from inference.engines.tensorrt.errors import REBUILD_HINT, EngineFileError, EngineMismatchError

SIDECAR_NAME = "model_info.json"
FORMAT_VERSION = 1


@dataclass(frozen=True)
class SystemInfo:
    """What an engine must match: the TensorRT in this process and the GPU it runs on."""

    tensorrt_version: str
    gpu_name: str
    compute_capability: tuple[int, int]

    @classmethod
    def current(cls, device_id: int = 0) -> SystemInfo:
        from inference.engines.tensorrt import libs

        trt = libs.tensorrt()
        rt = libs.cudart()
        props = libs.check(rt.cudaGetDeviceProperties(device_id), "cudaGetDeviceProperties")
        name = props.name.decode(errors="replace") if isinstance(props.name, bytes) else str(props.name)
        return cls(str(trt.__version__), name.rstrip("\x00").strip(), (int(props.major), int(props.minor)))


_TEXT, _INT, _NUMBER = (str,), (int,), (int, float)
_SCALAR_TYPES: dict[str, tuple[type, ...]] = {
    "model_sha256": _TEXT, "precision": _TEXT, "input_name": _TEXT, "tensorrt_version": _TEXT, "gpu_name": _TEXT,
    "build_time": _TEXT, "plan_sha256": _TEXT, "plan_bytes": _INT, "workspace_mb": _INT,
    "build_seconds": _NUMBER, "model_metadata": (dict,), "format_version": _INT,
}


@dataclass(frozen=True)
class EngineInfo:
    model_sha256: str
    precision: str
    input_name: str
    input_hw: tuple[int, int]
    batch_range: tuple[int, int]
    tensorrt_version: str
    gpu_name: str
    compute_capability: tuple[int, int]
    build_time: str
    plan_sha256: str
    plan_bytes: int
    workspace_mb: int = 0
    build_seconds: float = 0.0
    model_metadata: dict[str, str] = field(default_factory=dict)
    format_version: int = FORMAT_VERSION

    # -- persistence -------------------------------------------------------------------------
    def to_json(self) -> str:
        return json.dumps(asdict(self), indent=2, sort_keys=True) + "\n"

    def write(self, folder: Path) -> Path:
        path = Path(folder) / SIDECAR_NAME
        path.write_text(self.to_json(), encoding="utf-8")
        return path

    @classmethod
    def from_json(cls, text: str, source: str = SIDECAR_NAME) -> EngineInfo:
        try:
            raw = json.loads(text)
        except json.JSONDecodeError as exc:
            raise EngineFileError("the engine's model_info.json is not valid JSON", expected="a JSON object",
                                  found=f"{source}: {exc.msg} at line {exc.lineno}", hint=REBUILD_HINT) from exc
        if not isinstance(raw, dict):
            raise EngineFileError("the engine's model_info.json is not an object", expected="a JSON object",
                                  found=f"{source}: {type(raw).__name__}", hint=REBUILD_HINT)
        required = [f.name for f in fields(cls) if f.default is MISSING and f.default_factory is MISSING]
        missing = [name for name in required if name not in raw]
        if missing:
            raise EngineFileError("the engine's model_info.json is incomplete", expected=", ".join(required),
                                  found=f"{source} lacks {', '.join(missing)}", hint=REBUILD_HINT)
        known = {k: v for k, v in raw.items() if k in cls.__dataclass_fields__}
        wrong = sorted(name for name, value in known.items() if name in _SCALAR_TYPES
                       and (not isinstance(value, _SCALAR_TYPES[name]) or isinstance(value, bool)))
        if wrong:
            raise EngineFileError("the engine's model_info.json has fields of the wrong type",
                                  expected=", ".join(f"{n}: {'/'.join(t.__name__ for t in _SCALAR_TYPES[n])}"
                                                     for n in wrong),
                                  found=f"{source}: " + "; ".join(f"{n} is {type(known[n]).__name__} {known[n]!r:.40}"
                                                                  for n in wrong), hint=REBUILD_HINT)
        try:
            for name in ("input_hw", "batch_range", "compute_capability"):
                value = known[name]
                if not isinstance(value, (list, tuple)) or len(value) != 2:
                    raise TypeError(f"{name} is {value!r}")
                known[name] = (int(value[0]), int(value[1]))
            return cls(**known)
        except (TypeError, ValueError) as exc:
            raise EngineFileError("the engine's model_info.json has malformed fields",
                                  expected="input_hw/batch_range/compute_capability as pairs of ints",
                                  found=f"{source}: {exc}", hint=REBUILD_HINT) from exc

    @classmethod
    def read(cls, folder: Path) -> EngineInfo:
        path = Path(folder) / SIDECAR_NAME
        try:
            text = path.read_text(encoding="utf-8")
        except OSError as exc:
            raise EngineFileError("the engine has no model_info.json beside it",
                                  expected=f"{path}", found=f"{type(exc).__name__}: {exc.strerror or exc}",
                                  hint="an engine without its sidecar cannot be checked; " + REBUILD_HINT) from exc
        return cls.from_json(text, str(path))

    # -- validation --------------------------------------------------------------------------
    def check_against(self, system: SystemInfo, *, model_sha256: str | None = None,
                      plan_bytes: int | None = None, plan_sha256: str | None = None) -> list[str]:
        """Every way this engine does not fit `system` (and the given model/plan facts); empty when it fits."""
        problems: list[str] = []
        if self.format_version > FORMAT_VERSION:
            problems.append(f"sidecar format {self.format_version} is newer than this station reads "
                            f"({FORMAT_VERSION})")
        if self.tensorrt_version != system.tensorrt_version:
            problems.append(f"TensorRT version: built with {self.tensorrt_version}, "
                            f"this machine runs {system.tensorrt_version}")
        if self.gpu_name != system.gpu_name:
            problems.append(f"GPU: built on {self.gpu_name}, this machine has {system.gpu_name}")
        if tuple(self.compute_capability) != tuple(system.compute_capability):
            problems.append("compute capability: built for {}.{}, this GPU is {}.{}".format(
                *self.compute_capability, *system.compute_capability))
        if model_sha256 is not None and model_sha256 != self.model_sha256:
            problems.append(f"model: built from ONNX {self.model_sha256[:12]}…, "
                            f"the selected model is {model_sha256[:12]}…")
        if plan_bytes is not None and plan_bytes != self.plan_bytes:
            kind = "truncated" if plan_bytes < self.plan_bytes else "longer than recorded"
            problems.append(f"plan file: {plan_bytes} bytes, recorded {self.plan_bytes} ({kind})")
        elif plan_sha256 is not None and plan_sha256 != self.plan_sha256:
            problems.append("plan file: contents differ from the recorded checksum (corrupt or replaced)")
        return problems

    def require(self, system: SystemInfo, **facts: Any) -> None:
        problems = self.check_against(system, **facts)
        if problems:
            raise EngineMismatchError("this engine does not fit this machine and model; refusing to run it",
                                      expected="an engine built here, from this model, with this TensorRT",
                                      found="; ".join(problems), hint=REBUILD_HINT)
