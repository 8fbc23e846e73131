"""The station's Modbus TCP server against a real pymodbus client playing the PLC (loopback only)."""

from __future__ import annotations

import socket
import threading
import time

import pytest

pytest.importorskip("pymodbus", reason="pymodbus is not installed (pip install -e .)")

from pymodbus.client import ModbusTcpClient  # noqa: E402

from inference.line import modbus as mb  # noqa: E402
from inference.line.handshake import Code, Config, Verdict  # noqa: E402
from inference.line.station import JobNotFound, LineStation, Outcome  # noqa: E402


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def verdict_for(trigger_id: int) -> Verdict:
    return (Verdict.OK, Verdict.NG, Verdict.REVIEW)[trigger_id % 3]


def stub_inspect(start) -> Outcome:
    return Outcome(verdict_for(start.trigger_id), (("trigger", str(start.trigger_id)),))


def load_job(index: int) -> str:
    if index not in (1, 2):
        raise JobNotFound(f"no recipe with job index {index}")
    return f"job{index}"


def wait_for(read, predicate, timeout: float = 5.0):
    deadline = time.monotonic() + timeout
    while True:
        value = read()
        if predicate(value):
            return value
        if time.monotonic() > deadline:
            raise AssertionError(f"condition not reached within {timeout} s; last value {value!r}")
        time.sleep(0.0005)


class Plc:
    """The PLC's side of the map, in raw pymodbus calls."""

    def __init__(self, port: int) -> None:
        self.client = ModbusTcpClient("127.0.0.1", port=port, timeout=3)
        assert self.client.connect()

    def inputs(self) -> list[int]:
        reply = self.client.read_input_registers(0, count=mb.INPUTS)
        assert not reply.isError(), reply
        return reply.registers

    def coil(self, address: int, value: bool) -> None:
        assert not self.client.write_coil(address, value).isError()

    def wait_inputs(self, predicate, timeout: float = 5.0) -> list[int]:
        return wait_for(self.inputs, predicate, timeout)

    def close(self) -> None:
        self.client.close()


def station(**kw) -> LineStation:
    return LineStation(stub_inspect, load_job=load_job, config=Config(queue_depth=2, ack_timeout_s=kw.pop("ack", 5.0)),
                       **kw).start(job=(1, "job1"))


def ready_bit(regs) -> bool:
    return bool(regs[mb.IR_STATUS] & 1)


def results_ready(regs) -> bool:
    return bool(regs[mb.IR_STATUS] & 4)


def test_a_thousand_triggers_each_answered_with_its_own_id():
    port = free_port()
    with station() as st, mb.ModbusServer(st, "127.0.0.1", port):
        plc = Plc(port)
        try:
            answers = []
            for n in range(1, 1001):
                plc.wait_inputs(ready_bit)
                plc.coil(mb.COIL_TRIGGER, True)
                regs = plc.wait_inputs(lambda r: results_ready(r) and r[mb.IR_RESULT_ID] == n)
                answers.append((regs[mb.IR_RESULT_ID], regs[mb.IR_VERDICT]))
                plc.coil(mb.COIL_TRIGGER, False)
                if n % 2:
                    plc.coil(mb.COIL_ACK, True)
                    plc.coil(mb.COIL_ACK, False)
                else:
                    assert not plc.client.write_register(mb.HR_ACK_ID, n).isError()
                plc.wait_inputs(lambda r: not results_ready(r))
            regs = plc.inputs()
        finally:
            plc.close()
    assert answers == [(n, int(verdict_for(n))) for n in range(1, 1001)]
    assert regs[mb.IR_RESULT_COUNT] == 1000 and (regs[mb.IR_COUNTER_HIGH] << 16 | regs[mb.IR_COUNTER_LOW]) == 1000
    assert regs[mb.IR_MISSED] == 0 and regs[mb.IR_CODE] == 0 and regs[mb.IR_STATE] == 2


