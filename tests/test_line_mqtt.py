"""MQTT against a real broker: Debian's mosquitto, started by the tests on a free loopback port."""

from __future__ import annotations

import contextlib
import json
import os
import queue
import shutil
import socket
import subprocess
import threading
import time
from pathlib import Path

import pytest

pytest.importorskip("paho.mqtt", reason="paho-mqtt is not installed (pip install -e .)")

import paho.mqtt.client as mqtt  # noqa: E402

from inference.line.handshake import Ack, Code, Config, Trigger, Verdict  # noqa: E402
from inference.line.mqtt import MqttLink, parse_command, parse_mqtt_url  # noqa: E402
from inference.line.station import LineError, LineStation, Outcome  # noqa: E402

MOSQUITTO = shutil.which("mosquitto") or next((p for p in ("/usr/sbin/mosquitto",) if Path(p).exists()), None)
needs_broker = pytest.mark.skipif(MOSQUITTO is None, reason="mosquitto is not installed (make system-deps installs "
                                                             "it from .ci/apt-packages.txt)")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    def __init__(self, tmp: Path, port: int, persistent: bool = False) -> None:
        self.port = port
        self.conf = tmp / "mosquitto.conf"
        store = f"persistence true\npersistence_location {tmp}/\n" if persistent else "persistence false\n"
        # started as root, mosquitto drops to user 'mosquitto', which cannot write the test's private tmp dir
        user = "user root\n" if os.geteuid() == 0 else ""
        self.conf.write_text(f"listener {port} 127.0.0.1\nallow_anonymous true\n{store}{user}set_tcp_nodelay true\n")
        self.proc: subprocess.Popen | None = None

    def start(self) -> Broker:
        self.proc = subprocess.Popen([MOSQUITTO, "-c", str(self.conf)], stdout=subprocess.DEVNULL,
                                     stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", self.port), 0.2):
                return self
            time.sleep(0.05)
        self.stop()
        raise RuntimeError("mosquitto did not start listening")

    def stop(self) -> None:
        if self.proc is not None:
            self.proc.terminate()
            self.proc.wait(5)
            self.proc = None


@contextlib.contextmanager
def broker(tmp_path: Path):
    b = Broker(tmp_path, free_port()).start()
    try:
        yield b
    finally:
        b.stop()


class Plc:
    """A real MQTT client playing the PLC: sends commands, collects what the station publishes."""

    def __init__(self, port: int, base: str, persistent: bool = False) -> None:
        self.base = base
        self.messages: queue.Queue = queue.Queue()
        self.subscribed = threading.Event()
        self.client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=f"plc-{port}",
                                  clean_session=not persistent)
        self.client.on_message = lambda c, u, m: self.messages.put((m.topic, m.payload.decode(), m.retain))
        self.client.on_subscribe = lambda *args: self.subscribed.set()
        self.client.reconnect_delay_set(1, 2)
        self.client.on_connect = lambda c, u, f, rc, p=None: c.subscribe(f"{base}/#", qos=1)
        self.client.connect("127.0.0.1", port)
        self.client.loop_start()

    def send(self, body) -> None:
        payload = body if isinstance(body, str) else json.dumps(body)
        self.client.publish(f"{self.base}/cmd", payload, qos=1).wait_for_publish(5)

    def next(self, topic: str, predicate=lambda payload: True, timeout: float = 10.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"nothing on {self.base}/{topic} within {timeout} s")
            try:
                got, payload, _ = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if got == f"{self.base}/{topic}" and predicate(payload):
                return payload

    def close(self) -> None:
        self.client.loop_stop()
        self.client.disconnect()


def stub_inspect(start) -> Outcome:
    return Outcome(Verdict.OK if start.trigger_id % 2 else Verdict.NG, (("style", "polo"),))


def station() -> LineStation:
    return LineStation(stub_inspect, config=Config(ack_timeout_s=5.0)).start(job=(1, "polo"))


