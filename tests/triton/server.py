"""Start and stop real `tritonserver` processes on loopback for the tests and the benchmark.

setup_triton.sh prepares the binary (from the nvidia-pytriton wheel) under .cache/triton/; this
module runs it on free ports with the library path the wheel's binary needs and the site-packages
its Python-backend stub needs (see setup_triton.sh for why PYTHONPATH does not reach the stub).
"""

from __future__ import annotations

import os
import shutil
import signal
import socket
import subprocess
import sys
import sysconfig
import tempfile
import time
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
SETUP = HERE / "setup_triton.sh"
TEST_REPOSITORY = HERE / "model_repository"
OCR_REPOSITORY = HERE / "ocr_repository"  # ocr_det / ocr_rec from HANGTAG_TRITON_OCR_DET / _REC
DETECTOR = ROOT / "resources" / "models" / "hangtag_det.onnx"


class TritonUnavailable(RuntimeError):
    """The wheel could not be fetched or the server would not start: tests skip with this reason."""


def prepare(timeout_s: float = 300.0) -> Path:
    """Run setup_triton.sh (cached after the first time) and return the prepared folder."""
    if not sys.platform.startswith("linux"):
        raise TritonUnavailable("the pytriton wheel's tritonserver runs on Linux x86-64 only")
    try:
        done = subprocess.run(["bash", str(SETUP)], capture_output=True, text=True, timeout=timeout_s,
                              env={**os.environ, "PYTHON": sys.executable})
    except subprocess.TimeoutExpired as exc:
        raise TritonUnavailable(f"setup_triton.sh took over {timeout_s:.0f} s") from exc
    if done.returncode != 0:
        tail = "\n".join(done.stderr.strip().splitlines()[-3:])
        raise TritonUnavailable(f"setup_triton.sh failed (nvidia-pytriton wheel not fetched?): {tail}")
    return Path(done.stdout.strip().splitlines()[-1])


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@dataclass
class TritonServer:
    """One tritonserver process serving `repository`; `delay_ms` makes every batch that much slower."""

    prepared: Path
    repository: Path = TEST_REPOSITORY
    delay_ms: float = 0.0
    threads: int = 1
    http_port: int = field(default_factory=free_port)
    grpc_port: int = field(default_factory=free_port)
    metrics_port: int = field(default_factory=free_port)
    process: subprocess.Popen | None = None
    log_path: Path | None = None
    extra_env: dict[str, str] = field(default_factory=dict)  # e.g. the OCR models' paths for OCR_REPOSITORY
    also: tuple[Path, ...] = ()  # more repositories served beside `repository` (the detector and the OCR pair)

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.http_port}"

    @property
    def grpc_url(self) -> str:
        return f"grpc://127.0.0.1:{self.grpc_port}"

    def environment(self) -> dict[str, str]:
        libs = self.prepared / "wheel" / "nvidia_pytriton.libs"
        python_lib = sysconfig.get_config_var("LIBDIR") or ""
        stub_venv = self.prepared / "stub-venv"
        site = os.pathsep.join(str(p) for p in sorted(stub_venv.glob("lib/python3*/site-packages")))
        return {**os.environ,
                "LD_LIBRARY_PATH": os.pathsep.join(p for p in (str(libs), python_lib, os.environ.get("LD_LIBRARY_PATH", "")) if p),
                "HANGTAG_TRITON_SITE": site,
                "HANGTAG_TRITON_ONNX": str(DETECTOR),
                "HANGTAG_TRITON_DELAY_MS": str(self.delay_ms),
                "HANGTAG_TRITON_THREADS": str(self.threads), **self.extra_env}

    def start(self, timeout_s: float = 60.0) -> TritonServer:
        binary = self.prepared / "wheel" / "pytriton" / "tritonserver" / "bin" / "tritonserver"
        fd, log = tempfile.mkstemp(prefix="tritonserver-", suffix=".log")
        self.log_path = Path(log)
        with os.fdopen(fd, "w") as log_file:
            self.process = subprocess.Popen(
                [str(binary), *(f"--model-repository={r}" for r in (self.repository, *self.also)),
                 f"--backend-directory={self.prepared / 'backends'}",
                 "--http-address=127.0.0.1", "--grpc-address=127.0.0.1", "--metrics-address=127.0.0.1",
                 f"--http-port={self.http_port}", f"--grpc-port={self.grpc_port}", f"--metrics-port={self.metrics_port}",
                 "--allow-metrics=false", "--exit-timeout-secs=2", "--log-verbose=0"],
                stdout=log_file, stderr=subprocess.STDOUT, env=self.environment(), start_new_session=True)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise TritonUnavailable(f"tritonserver exited with {self.process.returncode}: {self.log_tail()}")
            if self.ready():
                return self
            time.sleep(0.2)
        self.stop()
        raise TritonUnavailable(f"tritonserver not ready after {timeout_s:.0f} s: {self.log_tail()}")

    def ready(self) -> bool:
        try:
            with urllib.request.urlopen(f"{self.url}/v2/health/ready", timeout=1.0) as response:
                return response.status == 200
        except OSError:
            return False

    def log_tail(self, lines: int = 5) -> str:
        if self.log_path is None or not self.log_path.exists():
            return ""
        log = self.log_path.read_text(errors="replace").strip().splitlines()
        errors = [line[:300] for line in log if line.startswith("E")]  # Triton's error lines say why
        return " | ".join(errors[-lines:] + log[-2:])

    def kill(self) -> None:
        """Die at once, as a crashed server does: no draining of in-flight requests."""
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait(timeout=10)

    def freeze(self) -> None:
        """Hang, as a wedged server does: connections are accepted, nothing answers."""
        os.killpg(self.process.pid, signal.SIGSTOP)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            os.killpg(self.process.pid, signal.SIGCONT)  # a frozen server cannot act on SIGTERM
            os.killpg(self.process.pid, signal.SIGTERM)
            try:
                self.process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.kill()
        if self.log_path is not None:
            self.log_path.unlink(missing_ok=True)

    def __enter__(self) -> TritonServer:
        return self if self.process is not None and self.process.poll() is None else self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()


