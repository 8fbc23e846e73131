"""`hangtag-inspect`: the station's command line. Each subcommand lives in its own module."""

from __future__ import annotations

import argparse
import importlib
import sys

from inference.errors import HangtagError

# Modules under inference/cli/ that define `add_parser(subparsers)`; each sets `func` on its parser.
COMMANDS = (
    "run",
    "bench",
    "precision_report",
    "doctor",
    "report",
    "journal_bench",
    "gpu_bench",
    "read_bench",
    "verdict_bench",
    "serve",
    "load",
    "triton_repo",
    "cameras",
    "line",
    "plc_sim",
    "line_bench",
    "adapt",
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="hangtag-inspect", description="Hangtag Station from the command line.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")
    for name in COMMANDS:
        importlib.import_module(f"inference.cli.{name}").add_parser(sub)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        return int(args.func(args) or 0)
    except HangtagError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130


if __name__ == "__main__":
    sys.exit(main())
