"""The station as an OPC UA server (asyncua), shaped after OPC 40100 Machine Vision.

Object `HangtagStation` in namespace `urn:hangtag-station:line`:
    variables  State, StateCode, Ready, Busy, ResultsReady, Error, ErrorCode, Verdict, ResultTriggerId,
               ResultFields (JSON), TriggerId, ResultCounter, MissedTriggers, LateAcks, QueueLength,
               JobIndex, JobName, Lot, Heartbeat
    methods    StartSingleJob() -> JobId (the trigger id this job's result will carry),
               SelectRecipe(Index), AcknowledgeResult(TriggerId; 0 = the oldest), ResetError(), SetLot(Lot)
    event      ResultReadyEventType (TriggerId, Verdict, ResultFields), emitted by HangtagStation per result

Anonymous access is off unless asked for; username/password come from the caller (the CLI reads the
password from an environment variable, never from the command line). With a certificate folder the
server offers only Basic256Sha256 Sign&Encrypt, so passwords cross the network encrypted.
"""

from __future__ import annotations

import asyncio
import json
import logging
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

from inference.line.handshake import STATE_CODES, Ack, Code, Publish, Reset, SelectJob, SetLot, Signals, State, Trigger
from inference.line.loop_thread import LoopThreadServer
from inference.line.station import Change, LineError, LineStation

NAMESPACE = "urn:hangtag-station:line"
CLIENT_POLL_S = 0.5  # how soon a client's leaving is noticed
log = logging.getLogger(__name__)


# each variable: its name, the Signals attribute it shows, and how the attribute's value becomes the variable's
_VARIABLES: tuple[tuple[str, str, Callable[[Any], Any]], ...] = (
    ("State", "state", lambda s: s.value), ("StateCode", "state", STATE_CODES.__getitem__),
    ("Ready", "ready", bool), ("Busy", "busy", bool), ("ResultsReady", "results_ready", bool),
    ("Error", "error", bool), ("ErrorCode", "code", int), ("Verdict", "verdict", lambda v: v.name),
    ("ResultTriggerId", "result_trigger_id", int),
    ("ResultFields", "result_fields", lambda f: json.dumps(dict(f), ensure_ascii=False)),
    ("TriggerId", "trigger_id", int), ("ResultCounter", "result_counter", int),
    ("MissedTriggers", "missed_triggers", int), ("LateAcks", "late_acks", int), ("QueueLength", "queue_length", int),
    ("JobIndex", "job_index", int), ("JobName", "job_name", str), ("Lot", "lot", str), ("Heartbeat", "heartbeat", bool),
)


def variable_values(sig: Signals) -> dict[str, Any]:
    return {name: show(getattr(sig, attr)) for name, attr, show in _VARIABLES}


def changed_values(before: Signals | None, after: Signals) -> dict[str, Any]:
    """The variables whose Signals attribute differs between `before` and `after` (all of them without `before`),
    converted only for those: a result changes about eight of nineteen, a trigger five."""
    if before is None:
        return variable_values(after)
    return {name: show(getattr(after, attr)) for name, attr, show in _VARIABLES
            if getattr(after, attr) != getattr(before, attr)}


