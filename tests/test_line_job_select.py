"""Job select is atomic with respect to the next trigger, with real clients: a trigger while the job loads is
refused with code 5 (TRIGGER_WHILE_LOADING) and counted as missed; the first trigger after the station is Ready
with the new job index is judged with the new recipe (the real detector and recipes over Modbus TCP; a held
load over Modbus TCP, OPC UA and MQTT)."""

from __future__ import annotations

import asyncio
import json
import threading
from pathlib import Path

import pytest

pytest.importorskip("pymodbus", reason="pymodbus is not installed (pip install -e .)")

from inference.line import modbus as mb  # noqa: E402
from inference.line.handshake import Code, Config, Verdict  # noqa: E402
from inference.line.jobs import FrameInspection, RecipeFolder, job_loader  # noqa: E402
from inference.line.station import JobNotFound, LineStation, Outcome  # noqa: E402
from tests.test_line_modbus import Plc, free_port, ready_bit, results_ready  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
COUNTS = '[recipe]\nname = "{name}"\n[counts]\nhangtag = {{ min = {low}, max = 999 }}\n'


def test_the_first_trigger_after_a_job_select_uses_the_new_recipe_with_the_real_detector(tmp_path):
    from inference.inspection import Inspector
    from inference.resources import default_model_path

    frames = tmp_path / "frames"
    frames.mkdir()
    sample = sorted((ROOT / "resources" / "samples").glob("*.jpg"))[0]
    (frames / sample.name).write_bytes(sample.read_bytes())
    jobs = tmp_path / "jobs"
    jobs.mkdir()
    (jobs / "01_any.toml").write_text(COUNTS.format(name="any", low=0), encoding="utf-8")
    (jobs / "02_crowd.toml").write_text(COUNTS.format(name="crowd", low=900), encoding="utf-8")  # never met: NG
    inspector = Inspector.open(default_model_path(), "onnxruntime-cpu", read=False, recipe_path=jobs / "01_any.toml")
    inspection = FrameInspection(inspector, str(frames))
    port = free_port()
    answers = []
    try:
        with LineStation(inspection, load_job=job_loader(RecipeFolder(jobs), inspector), inspect_budget_s=120,
                         config=Config(ack_timeout_s=120)).start(job=(1, "any")) as st, \
                mb.ModbusServer(st, "127.0.0.1", port):
            plc = Plc(port)
            try:
                for n, job in enumerate((1, 2, 1), start=1):
                    assert not plc.client.write_register(mb.HR_JOB, job).isError()
                    plc.wait_inputs(lambda r: r[mb.IR_JOB] == job and ready_bit(r), timeout=30)
                    plc.coil(mb.COIL_TRIGGER, True)  # at once
                    regs = plc.wait_inputs(lambda r: results_ready(r) and r[mb.IR_RESULT_ID] == n, timeout=120)
                    answers.append((job, regs[mb.IR_VERDICT]))
                    plc.coil(mb.COIL_TRIGGER, False)
                    assert not plc.client.write_register(mb.HR_ACK_ID, n).isError()
                    plc.wait_inputs(lambda r: not results_ready(r))
                missed = plc.inputs()[mb.IR_MISSED]
            finally:
                plc.close()
    finally:
        inspection.close()
        inspector.close()
    assert answers == [(1, int(Verdict.OK)), (2, int(Verdict.NG)), (1, int(Verdict.OK))]
    assert missed == 0


class HeldJobs:
    """A job load held open (a slow recipe folder) and an inspection that answers with the loaded job's verdict,
    as the headless station's inspector judges with the recipe `job_loader` gave it."""

    VERDICTS = {1: Verdict.OK, 2: Verdict.NG}

    def __init__(self) -> None:
        self.job = 1
        self.release = threading.Event()
        self.loading = threading.Event()

    def load(self, index: int) -> str:
        if index not in self.VERDICTS:
            raise JobNotFound(f"no recipe with job index {index}")
        self.loading.set()
        self.release.wait(10)
        self.job = index
        return f"job{index}"

    def inspect(self, start) -> Outcome:
        return Outcome(self.VERDICTS[self.job], (("job", str(self.job)),))

    def station(self) -> LineStation:
        return LineStation(self.inspect, load_job=self.load, config=Config(ack_timeout_s=10)).start(job=(1, "job1"))


