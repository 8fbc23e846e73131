"""Exports: tables equal the journal, the HTML shows every NG/REVIEW tag and runs no tag text, and a
failed, cancelled or refused export leaves nothing under the report's name."""

from __future__ import annotations

import csv
import io
import json
import os
import re
import subprocess
import sys
from html import unescape
from pathlib import Path

import pytest

from inference.cli import main as cli_main
from inference.records.archive import Archive
from inference.records.export import export_session
from inference.records.journal import Journal
from inference.records.staging import ExportCancelled, ExportError, StagedFolder, safe_name
from inference.records.synthetic import build_session
from inference.records.tables import unguard_cell

ROOT = Path(__file__).resolve().parents[1]
EVIL = "<script>alert(1)</script>"


def make_session(folder: Path, *, frames: int = 60, flagged_rate: float = 0.3, tag_text: str | None = None,
                 archive: bool = True, seed: int = 0) -> tuple[Path, int]:
    """A journal with one session whose NG/REVIEW frames have real 240×320 images (archived unless told)."""
    journal_path = folder / "journal.sqlite3"
    with Journal.open(journal_path) as journal:
        session = build_session(journal, Archive(folder / "archive") if archive else None, frames=frames,
                                flagged_rate=flagged_rate, image_dir=folder / "images", image_hw=(240, 320),
                                seed=seed, tag_text=tag_text)
    return journal_path, session


def export(journal_path: Path, session: int, out: Path, **options):
    with Journal.open(journal_path) as journal:
        return export_session(journal, session, out, **options)


def read_csv(path: Path) -> list[dict]:
    text = path.read_text(encoding="utf-8")
    assert text.startswith("\ufeff")  # BOM: spreadsheet programs then read the Chinese right
    return [{k: unguard_cell(v) for k, v in row.items()} for row in csv.DictReader(io.StringIO(text[1:]))]


def test_csv_and_json_rows_equal_the_journal_rows(tmp_path):
    journal_path, session = make_session(tmp_path, frames=40)
    result = export(journal_path, session, tmp_path / "out")
    with Journal.open(journal_path) as journal:
        info, frames = journal.session(session), journal.frames(session)
    doc = json.loads((result.path / "frames.json").read_text(encoding="utf-8"))
    assert doc["frames"] == [json.loads(json.dumps(f.to_dict(info), ensure_ascii=False)) for f in frames]
    rows = read_csv(result.path / "frames.csv")
    stages = ("decode", "preprocess", "infer", "postprocess", "read", "total")
    expected = [{k: "" if v is None else str(v) for k, v in f.to_flat(info, stages).items()} for f in frames]
    assert rows == expected
    assert [json.loads(r["detections"]) for r in rows] == [list(f.detections) for f in frames]
    fields = read_csv(result.path / "fields.csv")
    assert {(r["frame_id"], r["field"]) for r in fields} >= {(str(f.id), "price") for f in frames}


def test_html_has_every_ng_and_review_thumbnail_and_escapes_tag_text(tmp_path):
    journal_path, session = make_session(tmp_path, frames=50, tag_text=EVIL)
    result = export(journal_path, session, tmp_path / "out")
    html = (result.path / "report.html").read_text(encoding="utf-8")
    with Journal.open(journal_path) as journal:
        flagged = [f for f in journal.frames(session) if f.verdict in ("NG", "REVIEW")]
    assert len(flagged) == result.flagged > 5
    for frame in flagged:
        thumb = f"thumbs/f{frame.id:07d}_{safe_name(Path(frame.source_name).stem, max_len=60)}.jpg"
        assert f'src="{thumb}"' in html and (result.path / thumb).stat().st_size > 0
        assert f'id="frame-{frame.id}"' in html
    assert EVIL not in html and "<script" not in html.lower()
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in html
    csp = re.search(r'http-equiv="Content-Security-Policy" content="([^"]*)"', html).group(1)
    assert "script-src 'none'" in unescape(csp)  # the page forbids scripts even if an escape were missed
    for svg in (result.path / "charts").glob("*.svg"):
        assert "<script" not in svg.read_text(encoding="utf-8")
    assert "品名" in html and "price 价格 · NG" in html  # Chinese labels and the Pareto's categories


