"""The handshake's vocabulary: states, codes, verdicts, the events that drive it and the actions it asks for.

Plain frozen dataclasses with no behaviour; `handshake.py` holds the transitions.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from typing import Union


class State(enum.Enum):
    PREOPERATIONAL = "Preoperational"  # no job loaded yet: triggers are refused
    LOADING = "Loading"                # a job select is being carried out
    READY = "Ready"                    # waiting for a trigger
    BUSY = "SingleExecution"           # one inspection running
    HALTED = "Halted"                  # result queue full: waiting for the PLC to acknowledge
    ERROR = "Error"                    # a latched fault: needs Reset


STATE_CODES = {State.PREOPERATIONAL: 0, State.LOADING: 1, State.READY: 2, State.BUSY: 3, State.HALTED: 4,
               State.ERROR: 5}


class Code(enum.IntEnum):
    """Error / warning codes shown on the line. Faults latch (state Error, Error bit) until Reset;
    warnings are reported in the code register and counters but keep the station running."""

    NONE = 0
    TRIGGER_WHILE_BUSY = 1       # warning: counted as missed
    TRIGGER_NOT_READY = 2        # warning: trigger in Preoperational / Loading / Halted / Error, counted as missed
    ACK_WITHOUT_RESULT = 3       # warning: ack with an empty result queue
    INSPECTION_FAILED = 4        # warning: the trigger is answered with verdict ERROR
    TRIGGER_WHILE_LOADING = 5    # warning: trigger during a job select, refused and counted as missed; wait for
                                 # Ready with the new job index, then trigger (judged with the new recipe)
    PLC_DISCONNECTED = 6         # warning: the PLC's connection dropped (Modbus, OPC UA); results pending stay queued
    BROKER_DISCONNECTED = 7      # warning: the MQTT broker went away; results wait in the client (QoS 1)
    ACK_TIMEOUT = 101            # fault: a result waited longer than the ack timeout (late ack)
    ACK_MISMATCH = 102           # fault: ack names a trigger id other than the oldest result's
    RECIPE_NOT_FOUND = 103       # fault: job select to an index with no recipe
    RECIPE_INVALID = 104         # fault: the recipe exists but could not be loaded
    MALFORMED_WRITE = 105        # fault: a value the map does not allow (unknown command, bad lot)
    JOB_SELECT_WHILE_BUSY = 106  # fault: job select during an inspection or with results pending

    @property
    def latches(self) -> bool:
        return self.value >= 100


class Verdict(enum.IntEnum):
    NONE = 0
    OK = 1
    NG = 2
    REVIEW = 3
    ERROR = 4

    @classmethod
    def parse(cls, text: str) -> Verdict:
        return cls.__members__.get(str(text).upper(), cls.ERROR)


@dataclass(frozen=True)
class Result:
    trigger_id: int
    verdict: Verdict
    fields: tuple[tuple[str, str], ...] = ()
    job_index: int = 0
    lot: str = ""
    ready_at: float = 0.0  # when it entered the queue (for the ack timeout)


# -- events --------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class Trigger:
    level: bool = True  # a rising edge (low → high) starts an inspection


@dataclass(frozen=True)
class Ack:
    level: bool = True  # a rising edge acknowledges the oldest result
    trigger_id: int | None = None  # when given it must be the oldest result's (MERLIC's AckCommandCode)


@dataclass(frozen=True)
class SelectJob:
    index: int


@dataclass(frozen=True)
class JobLoaded:
    index: int
    name: str = ""


@dataclass(frozen=True)
class JobFailed:
    index: int
    code: Code = Code.RECIPE_INVALID
    message: str = ""


@dataclass(frozen=True)
class SetLot:
    lot: str


@dataclass(frozen=True)
class Reset:
    level: bool = True


@dataclass(frozen=True)
class InspectionDone:
    trigger_id: int
    verdict: Verdict
    fields: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class InspectionFailed:
    trigger_id: int
    message: str = ""


@dataclass(frozen=True)
class Malformed:
    what: str


@dataclass(frozen=True)
class LinkLost:
    """A transport lost its peer (the PLC, the broker): reported on the outputs with `code`."""

    code: Code
    detail: str = ""


@dataclass(frozen=True)
class Tick:
    """Time passes: checks the ack timeout of the oldest result."""


Event = Union[Trigger, Ack, SelectJob, JobLoaded, JobFailed, SetLot, Reset, InspectionDone, InspectionFailed,
              Malformed, LinkLost, Tick]


# -- actions -------------------------------------------------------------------------------------------
@dataclass(frozen=True)
class StartInspection:
    trigger_id: int
    job_index: int
    lot: str
    at: float = 0.0  # when the trigger was accepted (the station's clock): an inspection that runs anyway
                     # answers with the first frame finished after it
    job_name: str = ""  # the job's name when the trigger was accepted (no job select is taken while it runs)


@dataclass(frozen=True)
class LoadJob:
    index: int


@dataclass(frozen=True)
class Publish:
    result: Result


@dataclass(frozen=True)
class Report:
    code: Code
    detail: str = ""


Action = Union[StartInspection, LoadJob, Publish, Report]
