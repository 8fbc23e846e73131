"""A PLC played in software, one driver per transport, for commissioning (`hangtag-inspect plc-sim`) and for
measuring the handshake: each `cycle()` is trigger → result ready (with its trigger id) → ack.
"""

from __future__ import annotations

import asyncio
import json
import queue
import time
import uuid
from dataclasses import dataclass

from inference.line.station import LineError


class PlcError(LineError):
    """The station answered the simulated PLC with a fault, or not at all."""


@dataclass(frozen=True)
class Cycle:
    trigger_id: int
    verdict: str
    round_trip_ms: float  # trigger written → result with this trigger id seen by the PLC


def _deadline_passed(deadline: float, what: str) -> None:
    if time.monotonic() > deadline:
        raise PlcError(f"timed out waiting for {what} from the station", expected=what, found="nothing",
                       hint="is the station running (hangtag-inspect line …, or the window with its source "
                            "started) and Ready?")


class ModbusPlc:
    def __init__(self, host: str, port: int, timeout_s: float = 5.0, poll_s: float = 0.0) -> None:
        from pymodbus.client import ModbusTcpClient

        from inference.line import modbus as mb

        self.mb = mb
        self.timeout_s = timeout_s
        self.poll_s = poll_s  # between reads, like a PLC's scan cycle (and leaving the station a core)
        self.client = ModbusTcpClient(host, port=port, timeout=timeout_s)
        if not self.client.connect():
            raise PlcError("cannot connect to the station's Modbus server", expected=f"a server at {host}:{port}",
                           found="connection refused or timed out", hint="start it with hangtag-inspect line --modbus")

    def _inputs(self) -> list[int]:
        reply = self.client.read_input_registers(0, count=self.mb.INPUTS)
        if reply.isError():
            raise PlcError("the station refused a register read", found=str(reply))
        return reply.registers

    def _wait(self, predicate, what: str) -> list[int]:
        deadline = time.monotonic() + self.timeout_s
        while True:
            regs = self._inputs()
            if predicate(regs):
                return regs
            if regs[self.mb.IR_STATE] == 5:
                raise PlcError(f"station in Error while waiting for {what}", found=f"code {regs[self.mb.IR_CODE]}",
                               hint="see the station's log; a reset clears it (--reset)")
            _deadline_passed(deadline, what)
            if self.poll_s:
                time.sleep(self.poll_s)

    def cycle(self) -> Cycle:
        mb = self.mb
        regs = self._wait(lambda r: r[mb.IR_STATUS] & 1 and not r[mb.IR_STATUS] & 4, "Ready")
        expected = (regs[mb.IR_TRIGGER_ID] + 1) & 0xFFFF
        start = time.perf_counter()
        self.client.write_coil(mb.COIL_TRIGGER, True)
        regs = self._wait(lambda r: r[mb.IR_STATUS] & 4 and r[mb.IR_RESULT_ID] == expected, "a result")
        rtt = (time.perf_counter() - start) * 1e3
        self.client.write_coil(mb.COIL_TRIGGER, False)
        self.client.write_register(mb.HR_ACK_ID, expected)
        verdict = ("NONE", "OK", "NG", "REVIEW", "ERROR")[min(regs[mb.IR_VERDICT], 4)]
        return Cycle(expected, verdict, rtt)

    def select_job(self, index: int) -> None:
        self.client.write_register(self.mb.HR_JOB, index)
        self._wait(lambda r: r[self.mb.IR_JOB] == index and r[self.mb.IR_STATUS] & 1, f"job {index} loaded")

    def reset(self) -> None:
        self.client.write_coil(self.mb.COIL_RESET, False)
        self.client.write_coil(self.mb.COIL_RESET, True)
        self.client.write_coil(self.mb.COIL_RESET, False)

    def close(self) -> None:
        self.client.close()


