"""The station's OPC UA server against a real asyncua client (loopback only)."""

from __future__ import annotations

import asyncio
import socket
import threading
import time

import pytest

pytest.importorskip("asyncua", reason="asyncua is not installed (pip install -e .)")

from asyncua import Client, ua  # noqa: E402

from inference.line.handshake import Ack, Code, Config, Reset, State, Verdict  # noqa: E402
from inference.line.opcua import NAMESPACE, OpcUaServer, _UserManager  # noqa: E402
from inference.line.station import JobNotFound, LineError, LineStation, Outcome  # noqa: E402

USERS = {"line": "s3cret"}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Gate:
    """The stub inspection: instant, or held until released (for busy / disconnect cases)."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.open.set()

    def __call__(self, start) -> Outcome:
        self.open.wait(10)
        return Outcome(Verdict.OK if start.trigger_id % 2 else Verdict.NG, (("style", "polo"),))


def load_job(index: int) -> str:
    if index not in (1, 2):
        raise JobNotFound(f"no recipe with job index {index}")
    return ("polo", "shirt")[index - 1]


@pytest.fixture(scope="module")
def line():
    """One server for the module: asyncua builds its standard address space on every start (5-15 s here)."""
    gate = Gate()
    st = LineStation(gate, load_job=load_job, config=Config(ack_timeout_s=5.0)).start(job=(1, "polo"))
    url = f"opc.tcp://127.0.0.1:{free_port()}/hangtag/"
    with st, OpcUaServer(st, url, users=USERS) as srv:
        yield st, srv, gate


def settle(st: LineStation, gate: Gate) -> None:
    """Each test starts Ready with nothing queued (earlier tests' trigger ids stay: tests use relative ids)."""
    gate.open.set()
    wait_until(lambda: st.signals().state is not State.BUSY)
    while st.signals().results_ready:
        st.pulse(Ack)
    st.pulse(Reset)
    assert st.signals().state is State.READY, st.signals()


def wait_until(predicate, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, "condition not reached in time"
        time.sleep(0.01)


class Results:
    def __init__(self) -> None:
        self.queue: asyncio.Queue = asyncio.Queue()

    def event_notification(self, event) -> None:
        self.queue.put_nowait((event.TriggerId, event.Verdict, event.ResultFields))


async def connect(url: str, user: str | None = "line", password: str | None = "s3cret") -> Client:
    client = Client(url, timeout=5)
    if user:
        client.set_user(user)
        client.set_password(password)
    await client.connect()
    return client


async def nodes(client: Client):
    idx = await client.get_namespace_index(NAMESPACE)
    obj = await client.nodes.objects.get_child([f"{idx}:HangtagStation"])
    return idx, obj


async def subscribe_results(client: Client, obj, idx: int) -> Results:
    handler = Results()
    etype = await client.nodes.base_event_type.get_child([f"{idx}:ResultReadyEventType"])
    sub = await client.create_subscription(10, handler)
    await sub.subscribe_events(obj, etype)
    return handler


def test_start_single_job_returns_the_job_id_and_result_ready_carries_it(line):
    st, srv, gate = line
    settle(st, gate)

    async def plc(url):
        client = await connect(url)
        try:
            idx, obj = await nodes(client)
            results = await subscribe_results(client, obj, idx)
            got = []
            for _ in range(3):
                job_id = await obj.call_method(f"{idx}:StartSingleJob")
                trigger_id, verdict, fields = await asyncio.wait_for(results.queue.get(), 10)
                seen = await (await obj.get_child(f"{idx}:ResultTriggerId")).read_value()
                got.append((job_id, trigger_id, verdict, fields, seen))
                await obj.call_method(f"{idx}:AcknowledgeResult", ua.Variant(job_id, ua.VariantType.UInt32))
            ready = await (await obj.get_child(f"{idx}:ResultsReady")).read_value()
            return got, ready
        finally:
            await client.disconnect()

    first = st.signals().trigger_id + 1
    got, ready = asyncio.run(plc(srv.url))
    ids = [first, first + 1, first + 2]
    assert [g[0] for g in got] == ids  # StartSingleJob's job id
    assert [g[1] for g in got] == ids  # ResultReady's trigger id: the same job, never one late
    assert [g[4] for g in got] == ids  # ResultTriggerId variable, written before the event
    assert [g[2] for g in got] == ["OK" if i % 2 else "NG" for i in ids]
    assert all(g[3] == '{"style": "polo"}' for g in got)
    assert ready is False


def test_results_published_together_each_keep_their_own_fields(line):
    """The server shares event fields instead of asyncua's deep copies: three results raised before the client's
    next publish (interval 400 ms) must still arrive as three events, each with its own id, verdict and EventId."""
    st, srv, gate = line
    settle(st, gate)

    async def plc(url):
        client = await connect(url)
        try:
            idx, obj = await nodes(client)
            events = []

            class Handler:
                def event_notification(self, event) -> None:
                    events.append((event.TriggerId, event.Verdict, event.EventId))

            etype = await client.nodes.base_event_type.get_child([f"{idx}:ResultReadyEventType"])
            sub = await client.create_subscription(400, Handler())
            await sub.subscribe_events(obj, etype)
            ids = []
            counter = await obj.get_child(f"{idx}:ResultCounter")
            for _ in range(3):
                before = await counter.read_value()
                ids.append(await obj.call_method(f"{idx}:StartSingleJob"))
                deadline = time.monotonic() + 10
                while await counter.read_value() == before:  # this trigger's result is queued: the next may start
                    assert time.monotonic() < deadline
                    await asyncio.sleep(0.01)
            deadline = time.monotonic() + 10
            while len(events) < 3 and time.monotonic() < deadline:
                await asyncio.sleep(0.05)
            for job_id in ids:
                await obj.call_method(f"{idx}:AcknowledgeResult", ua.Variant(job_id, ua.VariantType.UInt32))
            return ids, events
        finally:
            await client.disconnect()

    ids, events = asyncio.run(plc(srv.url))
    assert [e[0] for e in events] == ids
    assert [e[1] for e in events] == ["OK" if i % 2 else "NG" for i in ids]
    assert len({e[2] for e in events}) == 3


def test_monitored_variables_report_every_result_and_unmonitored_ones_read_current(line):
    """The server stores a variable nobody monitors without asyncua's write path, and writes a monitored one
    through it: a PLC watching ResultTriggerId and ResultsReady by data change (not events) sees each result
    come and each ack clear it, while ResultCounter, which it only reads, reads the newest count."""
    st, srv, gate = line
    settle(st, gate)

    async def plc(url):
        client = await connect(url)
        try:
            idx, obj = await nodes(client)
            latest: dict[str, object] = {}
            changed = asyncio.Event()

            class Watch:
                def datachange_notification(self, node, value, data) -> None:
                    latest[names[node.nodeid]] = value
                    changed.set()

            watched = [await obj.get_child(f"{idx}:{name}") for name in ("ResultTriggerId", "ResultsReady")]
            names = {node.nodeid: name for node, name in zip(watched, ("ResultTriggerId", "ResultsReady"))}
            # a publishing interval, so the server sends keep-alives: with 0 it sends nothing between changes and
            # asyncua's client re-creates a subscription quiet for 1 s, which re-sends every value as it is now
            sub = await client.create_subscription(50, Watch())
            await sub.subscribe_data_change(watched)

            async def until(name, value):
                while latest.get(name) != value:
                    changed.clear()
                    await asyncio.wait_for(changed.wait(), 10)

            await until("ResultsReady", False)  # the initial values
            counter = await obj.get_child(f"{idx}:ResultCounter")
            counts = []
            for _ in range(3):
                job_id = await obj.call_method(f"{idx}:StartSingleJob")
                await until("ResultTriggerId", job_id)  # by data change alone, no event subscribed
                await until("ResultsReady", True)
                counts.append(await counter.read_value())
                await obj.call_method(f"{idx}:AcknowledgeResult", ua.Variant(job_id, ua.VariantType.UInt32))
                await until("ResultsReady", False)
            return counts
        finally:
            await client.disconnect()

    before = st.signals().result_counter
    assert asyncio.run(plc(srv.url)) == [before + 1, before + 2, before + 3]


def test_anonymous_and_a_wrong_password_are_refused(line):
    st, srv, gate = line

    async def try_connect(url, user, password):
        client = Client(url, timeout=5)
        if user:
            client.set_user(user)
            client.set_password(password)
        try:
            await client.connect()
        except Exception as exc:
            return type(exc).__name__
        await client.disconnect()
        return "connected"

    assert asyncio.run(try_connect(srv.url, None, None)) != "connected"
    assert asyncio.run(try_connect(srv.url, "line", "wrong")) != "connected"
    assert asyncio.run(try_connect(srv.url, "line", "s3cret")) == "connected"


@pytest.mark.parametrize("users,anonymous,username,password,allowed", [
    ({"line": "pw"}, False, None, None, False), ({"line": "pw"}, True, None, None, True),
    ({"line": "pw"}, True, "line", "nope", False), ({"line": "pw"}, False, "line", "pw", True),
])
def test_user_manager(users, anonymous, username, password, allowed):
    user = _UserManager(users, anonymous).get_user(None, username=username, password=password)
    assert (user is not None) is allowed


def test_no_users_and_no_anonymous_is_refused_with_a_hint():
    st = LineStation(Gate())
    with pytest.raises(LineError, match="hint"):
        OpcUaServer(st, "opc.tcp://127.0.0.1:4840/", users=None, anonymous=False)


def test_select_recipe_and_a_missing_one(line):
    st, srv, gate = line
    settle(st, gate)

    async def plc(url):
        client = await connect(url)
        try:
            idx, obj = await nodes(client)
            await obj.call_method(f"{idx}:SelectRecipe", ua.Variant(2, ua.VariantType.UInt32))
            for _ in range(500):
                if await (await obj.get_child(f"{idx}:JobName")).read_value() == "shirt":
                    break
                await asyncio.sleep(0.01)
            await obj.call_method(f"{idx}:SelectRecipe", ua.Variant(9, ua.VariantType.UInt32))
            for _ in range(500):
                if await (await obj.get_child(f"{idx}:Error")).read_value():
                    break
                await asyncio.sleep(0.01)
            code = await (await obj.get_child(f"{idx}:ErrorCode")).read_value()
            job = await (await obj.get_child(f"{idx}:JobIndex")).read_value()
            try:
                await obj.call_method(f"{idx}:StartSingleJob")
                refused = False
            except ua.UaStatusCodeError:
                refused = True
            await obj.call_method(f"{idx}:ResetError")
            job_id = await obj.call_method(f"{idx}:StartSingleJob")
            return code, job, refused, job_id
        finally:
            await client.disconnect()

    before = st.signals().trigger_id
    code, job, refused, job_id = asyncio.run(plc(srv.url))
    assert code == Code.RECIPE_NOT_FOUND and job == 2 and refused and job_id == before + 1


def test_start_single_job_while_busy_is_refused_and_counted(line):
    st, srv, gate = line
    settle(st, gate)
    gate.open.clear()

    async def plc(url):
        client = await connect(url)
        try:
            idx, obj = await nodes(client)
            first = await obj.call_method(f"{idx}:StartSingleJob")
            with pytest.raises(ua.UaStatusCodeError):
                await obj.call_method(f"{idx}:StartSingleJob")
            missed = await (await obj.get_child(f"{idx}:MissedTriggers")).read_value()
            code = await (await obj.get_child(f"{idx}:ErrorCode")).read_value()
            gate.open.set()
            return first, missed, code
        finally:
            await client.disconnect()

    missed_before = st.signals().missed_triggers
    first, missed, code = asyncio.run(plc(srv.url))
    assert first == st.signals().trigger_id and missed == missed_before + 1 and code == Code.TRIGGER_WHILE_BUSY
    wait_until(lambda: st.signals().result_trigger_id == first)


def test_client_gone_mid_cycle_loses_nothing(line):
    st, srv, gate = line
    settle(st, gate)
    gate.open.clear()

    async def trigger_and_leave(url):
        client = await connect(url)
        idx, obj = await nodes(client)
        job_id = await obj.call_method(f"{idx}:StartSingleJob")
        await client.disconnect()
        return job_id

    async def come_back(url):
        client = await connect(url)
        try:
            idx, obj = await nodes(client)
            for _ in range(500):
                if await (await obj.get_child(f"{idx}:ResultsReady")).read_value():
                    break
                await asyncio.sleep(0.01)
            return (await (await obj.get_child(f"{idx}:ResultTriggerId")).read_value(),
                    await (await obj.get_child(f"{idx}:Verdict")).read_value())
        finally:
            await client.disconnect()

    job_id = asyncio.run(trigger_and_leave(srv.url))
    # noticed at the next count (CLIENT_POLL_S); the link may already read "no client connected" from an earlier
    # test's client, so wait for the code, not the text
    wait_until(lambda: st.signals().code == Code.PLC_DISCONNECTED)
    assert "no client connected" in st.links["opcua"] and st.signals().busy  # a warning: the inspection goes on
    gate.open.set()  # the inspection finishes while no client is connected
    assert asyncio.run(come_back(srv.url)) == (job_id, "OK" if job_id % 2 else "NG")


def test_certificates_encrypt_the_channel_and_the_none_policy_is_gone(tmp_path):
    from asyncua.crypto.cert_gen import setup_self_signed_certificate
    from asyncua.crypto.security_policies import SecurityPolicyBasic256Sha256
    from cryptography.x509.oid import ExtendedKeyUsageOID

    client_cert, client_key = tmp_path / "client_cert.der", tmp_path / "client_key.pem"
    asyncio.run(setup_self_signed_certificate(client_key, client_cert, "urn:plc:client", "localhost",
                                              [ExtendedKeyUsageOID.CLIENT_AUTH], {"commonName": "plc"}))

    async def secure(url):
        client = Client(url, timeout=10)
        client.application_uri = "urn:plc:client"
        await client.set_security(SecurityPolicyBasic256Sha256, str(client_cert), str(client_key))
        client.set_user("line")
        client.set_password("s3cret")
        await client.connect()
        try:
            idx, obj = await nodes(client)
            return await obj.call_method(f"{idx}:StartSingleJob")
        finally:
            await client.disconnect()

    async def plain(url):
        try:
            await (await connect(url)).disconnect()
        except Exception as exc:
            return type(exc).__name__
        return "connected"

    st = LineStation(Gate()).start(job=(1, "polo"))
    url = f"opc.tcp://127.0.0.1:{free_port()}/hangtag/"
    with st, OpcUaServer(st, url, users=USERS, cert_dir=tmp_path / "server") as srv:
        assert asyncio.run(secure(srv.url)) == 1
        assert asyncio.run(plain(srv.url)) != "connected"
    assert (tmp_path / "server" / "server_cert.der").stat().st_size > 500


@pytest.mark.parametrize("call,code", [
    ("SetLot", Code.MALFORMED_WRITE),            # a lot no PLC should send: unprintable and over 64 characters
    ("AcknowledgeResult", Code.ACK_MISMATCH),     # an ack naming a result that is not the oldest
])
def test_a_bad_call_is_refused_latches_its_code_and_keeps_the_result(line, call, code):
    st, srv, gate = line
    settle(st, gate)

    async def plc(url):
        client = await connect(url)
        try:
            idx, obj = await nodes(client)
            job_id = await obj.call_method(f"{idx}:StartSingleJob")
            for _ in range(500):
                if await (await obj.get_child(f"{idx}:ResultsReady")).read_value():
                    break
                await asyncio.sleep(0.01)
            args = ["\x07" * 70] if call == "SetLot" else [ua.Variant(job_id + 7, ua.VariantType.UInt32)]
            with pytest.raises(ua.UaStatusCodeError):
                await obj.call_method(f"{idx}:{call}", *args)
            read = {name: await (await obj.get_child(f"{idx}:{name}")).read_value()
                    for name in ("State", "ErrorCode", "ResultsReady", "ResultTriggerId")}
            await obj.call_method(f"{idx}:ResetError")
            await obj.call_method(f"{idx}:AcknowledgeResult", ua.Variant(job_id, ua.VariantType.UInt32))
            return job_id, read
        finally:
            await client.disconnect()

    job_id, read = asyncio.run(plc(srv.url))
    assert read == {"State": "Error", "ErrorCode": int(code), "ResultsReady": True, "ResultTriggerId": job_id}
    wait_until(lambda: st.signals().state is State.READY and not st.signals().results_ready)


def test_plc_sim_plays_the_plc_over_opc_ua(line, monkeypatch, capsys):
    """`hangtag-inspect plc-sim --opcua` (method node ids resolved once, events published as raised) against the
    station's server: every cycle answered with its own trigger id and acknowledged."""
    import json

    from inference.cli import main

    st, srv, gate = line
    settle(st, gate)
    monkeypatch.setenv("HANGTAG_OPCUA_PASSWORD", USERS["line"])
    first = st.signals().trigger_id + 1
    assert main(["plc-sim", "--opcua", srv.url, "--user", "line", "--count", "6", "--warmup", "1"]) == 0
    summary = json.loads(capsys.readouterr().out)
    assert summary["cycles"] == 6 and sum(summary["verdicts"].values()) == 6
    assert summary["verdicts"] == {"OK": 3, "NG": 3}  # the stub answers odd trigger ids OK, even NG
    assert st.signals().trigger_id == first + 6 and st.signals().queue_length == 0
