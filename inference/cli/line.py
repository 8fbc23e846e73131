"""`hangtag-inspect line`: a headless station driven by the line's PLC over Modbus TCP, OPC UA and/or MQTT.

Each trigger inspects the next frame of --source (a camera's newest frame) with the job's recipe;
`--answer OK` skips the detector and answers every trigger at once (commissioning the wiring, or
measuring the handshake alone).

An inspecting station journals as the window does: each answered trigger is a frame row and a tag row under
the job and lot the PLC had selected, committed before the PLC sees the result, and every handshake event is
an event row naming its trigger and frame (`hangtag-inspect report --last` finds them).
"""

from __future__ import annotations

import argparse
import json
import signal
import sys
import threading
import time
from pathlib import Path

from inference.cli.common import add_model_options


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("line", help="run a headless station for a PLC (Modbus TCP, OPC UA, MQTT)")
    parser.add_argument("--modbus", metavar="HOST:PORT", help="serve the Modbus map here (e.g. 0.0.0.0:5020)")
    parser.add_argument("--modbus-plc", metavar="HOST:PORT",
                        help="be a Modbus client of the PLC instead: poll its command registers, write status into it")
    parser.add_argument("--plc-registers", type=int, nargs=2, default=(0, 100), metavar=("COMMAND", "STATUS"),
                        help="with --modbus-plc: the PLC's holding registers for commands and for status (0 100)")
    parser.add_argument("--plc-unit", type=int, default=1, help="with --modbus-plc: the PLC's unit id")
    parser.add_argument("--opcua", metavar="URL", help="serve OPC UA here (e.g. opc.tcp://0.0.0.0:4840/hangtag/)")
    parser.add_argument("--opcua-user", metavar="NAME",
                        help="OPC UA username; its password is read from HANGTAG_OPCUA_PASSWORD")
    parser.add_argument("--opcua-cert-dir", type=Path, metavar="DIR",
                        help="encrypt OPC UA (Basic256Sha256) with DIR/server_cert.der and server_key.pem, "
                             "made self-signed on first use")
    parser.add_argument("--opcua-anonymous", action="store_true", help="allow anonymous OPC UA clients")
    parser.add_argument("--mqtt", metavar="URL", help="publish to this broker (mqtt://HOST:PORT/TOPIC/BASE)")
    parser.add_argument("--source", help="image, folder, video or camera to inspect on each trigger")
    parser.add_argument("--recipe-dir", type=Path, help="folder of NN_name.toml recipes; NN is the job index")
    parser.add_argument("--recipe", type=Path, help="one recipe, loaded as job --job at start")
    parser.add_argument("--job", type=int, default=None, help="job index to load at start (default: the lowest)")
    parser.add_argument("--answer", choices=["OK", "NG", "REVIEW"], default=None,
                        help="answer every trigger with this verdict without inspecting (commissioning)")
    parser.add_argument("--no-read", action="store_true", help="detection only: skip reading the tags")
    parser.add_argument("--queue-depth", type=int, default=4, help="results kept until acknowledged")
    parser.add_argument("--ack-timeout", type=float, default=2.0, help="seconds before an unacked result is a fault")
    parser.add_argument("--inspect-budget", type=float, default=10.0,
                        help="seconds an inspection may take before the trigger is answered ERROR")
    parser.add_argument("--duration", type=float, default=0.0, help="stop after this many seconds (0 = Ctrl-C)")
    parser.add_argument("--events", type=Path, help="append every handshake event to this file (JSON lines)")
    parser.add_argument("--journal", type=Path, default=None,
                        help="journal file (default: the station's); nothing is journaled with --answer")
    parser.add_argument("--verbose", action="store_true", help="print every handshake event")
    add_model_options(parser)
    parser.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from inference.line.handshake import Config
    from inference.line.jobs import FrameInspection, RecipeFolder, job_loader
    from inference.line.station import LineError, LineStation, Outcome

    if not (args.modbus or args.modbus_plc or args.opcua or args.mqtt):
        raise LineError("no transport to the line", expected="--modbus, --modbus-plc, --opcua and/or --mqtt",
                        found="none of them", hint="e.g. hangtag-inspect line --modbus 127.0.0.1:5020 --answer OK")
    if args.answer is None and not args.source:
        raise LineError("nothing to inspect", expected="--source (image, folder, video, camera)",
                        found="no --source", hint="or --answer OK to commission the wiring without inspecting")
    folder = RecipeFolder(args.recipe_dir) if args.recipe_dir else None
    inspector = None
    close_inspection = None
    journal = None  # inference.line.journal.TriggerJournal, when inspecting
    if args.answer is not None:
        from inference.line.handshake import Verdict

        answer = Outcome(Verdict[args.answer])
        inspect = lambda start: answer  # noqa: E731
    else:
        from inference.cli.common import input_hw_from, thresholds_from
        from inference.inspection import Inspector

        options = {"thresholds": thresholds_from(args), "input_hw": input_hw_from(args)}
        if args.threads:
            options["threads"] = args.threads
        inspector = Inspector.open(args.model, args.backend, read=not args.no_read, **options)
        journal = _journal(args, inspector)
        inspection = FrameInspection(inspector, args.source, journal=journal)
        inspect = inspection
        close_inspection = inspection.close

    load_job = job_loader(folder, inspector)

    # the GIL is handed over every 5 ms by default: a transport thread busy in Python would hold a finished
    # inspection's hand-over that long; this process does little else, so switch more often
    sys.setswitchinterval(0.0005)
    station = LineStation(inspect, load_job=load_job,
                          config=Config(queue_depth=args.queue_depth, ack_timeout_s=args.ack_timeout),
                          inspect_budget_s=args.inspect_budget)
    console = _console(station, every_event=args.verbose)  # transport connection changes always, the rest with -v
    transports = []
    events = _event_journal(station, args.events) if args.events else None
    journaled = _journaled_events(station, journal) if journal is not None else None
    stop = _StopRequests().install()  # from here on SIGTERM and Ctrl-C end the run through the closing path below
    try:
        start_job = _initial_job(args, folder, inspector)
        station.start(job=start_job)
        from inference.line.transports import LineOptions, open_transports

        options = LineOptions(modbus=args.modbus or "", opcua=args.opcua or "", opcua_user=args.opcua_user or "",
                              opcua_anonymous=args.opcua_anonymous, mqtt=args.mqtt or "")
        transports.extend(open_transports(station, options, cert_dir=args.opcua_cert_dir))
        if args.modbus_plc:
            from inference.line.modbus import parse_host_port
            from inference.line.modbus_client import ModbusClientLink

            command, status = args.plc_registers
            transports.append(ModbusClientLink(station, *parse_host_port(args.modbus_plc), command_base=command,
                                               status_base=status, device_id=args.plc_unit).start())
        sig = station.signals()
        sys.stderr.write(f"line station {sig.state.value}: job {sig.job_index} {sig.job_name!r}\n")
        sys.stderr.flush()
        _wait(args.duration, stop)
    except KeyboardInterrupt:
        pass
    finally:
        stop.closing = True
        for transport in reversed(transports):
            transport.close()
        station.close()
        if events is not None:
            events.close()
        if journaled is not None:
            journaled.close()
        console.close()
        if close_inspection:
            close_inspection()
        if journal is not None:
            journal.close()
        if inspector is not None:
            inspector.close()
        stop.restore()
    sig = station.signals()
    if stop.by:
        print(f"stopped by {stop.by}", file=sys.stderr)
    print(f"stopped: {sig.result_counter} results, {sig.missed_triggers} missed triggers, {sig.late_acks} late acks, "
          f"last code {int(sig.code)} {sig.code.name}", file=sys.stderr)
    # trigger accepted -> result queued, inside the station: the inspection call and the rest (the handshake's share);
    # offered_ms: trigger accepted -> result put out by each transport that pushes it (OPC UA event, MQTT message)
    print(json.dumps({"results": sig.result_counter, "missed_triggers": sig.missed_triggers,
                      "late_acks": sig.late_acks, "not_recorded": journal.not_recorded if journal else 0,
                      "station_ms": station.stats.summary(),
                      "offered_ms": {name: stats.summary() for name, stats in station.offer_stats.items()}}))
    return 0