def test_modbus_trigger_while_loading_is_refused_with_code_5_then_answered_under_the_new_job():
    jobs, port = HeldJobs(), free_port()
    with jobs.station() as st, mb.ModbusServer(st, "127.0.0.1", port):
        plc = Plc(port)
        try:
            assert not plc.client.write_register(mb.HR_JOB, 2).isError()
            plc.wait_inputs(lambda r: r[mb.IR_STATE] == 1)  # Loading, Ready off
            plc.coil(mb.COIL_TRIGGER, True)
            refused = plc.wait_inputs(lambda r: r[mb.IR_MISSED] == 1)
            plc.coil(mb.COIL_TRIGGER, False)
            jobs.release.set()
            plc.wait_inputs(lambda r: r[mb.IR_JOB] == 2 and ready_bit(r))
            plc.coil(mb.COIL_TRIGGER, True)
            answered = plc.wait_inputs(results_ready)
        finally:
            plc.close()
    assert refused[mb.IR_CODE] == Code.TRIGGER_WHILE_LOADING == 5 and refused[mb.IR_STATE] == 1
    assert not refused[mb.IR_STATUS] & 0b110  # neither Busy nor Results Ready: nothing was started
    assert answered[mb.IR_RESULT_ID] == 1 and answered[mb.IR_VERDICT] == int(Verdict.NG)


def test_opcua_start_single_job_while_loading_is_refused_with_code_5_then_answered_under_the_new_job():
    pytest.importorskip("asyncua", reason="asyncua is not installed (pip install -e .)")
    from asyncua import ua

    from inference.line.opcua import OpcUaServer
    from tests.test_line_opcua import USERS, connect, nodes, subscribe_results

    jobs = HeldJobs()
    url = f"opc.tcp://127.0.0.1:{free_port()}/hangtag/"

    async def plc():
        client = await connect(url)
        try:
            idx, obj = await nodes(client)
            results = await subscribe_results(client, obj, idx)
            assert await obj.call_method(f"{idx}:SelectRecipe", ua.Variant(2, ua.VariantType.UInt32))
            try:
                await obj.call_method(f"{idx}:StartSingleJob")
                refused = None
            except ua.UaStatusCodeError as exc:
                refused = exc.code
            code = await (await obj.get_child(f"{idx}:ErrorCode")).read_value()
            state = await (await obj.get_child(f"{idx}:State")).read_value()
            jobs.release.set()
            for _ in range(500):
                if await (await obj.get_child(f"{idx}:JobIndex")).read_value() == 2 and \
                        await (await obj.get_child(f"{idx}:Ready")).read_value():
                    break
                await asyncio.sleep(0.01)
            job_id = await obj.call_method(f"{idx}:StartSingleJob")
            tid, verdict, _ = await asyncio.wait_for(results.queue.get(), 10)
            return refused, code, state, job_id, tid, verdict
        finally:
            await client.disconnect()

    with jobs.station() as st, OpcUaServer(st, url, users=USERS):
        refused, code, state, job_id, tid, verdict = asyncio.run(plc())
        missed = st.signals().missed_triggers
    assert refused == ua.StatusCodes.BadInvalidState and code == Code.TRIGGER_WHILE_LOADING and state == "Loading"
    assert missed == 1 and job_id == tid == 1 and verdict == "NG"


def test_mqtt_trigger_while_loading_is_refused_with_code_5_then_answered_under_the_new_job(tmp_path):
    from tests.test_line_mqtt import MOSQUITTO, Plc as MqttPlc, broker

    if MOSQUITTO is None:
        pytest.skip("mosquitto is not installed (make system-deps installs it)")
    from inference.line.mqtt import MqttLink

    jobs = HeldJobs()
    with broker(tmp_path) as b, jobs.station() as st:
        plc = MqttPlc(b.port, "hangtag/jobs")
        link = MqttLink(st, f"mqtt://127.0.0.1:{b.port}/hangtag/jobs").start()
        try:
            assert link.connected.wait(10)
            plc.send({"cmd": "select_job", "index": 2})
            plc.next("signals", lambda p: json.loads(p)["state"] == "Loading")
            plc.send({"cmd": "trigger"})
            refused = json.loads(plc.next("signals", lambda p: json.loads(p)["missed_triggers"] == 1))
            jobs.release.set()
            plc.next("signals", lambda p: json.loads(p)["job_index"] == 2 and json.loads(p)["ready"])
            plc.send({"cmd": "trigger"})
            result = json.loads(plc.next("result"))
        finally:
            link.close()
            plc.close()
    assert refused["code"] == Code.TRIGGER_WHILE_LOADING and refused["code_name"] == "TRIGGER_WHILE_LOADING"
    assert refused["state"] == "Loading" and not refused["busy"]
    assert result["trigger_id"] == 1 and result["verdict"] == "NG" and result["job_index"] == 2
