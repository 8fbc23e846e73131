"""Device-memory pressure: when the GPU fills up (another process, a leak elsewhere), the station steps down
before an allocation fails, and steps back when the memory is free again.

    policy = PressurePolicy(PressureSettings(high_share=0.90))
    change = policy.observe(reading, now)   # a Level to switch to, or None

Levels, lightest last: NORMAL (as opened), SHRUNK (batch 1, no CUDA graph: the pipeline's pools and the
graph's memory given back), LIGHT (SHRUNK on a lighter model variant, FP16). Above `high_share` of the
device's memory the first step is taken at once; if the share is still above it `escalate_after_s` later,
the next. Back one step at a time only after the share has stayed below `low_share` for `calm_s` (the
hysteresis: the band between the two shares, and the wait, keep a station near the line from flapping).

The policy is plain logic over readings (no CUDA, no NVML, no clock of its own), so its state machine is
tested with readings fed to it; `NvmlMemory` gives the real readings.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import IntEnum

from inference.errors import ConfigError


class Level(IntEnum):
    NORMAL = 0
    SHRUNK = 1
    LIGHT = 2
    CPU = 3  # only when no GPU variant could be opened (an allocation failed): the detector on the CPU


LEVEL_TEXT = {Level.NORMAL: "normal", Level.SHRUNK: "pools and batch shrunk", Level.LIGHT: "lighter model (FP16)",
              Level.CPU: "detector on the CPU"}


@dataclass(frozen=True)
class PressureSettings:
    high_share: float = 0.90  # at or above this share of the device's memory: step down
    low_share: float = 0.80  # below this for calm_s: step back up
    escalate_after_s: float = 0.5  # still at or above high_share this long after a step: the next step
    calm_s: float = 3.0
    poll_s: float = 0.1  # the guard reads the device at most this often (per frame otherwise)

    def __post_init__(self) -> None:
        if not 0.0 < self.low_share < self.high_share <= 1.0:
            raise ConfigError("memory-pressure shares out of order", expected="0 < low share < high share ≤ 1",
                              found=f"low {self.low_share}, high {self.high_share}",
                              hint="e.g. high 0.90 (degrade), low 0.80 (return)")
        for name, value in (("escalate_after_s", self.escalate_after_s), ("calm_s", self.calm_s),
                            ("poll_s", self.poll_s)):
            if value < 0:
                raise ConfigError(f"memory-pressure {name} negative", expected="≥ 0 s", found=f"{value} s")

    @classmethod
    def from_environment(cls, environ: dict[str, str] | None = None) -> PressureSettings:
        """HANGTAG_GPU_PRESSURE_SHARE (e.g. 0.9) and HANGTAG_GPU_PRESSURE_LOW (e.g. 0.8) override the shares."""
        import os

        env = os.environ if environ is None else environ
        high = _share(env, "HANGTAG_GPU_PRESSURE_SHARE", cls.high_share)
        low = _share(env, "HANGTAG_GPU_PRESSURE_LOW", min(cls.low_share, round(high - 0.1, 4)))
        return cls(high_share=high, low_share=low)


def _share(env, name: str, default: float) -> float:
    text = env.get(name, "").strip()
    if not text:
        return default
    try:
        return float(text)
    except ValueError:
        raise ConfigError(f"{name} is not a number", expected="a share of the device memory, e.g. 0.9",
                          found=text) from None


@dataclass(frozen=True)
class MemoryReading:
    used_bytes: int
    total_bytes: int

    @property
    def share(self) -> float:
        return self.used_bytes / self.total_bytes if self.total_bytes > 0 else 0.0

    def text(self) -> str:
        return f"{self.used_bytes / 2**30:.1f} of {self.total_bytes / 2**30:.1f} GiB ({self.share:.0%})"


@dataclass(frozen=True)
class PressureEvent:
    """One change of level: what the operator is told, and the journal's event."""

    at: float  # wall clock
    before: Level
    after: Level
    reading: MemoryReading | None
    cause: str  # "pressure", "calm", "allocation failed", "variant unavailable"
    switch_ms: float = 0.0  # closing the old variant and opening the new

    journal_kind = "gpu_memory"

    @property
    def degraded(self) -> bool:
        return self.after > self.before

    @property
    def text(self) -> str:
        memory = f" — device memory {self.reading.text()}" if self.reading is not None else ""
        if self.degraded:
            return (f"GPU memory pressure: detector degraded to {LEVEL_TEXT[self.after]} ({self.cause}){memory}; "
                    f"results stay valid, frames may be slower")
        if self.after == Level.NORMAL:
            return f"GPU memory pressure over: detector back to normal{memory}"
        return f"GPU memory pressure easing: detector back to {LEVEL_TEXT[self.after]}{memory}"


class PressurePolicy:
    """The state machine: readings in, the level to run at out. Not thread-safe (one guard calls it)."""

    def __init__(self, settings: PressureSettings | None = None, *, max_level: Level = Level.LIGHT) -> None:
        self.settings = settings or PressureSettings()
        self.max_level = Level(max_level)
        self.level = Level.NORMAL
        self._changed_at: float | None = None
        self._calm_since: float | None = None
        self.over_since: float | None = None  # when the share first went over high_share (for time-to-degrade)

    def observe(self, reading: MemoryReading, now: float) -> Level | None:
        """The level to switch to after this reading, or None to stay."""
        s, share = self.settings, reading.share
        if share >= s.high_share:
            self._calm_since = None
            if self.over_since is None:
                self.over_since = now
            if self.level >= self.max_level:
                return None
            waited = self._changed_at is None or now - self._changed_at >= s.escalate_after_s
            if self.level == Level.NORMAL or waited:
                return self._go(Level(self.level + 1), now)
            return None
        self.over_since = None
        if share >= s.low_share or self.level == Level.NORMAL:
            self._calm_since = None
            return None
        if self._calm_since is None:
            self._calm_since = now
        since_change = now - (self._changed_at if self._changed_at is not None else now)
        if now - self._calm_since >= s.calm_s and since_change >= s.calm_s:
            self._calm_since = now  # the next step back waits for calm again
            return self._go(Level(self.level - 1), now)
        return None

    def forced(self, level: Level, now: float) -> None:
        """The guard ran at another level than asked (an allocation failed, a variant was missing)."""
        self._go(level, now)

    def limit(self, max_level: Level) -> None:
        """No variant beyond this one exists (e.g. no FP16 model): escalation stops there."""
        self.max_level = Level(max_level)

    def _go(self, level: Level, now: float) -> Level:
        self.level = level
        self._changed_at = now
        return level


class NvmlMemory:
    """The device's used and total memory, all processes together: NVML where it answers (what nvidia-smi
    shows), else cudaMemGetInfo (the same device-wide figure, from the CUDA runtime)."""

    def __init__(self, device_id: int = 0) -> None:
        from inference.telemetry import _nvml

        self.device_id = device_id
        self._nvml = _nvml()
        self._handle = self._nvml.nvmlDeviceGetHandleByIndex(device_id) if self._nvml is not None else None
        self.source = "NVML" if self._handle is not None else "cudaMemGetInfo"

    def __call__(self) -> MemoryReading:
        if self._handle is not None:
            info = self._nvml.nvmlDeviceGetMemoryInfo(self._handle)
            return MemoryReading(int(info.used), int(info.total))
        from inference.gpu.cuda import check, make_current, runtime

        make_current(self.device_id)
        free, total = check(runtime().cudaMemGetInfo(), "cudaMemGetInfo")
        return MemoryReading(int(total) - int(free), int(total))
