"""A server whose library is asyncio (pymodbus, asyncua) run on its own event loop on its own thread, so the
station, the GUI and the inspection never share a loop with a network peer.

`LoopThreadServer` owns the lifecycle — start (wait until listening, or raise why not), close (stop the
loop's serving coroutine, join the thread), the `with` block — and a subclass fills in `_serve`: build the
server, then `await self._serving()` while it listens, then tear it down.
"""

from __future__ import annotations

import asyncio
import threading

from inference.line.station import LineError, LineStation


class LoopThreadServer:
    link = ""            # the transport's name in the station's links and journal ("modbus", "opcua")
    title = ""           # what the operator reads in an error ("Modbus TCP server")
    start_hint = "is the port in use?"
    start_timeout_s = 10.0
    close_timeout_s = 5.0

    def __init__(self, station: LineStation) -> None:
        self.station = station
        self._loop: asyncio.AbstractEventLoop | None = None
        self._thread: threading.Thread | None = None
        self._ready = threading.Event()
        self._stopping: asyncio.Event | None = None
        self._failure: BaseException | None = None

    @property
    def address(self) -> str:
        raise NotImplementedError

    # -- lifecycle, on the caller's thread -------------------------------------------------------------
    def start(self, timeout: float | None = None) -> LoopThreadServer:
        if self._thread is not None:
            raise LineError(f"the {self.title} was started twice", expected="one start() per server",
                            found="a second start()", hint="use either start() or a with block, not both")
        self._require_library()
        self._thread = threading.Thread(target=self._run, name=f"line-{self.link}", daemon=True)
        self._thread.start()
        if not self._ready.wait(timeout or self.start_timeout_s) or self._failure is not None:
            self._stop_thread()
            raise LineError(f"the {self.title} did not start", expected=f"listening at {self.address}",
                            found=str(self._failure or "no answer in time"), hint=self.start_hint)
        self._on_started()
        return self

    def close(self) -> None:
        self._stop_thread()
        self.station.set_link(self.link, "closed")

    def _stop_thread(self) -> None:
        loop, stopping = self._loop, self._stopping
        if loop is not None and stopping is not None:
            try:
                loop.call_soon_threadsafe(stopping.set)
            except RuntimeError:  # the loop has already closed (a server that failed to start)
                pass
        if self._thread is not None and self._thread is not threading.current_thread():
            self._thread.join(self.close_timeout_s)

    def __enter__(self) -> LoopThreadServer:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _require_library(self) -> None:
        """Raise a LineError naming a missing package here, on the caller's thread."""

    def _on_started(self) -> None:
        self.station.set_link(self.link, f"listening at {self.address}")

    # -- the server's own thread -----------------------------------------------------------------------
    def _run(self) -> None:
        loop = asyncio.new_event_loop()
        self._loop = loop
        try:
            loop.run_until_complete(self._main())
        except BaseException as exc:  # reported by start()
            self._failure = exc
            self._ready.set()
        finally:
            loop.close()

    async def _main(self) -> None:
        self._stopping = asyncio.Event()
        await self._serve()

    async def _serve(self) -> None:
        raise NotImplementedError

    async def _serving(self) -> None:
        """Called by `_serve` once the server listens: start() returns, and this waits for close()."""
        self._ready.set()
        await self._stopping.wait()