def test_coco_files_load_in_pycocotools(tmp_path):
    pycocotools = pytest.importorskip("pycocotools.coco", reason="pycocotools is a dev dependency")
    journal_path, session = make_session(tmp_path, frames=20)
    result = export(journal_path, session, tmp_path / "out")
    coco = pycocotools.COCO(str(result.path / "coco.json"))
    dets = coco.loadRes(str(result.path / "coco_results.json"))
    assert len(coco.getImgIds()) == 20 and len(dets.getAnnIds()) == len(coco.getAnnIds()) > 0
    assert {c["name"] for c in coco.loadCats(coco.getCatIds())} <= {"hangtag", "barcode", "qr_code"}


def test_images_come_from_the_source_when_not_archived_but_never_a_changed_one(tmp_path):
    journal_path, session = make_session(tmp_path, frames=30, archive=False, seed=4)
    with Journal.open(journal_path) as journal:
        flagged = [f for f in journal.frames(session) if f.flagged]
    Path(flagged[0].image_path).write_bytes(Path(flagged[1].image_path).read_bytes())  # swapped after inspection
    os.remove(flagged[2].image_path)
    result = export(journal_path, session, tmp_path / "out")
    html = (result.path / "report.html").read_text(encoding="utf-8")
    assert result.images_missing == 2 and result.images_written == len(flagged) - 2
    assert "changed since it was inspected" in html and "source file is gone" in html
    assert not list((result.path / "thumbs").glob(f"f{flagged[0].id:07d}_*"))


@pytest.mark.parametrize("text, expected", [
    ("../../etc/passwd", "etc_passwd"),
    ("C:\\Windows\\system32", "C_Windows_system32"),
    ("CON", "_CON"),
    ("tag <script>.jpg", "tag_script_.jpg"),
    ("针织衫 HT24/0815", "针织衫_HT24_0815"),
    ("...", "unnamed"),
    ("a" * 300, "a" * 80),
])
def test_names_from_sources_are_sanitized(text, expected):
    assert safe_name(text) == expected


@pytest.mark.parametrize("relative", ["../escape.txt", "/etc/passwd", "a/../../b", "..\\x"])
def test_staging_refuses_paths_outside_the_export_folder(tmp_path, relative):
    with StagedFolder(tmp_path, "r") as staged:
        with pytest.raises(ExportError, match="outside the export folder"):
            staged.write_text(relative, "x")
    assert list(tmp_path.iterdir()) == []


def boom(report, folder, pdf_path):
    pdf_path.write_bytes(b"%PDF-half")
    raise RuntimeError("renderer crashed")


def test_a_failure_or_cancel_mid_export_leaves_nothing(tmp_path):
    journal_path, session = make_session(tmp_path, frames=40)
    out = tmp_path / "out"
    with pytest.raises(RuntimeError):
        export(journal_path, session, out, pdf=boom)
    assert list(out.iterdir()) == []
    with pytest.raises(ExportCancelled):
        export(journal_path, session, out, cancel=lambda: True)
    assert list(out.iterdir()) == []
    with Journal.open(journal_path) as journal:
        assert not journal.session(session).exported


KILLED_CHILD = """
import sys, time
from inference.records.journal import Journal
from inference.records.export import export_session

def stall(report, folder, pdf_path):  # everything else is written; the PDF is "being drawn"
    print("writing pdf", flush=True)
    time.sleep(60)

with Journal.open(sys.argv[1]) as journal:
    export_session(journal, int(sys.argv[2]), sys.argv[3], pdf=stall)
"""


