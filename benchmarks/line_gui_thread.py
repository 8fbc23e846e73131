"""What the window's GUI thread costs on a moving line, before and after a change, as a ratio in one run.

Per-tag mode, reading on, a conveyor recording replayed as a live camera (as app/line_ui_bench.py). The run is cut
into phases of --phase seconds that take turns: "before" also redraws the latency plots while their dock is tabbed
behind Tag text (what PlotsPanel.refresh did until it checked that any of it is on screen: the same 20 Hz draw),
"after" does not (or, with --compare switch, the GIL switch interval; with --compare nice, the work threads at the
GUI thread's priority, as before app.thread_priority, or below it, as the station now starts them; with --compare
collect, none (before) or a full garbage collection every --collect-frames frames on the inspection worker's thread,
as the headless station runs one, timed). Per phase: the
GUI thread's own CPU time (time.thread_time, sampled on that thread) and how late a 5 ms probe timer fired. Both
kinds of phase share the machine's load, so their ratio holds where the absolute numbers do not. Before the line
starts and after it ended, the same window idle (engine loaded, nothing running) is measured by the same probe
(--idle-s): whether this machine's load alone makes the event loop late.

    QT_QPA_PLATFORM=offscreen python benchmarks/line_gui_thread.py --source camera:datasets/line/s1.25/line.avi \
        --recipe datasets/line/s1.25/recipe.toml --seconds 32 --phase 4 --belt-px-per-frame 30.48 [--compare nice]

`line_run` pools both kinds of phase: with --compare none it is the window's lateness over the whole line run.
"""

from __future__ import annotations

import argparse
import os
import sys
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from app.line_ui_bench import open_line_window  # noqa: E402
from app.thread_priority import WORK_NICE  # noqa: E402
from app.ui_bench import _percentiles, _report, _wait  # noqa: E402


def _run_until(predicate, timeout_s: float) -> None:
    """The window's own event loop (as app.exec runs it), left when `predicate` holds or after `timeout_s`: a
    processEvents-and-sleep loop would itself wake the GUI thread every millisecond and take its share."""
    from PySide6.QtCore import QEventLoop, QTimer

    loop = QEventLoop()
    deadline = time.perf_counter() + timeout_s
    check = QTimer()
    check.setInterval(100)
    check.timeout.connect(lambda: loop.quit() if predicate() or time.perf_counter() > deadline else None)
    check.start()
    loop.exec()
    check.stop()


def _thread_nices() -> dict[int, int]:
    """Every thread of this process but the calling (GUI) one, and its nice value (Linux: nice is per thread)."""
    me, nices = threading.get_native_id(), {}
    for tid in map(int, os.listdir("/proc/self/task")):
        if tid != me:
            try:
                nices[tid] = os.getpriority(os.PRIO_PROCESS, tid)
            except OSError:  # the thread ended meanwhile
                pass
    return nices


def _count_by_nice(nices: dict[int, int]) -> dict[str, int]:
    """How many of the process's other threads run at each nice value (what the station set, seen from outside)."""
    counts: dict[str, int] = {}
    for nice in nices.values():
        counts[str(nice)] = counts.get(str(nice), 0) + 1
    return counts


def _set_nices(nices: dict[int, int]) -> None:
    for tid, nice in nices.items():
        try:
            os.setpriority(os.PRIO_PROCESS, tid, nice)
        except OSError:
            pass