def test_discrete_inputs_and_the_holding_register_mirror_match_the_input_registers():
    port = free_port()
    with station() as st, mb.ModbusServer(st, "127.0.0.1", port):
        plc = Plc(port)
        try:
            plc.coil(mb.COIL_TRIGGER, True)
            regs = plc.wait_inputs(results_ready)
            bits = plc.client.read_discrete_inputs(0, count=8).bits[:8]
            mirror = plc.client.read_holding_registers(mb.MIRROR_BASE, count=mb.INPUTS).registers
        finally:
            plc.close()
    assert bits[:3] == [True, False, True]  # Ready, not Busy, Results Ready
    assert bits[4] is True and regs[mb.IR_VERDICT] == int(Verdict.NG)  # trigger 1 -> NG
    assert mirror[mb.IR_RESULT_ID] == regs[mb.IR_RESULT_ID] == 1


def test_job_select_lot_and_missing_recipe():
    port = free_port()
    with station() as st, mb.ModbusServer(st, "127.0.0.1", port):
        plc = Plc(port)
        try:
            assert not plc.client.write_registers(mb.HR_LOT_HIGH, [1, 2]).isError()
            assert not plc.client.write_register(mb.HR_JOB, 2).isError()
            regs = plc.wait_inputs(lambda r: r[mb.IR_JOB] == 2 and ready_bit(r))
            assert st.signals().lot == str((1 << 16) | 2) and st.signals().job_name == "job2"
            assert not plc.client.write_register(mb.HR_JOB, 7).isError()
            regs = plc.wait_inputs(lambda r: r[mb.IR_STATE] == 5)
            assert regs[mb.IR_CODE] == Code.RECIPE_NOT_FOUND and regs[mb.IR_JOB] == 2  # old job kept
            assert regs[mb.IR_STATUS] & (1 << 6)  # Error bit
            plc.coil(mb.COIL_RESET, True)
            regs = plc.wait_inputs(ready_bit)
            assert regs[mb.IR_CODE] == 0 and regs[mb.IR_JOB] == 2
        finally:
            plc.close()


@pytest.mark.parametrize("write,what", [
    (lambda c: c.write_coil(9, True), "coil"),
    (lambda c: c.write_register(mb.MIRROR_BASE + 2, 1), "holding register"),
])
def test_malformed_writes_are_refused_and_latch_a_fault(write, what):
    port = free_port()
    with station() as st, mb.ModbusServer(st, "127.0.0.1", port):
        plc = Plc(port)
        try:
            reply = write(plc.client)
            regs = plc.inputs()
        finally:
            plc.close()
        assert reply.isError()
        assert regs[mb.IR_STATE] == 5 and regs[mb.IR_CODE] == Code.MALFORMED_WRITE
        assert what in st.log[-1].detail or any(what in e.detail for e in st.log)


def test_unmapped_register_answers_illegal_address():
    port = free_port()
    with station() as st, mb.ModbusServer(st, "127.0.0.1", port):
        plc = Plc(port)
        try:
            reply = plc.client.read_holding_registers(50, count=1)
        finally:
            plc.close()
    assert reply.isError() and reply.exception_code == 2


def test_plc_disconnect_mid_cycle_loses_nothing():
    port = free_port()
    release = threading.Event()

    def slow(start):
        release.wait(5)
        return stub_inspect(start)

    st = LineStation(slow, config=Config(ack_timeout_s=5.0)).start(job=(1, "job1"))
    with st, mb.ModbusServer(st, "127.0.0.1", port):
        plc = Plc(port)
        plc.coil(mb.COIL_TRIGGER, True)
        plc.wait_inputs(lambda r: r[mb.IR_STATUS] & 2)  # Busy
        plc.close()  # the PLC drops off mid-cycle
        release.set()
        wait_for(st.signals, lambda s: s.results_ready)
        plc = Plc(port)  # and comes back
        try:
            regs = plc.wait_inputs(results_ready)
            plc.coil(mb.COIL_TRIGGER, False)
            assert regs[mb.IR_RESULT_ID] == 1 and regs[mb.IR_VERDICT] == int(verdict_for(1))
            plc.coil(mb.COIL_ACK, True)
            regs = plc.wait_inputs(lambda r: not results_ready(r) and ready_bit(r))
        finally:
            plc.close()
    # the drop is on the outputs (a warning: the station went on), the result was kept and answered
    assert regs[mb.IR_CODE] == Code.PLC_DISCONNECTED and regs[mb.IR_MISSED] == 0 and regs[mb.IR_STATE] == 2
    assert not regs[mb.IR_STATUS] & 64  # no Error bit