class OpcUaServer(LoopThreadServer):
    link = "opcua"
    title = "OPC UA server"
    start_timeout_s = 30.0
    close_timeout_s = 10.0

    def __init__(self, station: LineStation, url: str = "opc.tcp://127.0.0.1:4840/hangtag/", *,
                 users: dict[str, str] | None = None, anonymous: bool = False, cert_dir: Path | None = None) -> None:
        if not anonymous and not users:
            raise LineError("OPC UA server has no way in", expected="a username/password, or anonymous access "
                            "switched on explicitly", found="neither", hint="hangtag-inspect line --opcua-user NAME "
                            "with HANGTAG_OPCUA_PASSWORD set, or --opcua-anonymous on a closed network")
        super().__init__(station)
        self.url = url
        self.users = dict(users or {})
        self.anonymous = anonymous
        self.cert_dir = cert_dir  # with it: Basic256Sha256 Sign&Encrypt only; without: the None policy only
        self._nodes: dict[str, Any] = {}
        self._values: dict[str, Any] = {}  # name -> the node's Value attribute in asyncua's address space
        self._variants: dict[tuple[str, Any], Any] = {}  # (name, value) -> its Variant, made once (never changed)
        self._synced: Signals | None = None  # the station's signals the variables were last written from
        self._writing: asyncio.Lock | None = None
        self._called = False  # a method was called since the clients were last counted
        self._event_gen: Any = None
        self._server: Any = None
        self._changes: asyncio.Queue | None = None
        self.dropped = 0  # changes not applied: the loop was 1024 behind (the next one writes the newest values)
        self.failed = 0

    @property
    def address(self) -> str:
        return self.url

    def _require_library(self) -> None:
        try:
            import asyncua  # noqa: F401
        except ImportError as exc:
            raise LineError("OPC UA needs the asyncua package", expected="asyncua installed",
                            found=str(exc), hint="pip install asyncua (the desktop bundle leaves it out)") from exc

    def _on_started(self) -> None:
        super()._on_started()
        # straight onto this server's own loop: no outbox thread between a result and its ResultReady event
        self.station.subscribe("opcua", self._hand_over, direct=True)

    # -- server thread ---------------------------------------------------------------------------------
    async def _serve(self) -> None:
        from asyncua import Server, ua

        server = self._server = Server(user_manager=_UserManager(self.users, self.anonymous))
        await server.init()
        server.set_endpoint(self.url)
        server.set_server_name("Hangtag Station")
        if self.cert_dir is not None:
            cert, key = await server_certificate(self.cert_dir, self.url)
            await server.set_application_uri(APPLICATION_URI)
            await server.load_certificate(str(cert))
            await server.load_private_key(str(key))
            server.set_security_policy([ua.SecurityPolicyType.Basic256Sha256_SignAndEncrypt])
        else:
            server.set_security_policy([ua.SecurityPolicyType.NoSecurity])
        tokens = [ua.UserNameIdentityToken] + ([ua.AnonymousIdentityToken] if self.anonymous else [])
        server.set_identity_tokens(tokens)
        idx = await server.register_namespace(NAMESPACE)
        station_obj = await server.nodes.objects.add_object(idx, "HangtagStation")
        first = self.station.signals()
        for name, value in variable_values(first).items():
            self._nodes[name] = node = await station_obj.add_variable(idx, name, _variant(name, value))
            self._values[name] = server.iserver.aspace.get(node.nodeid).attributes[ua.AttributeIds.Value]
        self._synced = first
        self._writing = asyncio.Lock()
        await self._add_methods(station_obj, idx)
        etype = await server.create_custom_event_type(idx, "ResultReadyEventType", ua.ObjectIds.BaseEventType, [
            ("TriggerId", ua.VariantType.UInt32), ("Verdict", ua.VariantType.String),
            ("ResultFields", ua.VariantType.String)])
        self._event_gen = await server.get_event_generator(etype, station_obj)
        share_event_fields(self._event_gen.event)
        self._changes = asyncio.Queue(maxsize=1024)
        applier = asyncio.create_task(self._apply_changes())
        watcher = None
        try:
            async with server:
                watcher = asyncio.create_task(self._watch_clients(server))
                await self._serving()
        finally:
            applier.cancel()
            if watcher is not None:
                watcher.cancel()

    async def _watch_clients(self, server) -> None:
        """asyncua tells of no client's leaving: the connections are counted every CLIENT_POLL_S instead, and the
        last one closing is a PLC disconnect (code 6) on the outputs, as with Modbus."""
        connected = 0
        while True:
            await asyncio.sleep(CLIENT_POLL_S)
            bserver = getattr(server, "bserver", None)
            count = len(getattr(bserver, "clients", ()) or ())
            # a PLC that connected, called a method and left between two counts was here too
            came_and_went = count == 0 and connected == 0 and self._called
            self._called = False
            if count == connected and not came_and_went:
                continue
            closing = self._stopping is not None and self._stopping.is_set()
            lost = Code.PLC_DISCONNECTED if count == 0 and not closing else None
            self.station.set_link("opcua", f"{count} client connection(s) at {self.url}" if count
                                  else f"listening at {self.url}, no client connected", lost=lost)
            connected = count

    async def _add_methods(self, obj, idx: int) -> None:
        from asyncua import ua
        from asyncua.common.methods import uamethod

        def refuse(what: str, sig: Signals):
            # returned, not raised: asyncua answers a raised exception with BadUnexpectedError and a traceback
            log.info("OPC UA %s refused in state %s (code %d)", what, sig.state.value, int(sig.code))
            return ua.StatusCode(ua.StatusCodes.BadInvalidState)

        # each method writes the variables before it returns: a client reading right after the call sees
        # its effect (the outbox's later update writes the then-newest values too, never older ones)
        @uamethod
        async def start_single_job(parent):
            self._called = True
            before = self.station.signals().trigger_id
            sig = self.station.pulse(Trigger)
            await self._sync_variables()
            if sig.trigger_id == before:
                return refuse("StartSingleJob", sig)
            return ua.Variant(sig.trigger_id, ua.VariantType.UInt32)

        @uamethod
        async def select_recipe(parent, index):
            self._called = True
            sig = self.station.submit(SelectJob(int(index)))
            await self._sync_variables()
            if sig.state is State.ERROR:
                return refuse("SelectRecipe", sig)
            return True

        @uamethod
        async def acknowledge(parent, trigger_id):
            self._called = True
            tid = int(trigger_id) or None
            sig = self.station.pulse(lambda level: Ack(level, tid))
            await self._sync_variables()
            if sig.state is State.ERROR:
                return refuse("AcknowledgeResult", sig)

        @uamethod
        async def reset(parent):
            self._called = True
            self.station.pulse(Reset)
            await self._sync_variables()

        @uamethod
        async def set_lot(parent, lot):
            self._called = True
            sig = self.station.submit(SetLot(str(lot)))
            await self._sync_variables()
            if sig.state is State.ERROR:
                return refuse("SetLot", sig)

        u32, text = ua.VariantType.UInt32, ua.VariantType.String
        await obj.add_method(idx, "StartSingleJob", start_single_job, [], [u32])
        await obj.add_method(idx, "SelectRecipe", select_recipe, [u32], [ua.VariantType.Boolean])
        await obj.add_method(idx, "AcknowledgeResult", acknowledge, [u32], [])
        await obj.add_method(idx, "ResetError", reset, [], [])
        await obj.add_method(idx, "SetLot", set_lot, [text], [])

    # -- the station's submitting thread, under its lock: hand over, never wait -------------------------
    def _hand_over(self, change: Change) -> None:
        loop = self._loop
        if loop is not None and loop.is_running():
            loop.call_soon_threadsafe(self._enqueue, change)

    def _enqueue(self, change: Change) -> None:
        try:
            self._changes.put_nowait(change)
        except asyncio.QueueFull:
            self.dropped += 1

    async def _apply_changes(self) -> None:
        """One consumer, so variables and ResultReady events go out in the order the station made them."""
        while True:
            change = await self._changes.get()
            if not self._changes.empty() and not any(isinstance(a, Publish) for a in change.actions):
                continue  # a newer change waits and writes the newer values: this one's writes would be redone
            try:
                await self._apply(change)
            except Exception as exc:  # a failed write is reported and the next change goes on
                self.failed += 1
                log.warning("OPC UA update after %s failed: %s", change.event, exc)

    async def _sync_variables(self) -> None:
        """Write the station's signals as they are now (not as they were when a change was queued), so
        writes from changes and from method calls only ever move the variables forward; only the variables whose
        signal changed since the last write, each with the time of this write.

        A variable some client monitors (or that is historized) goes through asyncua's `write_attribute_value`,
        which tells its monitored items; one nobody monitors gets its new value stored in its Value attribute,
        which is all that write would do after checking the type (ours are made with the node's type). The server
        writes its own variables: no session, no permission checks either way."""
        from asyncua import ua

        async with self._writing:  # one write at a time: each starts from what the one before it left
            sig = self.station.signals()
            before = self._synced
            if sig == before:  # a method's own write and the change it made meet here twice per call
                return
            stamp = datetime.now(timezone.utc)
            for name, value in changed_values(before, sig).items():
                data = ua.DataValue(self._variant(name, value), SourceTimestamp=stamp, ServerTimestamp=stamp)
                attribute = self._values[name]
                if attribute.datachange_callbacks or attribute.value_setter is not None:
                    await self._server.write_attribute_value(self._nodes[name].nodeid, data)
                else:
                    attribute.value = data
                    attribute.value_callback = None
            self._synced = sig

    def _variant(self, name: str, value: Any) -> Any:
        key = (name, value)
        variant = self._variants.get(key)
        if variant is None:
            if len(self._variants) > 1024:  # trigger ids and counters never repeat: keep the cache small
                self._variants.clear()
            variant = self._variants[key] = _variant(name, value)
        return variant

    async def _apply(self, change: Change) -> None:
        from asyncua import ua

        # the variables first, then the event: a client reacting to the event reads this result or a later state
        await self._sync_variables()
        for action in change.actions:
            if isinstance(action, Publish):
                r = action.result
                gen = self._event_gen
                gen.event.TriggerId = ua.Variant(r.trigger_id, ua.VariantType.UInt32)
                gen.event.Verdict = r.verdict.name
                gen.event.ResultFields = json.dumps(dict(r.fields), ensure_ascii=False)
                await gen.trigger(message=f"result for trigger {r.trigger_id}: {r.verdict.name}")
                self.station.offered("opcua", r.trigger_id)