def test_an_export_killed_mid_write_leaves_nothing_under_the_final_name_and_is_cleaned_next_time(tmp_path):
    journal_path, session = make_session(tmp_path, frames=10)
    out = tmp_path / "out"
    child = subprocess.Popen([sys.executable, "-c", KILLED_CHILD, str(journal_path), str(session), str(out)],
                             cwd=ROOT, stdout=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "writing pdf"
    child.kill()
    child.wait()
    (stale,) = out.iterdir()
    assert stale.name.startswith(".hangtag-export-") and (stale / "report.html").is_file()
    result = export(journal_path, session, out)
    assert sorted(p.name for p in out.iterdir()) == [result.path.name]
    with Journal.open(journal_path) as journal:
        assert journal.session(session).export_path == str(result.path)


READ_ONLY_CHILD = """
import ctypes, sys
from pathlib import Path
from inference.records.journal import Journal
from inference.records.export import export_session
from inference.records.staging import ExportError

# Root ignores permission bits through CAP_DAC_OVERRIDE (and _READ_SEARCH, FOWNER): drop them from this
# process, so the kernel enforces the folder's r-x bits on us as on any operator account.
class Header(ctypes.Structure):
    _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]
class Data(ctypes.Structure):
    _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]
libc = ctypes.CDLL(None, use_errno=True)
header, data = Header(0x20080522, 0), (Data * 2)()
if libc.capget(ctypes.byref(header), data) == 0:
    for d in data:
        d.effective &= ~0b1110
        d.permitted &= ~0b1110
    libc.capset(ctypes.byref(header), data)
try:
    (Path(sys.argv[3]) / "probe").write_text("x")
    sys.exit(4)  # still writable: the test could prove nothing
except PermissionError:
    pass
with Journal.open(sys.argv[1]) as journal:
    try:
        export_session(journal, int(sys.argv[2]), sys.argv[3])
    except ExportError as exc:
        print(exc)
        sys.exit(3)
"""


def test_export_into_a_read_only_folder_fails_clearly_and_leaves_nothing(tmp_path):
    """A real r-x folder. Tests run as root in CI and root ignores permission bits, so the export runs in a
    child that first drops the capabilities that let root write anywhere (and proves it can't)."""
    journal_path, session = make_session(tmp_path, frames=20)
    target = tmp_path / "reports"
    target.mkdir()
    os.chmod(target, 0o555)
    try:
        result = subprocess.run([sys.executable, "-c", READ_ONLY_CHILD, str(journal_path), str(session), str(target)],
                                cwd=ROOT, capture_output=True, text=True)
    finally:
        os.chmod(target, 0o755)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "read-only or not writable" in result.stdout and "hint" in result.stdout
    assert list(target.iterdir()) == []


FULL_DISK_CHILD = """
import resource, signal, sys
from inference.records.journal import Journal
from inference.records.export import export_session
from inference.records.staging import ExportError
journal = Journal.open(sys.argv[1])
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)   # then an oversize write fails with EFBIG, as on a full disk
resource.setrlimit(resource.RLIMIT_FSIZE, (64 * 1024, 64 * 1024))
try:
    export_session(journal, int(sys.argv[2]), sys.argv[3])
except ExportError as exc:
    print(exc)
    sys.exit(3)
"""


def test_export_onto_a_full_disk_fails_clearly_and_leaves_nothing(tmp_path):
    """No tiny filesystem can be mounted in CI, so the kernel's per-process file-size limit stands in for
    a full disk: the write that crosses it fails mid-export exactly like ENOSPC would (EFBIG)."""
    journal_path, session = make_session(tmp_path, frames=30)
    target = tmp_path / "reports"
    result = subprocess.run([sys.executable, "-c", FULL_DISK_CHILD, str(journal_path), str(session), str(target)],
                            cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 3, result.stdout + result.stderr
    assert "disk is full" in result.stdout and "nothing partial was left" in result.stdout
    assert list(target.iterdir()) == []


def test_cli_report_last_and_list(tmp_path, capsys):
    journal_path, session = make_session(tmp_path, frames=15)
    assert cli_main(["report", "--last", "--journal", str(journal_path), "--out", str(tmp_path / "out")]) == 0
    out = capsys.readouterr().out
    assert "report:" in out and "15 frames" in out
    (folder,) = (tmp_path / "out").iterdir()
    assert {"report.html", "frames.csv", "frames.json", "coco.json", "manifest.json"} <= {p.name for p in folder.iterdir()}
    manifest = json.loads((folder / "manifest.json").read_text())
    assert "report.html" in manifest["sha256"] and "manifest.json" not in manifest["sha256"]
    assert cli_main(["report", "--list", "--journal", str(journal_path)]) == 0
    assert "yes" in capsys.readouterr().out  # exported flag shown
    assert cli_main(["report", "--session", "99", "--journal", str(journal_path), "--out", str(tmp_path / "o2")]) == 2
    assert "no such session" in capsys.readouterr().err
