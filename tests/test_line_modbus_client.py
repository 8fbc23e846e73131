"""The station as a Modbus client of the PLC: a real pymodbus server stands in for the PLC's memory, and a
second real client plays the PLC program writing its command word and reading the station's status."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest

pytest.importorskip("pymodbus", reason="pymodbus is not installed (pip install -e .)")

from pymodbus.client import ModbusTcpClient  # noqa: E402

from inference.line import modbus as mb  # noqa: E402
from inference.line.handshake import Ack, Code, Config, Trigger, Verdict  # noqa: E402
from inference.line.modbus_client import ModbusClientLink  # noqa: E402
from inference.line.station import LineStation, Outcome  # noqa: E402

STATUS = 100


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PlcMemory:
    """A plain pymodbus TCP server with 128 holding registers: the PLC's memory."""

    def __init__(self, port: int) -> None:
        self.port = port
        self._loop: asyncio.AbstractEventLoop | None = None
        self._server = None
        self._thread: threading.Thread | None = None

    def start(self) -> PlcMemory:
        ready = threading.Event()

        async def serve():
            from pymodbus.server import ModbusTcpServer
            from pymodbus.simulator import SimData, SimDevice
            from pymodbus.simulator.simutils import DataType

            device = SimDevice(id=0, simdata=[SimData(0, count=128, values=0, datatype=DataType.REGISTERS)])
            self._server = ModbusTcpServer(device, address=("127.0.0.1", self.port))
            await self._server.serve_forever(background=True)
            ready.set()
            await self._server.serving

        def run():
            self._loop = asyncio.new_event_loop()
            self._loop.run_until_complete(serve())
            self._loop.close()

        self._thread = threading.Thread(target=run, daemon=True)
        self._thread.start()
        assert ready.wait(10), "PLC memory server did not start"
        return self

    def stop(self) -> None:
        asyncio.run_coroutine_threadsafe(self._server.shutdown(), self._loop).result(5)
        self._thread.join(5)


class PlcProgram:
    def __init__(self, port: int) -> None:
        self.client = ModbusTcpClient("127.0.0.1", port=port, timeout=3)
        assert self.client.connect()

    def control(self, trigger=False, ack=False, reset=False) -> None:
        assert not self.client.write_register(0, trigger | ack << 1 | reset << 2).isError()

    def status(self) -> list[int]:
        return self.client.read_holding_registers(STATUS, count=mb.INPUTS).registers

    def wait_status(self, predicate, timeout: float = 5.0) -> list[int]:
        deadline = time.monotonic() + timeout
        while True:
            regs = self.status()
            if predicate(regs):
                return regs
            assert time.monotonic() < deadline, f"status not reached in {timeout} s: {regs}"
            time.sleep(0.002)

    def close(self) -> None:
        self.client.close()


def stub(start) -> Outcome:
    return Outcome(Verdict.NG if start.trigger_id % 2 else Verdict.OK)


def wait_until(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


def test_triggers_from_the_plcs_memory_are_answered_in_its_memory():
    port = free_port()
    memory = PlcMemory(port).start()
    try:
        with LineStation(stub, config=Config(ack_timeout_s=5)).start(job=(1, "polo")) as st, \
                ModbusClientLink(st, "127.0.0.1", port, status_base=STATUS, device_id=0) as link:
            plc = PlcProgram(port)
            try:
                assert link.connected.wait(5)
                answers = []
                for n in range(1, 51):
                    plc.wait_status(lambda r: r[mb.IR_STATUS] & 1 and not r[mb.IR_STATUS] & 4)
                    plc.control(trigger=True)
                    regs = plc.wait_status(lambda r: r[mb.IR_STATUS] & 4 and r[mb.IR_RESULT_ID] == n)
                    answers.append((regs[mb.IR_RESULT_ID], regs[mb.IR_VERDICT]))
                    plc.control(ack=True)
                    plc.wait_status(lambda r: not r[mb.IR_STATUS] & 4)
                    plc.control()
                assert plc.client.write_registers(2, [0, 4711]).isError() is False
                wait_until(lambda: st.signals().lot == "4711")
            finally:
                plc.close()
    finally:
        memory.stop()
    assert answers == [(n, int(Verdict.NG if n % 2 else Verdict.OK)) for n in range(1, 51)]


def test_a_dead_plc_never_blocks_the_station_and_a_restarted_one_is_rewritten():
    port = free_port()
    memory = PlcMemory(port).start()
    with LineStation(stub, config=Config(ack_timeout_s=5)).start(job=(1, "polo")) as st, \
            ModbusClientLink(st, "127.0.0.1", port, status_base=STATUS, device_id=0) as link:
        assert link.connected.wait(5)
        memory.stop()  # the PLC goes away
        wait_until(lambda: not link.connected.is_set())
        assert "retrying" in st.links["modbus-client"]
        answered = []
        for n in range(1, 4):  # the station still inspects (triggered another way) without waiting on the PLC
            st.pulse(Trigger)
            wait_until(lambda: st.signals().result_trigger_id == n)
            answered.append((st.signals().result_trigger_id, st.signals().verdict))
            st.pulse(Ack)
        # every trigger was answered while the PLC was still away: none waited for it to come back
        assert answered == [(n, Verdict.NG if n % 2 else Verdict.OK) for n in range(1, 4)]
        assert not link.connected.is_set() and link.connects == 1
        assert st.signals().result_counter == 3
        memory = PlcMemory(port).start()  # back, with empty memory
        try:
            assert link.connected.wait(10) and link.connects == 2
            plc = PlcProgram(port)
            try:
                regs = plc.wait_status(lambda r: r[mb.IR_RESULT_COUNT] == 3)
                lost = sum(e.event == "LinkLost" for e in st.log)
            finally:
                plc.close()
        finally:
            memory.stop()
    assert regs[mb.IR_STATE] == 2 and regs[mb.IR_TRIGGER_ID] == 3
    assert regs[mb.IR_CODE] == Code.PLC_DISCONNECTED  # the restarted PLC reads that it had been cut off
    assert lost == 1  # once per loss, not once per retry
