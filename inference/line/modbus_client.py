"""The station as a Modbus TCP client of the PLC, for lines where the PLC is the server: the station polls
the PLC's command registers and writes its status into the PLC's registers.

In the PLC's holding registers (0-based; bases configurable):
    command_base + 0   control word the PLC writes: bit 0 Trigger, bit 1 Results Ack, bit 2 Reset error
    command_base + 1   job request: when it changes to n >= 1 the station loads job n
    command_base + 2,3 lot number, 32-bit high word first: applied when it changes
    status_base + 0..12  the station writes the same 13 words as its server's input registers 0..12

The poll runs on its own thread (every `poll_s`, and at once when the station changes); a dead or
restarting PLC costs reconnect attempts with backoff on that thread, never the station's time.
"""

from __future__ import annotations

import threading

from inference.line.breaker import CircuitBreaker
from inference.line.handshake import Ack, Code, Reset, SelectJob, SetLot, Trigger
from inference.line.modbus import INPUTS, input_registers
from inference.line.station import Change, LineStation

COMMAND_WORDS = 4


class ModbusClientLink:
    def __init__(self, station: LineStation, host: str, port: int = 502, *, command_base: int = 0,
                 status_base: int = 100, device_id: int = 1, poll_s: float = 0.005, timeout_s: float = 1.0) -> None:
        self.station = station
        self.host = host
        self.port = port
        self.command_base = command_base
        self.status_base = status_base
        self.device_id = device_id
        self.poll_s = poll_s
        self.timeout_s = timeout_s
        self.breaker = CircuitBreaker(failures=1, cooldown_s=0.5)
        self.connected = threading.Event()
        self.connects = 0
        self._client = None
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._last_command: list[int] | None = None
        self._last_status: list[int] | None = None
        self._thread = threading.Thread(target=self._run, name="line-modbus-client", daemon=True)

    def start(self) -> ModbusClientLink:
        self.station.subscribe("modbus-client", self._on_change)
        self.station.set_link("modbus-client", f"connecting to PLC {self.host}:{self.port}")
        self._thread.start()
        return self

    def close(self) -> None:
        self._stop.set()
        self._wake.set()
        self._thread.join(5.0)
        if self._client is not None:
            self._client.close()
        self.station.set_link("modbus-client", "closed")

    def __enter__(self) -> ModbusClientLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    def _on_change(self, change: Change) -> None:
        self._wake.set()

    # -- poll thread -----------------------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            self._wake.wait(self.poll_s)
            self._wake.clear()
            if not self.breaker.allow():
                continue
            try:
                self._exchange()
            except Exception as exc:  # the PLC is gone or refused: back off, keep the station running
                self._lost(exc)
            else:
                self.breaker.success()
                self.breaker.cooldown_s = 0.5

    def _connect(self):
        from pymodbus.client import ModbusTcpClient

        if self._client is None:
            self._client = ModbusTcpClient(self.host, port=self.port, timeout=self.timeout_s, retries=0)
        if not self._client.connected and not self._client.connect():
            raise ConnectionError(f"PLC {self.host}:{self.port} does not answer")
        if not self.connected.is_set():
            self.connects += 1
            self._last_status = None  # a restarted PLC lost what we wrote: write it all again
            self._last_command = None
            self.connected.set()
            self.station.set_link("modbus-client", f"connected to PLC {self.host}:{self.port}")
        return self._client

    def _exchange(self) -> None:
        client = self._connect()
        reply = client.read_holding_registers(self.command_base, count=COMMAND_WORDS, device_id=self.device_id)
        if reply.isError():
            raise ConnectionError(f"PLC refused reading holding registers {self.command_base}.."
                                  f"{self.command_base + COMMAND_WORDS - 1}: {reply}")
        self._apply_commands(list(reply.registers))
        status = input_registers(self.station.signals())
        if status != self._last_status:
            written = client.write_registers(self.status_base, status, device_id=self.device_id)
            if written.isError():
                raise ConnectionError(f"PLC refused writing holding registers {self.status_base}.."
                                      f"{self.status_base + INPUTS - 1}: {written}")
            self._last_status = status

    def _apply_commands(self, words: list[int]) -> None:
        before = self._last_command or [0, words[1], words[2], words[3]]
        control, job, lot_high, lot_low = words
        if control != before[0]:
            for bit, kind in ((0, Trigger), (1, Ack), (2, Reset)):
                self.station.submit(kind(bool(control >> bit & 1)))
        if job != before[1] and job >= 1:
            self.station.submit(SelectJob(job))
        if (lot_high, lot_low) != (before[2], before[3]):
            self.station.submit(SetLot(str(lot_high << 16 | lot_low)))
        self._last_command = words

    def _lost(self, exc: Exception) -> None:
        self.breaker.failure()
        self.breaker.cooldown_s = min(5.0, max(0.5, self.breaker.cooldown_s * 2))  # backoff up to 5 s
        was_connected = self.connected.is_set()
        self.connected.clear()
        if self._client is not None:
            self._client.close()
        # the code once per loss (the first write after reconnecting carries it to the PLC), not per retry
        self.station.set_link("modbus-client", f"PLC {self.host}:{self.port} lost ({exc}); retrying",
                              lost=Code.PLC_DISCONNECTED if was_connected else None)
