"""Start the station: a window when there is a display, the same inspection headless when not."""

from __future__ import annotations

import argparse
import multiprocessing
import sys
from pathlib import Path

from inference.resources import default_model_path, resource_path, samples_dir


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(prog="hangtag-station", description="Hangtag Station")
    parser.add_argument("--source", default=None, help="folder, image, video, camera index or URL")
    parser.add_argument("--model", type=Path, default=None,
                        help="ONNX detector (default: the one adopted in Adapt, else the shipped one)")
    parser.add_argument("--backend", default=None)
    parser.add_argument("--recipe", type=Path, default=None, help="recipe TOML for verdicts")
    parser.add_argument("--headless", action="store_true", help="no window: print results")
    parser.add_argument("--no-read", action="store_true", help="detection only: do not read the tags")
    parser.add_argument("--self-test", action="store_true",
                        help="inspect the bundled samples, write and check a report, exit 0 or 1 with the reason")
    parser.add_argument("--keep", action="store_true",
                        help="with --self-test: keep its work folder (report, journal) and print where it is")
    parser.add_argument("--version", action="store_true", help="print the station's and libraries' versions")
    from app.plc_link import add_line_arguments

    add_line_arguments(parser)
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    multiprocessing.freeze_support()
    args = parse_args(argv)
    if args.version:
        from app.versions import version_text

        print(version_text())
        return 0
    if args.self_test:
        from app.self_test import run_self_test

        return run_self_test(model=args.model or default_model_path(), backend=args.backend, recipe=args.recipe,
                             samples=Path(args.source) if args.source else None, read=not args.no_read,
                             keep=args.keep)
    if args.model is None:
        from inference.adapt.models import ModelStore

        try:
            args.model = ModelStore().path_in_use()
        except OSError:  # the data folder is unusable: the shipped model, and the station says so at start
            args.model = default_model_path()
    from app.versions import backends_text

    print(f"Backends: {backends_text()}", flush=True)
    from app.platform_check import has_display, install_hint, missing_xcb_libraries

    source = args.source or str(samples_dir())
    if args.headless or not has_display():
        if not args.headless:
            print("No display found (DISPLAY/WAYLAND_DISPLAY unset): running the same inspection headless.\n"
                  "To see the window, run on a desktop session or under `xvfb-run -a make run`.", flush=True)
        from app.plc_link import headless_line_argv

        line_argv = headless_line_argv(args, source)
        if line_argv:  # on a line: the PLC's triggers drive the inspection (hangtag-inspect line)
            from inference.cli import main as cli_main

            return cli_main(line_argv)
        from app.headless import run_headless

        return run_headless(source, args.model, args.backend, args.recipe, read=not args.no_read)
    missing = missing_xcb_libraries()
    if missing:
        print("Qt's xcb platform plugin cannot load: these system libraries are missing:\n  "
              + "\n  ".join(missing) + f"\nInstall them with:\n  {install_hint(missing)}\n"
              "Running the same inspection headless instead.", file=sys.stderr, flush=True)
        from app.headless import run_headless

        return run_headless(source, args.model, args.backend, args.recipe, read=not args.no_read)
    return run_window(args)


def window_source(args: argparse.Namespace, last_source: str) -> str:
    """The command line's source, else the last session's, else the bundled samples: a restart opened the samples
    under the job's recipe, which does survive one."""
    return args.source or last_source or str(samples_dir())


def run_window(args: argparse.Namespace) -> int:
    from PySide6.QtGui import QIcon
    from PySide6.QtWidgets import QApplication
    from pyqtgraph.util.garbage_collector import GarbageCollector

    from app.main_window import MainWindow
    from app.theme import apply_theme, register_fonts

    app = QApplication.instance() or QApplication(sys.argv[:1])
    app.setApplicationName("Hangtag Station")
    app.setWindowIcon(QIcon(str(resource_path("icons", "hangtag_station.png"))))
    register_fonts()
    from app.settings import StationSettings

    settings = StationSettings()
    window = MainWindow(model=args.model, source=window_source(args, settings.last_source), backend=args.backend,
                        recipe=args.recipe, settings=settings, read=not args.no_read,
                        autostart=args.source is not None, plc=args)
    apply_theme(app, window.dark_action.isChecked())
    show_station(window)
    close_on_signals(window)
    # Cyclic garbage is collected on this thread only: a collection triggered on the worker or the
    # engine loader could otherwise run a Qt destructor off the GUI thread and deadlock on the GIL.
    collector = GarbageCollector(interval=1.0)
    try:
        return app.exec()
    finally:
        collector.timer.stop()


def close_on_signals(window) -> None:
    """SIGTERM (the PC shutting down, systemd, kill) and SIGINT (Ctrl+C in the terminal) close the window as its X
    does, so the session in the journal ends with its last frames recorded; they killed the process, and the next
    start found the session 'interrupted'."""
    import signal

    from PySide6.QtCore import QTimer

    def close(_signum, _frame) -> None:
        QTimer.singleShot(0, window.close)

    for signum in (signal.SIGTERM, signal.SIGINT):
        signal.signal(signum, close)
    # Python runs a handler only when it next runs Python code: a quiet timer lets it while Qt's loop waits
    window._signal_timer = QTimer(window)
    window._signal_timer.timeout.connect(lambda: None)
    window._signal_timer.start(200)


def show_station(window) -> None:
    """First start: maximized. 1280×720 as a window was taller than a 1280×720 screen under a title bar, and the
    status bar fell off its bottom. Later starts restore the size and place the station was left at."""
    if window.geometry_restored:
        window.show()
    else:
        window.showMaximized()


if __name__ == "__main__":
    sys.exit(main())
