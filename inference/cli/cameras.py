"""`hangtag-inspect cameras`: the industrial cameras the GenTL producers and Aravis see, each with the source
spec that opens it; `--bench SPEC` measures one camera's acquisition → result path.

GenTL producers come from --cti (repeatable), else $HANGTAG_GENTL_CTI, $GENICAM_GENTL64_PATH and the places
camera vendors install theirs (see the README); --simulated adds the genicam wheel's simulated producer.
"""

from __future__ import annotations

import argparse
from pathlib import Path

from inference.errors import BackendUnavailableError, HangtagError

COLUMNS = ("BACKEND", "VENDOR", "MODEL", "SERIAL", "INTERFACE", "STATUS", "OPEN AS")


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("cameras", help="list industrial cameras (GenICam producers, GigE Vision via Aravis)",
                            description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--cti", type=Path, action="append", default=None, metavar="PATH",
                        help="a GenTL producer (.cti) or a folder of them; repeatable")
    parser.add_argument("--simulated", action="store_true", help="also list the simulated producer's cameras")
    parser.add_argument("--no-aravis", action="store_true", help="skip the Aravis (GigE Vision) discovery")
    parser.add_argument("--bench", metavar="SPEC", default=None,
                        help="benchmark one camera, e.g. genicam:0?cti=…, aravis:SERIAL or 'fake-gige'")
    parser.add_argument("--seconds", type=float, default=5.0, help="--bench: seconds per measurement")
    parser.add_argument("--model", type=Path, default=None, help="--bench: the detector (default: the shipped one)")
    parser.add_argument("--triggers", type=int, default=100,
                        help="--bench: software triggers to send where the camera takes them (0: none)")
    parser.set_defaults(func=cameras)


def cameras(args: argparse.Namespace) -> int:
    if args.bench:
        from inference.cameras.bench import run_bench

        return run_bench(args.bench, seconds=args.seconds, model=args.model, triggers=args.triggers)
    rows: list[tuple[str, ...]] = []
    notes: list[str] = []
    rows += _genicam_rows(args, notes)
    if not args.no_aravis:
        rows += _aravis_rows(notes)
    if rows:
        widths = [max(len(str(r[i])) for r in [COLUMNS, *rows]) for i in range(len(COLUMNS))]
        for row in [COLUMNS, *rows]:
            print("  ".join(str(cell).ljust(width) for cell, width in zip(row, widths)).rstrip())
    else:
        print("no cameras found")
    for note in notes:
        print(f"note: {note}")
    return 0


def _genicam_rows(args: argparse.Namespace, notes: list[str]) -> list[tuple[str, ...]]:
    from inference.cameras.producers import find_producers, simulated_producer

    given = list(args.cti or [])
    if args.simulated:
        simulated = simulated_producer()
        if simulated is None:
            notes.append("no simulated producer: pip install genicam")
        else:
            given.append(simulated)
    if not given and not find_producers():
        notes.append("GenICam: no GenTL producer found; pass --cti PATH or set HANGTAG_GENTL_CTI "
                     "(the README lists where vendors install theirs)")
        return []
    try:
        from inference.cameras.genicam import list_cameras

        problems: list[str] = []
        found = list_cameras(given or None, problems=problems)
        notes += [f"GenICam: {problem}" for problem in problems]
    except BackendUnavailableError as exc:
        notes.append(f"GenICam: {exc.message} ({exc.hint})")
        return []
    rows = []
    for info in found:
        spec = f"genicam:{info.serial or info.device_id}" + (f"?cti={info.producer}" if given else "")
        rows.append(("genicam", info.vendor, info.model, info.serial, info.interface, info.status, spec))
    return rows


def _aravis_rows(notes: list[str]) -> list[tuple[str, ...]]:
    try:
        from inference.cameras.aravis import list_cameras

        found = list_cameras()
    except BackendUnavailableError as exc:
        notes.append(f"Aravis: {exc.message} ({exc.hint})")
        return []
    except HangtagError as exc:
        notes.append(f"Aravis: {exc.message}")
        return []
    return [("aravis", i.vendor, i.model, i.serial, i.interface, i.status, f"aravis:{i.serial or i.device_id}")
            for i in found]
