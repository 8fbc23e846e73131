"""Results and status over MQTT (paho-mqtt), commands from a command topic.

Topics under one base (the URL's path, default `hangtag/station`):
    BASE/result   each result as JSON, QoS 1 (trigger id, verdict, fields, job, lot)
    BASE/status   "online" / "offline", retained; "offline" is the last will, so a dead station says so
    BASE/signals  the handshake's outputs as JSON, retained, on every change but the heartbeat
    BASE/cmd      commands in: {"cmd": "trigger"}, {"cmd": "ack", "trigger_id": N}, {"cmd": "select_job",
                  "index": N}, {"cmd": "reset"}, {"cmd": "lot", "lot": "L123"}; a bare word ("trigger") works too

paho's own network thread reconnects with backoff (0.2 s doubling to 10 s); QoS 1 messages published
while the broker is away stay queued in the client and go out on reconnect.

Changes reach paho through an outbox thread, not from the thread that made them: publishing straight from the
inspection and paho threads measured worse (trigger -> inspection hand-over p50 0.6-4.3 ms against 0.22-0.28 ms,
station CPU per cycle +20-50 %, four alternating runs; BENCHMARKS.md, issue 22): paho's thread then publishes the
Busy signals right after a trigger, while the inspection thread waits for the GIL.
"""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import uuid
from dataclasses import dataclass
from typing import Any
from urllib.parse import unquote, urlsplit

from inference.line.handshake import Ack, Code, Malformed, Publish, Reset, SelectJob, SetLot, Signals, Trigger
from inference.line.station import Change, LineError, LineStation

DEFAULT_BASE = "hangtag/station"


@dataclass(frozen=True)
class MqttEndpoint:
    host: str
    port: int
    base: str
    username: str | None = None
    password: str | None = None

    @property
    def topics(self) -> dict[str, str]:
        return {name: f"{self.base}/{name}" for name in ("result", "status", "signals", "cmd")}


def parse_mqtt_url(url: str) -> MqttEndpoint:
    parts = urlsplit(url if "://" in url else f"mqtt://{url}")
    if parts.scheme not in ("mqtt", "tcp") or not parts.hostname:
        raise LineError("not an MQTT broker address", expected="mqtt://[USER:PASSWORD@]HOST[:PORT][/TOPIC/BASE]",
                        found=url, hint="e.g. mqtt://127.0.0.1:1883/hangtag/line1 (TLS is not supported yet)")
    try:
        port = parts.port or 1883
    except ValueError:
        raise LineError("MQTT broker port is not a number", expected="a port 1..65535", found=url) from None
    base = parts.path.strip("/") or DEFAULT_BASE
    if any(ch in base for ch in "+#"):
        raise LineError("MQTT topic base contains a wildcard", expected="a plain topic such as hangtag/line1",
                        found=base)
    return MqttEndpoint(parts.hostname, port, base, unquote(parts.username) if parts.username else None,
                        unquote(parts.password) if parts.password else None)


def result_payload(change: Change, publish: Publish) -> dict[str, Any]:
    r = publish.result
    return {"trigger_id": r.trigger_id, "verdict": r.verdict.name, "fields": dict(r.fields), "job_index": r.job_index,
            "lot": r.lot, "result_counter": change.signals.result_counter}


def signals_payload(sig: Signals) -> dict[str, Any]:
    return {"state": sig.state.value, "ready": sig.ready, "busy": sig.busy, "results_ready": sig.results_ready,
            "verdict": sig.verdict.name, "result_trigger_id": sig.result_trigger_id, "trigger_id": sig.trigger_id,
            "result_counter": sig.result_counter, "error": sig.error, "code": int(sig.code), "code_name": sig.code.name,
            "missed_triggers": sig.missed_triggers, "late_acks": sig.late_acks, "queue_length": sig.queue_length,
            "job_index": sig.job_index, "job_name": sig.job_name, "lot": sig.lot}


def parse_command(payload: bytes):
    """A command payload to a handshake event maker: ("pulse", make) or ("event", event)."""
    text = payload.decode("utf-8", "replace").strip()
    try:
        body = json.loads(text) if text.startswith("{") else {"cmd": text}
    except json.JSONDecodeError:
        return "event", Malformed(f"MQTT command is not JSON: {text[:60]!r}")
    cmd = str(body.get("cmd", "")).lower()
    try:
        if cmd == "trigger":
            return "pulse", Trigger
        if cmd == "ack":
            tid = body.get("trigger_id")
            tid = None if tid is None else int(tid)
            return "pulse", lambda level: Ack(level, tid)
        if cmd == "reset":
            return "pulse", Reset
        if cmd == "select_job":
            return "event", SelectJob(int(body["index"]))
        if cmd == "lot":
            return "event", SetLot(str(body["lot"]))
    except (KeyError, TypeError, ValueError):
        return "event", Malformed(f"MQTT command {cmd!r} lacks a usable value: {text[:80]!r}")
    return "event", Malformed(f"unknown MQTT command {text[:60]!r} (trigger, ack, reset, select_job, lot)")