def share_event_fields(event: Any) -> None:
    """Raise `event` without asyncua deep-copying each of its fields for each subscriber (`Event.to_event_fields`):
    the copies were ~70 % of the CPU of raising a ResultReady event (BENCHMARKS.md, issue 22). They guard against a
    caller changing a field in place while the event waits to be published; nothing here does: every field that
    changes gets a new object per event (TriggerId, Verdict, ResultFields in `_apply`; EventId, Time, ReceiveTime,
    LocalTime and Message in asyncua's `trigger`), the rest (EventType, SourceNode, SourceName, Severity) never
    change. Same fields, same types, same order as asyncua's own method.

    What a subscriber's select clauses name is worked out once per monitored item (its filter's clause list), and
    a field whose value is the very object it was at the last event keeps the Variant made for it then (Variants
    are never changed once made): per event only the fields that changed get a new Variant, not all ~16 a client
    selects by default (EventId, EventType, SourceNode, SourceName, Time, ..., TriggerId, Verdict, ResultFields)."""
    from asyncua import ua

    names_of: dict[int, tuple[Any, tuple[str, ...]]] = {}  # id(select clauses) -> (those clauses, the field names)
    last: dict[str, tuple[Any, Any]] = {}  # field name -> (its value at the last event, the Variant made for it)

    def to_event_fields(self, select_clauses):
        known = names_of.get(id(select_clauses))
        if known is None or known[0] is not select_clauses:
            if len(names_of) > 64:  # monitored items come and go: forget the old ones' clauses
                names_of.clear()
            known = names_of[id(select_clauses)] = (select_clauses, tuple(
                ua.AttributeIds(sattr.AttributeId).name if not sattr.BrowsePath
                else self.browse_path_to_attribute_name(sattr.BrowsePath) for sattr in select_clauses))
        fields = []
        for name in known[1]:
            value = getattr(self, name, None)
            made = last.get(name)
            if made is None or made[0] is not value:
                made = last[name] = (value, ua.Variant(None) if value is None
                                     else ua.Variant(value, self.data_types[name]))
            fields.append(made[1])
        return fields

    base = type(event)
    event.__class__ = type(base.__name__, (base,), {"to_event_fields": to_event_fields})