def _collect_on_the_worker(window, state: dict, every: int, collections: dict[str, list[float]]) -> None:
    """In "after" phases, a full collection every `every` frames on the inspection worker's own thread (the slot is
    connected directly, so it runs where frame_done is emitted), each timed; and every full collection Python runs
    by itself meanwhile (its oldest generation), timed through gc.callbacks, in either kind of phase."""
    import gc

    from PySide6.QtCore import Qt

    seen, ours = [0], threading.local()

    def after_frame(_image, _result) -> None:
        if state["kind"] != "after":
            return
        seen[0] += 1
        if seen[0] % every == 0:
            ours.collecting = True
            start = time.perf_counter()
            gc.collect()
            collections["after"].append((time.perf_counter() - start) * 1000)
            ours.collecting = False

    started: dict[int, float] = {}

    def full_collection(phase: str, info: dict) -> None:
        if info["generation"] != 2 or getattr(ours, "collecting", False):
            return
        if phase == "start":
            started[threading.get_ident()] = time.perf_counter()
        elif threading.get_ident() in started:
            collections["full_by_python"].append((time.perf_counter() - started.pop(threading.get_ident())) * 1000)

    gc.callbacks.append(full_collection)
    window.worker.frame_done.connect(after_frame, Qt.ConnectionType.DirectConnection)


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    parser = argparse.ArgumentParser(prog="python benchmarks/line_gui_thread.py")
    parser.add_argument("--source", required=True)
    parser.add_argument("--recipe", type=Path, required=True)
    parser.add_argument("--seconds", type=float, default=32.0)
    parser.add_argument("--phase", type=float, default=4.0, help="seconds of each phase (before, after, before…)")
    parser.add_argument("--belt-px-per-frame", type=float, default=0.0)
    parser.add_argument("--compare", choices=("plots", "switch", "nice", "filter", "collect", "none"), default="plots",
                        help="plots: hidden latency plots redrawn (before) or not (after); switch: the interpreter's "
                             "GIL switch interval 5 ms (Python's default, before) or --switch-ms (after); nice: every thread but the GUI thread at the GUI thread's nice (before, as "
                             "until app.thread_priority) or where the station put it (after; a thread started meanwhile: "
                             "WORK_NICE below the GUI thread; lowering nice needs root); filter: the Space key's filter also "
                             "on the whole application (before, as until it watched spin boxes only) or not; collect: "
                             "the window as it is (before) or a full gc.collect() every --collect-frames frames on the "
                             "inspection worker's thread (after); none: both "
                             "kinds of phase alike (the line run as it is)")
    parser.add_argument("--idle-s", type=float, default=8.0,
                        help="seconds of the same window idle (engine loaded, no source running) measured before the "
                             "line starts and again after it ended: the baseline at this machine's load")
    parser.add_argument("--switch-ms", type=float, default=1.0)
    parser.add_argument("--collect-frames", type=int, default=25, help="--compare collect: frames between collections")
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args(argv)

    from PySide6.QtCore import QElapsedTimer, QTimer

    app, tmp, window = open_line_window("hangtag-gui-thread-", args.source, args.recipe, args.belt_px_per_frame)
    panel = window.plots
    assert panel.visibleRegion().isEmpty(), "the plots must be tabbed behind Tag text for this comparison"

    def hidden_redraw() -> None:  # the old refresh: drawn whether or not any of it is on screen
        if panel._dirty:
            panel._dirty = False
            panel._draw()

    before = QTimer()
    before.setInterval(panel.timer.interval())
    before.timeout.connect(hidden_redraw)
    phases: dict[str, dict[str, list[float]]] = {k: {"lateness": [], "cpu": [], "wall": [], "frames": []}
                                                 for k in ("idle", "before", "after")}
    state = {"kind": "before", "cpu": time.thread_time(), "wall": time.perf_counter(), "frames": 0, "last": 0.0}
    clock = QElapsedTimer()
    probe = QTimer()
    probe.setInterval(5)

    def tick() -> None:
        now = clock.nsecsElapsed() / 1e6
        if state["last"]:
            phases[state["kind"]]["lateness"].append(max(0.0, now - state["last"] - 5))
        state["last"] = now

    def switch() -> None:
        kind = state["kind"]
        phases[kind]["cpu"].append(time.thread_time() - state["cpu"])
        phases[kind]["wall"].append(time.perf_counter() - state["wall"])
        phases[kind]["frames"].append(window.results.total - state["frames"])
        state.update(kind="after" if kind == "before" else "before", cpu=time.thread_time(),
                     wall=time.perf_counter(), frames=window.results.total)
        apply(state["kind"])

    def apply(kind: str) -> None:
        if args.compare == "none":
            return
        if args.compare == "filter":  # the window's Space filter on every event of the application, or not at all
            (app.installEventFilter if kind == "before" else app.removeEventFilter)(window._space)
        elif args.compare == "nice":
            station = state.setdefault("station_nices", _thread_nices())
            gui = os.getpriority(os.PRIO_PROCESS, threading.get_native_id())
            now = _thread_nices()
            _set_nices({tid: gui for tid in now} if kind == "before"
                       else {tid: station.get(tid, min(19, gui + WORK_NICE)) for tid in now})
        elif args.compare == "plots":
            (before.start if kind == "before" else before.stop)()
        else:
            sys.setswitchinterval(0.005 if kind == "before" else args.switch_ms / 1000)

    def idle(seconds: float) -> None:
        """The window with nothing running, measured by the same probe: what this machine's load alone costs."""
        state.update(kind="idle", cpu=time.thread_time(), wall=time.perf_counter(), frames=window.results.total, last=0.0)
        _run_until(lambda: False, seconds)
        phases["idle"]["cpu"].append(time.thread_time() - state["cpu"])
        phases["idle"]["wall"].append(time.perf_counter() - state["wall"])
        phases["idle"]["frames"].append(0)

    collections: dict[str, list[float]] = {"after": [], "full_by_python": []}
    if args.compare == "collect":
        _collect_on_the_worker(window, state, args.collect_frames, collections)
    probe.timeout.connect(tick)
    phase_timer = QTimer()
    phase_timer.setInterval(int(args.phase * 1000))
    phase_timer.timeout.connect(switch)
    clock.start()
    probe.start()
    loads = [os.getloadavg()[0]]
    if args.idle_s:
        idle(args.idle_s)
    state.update(kind="before", cpu=time.thread_time(), wall=time.perf_counter(), frames=window.results.total, last=0.0)
    apply("before")
    phase_timer.start()
    started = time.perf_counter()
    # opened again now: a camera's grabber streams from its opening, so the replay opened with the window would have
    # spent the engine's load and the idle spell (the recording's first seconds, its first tags) before Start
    window.open_source(args.source)
    window.start()
    _run_until(lambda: not window.source_bar.running and time.perf_counter() - started > 2, args.seconds)
    phase_timer.stop()
    switch()
    before.stop()
    window.stop()
    _wait(app, lambda: not window.source_bar.running, 10)
    sys.setswitchinterval(0.005)
    loads.append(os.getloadavg()[0])
    if args.idle_s:
        _run_until(lambda: False, 3.0)  # the tags still in view are finished on the worker's thread
        idle(args.idle_s)
    probe.stop()
    result = {"source": args.source, "compare": args.compare, "phase_s": args.phase,
              "load_average": [round(v, 2) for v in loads + [os.getloadavg()[0]]],
              "date": time.strftime("%Y-%m-%d %H:%M"),
              "other_threads_by_nice": _count_by_nice(state.get("station_nices") or _thread_nices())}
    for kind, p in phases.items():
        if not p["wall"]:
            continue
        wall, cpu = sum(p["wall"]), sum(p["cpu"])
        result[kind] = {"phases": len(p["wall"]), "wall_s": round(wall, 1), "frames": int(sum(p["frames"])),
                        "gui_cpu_share": round(cpu / wall, 4) if wall else None,
                        "gui_cpu_ms_per_frame": round(1000 * cpu / max(1, sum(p["frames"])), 2),
                        "lateness_ms": _percentiles(p["lateness"])}
    if args.compare == "collect":  # each collection holds the GIL: the GUI thread cannot run meanwhile
        result["worker_collections_ms"] = _percentiles(collections["after"])
        result["python_full_collections_ms"] = _percentiles(collections["full_by_python"])
    # the whole line run, both kinds of phase together (with --compare none: the window as it is), and the tags the
    # window finished by the end of the second idle spell
    result["line_run"] = {"lateness_ms": _percentiles(phases["before"]["lateness"] + phases["after"]["lateness"]),
                          "frames": int(sum(phases["before"]["frames"]) + sum(phases["after"]["frames"])),
                          "tags_finished": sum(window.line.model.counts.values()),
                          "tag_counts": dict(window.line.model.counts)}
    b, a = result["before"], result["after"]
    result["ratio_after_over_before"] = {
        "gui_cpu_share": round(a["gui_cpu_share"] / b["gui_cpu_share"], 3) if b["gui_cpu_share"] else None,
        "lateness_p99": round(a["lateness_ms"]["p99"] / b["lateness_ms"]["p99"], 3) if b["lateness_ms"]["p99"] else None}
    window.close()
    return _report(result, args.json)


if __name__ == "__main__":
    raise SystemExit(main())