def wait_until(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        if time.monotonic() > deadline:
            raise AssertionError("condition not reached in time")
        time.sleep(0.01)


@needs_broker
def test_command_in_result_out(tmp_path):
    with broker(tmp_path) as b, station() as st:
        plc = Plc(b.port, "hangtag/line1")
        link = MqttLink(st, f"mqtt://127.0.0.1:{b.port}/hangtag/line1").start()
        try:
            assert link.connected.wait(10)
            assert plc.next("status", lambda p: p == "online")
            plc.send({"cmd": "lot", "lot": "L-77"})
            plc.send({"cmd": "trigger"})
            result = json.loads(plc.next("result"))
            plc.send({"cmd": "ack", "trigger_id": result["trigger_id"]})
            wait_until(lambda: not st.signals().results_ready)
            plc.send("trigger")
            second = json.loads(plc.next("result"))
        finally:
            link.close()
            plc.close()
    assert result == {"trigger_id": 1, "verdict": "OK", "fields": {"style": "polo"}, "job_index": 1, "lot": "L-77",
                      "result_counter": 1}
    assert second["trigger_id"] == 2 and second["verdict"] == "NG"


@needs_broker
def test_status_is_retained_and_offline_is_the_last_will(tmp_path):
    with broker(tmp_path) as b, station() as st:
        link = MqttLink(st, f"mqtt://127.0.0.1:{b.port}/hangtag/line2").start()
        assert link.connected.wait(10)
        late = Plc(b.port, "hangtag/line2")  # subscribes after the fact: gets the retained status
        try:
            assert late.next("status", lambda p: p == "online")
            signals = json.loads(late.next("signals"))
            assert signals["state"] == "Ready" and signals["job_name"] == "polo"
            link._client._sock.close()  # the station dies without saying goodbye: the broker sends its will
            assert late.next("status", lambda p: p == "offline")
        finally:
            link._client.loop_stop()
            late.close()


@needs_broker
def test_broker_restart_reconnects_and_carries_on(tmp_path):
    with broker(tmp_path) as b, station() as st:
        link = MqttLink(st, f"mqtt://127.0.0.1:{b.port}/hangtag/line3").start()
        try:
            assert link.connected.wait(10)
            b.stop()
            wait_until(lambda: not link.connected.is_set())
            assert "reconnecting" in st.links["mqtt"]
            b.start()
            assert link.connected.wait(20), "the station did not reconnect"
            assert link.connects == 2
            plc = Plc(b.port, "hangtag/line3")
            try:
                assert plc.next("status", lambda p: p == "online")
                told = json.loads(plc.next("signals"))  # retained, republished on reconnect: says the broker went away
                plc.send({"cmd": "trigger"})
                result = json.loads(plc.next("result"))
            finally:
                plc.close()
        finally:
            link.close()
    assert result["trigger_id"] == 1
    assert told["code"] == Code.BROKER_DISCONNECTED and told["code_name"] == "BROKER_DISCONNECTED"
    assert told["state"] == "Ready" and not told["error"]  # a warning: the station went on
    assert st.signals().code == Code.BROKER_DISCONNECTED  # closing the link itself is no loss: the code stays
    lost = [e.detail for e in st.log if e.event == "LinkLost"]
    assert len(lost) == 1 and lost[0].startswith("code 7 BROKER_DISCONNECTED mqtt: disconnected")  # once per loss


@needs_broker
def test_malformed_command_latches_a_fault_and_reset_clears_it(tmp_path):
    with broker(tmp_path) as b, station() as st:
        plc = Plc(b.port, "hangtag/line4")
        link = MqttLink(st, f"mqtt://127.0.0.1:{b.port}/hangtag/line4").start()
        try:
            assert link.connected.wait(10)
            plc.send({"cmd": "select_job"})  # no index
            fault = json.loads(plc.next("signals", lambda p: json.loads(p)["error"]))
            plc.send({"cmd": "reset"})
            cleared = json.loads(plc.next("signals", lambda p: not json.loads(p)["error"]))
        finally:
            link.close()
            plc.close()
    assert fault["code"] == Code.MALFORMED_WRITE and fault["state"] == "Error"
    assert cleared["state"] == "Ready" and cleared["code"] == 0


def test_dead_broker_never_blocks_the_station():
    st = station()
    link = MqttLink(st, f"mqtt://127.0.0.1:{free_port()}/hangtag/dead").start()  # nothing listens there
    try:
        for _ in range(3):
            st.pulse(Trigger)
            wait_until(lambda: st.signals().results_ready, 5)
            st.pulse(Ack)
        assert st.signals().result_counter == 3
        assert not link.connected.is_set()
    finally:
        link.close()
        st.close()


@pytest.mark.parametrize("payload,kind,name", [
    (b'{"cmd": "trigger"}', "pulse", None), (b"trigger", "pulse", None), (b'{"cmd": "select_job", "index": 3}',
                                                                         "event", "SelectJob"),
    (b'{"cmd": "lot", "lot": "A1"}', "event", "SetLot"), (b'{"cmd": "fly"}', "event", "Malformed"),
    (b"{not json", "event", "Malformed"), (b'{"cmd": "select_job", "index": "x"}', "event", "Malformed"),
])
def test_parse_command(payload, kind, name):
    got_kind, what = parse_command(payload)
    assert got_kind == kind
    if name:
        assert type(what).__name__ == name


@pytest.mark.parametrize("url,host,port,base,user", [
    ("mqtt://127.0.0.1:1884/hangtag/l1", "127.0.0.1", 1884, "hangtag/l1", None),
    ("broker.local", "broker.local", 1883, "hangtag/station", None),
    ("mqtt://op:s3cret@10.0.0.5", "10.0.0.5", 1883, "hangtag/station", "op"),
])
def test_parse_mqtt_url(url, host, port, base, user):
    ep = parse_mqtt_url(url)
    assert (ep.host, ep.port, ep.base, ep.username) == (host, port, base, user)


@pytest.mark.parametrize("url", ["http://x", "mqtt://h/a/+/b", "mqtt://h:99999"])
def test_parse_mqtt_url_refuses(url):
    with pytest.raises(LineError, match="expected"):
        parse_mqtt_url(url)


@needs_broker
def test_a_result_published_while_the_broker_is_down_arrives_after_it_returns(tmp_path):
    """Nothing lost end to end: the station's client keeps the QoS 1 result, the broker keeps the PLC's
    persistent session across its restart (persistence on, as a line's broker should run)."""
    b = Broker(tmp_path, free_port(), persistent=True).start()
    try:
        with station() as st:
            link = MqttLink(st, f"mqtt://127.0.0.1:{b.port}/hangtag/line5").start()
            plc = Plc(b.port, "hangtag/line5", persistent=True)
            try:
                assert link.connected.wait(10) and plc.subscribed.wait(10)
                b.stop()
                wait_until(lambda: not link.connected.is_set())
                st.pulse(Trigger)  # inspected and published while no broker is there
                wait_until(lambda: st.signals().results_ready)
                b.start()
                result = json.loads(plc.next("result", timeout=30))
            finally:
                plc.close()
                link.close()
    finally:
        b.stop()
    assert result["trigger_id"] == 1 and result["verdict"] == "OK"
