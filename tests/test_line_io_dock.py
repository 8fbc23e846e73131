"""The I/O dock renders a live LineStation: lamps, counters, connection state and the event timeline."""

from __future__ import annotations

import re
import threading

import pytest

pytest.importorskip("PySide6")

from app.widgets.io_dock import IoDock  # noqa: E402
from inference.line.handshake import Ack, Trigger, Verdict  # noqa: E402
from inference.line.station import LineStation, Outcome  # noqa: E402
from tests.colours import contrast


def test_the_dock_follows_a_trigger_through_to_its_ack(qtbot):
    release = threading.Event()

    def held(start):
        release.wait(5)
        return Outcome(Verdict.NG)

    with LineStation(held).start(job=(3, "polo")) as station:
        dock = IoDock(station, refresh_hz=50)
        qtbot.addWidget(dock)
        station.set_link("modbus", "1 PLC connection(s) on 127.0.0.1:5020")
        station.pulse(Trigger)
        qtbot.waitUntil(lambda: dock.fields["state"].text() == "SingleExecution", timeout=5000)
        assert "#f9ab00" in dock.lamps["busy"].styleSheet()
        station.pulse(Trigger)  # while busy: missed, shown in red
        qtbot.waitUntil(lambda: dock.fields["missed"].text() == "1", timeout=5000)
        assert "#c5221f" in dock.fields["missed"].styleSheet()  # the light theme's NG text red
        release.set()
        qtbot.waitUntil(lambda: dock.fields["result"].text() == "1 NG", timeout=5000)
        assert "#d93025" in dock.lamps["ng"].styleSheet() and "#dadce0" in dock.lamps["ok"].styleSheet()  # a lamp's fill
        station.pulse(Ack)
        qtbot.waitUntil(lambda: dock.fields["result"].text() == "—", timeout=5000)
        assert dock.fields["job"].text() == "3 polo"
        assert "modbus: 1 PLC connection(s)" in dock.links.text()
        timeline = dock.timeline.toPlainText()
    events = [line.split()[1] for line in timeline.splitlines()]
    assert events[:1] == ["JobLoaded"]
    order = [e for e in events if e in ("Trigger", "InspectionDone", "Ack")]
    assert order == ["Trigger", "Trigger", "InspectionDone", "Ack"]
    assert "result trigger 1 NG" in timeline and "code 1" in timeline  # the missed trigger's warning code


def test_a_timeline_filled_before_the_dock_is_shown_starts_at_its_time_stamps(qtbot):
    with LineStation(lambda start: Outcome(Verdict.OK)).start(job=(1, "polo")) as station:
        station.set_link("modbus", "listening on 127.0.0.1:5020, no PLC connected, " + "a long detail " * 8)
        dock = IoDock(station, refresh_hz=50)  # the window builds it tabbed behind Tag text: filled while hidden
        qtbot.addWidget(dock)
        qtbot.waitUntil(lambda: "link modbus" in dock.timeline.toPlainText(), timeout=5000)
        dock.resize(420, 500)
        dock.show()
        qtbot.waitExposed(dock)
        bar = dock.timeline.horizontalScrollBar()
        assert bar.maximum() > 0 and bar.value() == 0  # the lines are wider than the dock, seen from their start


def test_a_long_job_name_or_lot_is_elided_and_never_widens_the_dock(qtbot):
    """The job row is the index and the recipe's name; at 1280x720 'Example: MUJIAN men's casual trousers
    V2185-00, 米白, 170/88A' already reached the dock's edge, and a longer one pushed the window wider."""
    name = "Example: MUJIAN men's casual trousers V2185-00, 米白, 170/88A, " * 4
    with LineStation(lambda start: Outcome(Verdict.OK)).start(job=(1, name)) as station:
        dock = IoDock(station, refresh_hz=50)
        qtbot.addWidget(dock)
        dock.resize(440, 500)
        dock.show()
        qtbot.waitUntil(lambda: dock.fields["job"].text().startswith("1 Example"), timeout=5000)
        label = dock.fields["job"]
        assert dock.minimumSizeHint().width() <= 440
        assert label.elided() != label.text() and label.elided().endswith("…")
        assert label.toolTip() == label.text() == f"1 {name}".strip()  # the whole name, on hover


@pytest.mark.parametrize("dark, colour, ratio", [
    (True, "#f28b82", 5.8),  # the banner's #d93025 as text was 2.9:1 on the dark window #2b2d31
    (False, "#c5221f", 5.0),
])
def test_the_missed_triggers_alarm_is_readable_on_each_theme_and_after_a_change(qtbot, dark, colour, ratio):
    from PySide6.QtGui import QColor, QPalette
    from PySide6.QtWidgets import QApplication

    from app.theme import apply_theme

    app = QApplication.instance()
    before = app.palette()
    release = threading.Event()
    try:
        with LineStation(lambda start: (release.wait(5), Outcome(Verdict.OK))[1]).start(job=(1, "polo")) as station:
            apply_theme(app, not dark)  # the alarm is raised on the other theme, then the operator switches
            dock = IoDock(station, refresh_hz=50)
            qtbot.addWidget(dock)
            station.pulse(Trigger)
            qtbot.waitUntil(lambda: dock.fields["state"].text() == "SingleExecution", timeout=5000)
            station.pulse(Trigger)
            qtbot.waitUntil(lambda: dock.fields["missed"].text() == "1", timeout=5000)
            apply_theme(app, dark)
            shown = re.search(r"color:\s*(#[0-9a-fA-F]{6})", dock.fields["missed"].styleSheet()).group(1)
            window = app.palette().color(QPalette.ColorRole.Window)
            assert shown.lower() == colour
            assert contrast(QColor(shown), window) >= ratio - 0.05, window.name()
            release.set()
    finally:
        release.set()
        app.setPalette(before)