def _console(station, every_event: bool):
    """Events printed on an outbox thread: a stalled terminal never holds the handshake up."""
    from inference.line.breaker import Outbox

    def show(e) -> None:
        sys.stderr.write(f"{time.strftime('%H:%M:%S', time.localtime(e.wall))} {e.event:<16} {e.state:<16} "
                         f"code {e.code:<3} trigger {e.trigger_id} {e.detail}\n")  # one write: no interleaving
        sys.stderr.flush()

    outbox = Outbox("console", show)
    station.on_event(lambda e: outbox.put(e) if every_event or e.event.startswith("link ") else None)
    return outbox


def _event_journal(station, path: Path):
    """Every handshake event as a JSON line, written on its own thread (disk never holds the station up)."""
    from dataclasses import asdict

    from inference.line.breaker import Outbox

    path.parent.mkdir(parents=True, exist_ok=True)
    handle = path.open("a", encoding="utf-8")

    def write(entry) -> None:
        handle.write(json.dumps(asdict(entry), ensure_ascii=False) + "\n")
        handle.flush()

    class _Journal(Outbox):
        def close(self, timeout: float = 2.0) -> None:
            super().close(timeout)
            handle.close()

    outbox = _Journal("events", write)
    station.on_event(outbox.put)
    return outbox