class OpcUaPlc:
    def __init__(self, url: str, user: str | None = None, password: str | None = None, timeout_s: float = 5.0,
                 publish_ms: float = 0.0) -> None:
        self.timeout_s = timeout_s
        self.publish_ms = publish_ms
        self._loop = asyncio.new_event_loop()
        self._events: asyncio.Queue | None = None
        try:
            self._run(self._connect(url, user, password))
        except PlcError:
            raise
        except Exception as exc:
            self._loop.close()
            raise PlcError("cannot connect to the station's OPC UA server", expected=f"a server at {url}",
                           found=f"{type(exc).__name__}: {exc}", hint="check the URL, --user and "
                           "HANGTAG_OPCUA_PASSWORD; start the station with hangtag-inspect line --opcua") from None

    def _run(self, coro):
        return self._loop.run_until_complete(asyncio.wait_for(coro, self.timeout_s + 30))

    async def _connect(self, url, user, password) -> None:
        from asyncua import Client

        from inference.line.opcua import NAMESPACE

        self.client = Client(url, timeout=self.timeout_s)
        if user:
            self.client.set_user(user)
            self.client.set_password(password or "")
        await self.client.connect()
        self.idx = await self.client.get_namespace_index(NAMESPACE)
        self.obj = await self.client.nodes.objects.get_child([f"{self.idx}:HangtagStation"])
        # the methods' node ids once, as a PLC configures them: called by browse name, asyncua asks the server to
        # translate the name on every call, a second request per call (2 of the 5 the station answered per cycle)
        self.start_job = (await self.obj.get_child(f"{self.idx}:StartSingleJob")).nodeid
        self.acknowledge = (await self.obj.get_child(f"{self.idx}:AcknowledgeResult")).nodeid
        self._events = asyncio.Queue()
        etype = await self.client.nodes.base_event_type.get_child([f"{self.idx}:ResultReadyEventType"])
        # publishing interval 0 (the default): the server publishes each event as it is raised; a positive interval
        # is the PLC's choice: the station's loop wakes that often (asyncua grants what is asked: 1 ms was 1 000
        # wake-ups a second) and each event waits up to that long for its publish
        sub = await self.client.create_subscription(self.publish_ms, self)
        await sub.subscribe_events(self.obj, etype)

    def event_notification(self, event) -> None:
        self._events.put_nowait((int(event.TriggerId), str(event.Verdict), time.perf_counter()))

    async def _cycle(self) -> Cycle:
        start = time.perf_counter()
        job_id = await self.obj.call_method(self.start_job)
        while True:
            tid, verdict, seen = await asyncio.wait_for(self._events.get(), self.timeout_s)
            if tid == job_id:
                break
        from asyncua import ua

        await self.obj.call_method(self.acknowledge, ua.Variant(job_id, ua.VariantType.UInt32))
        return Cycle(job_id, verdict, (seen - start) * 1e3)

    def cycle(self) -> Cycle:
        try:
            return self._run(self._cycle())
        except asyncio.TimeoutError:
            raise PlcError("no ResultReady event from the station in time", expected="a result",
                           found="nothing") from None
        except Exception as exc:
            raise PlcError("the station refused StartSingleJob", found=f"{type(exc).__name__}: {exc}",
                           hint="it is not Ready: busy, in Error (--reset) or without a job") from None

    def select_job(self, index: int) -> None:
        from asyncua import ua

        async def go():
            await self.obj.call_method(f"{self.idx}:SelectRecipe", ua.Variant(index, ua.VariantType.UInt32))
            node = await self.obj.get_child(f"{self.idx}:JobIndex")
            ready = await self.obj.get_child(f"{self.idx}:Ready")
            deadline = time.monotonic() + self.timeout_s
            while not (await node.read_value() == index and await ready.read_value()):
                _deadline_passed(deadline, f"job {index} loaded")
                await asyncio.sleep(0.005)

        self._run(go())

    def reset(self) -> None:
        self._run(self.obj.call_method(f"{self.idx}:ResetError"))

    def close(self) -> None:
        try:
            self._run(self.client.disconnect())
        finally:
            self._loop.close()


class MqttPlc:
    def __init__(self, url: str, timeout_s: float = 5.0) -> None:
        import paho.mqtt.client as mqtt

        from inference.line.mqtt import parse_mqtt_url

        self.timeout_s = timeout_s
        self.ep = parse_mqtt_url(url)
        self.results: queue.Queue = queue.Queue()
        self.signals: dict = {}
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"hangtag-plc-sim-{uuid.uuid4().hex[:6]}")
        if self.ep.username:
            self.client.username_pw_set(self.ep.username, self.ep.password)
        self.client.on_message = self._on_message
        subscribed = queue.Queue()
        self.client.on_subscribe = lambda *a, **k: subscribed.put(True)
        self.client.on_connect = self._on_connect
        try:
            self.client.connect(self.ep.host, self.ep.port)
        except OSError as exc:
            raise PlcError("cannot connect to the MQTT broker", expected=f"a broker at {self.ep.host}:{self.ep.port}",
                           found=str(exc)) from None
        self.client.loop_start()
        try:
            subscribed.get(timeout=timeout_s)
        except queue.Empty:
            raise PlcError("the MQTT broker did not confirm the subscription", found="no SUBACK") from None

    def _on_connect(self, client, *args) -> None:
        from inference.line.mqtt import no_delay

        no_delay(client)
        client.subscribe([(self.ep.topics["result"], 1), (self.ep.topics["signals"], 0)])

    def _on_message(self, client, userdata, message) -> None:
        if message.topic == self.ep.topics["result"]:
            self.results.put((json.loads(message.payload), time.perf_counter()))
        else:
            self.signals = json.loads(message.payload)

    def _send(self, body: dict) -> None:
        self.client.publish(self.ep.topics["cmd"], json.dumps(body), qos=1)

    def cycle(self) -> Cycle:
        start = time.perf_counter()
        self._send({"cmd": "trigger"})
        try:
            result, seen = self.results.get(timeout=self.timeout_s)
        except queue.Empty:
            raise PlcError("no result on the MQTT result topic in time", expected=self.ep.topics["result"],
                           found=f"nothing; station signals: {self.signals or 'none seen'}") from None
        self._send({"cmd": "ack", "trigger_id": result["trigger_id"]})
        return Cycle(int(result["trigger_id"]), str(result["verdict"]), (seen - start) * 1e3)

    def select_job(self, index: int) -> None:
        self._send({"cmd": "select_job", "index": index})
        deadline = time.monotonic() + self.timeout_s
        while not (self.signals.get("job_index") == index and self.signals.get("ready")):
            _deadline_passed(deadline, f"job {index} loaded")
            time.sleep(0.005)

    def reset(self) -> None:
        self._send({"cmd": "reset"})

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()
