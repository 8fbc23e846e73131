"""Every test writes its settings, caches, journals and archives under a temporary folder."""

from __future__ import annotations

import pytest


def pytest_configure(config):
    """Fixtures wider than a test (a module's Inspector) open before the per-test folder below exists: they get
    a folder of the session's own, never the user's data. A user's cache holds what the station built there (an
    INT8 text detector, which reads differently from the FP32 one the tests expect: two tests failed on it)."""
    import os
    import tempfile

    os.environ["HANGTAG_DATA_DIR"] = tempfile.mkdtemp(prefix="hangtag-test-session-")


def pytest_unconfigure(config):
    import os
    import shutil

    folder = os.environ.get("HANGTAG_DATA_DIR", "")
    if os.path.basename(folder).startswith("hangtag-test-session-"):
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(autouse=True)
def _isolated_user_data(tmp_path_factory, monkeypatch):
    monkeypatch.setenv("HANGTAG_DATA_DIR", str(tmp_path_factory.mktemp("user-data")))


@pytest.hookimpl(wrapper=True)
def pytest_runtest_teardown(item):
    """Finish destroying this test's windows before the next test starts.

    pytest-qt closes a test's widgets and calls deleteLater(); without this, the C++ objects die in
    the next test's first event loop while that test's worker threads are emitting signals, and a
    cyclic-garbage collection triggered on a worker thread can run Qt destructors off the GUI thread.
    Both have deadlocked a CI run (main thread waiting on the GIL inside a Qt destructor)."""
    result = yield
    import sys

    if "PySide6.QtCore" in sys.modules:
        import gc

        from PySide6.QtCore import QCoreApplication, QEvent

        if QCoreApplication.instance() is not None:
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
            gc.collect()
            QCoreApplication.sendPostedEvents(None, QEvent.Type.DeferredDelete.value)
    return result


@pytest.fixture(autouse=True)
def _garbage_collected_on_the_gui_thread_only(request):
    """In Qt tests, as in the station (app/main.py), no collection may start on a worker thread: it could
    run a Qt destructor there. Automatic collection is off for the test and done here, on the GUI thread."""
    if "qtbot" not in request.fixturenames:
        yield
        return
    import gc

    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        gc.collect()
        if was_enabled:
            gc.enable()


def pytest_sessionstart(session):
    """Tests that stop a station with Ctrl-C (SIGINT) need it delivered. A test run started in the
    background of a non-interactive shell (nohup, `cmd &`) inherits SIGINT ignored, and every station
    it spawns would inherit that too: give the run Python's own handler, so children get the default."""
    import signal

    if signal.getsignal(signal.SIGINT) is signal.SIG_IGN:
        signal.signal(signal.SIGINT, signal.default_int_handler)