APPLICATION_URI = "urn:hangtag-station:line:server"


async def server_certificate(folder: Path, url: str) -> tuple[Path, Path]:
    """The server's certificate and key in `folder` (server_cert.der, server_key.pem), made self-signed for
    this host on first use; give the certificate to the PLC's OPC UA client to trust."""
    from urllib.parse import urlsplit

    from asyncua.crypto.cert_gen import setup_self_signed_certificate
    from cryptography.x509.oid import ExtendedKeyUsageOID

    folder.mkdir(parents=True, exist_ok=True)
    cert, key = folder / "server_cert.der", folder / "server_key.pem"
    host = urlsplit(url).hostname or "localhost"
    await setup_self_signed_certificate(key, cert, APPLICATION_URI, host, [ExtendedKeyUsageOID.SERVER_AUTH],
                                        {"commonName": "Hangtag Station", "organizationName": "Hangtag Station"})
    return cert, key


_UINT32 = {"StateCode", "ErrorCode", "ResultTriggerId", "TriggerId", "ResultCounter", "MissedTriggers", "LateAcks",
           "QueueLength", "JobIndex"}


def _variant(name: str, value: Any):
    from asyncua import ua

    if name in _UINT32:
        return ua.Variant(int(value), ua.VariantType.UInt32)
    if isinstance(value, bool):
        return ua.Variant(value, ua.VariantType.Boolean)
    return ua.Variant(str(value), ua.VariantType.String)


class _UserManager:
    def __init__(self, users: dict[str, str], anonymous: bool) -> None:
        self.users = users
        self.anonymous = anonymous

    def get_user(self, iserver, username=None, password=None, certificate=None):
        from asyncua.crypto.permission_rules import User, UserRole

        if username is None:  # anonymous (this server offers no certificate identities)
            return User(role=UserRole.User) if self.anonymous else None
        if username is not None and self.users.get(username) == password:
            return User(role=UserRole.User, name=username)
        return None