def _journal(args, inspector):
    """The window's journaling for this station: the trigger's job (index and name) and lot name its rows."""
    from inference.line.journal import TriggerJournal, job_label
    from inference.records.station import StationRecords, session_key

    def session(start):
        return session_key(args.source, inspector, job=job_label(start.job_index, start.job_name), lot=start.lot)

    return TriggerJournal(StationRecords.open(args.journal, sys.stderr), session)


def _journaled_events(station, journal):
    """Every handshake event into the journal, on its own thread (disk never holds the station up)."""
    from inference.line.breaker import Outbox

    outbox = Outbox("line-journal", journal.note)
    station.on_event(outbox.put)
    return outbox


def _initial_job(args, folder, inspector) -> tuple[int, str] | None:
    from inference.reading import load_recipe

    if args.recipe is not None:
        recipe = load_recipe(args.recipe)
        if inspector is not None:
            inspector.recipe = recipe
        return (args.job or 1, getattr(recipe, "name", "") or args.recipe.stem)
    if folder is not None and folder.table:
        index = args.job if args.job is not None else min(folder.table)
        recipe = folder.load(index)
        if inspector is not None:
            inspector.recipe = recipe
        return (index, getattr(recipe, "name", "") or folder.table[index].stem)
    if args.answer is not None:
        return (args.job or 1, "commissioning")
    return None  # Preoperational until the PLC selects a job


class _StopRequests:
    """SIGTERM (systemctl stop, docker stop) and SIGINT (Ctrl-C) end the run through the same closing path: results
    flushed, transports closed, the journal's session ended normally. Killed by the default SIGTERM instead, the
    station left its session open and the next start closed it as "interrupted". A second signal before closing
    stops a start that hangs; signals while closing are ignored (every close is bounded), or the session's end is
    what they would cut short."""

    def __init__(self) -> None:
        self.event = threading.Event()
        self.by = ""
        self.closing = False
        self._previous: dict[int, object] = {}

    def install(self) -> _StopRequests:
        if threading.current_thread() is threading.main_thread():  # only the main thread may set handlers
            for signum in (signal.SIGTERM, signal.SIGINT):
                self._previous[signum] = signal.signal(signum, self._on_signal)
        return self

    def restore(self) -> None:
        for signum, handler in self._previous.items():
            signal.signal(signum, handler)
        self._previous.clear()

    def _on_signal(self, signum: int, frame: object) -> None:
        if self.closing:
            return
        if self.event.is_set():
            raise KeyboardInterrupt(signal.Signals(signum).name)
        self.by = signal.Signals(signum).name
        self.event.set()


def _wait(duration: float, stop: _StopRequests) -> None:
    end = time.monotonic() + duration if duration > 0 else float("inf")
    while not stop.event.is_set() and time.monotonic() < end:
        stop.event.wait(min(0.2, max(0.0, end - time.monotonic())))

