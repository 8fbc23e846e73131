"""`hangtag-inspect report`: export a journaled session (HTML, CSV, JSON, COCO, images; PDF with --pdf).

The PDF is drawn by Qt, and inference/ never imports Qt, so `--pdf` hands the whole export to
`python -m app.report_pdf` in a child process with the same arguments.
"""

from __future__ import annotations

import argparse
import subprocess
import sys
from pathlib import Path

from inference.errors import HangtagError
from inference.records.export import IMAGE_MODES, export_session
from inference.records.journal import Journal
from inference.records.types import iso_time


def add_parser(sub: argparse._SubParsersAction) -> None:
    parser = sub.add_parser("report", help="export a session as a report folder (HTML, CSV, JSON, COCO, PDF)")
    which = parser.add_mutually_exclusive_group(required=True)
    which.add_argument("--session", type=int, help="session id (see --list)")
    which.add_argument("--last", action="store_true",
                       help="the session started last (ties: the higher id); others running at the same time are named")
    which.add_argument("--list", action="store_true", help="list the journal's sessions and exit")
    parser.add_argument("--out", type=Path, help="folder to put the report folder in")
    parser.add_argument("--journal", type=Path, default=None, help="journal file (default: the station's)")
    parser.add_argument("--images", choices=IMAGE_MODES, default="flagged",
                        help="annotated images for NG/REVIEW frames (default), every frame, or none")
    parser.add_argument("--pdf", action="store_true", help="also render report.pdf (needs PySide6)")
    parser.set_defaults(func=report)


def report(args: argparse.Namespace) -> int:
    if args.list:
        return _list(args.journal)
    if args.out is None:
        raise HangtagError("no output folder given", expected="--out DIR", found="nothing",
                           hint="the report folder is created inside DIR")
    if args.pdf:
        return _export_with_pdf(args)
    with Journal.open(args.journal) as journal:
        session_id = journal.last_session_id() if args.last else args.session
        session = journal.session(session_id)
        others = journal.overlapping(session_id)
        result = export_session(journal, session_id, args.out, images=args.images)
        tags = journal.tags(session_id)
    print(f"report: {result.path}")
    print(f"  session {session.id} from {session.station_id}, started {iso_time(session.started_at)}"
          + (f", ended {'(interrupted) ' if session.end_reason else ''}{iso_time(session.ended_at)}"
             if session.ended_at else ", still open"))
    if others:
        print("  also running at the same time: " + ", ".join(f"session {o.id} ({o.station_id}, {o.frame_count} frames)"
                                                            for o in others)
              + "; export each with --session ID")
    if tags:  # a moving line: one verdict per physical tag
        flagged = sum(t.flagged for t in tags)
        print(f"  {len(tags)} tags, {flagged} NG/REVIEW ({sum(t.missed for t in tags)} passed unread)")
    flagged = "" if tags else f"{result.flagged} NG/REVIEW, "  # a line's were said with its tags, above
    print(f"  {result.frames} frames, {flagged}{result.images_written} images"
          f"{f', {result.images_missing} images unavailable' if result.images_missing else ''}; {result.seconds:.1f} s")
    return 0


def _export_with_pdf(args: argparse.Namespace) -> int:
    if getattr(sys, "frozen", False):
        raise HangtagError("--pdf is not available from the bundled command line", expected="a source install",
                           found="a frozen bundle", hint="export the PDF from the station's Reports panel")
    command = [sys.executable, "-m", "app.report_pdf", "--out", str(args.out), "--images", args.images]
    command += ["--last"] if args.last else ["--session", str(args.session)]
    if args.journal is not None:
        command += ["--journal", str(args.journal)]
    return subprocess.run(command, check=False).returncode


def _list(journal_path: Path | None) -> int:
    with Journal.open(journal_path) as journal:
        sessions = journal.sessions()
    print(f"{'id':>5}  {'started':<26} {'frames':>7}  {'ended':<12} {'exported':<9} job / recipe")
    for s in sessions:
        ended = s.end_reason or ("yes" if s.ended_at else "open")
        print(f"{s.id:>5}  {iso_time(s.started_at):<26} {s.frame_count:>7}  {ended:<12} {'yes' if s.exported else 'no':<9} "
              f"{s.job or '—'} / {s.recipe_name or '—'}")
    return 0