def test_trigger_while_busy_is_counted_and_the_first_still_answered():
    port = free_port()
    release = threading.Event()

    def slow(start):
        release.wait(5)
        return stub_inspect(start)

    st = LineStation(slow, config=Config(ack_timeout_s=5.0)).start(job=(1, "job1"))
    with st, mb.ModbusServer(st, "127.0.0.1", port):
        plc = Plc(port)
        try:
            plc.coil(mb.COIL_TRIGGER, True)
            plc.wait_inputs(lambda r: r[mb.IR_STATUS] & 2)
            plc.coil(mb.COIL_TRIGGER, False)
            plc.coil(mb.COIL_TRIGGER, True)  # second edge while busy
            regs = plc.inputs()
            assert regs[mb.IR_MISSED] == 1 and regs[mb.IR_CODE] == Code.TRIGGER_WHILE_BUSY
            release.set()
            regs = plc.wait_inputs(results_ready)
        finally:
            plc.close()
    assert regs[mb.IR_RESULT_ID] == 1 and regs[mb.IR_TRIGGER_ID] == 1


def test_late_ack_raises_the_error_bit_and_keeps_the_result():
    port = free_port()
    with station(ack=0.2) as st, mb.ModbusServer(st, "127.0.0.1", port):
        plc = Plc(port)
        try:
            plc.coil(mb.COIL_TRIGGER, True)
            regs = plc.wait_inputs(lambda r: r[mb.IR_STATE] == 5)
            assert regs[mb.IR_CODE] == Code.ACK_TIMEOUT and regs[mb.IR_LATE_ACKS] == 1
            assert results_ready(regs) and regs[mb.IR_RESULT_ID] == 1  # not overwritten, not dropped
            plc.coil(mb.COIL_ACK, True)
            plc.coil(mb.COIL_RESET, True)
            regs = plc.wait_inputs(ready_bit)
        finally:
            plc.close()
    assert not results_ready(regs) and regs[mb.IR_CODE] == 0


def test_port_in_use_is_a_line_error():
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        with station() as st:
            with pytest.raises(mb.LineError, match="did not start"):
                mb.ModbusServer(st, "127.0.0.1", port).start(timeout=5)


def test_started_twice_is_a_line_error_and_close_says_closed():
    with station() as st:
        server = mb.ModbusServer(st, "127.0.0.1", 0).start()
        try:
            assert server.port != 0 and st.links["modbus"].startswith("listening on")
            with pytest.raises(mb.LineError, match="started twice"):
                server.start()
        finally:
            server.close()
        assert st.links["modbus"] == "closed"
        with pytest.raises(OSError):  # nothing listens there any more
            socket.create_connection(("127.0.0.1", server.port), timeout=1).close()


@pytest.mark.parametrize("text,expected", [("127.0.0.1:5020", ("127.0.0.1", 5020)), ("plc.local", ("plc.local", 502)),
                                           ("[::1]:1502", ("::1", 1502))])
def test_parse_host_port(text, expected):
    assert mb.parse_host_port(text) == expected


def test_parse_host_port_refuses_a_bad_port():
    with pytest.raises(mb.LineError, match="expected: HOST:PORT"):
        mb.parse_host_port("127.0.0.1:http")
