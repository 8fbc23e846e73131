"""The station as a Modbus TCP server (pymodbus): registers and coils in, the handshake's signals out.

The register map is in README.md ("Line integration: Modbus register map") and in REGISTER_MAP below;
addresses here are the 0-based protocol addresses. Writes become handshake events as they arrive
(pymodbus' device action, called on the server's event loop); reads are filled from the station's
current signals at read time, so a PLC never reads a stale copy.
"""

from __future__ import annotations

from inference.line.handshake import STATE_CODES, Ack, Code, Malformed, Reset, SelectJob, SetLot, Signals, Trigger
from inference.line.loop_thread import LoopThreadServer
from inference.line.station import LineError, LineStation

# coils (FC1 read, FC5/FC15 write): PLC -> station, acted on at the rising edge
COIL_TRIGGER, COIL_ACK, COIL_RESET = 0, 1, 2
COILS = 3
# discrete inputs (FC2) and input register 0, same bit order (bit 0 = discrete input 0)
STATUS_BITS = ("ready", "busy", "results_ready", "ok", "ng", "review", "error", "heartbeat")
# holding registers (FC3 read, FC6/FC16 write): PLC -> station
HR_JOB, HR_ACK_ID, HR_LOT_HIGH, HR_LOT_LOW = 0, 1, 2, 3
HOLDING = 4
# input registers (FC4), also readable at holding registers MIRROR_BASE + n for FC3-only PLCs
IR_STATUS, IR_STATE, IR_CODE, IR_RESULT_ID, IR_VERDICT, IR_TRIGGER_ID, IR_RESULT_COUNT, IR_MISSED, IR_LATE_ACKS, \
    IR_QUEUE, IR_JOB, IR_COUNTER_HIGH, IR_COUNTER_LOW = range(13)
INPUTS = 13
MIRROR_BASE = 100

REGISTER_MAP = """\
coil 0   Trigger          rising edge starts one inspection
coil 1   Results Ack      rising edge acknowledges the oldest result
coil 2   Reset error      rising edge clears a latched fault
DI 0..7  Ready, Busy, Results Ready, OK, NG, REVIEW, Error, Heartbeat
HR 0     Job select       write n >= 1: load the recipe with job index n
HR 1     Ack by id        write the result's trigger id: acknowledges that result (fault if it is not the oldest)
HR 2..3  Lot number       32-bit unsigned, high word first; applied when HR 3 is written (write both with FC16)
IR 0     Status bits      bit 0..7 as DI 0..7
IR 1     State            0 Preoperational, 1 Loading, 2 Ready, 3 SingleExecution, 4 Halted, 5 Error
IR 2     Code             0 none; 1..99 warnings (5 trigger while loading, 6 PLC disconnected, 7 broker lost);
                          100+ latched faults (see inference/line/events.py Code)
IR 3     Result trigger id  the trigger the presented result answers (low 16 bits)
IR 4     Verdict          0 none, 1 OK, 2 NG, 3 REVIEW, 4 ERROR
IR 5     Trigger id       last trigger accepted (low 16 bits)
IR 6     Result counter   low 16 bits
IR 7     Missed triggers  low 16 bits
IR 8     Late acks        low 16 bits
IR 9     Queue length     results waiting for an ack
IR 10    Job index
IR 11..12 Result counter  32-bit, high word first
HR 100..112  read-only mirror of IR 0..12
"""


def status_word(sig: Signals) -> int:
    return sum(1 << bit for bit, name in enumerate(STATUS_BITS) if getattr(sig, name))


def input_registers(sig: Signals) -> list[int]:
    regs = [0] * INPUTS
    regs[IR_STATUS] = status_word(sig)
    regs[IR_STATE] = STATE_CODES[sig.state]
    regs[IR_CODE] = int(sig.code)
    regs[IR_RESULT_ID] = sig.result_trigger_id & 0xFFFF
    regs[IR_VERDICT] = int(sig.verdict)
    regs[IR_TRIGGER_ID] = sig.trigger_id & 0xFFFF
    regs[IR_RESULT_COUNT] = sig.result_counter & 0xFFFF
    regs[IR_MISSED] = sig.missed_triggers & 0xFFFF
    regs[IR_LATE_ACKS] = sig.late_acks & 0xFFFF
    regs[IR_QUEUE] = sig.queue_length & 0xFFFF
    regs[IR_JOB] = sig.job_index & 0xFFFF
    regs[IR_COUNTER_HIGH] = (sig.result_counter >> 16) & 0xFFFF
    regs[IR_COUNTER_LOW] = sig.result_counter & 0xFFFF
    return regs