def no_delay(client: Any) -> None:
    """Small packets go out at once: with Nagle's algorithm a result queued behind a PUBACK waits for the
    peer's delayed TCP ack (~40 ms on Linux) on every cycle."""
    sock = client.socket()
    if sock is not None and hasattr(sock, "setsockopt"):
        with contextlib.suppress(OSError):
            sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)


class MqttLink:
    def __init__(self, station: LineStation, url: str, *, client_id: str | None = None, keepalive: int = 10) -> None:
        self.station = station
        self.endpoint = parse_mqtt_url(url)
        self.keepalive = keepalive
        self.connected = threading.Event()
        self.connects = 0
        self._client_id = client_id or f"hangtag-station-{uuid.uuid4().hex[:8]}"
        self._client: Any = None
        self._last_signals: dict | None = None
        self._closing = False
        self._outbox = None

    def start(self) -> MqttLink:
        import paho.mqtt.client as mqtt

        ep = self.endpoint
        client = mqtt.Client(mqtt.CallbackAPIVersion.VERSION2, client_id=self._client_id)
        if ep.username:
            client.username_pw_set(ep.username, ep.password)
        client.will_set(ep.topics["status"], "offline", qos=1, retain=True)
        client.reconnect_delay_set(min_delay=1, max_delay=10)
        client.max_queued_messages_set(10_000)
        client.on_connect = self._on_connect
        client.on_disconnect = self._on_disconnect
        client.on_message = self._on_message
        client.on_subscribe = self._on_subscribe
        self._client = client
        client.connect_async(ep.host, ep.port, keepalive=self.keepalive)
        client.loop_start()
        self.station.set_link("mqtt", f"connecting to {ep.host}:{ep.port}")
        self._outbox = self.station.subscribe("mqtt", self._on_change)
        return self

    def close(self) -> None:
        if self._client is None:
            return
        self._closing = True
        info = self._client.publish(self.endpoint.topics["status"], "offline", qos=1, retain=True)
        if self.connected.is_set():
            try:
                info.wait_for_publish(2.0)
            except (RuntimeError, ValueError):
                pass
        self._client.disconnect()
        self._client.loop_stop()
        self.station.set_link("mqtt", "closed")

    def __enter__(self) -> MqttLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.close()

    # -- paho's thread ---------------------------------------------------------------------------------
    def _on_connect(self, client, userdata, flags, reason_code, properties=None) -> None:
        if reason_code.is_failure:
            self.station.set_link("mqtt", f"refused by {self.endpoint.host}:{self.endpoint.port}: {reason_code}")
            return
        no_delay(client)
        topics = self.endpoint.topics
        client.subscribe(topics["cmd"], qos=1)
        client.publish(topics["status"], "online", qos=1, retain=True)
        self._publish_signals(self.station.signals(), force=True)

    def _on_subscribe(self, client, userdata, mid, reason_codes, properties=None) -> None:
        # connected means "commands reach the station": only once the broker has granted the subscription
        self.connects += 1
        self.connected.set()
        self.station.set_link("mqtt", f"connected to {self.endpoint.host}:{self.endpoint.port}")

    def _on_disconnect(self, client, userdata, flags, reason_code, properties=None) -> None:
        was_connected = self.connected.is_set()
        self.connected.clear()
        if self._closing:
            return
        # the code once per loss (not per failed reconnect); the retained signals carry it once back
        self.station.set_link("mqtt", f"disconnected from {self.endpoint.host}:{self.endpoint.port} "
                                      f"({reason_code}), reconnecting",
                              lost=Code.BROKER_DISCONNECTED if was_connected else None)

    def _on_message(self, client, userdata, message) -> None:
        kind, what = parse_command(message.payload)
        if kind == "pulse":
            self.station.pulse(what)
        else:
            self.station.submit(what)

    # -- the station's outbox thread -------------------------------------------------------------------
    def _on_change(self, change: Change) -> None:
        for action in change.actions:
            if isinstance(action, Publish):
                payload = json.dumps(result_payload(change, action), ensure_ascii=False)
                self._client.publish(self.endpoint.topics["result"], payload, qos=1)
                self.station.offered("mqtt", action.result.trigger_id)
        if self._outbox is None or not self._outbox.pending:  # a newer change waits: it publishes newer signals
            self._publish_signals(change.signals)

    def _publish_signals(self, sig: Signals, force: bool = False) -> None:
        body = signals_payload(sig)
        if body == self._last_signals and not force:
            return
        self._last_signals = body
        self._client.publish(self.endpoint.topics["signals"], json.dumps(body, ensure_ascii=False), qos=0, retain=True)
