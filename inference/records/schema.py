"""The journal's schema as an ordered list of migrations; `PRAGMA user_version` says how many have run.

A fresh journal is built by running every migration from zero, so a migrated old journal and a new
one have the same tables by construction: there is no second "create latest" path to drift.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from pathlib import PurePath

# v1: the first station release. Sessions carried no lot, recipe name or export state; frames no
# read-vs-expected checks, no archive paths and no indexed total latency.
_V1 = """
CREATE TABLE sessions (
    id           INTEGER PRIMARY KEY,
    started_at   REAL    NOT NULL,
    ended_at     REAL,
    station_id   TEXT    NOT NULL,
    job          TEXT    NOT NULL DEFAULT '',
    recipe_path  TEXT    NOT NULL DEFAULT '',
    source       TEXT    NOT NULL DEFAULT '',
    model_hash   TEXT    NOT NULL DEFAULT '',
    backend      TEXT    NOT NULL DEFAULT '',
    precision    TEXT    NOT NULL DEFAULT ''
);
CREATE TABLE frames (
    id           INTEGER PRIMARY KEY,
    session_id   INTEGER NOT NULL REFERENCES sessions(id),
    frame_index  INTEGER NOT NULL,
    timestamp    REAL    NOT NULL,
    source_name  TEXT    NOT NULL,
    image_path   TEXT    NOT NULL DEFAULT '',
    image_hash   TEXT    NOT NULL DEFAULT '',
    verdict      TEXT    NOT NULL DEFAULT '',
    reasons      TEXT    NOT NULL DEFAULT '[]',
    detections   TEXT    NOT NULL DEFAULT '[]',
    fields       TEXT    NOT NULL DEFAULT '[]',
    thresholds   TEXT    NOT NULL DEFAULT '{}',
    timings      TEXT    NOT NULL DEFAULT '{}',
    rss_mb       REAL,
    vram_mb      REAL,
    error        TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX frames_by_session ON frames(session_id, frame_index);
"""

_V2 = """
ALTER TABLE sessions ADD COLUMN lot          TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN recipe_name  TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN exported_at  REAL;
ALTER TABLE sessions ADD COLUMN export_path  TEXT NOT NULL DEFAULT '';
ALTER TABLE frames   ADD COLUMN image_h      INTEGER NOT NULL DEFAULT 0;
ALTER TABLE frames   ADD COLUMN image_w      INTEGER NOT NULL DEFAULT 0;
ALTER TABLE frames   ADD COLUMN checks       TEXT NOT NULL DEFAULT '[]';
ALTER TABLE frames   ADD COLUMN total_ms     REAL;
ALTER TABLE frames   ADD COLUMN archive_original  TEXT NOT NULL DEFAULT '';
ALTER TABLE frames   ADD COLUMN archive_annotated TEXT NOT NULL DEFAULT '';
UPDATE frames SET total_ms = json_extract(timings, '$.total') WHERE json_valid(timings);
CREATE INDEX frames_by_verdict ON frames(session_id, verdict);
CREATE INDEX frames_by_archive ON frames(archive_original) WHERE archive_original != '';
"""


def _v2_recipe_names(conn: sqlite3.Connection) -> None:
    """v1 kept only the recipe path; its file stem is the name the operator saw."""
    rows = conn.execute("SELECT id, recipe_path FROM sessions WHERE recipe_path != ''").fetchall()
    conn.executemany("UPDATE sessions SET recipe_name = ? WHERE id = ?",
                     [(PurePath(path.replace("\\", "/")).stem, sid) for sid, path in rows])


# v3: a session knows which process writes it (owner "host:pid") and why it ended, so a session whose
# station was killed is closed at the next start as "interrupted" instead of staying open forever.
_V3 = """
ALTER TABLE sessions ADD COLUMN owner       TEXT NOT NULL DEFAULT '';
ALTER TABLE sessions ADD COLUMN end_reason  TEXT NOT NULL DEFAULT '';
"""

# v4: station events that are not frames (a Triton server went down or came back, no server answers, the
# station fell back to its own engine), with the session they happened in when one was open.
_V4 = """
CREATE TABLE events (
    id           INTEGER PRIMARY KEY,
    session_id   INTEGER REFERENCES sessions(id),
    at           REAL    NOT NULL,
    kind         TEXT    NOT NULL,
    subject      TEXT    NOT NULL DEFAULT '',
    detail       TEXT    NOT NULL DEFAULT ''
);
CREATE INDEX events_by_time ON events(at)
"""

# v5: one row per physical tag on a moving line (inference/tracking): its frames, the frame its verdict rests on,
# its best crop in the archive, the trigger's id in triggered mode; a tag that passed unread is a row (missed).
_V5 = """
CREATE TABLE tags (
    id           INTEGER PRIMARY KEY,
    session_id   INTEGER NOT NULL REFERENCES sessions(id),
    tag_id       INTEGER NOT NULL,
    trigger_id   TEXT,
    timestamp    REAL    NOT NULL,
    verdict      TEXT    NOT NULL,
    reasons      TEXT    NOT NULL DEFAULT '[]',
    frames_seen  INTEGER NOT NULL DEFAULT 0,
    first_frame  INTEGER,
    last_frame   INTEGER,
    best_frame   INTEGER,
    read_frame   INTEGER,
    reads        INTEGER NOT NULL DEFAULT 0,
    missed       INTEGER NOT NULL DEFAULT 0,
    timed_out    INTEGER NOT NULL DEFAULT 0,
    latency_ms   REAL,
    box          TEXT    NOT NULL DEFAULT '[]',
    fields       TEXT    NOT NULL DEFAULT '{}',
    archive_crop TEXT    NOT NULL DEFAULT '',
    archive_annotated TEXT NOT NULL DEFAULT ''
);
CREATE INDEX tags_by_session ON tags(session_id, verdict);
CREATE INDEX tags_by_archive ON tags(archive_crop) WHERE archive_crop != ''
"""

# v6: each frame and tag row carries the job and lot it was inspected under (a PLC selects the job and sends the
# lot mid-run); rows of older journals take their session's.
_V6 = """
ALTER TABLE frames ADD COLUMN job TEXT NOT NULL DEFAULT '';
ALTER TABLE frames ADD COLUMN lot TEXT NOT NULL DEFAULT '';
ALTER TABLE tags   ADD COLUMN job TEXT NOT NULL DEFAULT '';
ALTER TABLE tags   ADD COLUMN lot TEXT NOT NULL DEFAULT '';
UPDATE frames SET job = (SELECT s.job FROM sessions s WHERE s.id = frames.session_id),
                  lot = (SELECT s.lot FROM sessions s WHERE s.id = frames.session_id);
UPDATE tags   SET job = (SELECT s.job FROM sessions s WHERE s.id = tags.session_id),
                  lot = (SELECT s.lot FROM sessions s WHERE s.id = tags.session_id)
"""

# v7: a tag row keeps the checks of the read its verdict rests on (what the recipe expected, what was read, per
# field), as a frame row does; History showed a tag's fields with no expected value.
_V7 = """
ALTER TABLE tags ADD COLUMN checks TEXT NOT NULL DEFAULT '[]'
"""

Migration = tuple[str, Callable[[sqlite3.Connection], None] | None]

# MIGRATIONS[i] takes a journal from version i to version i + 1.
MIGRATIONS: tuple[Migration, ...] = (
    (_V1, None),
    (_V2, _v2_recipe_names),
    (_V3, None),
    (_V4, None),
    (_V5, None),
    (_V6, None),
    (_V7, None),
)
SCHEMA_VERSION = len(MIGRATIONS)


def user_version(conn: sqlite3.Connection) -> int:
    return int(conn.execute("PRAGMA user_version").fetchone()[0])


def migrate(conn: sqlite3.Connection, *, target: int = SCHEMA_VERSION) -> int:
    """Run the missing migrations in one transaction; a failure leaves the journal as it was.

    The caller holds an autocommit connection (isolation_level=None). Returns the version found.
    """
    conn.execute("BEGIN IMMEDIATE")
    try:
        found = user_version(conn)
        for version in range(found, target):
            script, backfill = MIGRATIONS[version]
            for statement in _statements(script):
                conn.execute(statement)
            if backfill is not None:
                backfill(conn)
        conn.execute(f"PRAGMA user_version = {int(target)}")
        conn.execute("COMMIT")
    except BaseException:
        conn.execute("ROLLBACK")
        raise
    return found


def _statements(script: str) -> list[str]:
    # executescript() would COMMIT our transaction first; split instead (no ';' inside our DDL strings).
    return [s.strip() for s in script.split(";") if s.strip()]
