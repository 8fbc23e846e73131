"""The service's decode pool is sized to the cores the process may run on (its CPU affinity), not to all the
machine's: a service pinned to some cores (taskset, a cpuset) gets one decode thread per core it has."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

PINNED_TO_ONE_CORE = """
import argparse, os
os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})
from inference.cli.serve import add_parser, config_from
from inference.service.config import ServiceConfig
parser = argparse.ArgumentParser()
add_parser(parser.add_subparsers())
print(ServiceConfig().decode_threads, config_from(parser.parse_args(["serve"])).decode_threads,
      config_from(parser.parse_args(["serve", "--decode-threads", "3"])).decode_threads)
"""


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="CPU affinity is a Linux call")
def test_decode_threads_follow_the_cores_the_service_may_run_on():
    done = subprocess.run([sys.executable, "-c", PINNED_TO_ONE_CORE], capture_output=True, text=True, cwd=ROOT,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    assert done.stdout.split() == ["1", "1", "3"]  # config default, CLI default, an explicit choice kept


def test_decode_ahead_is_off_unless_asked_on_the_command_line():
    import argparse

    from inference.cli.serve import add_parser, config_from

    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers())
    assert config_from(parser.parse_args(["serve"])).decode_ahead is False
    assert config_from(parser.parse_args(["serve", "--decode-ahead"])).decode_ahead is True