def parse_host_port(text: str, default_port: int = 502) -> tuple[str, int]:
    host, _, port = text.rpartition(":")
    if not host:
        host, port = text, str(default_port)
    try:
        number = int(port)
    except ValueError:
        number = -1
    if not 0 <= number <= 65535:
        raise LineError("Modbus address has no usable port", expected="HOST:PORT, e.g. 127.0.0.1:5020",
                        found=text, hint="502 is Modbus TCP's standard port (needs root on Linux); 5020 is common")
    return host.strip("[]") or "0.0.0.0", number


class ModbusServer(LoopThreadServer):
    """pymodbus' TCP server on its own thread and event loop."""

    link = "modbus"
    title = "Modbus TCP server"
    start_hint = "is the port in use, or below 1024 without root?"

    def __init__(self, station: LineStation, host: str = "127.0.0.1", port: int = 5020) -> None:
        super().__init__(station)
        self.host = host
        self.port = port
        self.clients = 0

    @property
    def address(self) -> str:
        return f"{self.host}:{self.port}"

    def _on_started(self) -> None:
        self.station.set_link("modbus", f"listening on {self.address}, no PLC connected")

    # -- server thread ---------------------------------------------------------------------------------
    async def _serve(self) -> None:
        from pymodbus.server import ModbusTcpServer

        server = ModbusTcpServer(self._device(), address=(self.host, self.port), trace_connect=self._on_connect)
        await server.serve_forever(background=True)
        try:
            self.port = server.transport.sockets[0].getsockname()[1] if self.port == 0 else self.port
            await self._serving()
        finally:
            await server.shutdown()

    def _device(self):
        from pymodbus.simulator import SimData, SimDevice
        from pymodbus.simulator.simutils import DataType

        bits = DataType.BITS
        regs = DataType.REGISTERS
        return SimDevice(id=0, action=self._action, simdata=(
            [SimData(0, count=COILS, values=False, datatype=bits)],
            [SimData(0, count=len(STATUS_BITS), values=False, datatype=bits)],
            [SimData(0, count=HOLDING, values=0, datatype=regs), SimData(MIRROR_BASE, count=INPUTS, values=0,
                                                                          datatype=regs)],
            [SimData(0, count=INPUTS, values=0, datatype=regs)],
        ))

    def _on_connect(self, connected: bool) -> None:
        self.clients = max(0, self.clients + (1 if connected else -1))
        closing = self._stopping is not None and self._stopping.is_set()
        lost = Code.PLC_DISCONNECTED if not connected and not self.clients and not closing else None
        self.station.set_link("modbus", f"{self.clients} PLC connection(s) on {self.host}:{self.port}"
                              if self.clients else f"listening on {self.host}:{self.port}, no PLC connected", lost=lost)

    async def _action(self, function_code: int, start: int, address: int, count: int, registers: list[int],
                      values: list | None):
        from pymodbus.constants import ExcCodes

        if values is None:
            self._fill(function_code, start, registers)
            return None
        if function_code in (5, 15):
            return self._write_coils(address, values, ExcCodes)
        return self._write_holding(address, [int(v) for v in values], start, registers, ExcCodes)

    def _fill(self, function_code: int, start: int, registers: list[int]) -> None:
        sig = self.station.signals()
        if function_code == 2:
            registers[0] = status_word(sig)
        elif function_code in (3, 4):
            base = MIRROR_BASE - start if function_code == 3 else -start
            registers[base:base + INPUTS] = input_registers(sig)

    def _write_coils(self, address: int, values: list, exc):
        if address < 0 or address + len(values) > COILS:
            self.station.submit(Malformed(f"coil write at {address}..{address + len(values) - 1}: "
                                          f"only coils 0..{COILS - 1} exist"))
            return exc.ILLEGAL_ADDRESS
        for offset, value in enumerate(values):
            kind = (Trigger, Ack, Reset)[address + offset]
            self.station.submit(kind(bool(value)))
        return None

    def _write_holding(self, address: int, values: list[int], start: int, registers: list[int], exc):
        end = address + len(values)
        if end > HOLDING:
            self.station.submit(Malformed(f"holding register write at {address}..{end - 1}: "
                                          f"only 0..{HOLDING - 1} are writable"))
            return exc.ILLEGAL_ADDRESS
        written = dict(zip(range(address, end), values))
        if HR_JOB in written:
            self.station.submit(SelectJob(written[HR_JOB]))
        if HR_ACK_ID in written:
            tid = written[HR_ACK_ID]
            head = self.station.signals().result_trigger_id
            # 16-bit register: match the oldest result's full id by its low 16 bits
            self.station.pulse(lambda level: Ack(level, head if (head & 0xFFFF) == tid else tid))
        if HR_LOT_LOW in written:
            high = written.get(HR_LOT_HIGH, registers[HR_LOT_HIGH - start])
            self.station.submit(SetLot(str((high << 16) | written[HR_LOT_LOW])))
        return None