def ocr_environment(models) -> dict[str, str]:
    """What OCR_REPOSITORY's models read to find the ONNX files they serve (an OcrModels pair)."""
    return {"HANGTAG_TRITON_OCR_DET": str(models.det), "HANGTAG_TRITON_OCR_REC": str(models.rec)}


def repository_copy(dest: Path, *, max_queue_size: int | None = None, delay_us: int | None = None,
                    max_batch: int | None = None) -> Path:
    """A copy of the test repository with other batching knobs (for the queue-full test)."""
    target = dest / "model_repository"
    shutil.copytree(TEST_REPOSITORY, target, dirs_exist_ok=True)
    config = target / "hangtag_det" / "config.pbtxt"
    text = config.read_text()
    if max_queue_size is not None:
        text = text.replace("max_queue_size: 8", f"max_queue_size: {max_queue_size}")
    if delay_us is not None:
        text = text.replace("max_queue_delay_microseconds: 20000", f"max_queue_delay_microseconds: {delay_us}")
    if max_batch is not None:
        text = text.replace("max_batch_size: 8", f"max_batch_size: {max_batch}")
        text = text.replace("  preferred_batch_size: [ 4, 8 ]\n", "")
    config.write_text(text)
    return target


# -- for the tests: a server that cannot be had here is a skip with its reason, never a failure ----------------
def prepared_or_skip() -> Path:
    import pytest

    try:
        return prepare()
    except TritonUnavailable as exc:
        pytest.skip(f"no real tritonserver here: {exc}")


def started_or_skip(prepared: Path, **options) -> TritonServer:
    """A running server, or a skip saying why it would not start here (e.g. no shared libpython)."""
    import pytest

    try:
        return TritonServer(prepared, **options).start()
    except TritonUnavailable as exc:
        pytest.skip(f"tritonserver would not start here: {exc}")
