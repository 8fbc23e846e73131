"""Aravis's fake GigE Vision camera, served on loopback by a child process: what the tests and the camera
benchmark acquire from, and a way to try the station's GigE path without a camera. A child process, so that
killing and restarting it is a camera unplugged and plugged back in."""

from __future__ import annotations

import subprocess
import sys
import time

from inference.errors import BackendUnavailableError, SourceError

_SERVE = """
import sys, gi
gi.require_version("Aravis", "0.8")
from gi.repository import Aravis, GLib
camera = Aravis.GvFakeCamera.new(sys.argv[1], sys.argv[2])
if not camera.is_running():
    sys.exit("the fake camera could not serve on " + sys.argv[1])
print("serving", flush=True)
GLib.MainLoop().run()
"""


class FakeGigECamera:
    """`with FakeGigECamera("GV01") as camera:` → a GigE Vision camera at 127.0.0.1 with that serial."""

    address = "127.0.0.1"

    def __init__(self, serial: str = "GV01", interface: str = "lo") -> None:
        self.serial = serial
        self.interface = interface
        self.process: subprocess.Popen | None = None

    def start(self, timeout_s: float = 10.0) -> FakeGigECamera:
        from inference.cameras.aravis import _aravis, gvcp_discover

        _aravis()  # says what to install, in the parent, before a child fails obscurely
        if gvcp_discover(self.address) is not None:
            raise SourceError("another GigE Vision camera already answers on loopback", found=self.address,
                              hint="stop the other fake camera first: they share UDP port 3956")
        self.process = subprocess.Popen([sys.executable, "-c", _SERVE, self.interface, self.serial],
                                        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise BackendUnavailableError("the fake GigE Vision camera did not start",
                                              found=(self.process.stderr.read() or "").strip()[-300:])
            if gvcp_discover(self.address) is not None:
                return self
            time.sleep(0.05)
        self.stop()
        raise BackendUnavailableError("the fake GigE Vision camera did not answer", found=f"{timeout_s} s")

    def stop(self) -> None:
        """Kills it outright, as pulling the cable would."""
        process, self.process = self.process, None
        if process is not None and process.poll() is None:
            process.kill()
            process.wait(timeout=10)
        if process is not None:
            for pipe in (process.stdout, process.stderr):
                if pipe is not None:
                    pipe.close()

    def __enter__(self) -> FakeGigECamera:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()
