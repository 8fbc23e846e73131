"""Items 5-7: decoding has a pixel budget, one bad file never stops a source, stalled streams are
reported within the stream timeout, and a watched folder waits for complete files and reports
every entry it cannot inspect."""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from inference.errors import ImageDecodeError, SourceError
from inference.imageio import read_image
from inference.records import Journal
from inference.sources import WAITING, Frame, FrameError, Waiting, WatchedFolderSource, open_source
from tests.reliability.helpers import SAMPLES, assert_explained, assert_no_traceback, cli, headless, jpeg_bytes, png_bomb

ADDRESS_SPACE = int(2.5 * 2**30)


def line_folder(tmp_path: Path, good: int = 4) -> Path:
    """`good` sample images with two PNG bombs between them, a folder named like an image and a symlink loop."""
    folder = tmp_path / "line"
    folder.mkdir()
    for path in sorted(SAMPLES.glob("*.jpg"))[:good]:
        shutil.copy(path, folder / path.name)
    png_bomb(folder / "090000000a_bomb.png")
    png_bomb(folder / "090000002a_bomb.png", 40_000, 20_000)
    (folder / "x.jpg").mkdir()
    os.symlink("loop.jpg", folder / "loop.jpg")
    return folder


def test_a_png_declaring_30000_squared_is_refused_from_its_header(tmp_path) -> None:
    with pytest.raises(ImageDecodeError) as info:
        read_image(png_bomb(tmp_path / "bomb.png"))
    assert "too large" in str(info.value) and "30000 × 30000" in str(info.value)
    assert_explained(str(info.value))


def test_the_budget_is_configurable(tmp_path, monkeypatch) -> None:
    path = tmp_path / "small.jpg"
    path.write_bytes(jpeg_bytes(hw=(240, 320)))
    monkeypatch.setenv("HANGTAG_MAX_IMAGE_PIXELS", str(320 * 240 - 1))
    with pytest.raises(ImageDecodeError, match="too large"):
        read_image(path)
    monkeypatch.setenv("HANGTAG_MAX_IMAGE_PIXELS", str(320 * 240))
    assert read_image(path).shape == (240, 320, 3)


def test_cli_run_under_a_memory_limit_records_each_bad_file_and_finishes(tmp_path) -> None:
    folder = line_folder(tmp_path)
    proc = cli("run", "--source", str(folder), "--backend", "onnxruntime-cpu", "--out", str(tmp_path / "out"),
               data_dir=tmp_path / "data", address_space=ADDRESS_SPACE, timeout=180)
    assert_no_traceback(proc)
    assert proc.returncode == 0, proc.stderr[-2000:]
    rows = [json.loads(line) for line in (tmp_path / "out" / "results.jsonl").read_text().splitlines()]
    by_name = {row["source"]: row for row in rows}
    assert len(rows) == 8  # 4 images, 2 bombs, the folder and the loop: every entry has its record
    assert all(by_name[p.name]["ok"] for p in SAMPLES.glob("*.jpg") if p.name in by_name)
    assert "too large" in by_name["090000000a_bomb.png"]["error"]
    assert "a folder" in by_name["x.jpg"]["error"] and "link loop" in by_name["loop.jpg"]["error"]


@pytest.mark.release
def test_the_headless_station_under_a_memory_limit_goes_past_bad_files(tmp_path) -> None:
    folder = line_folder(tmp_path, good=3)
    proc = headless("--no-read", "--source", str(folder), data_dir=tmp_path / "data", address_space=ADDRESS_SPACE,
                    timeout=180)
    assert_no_traceback(proc)
    assert proc.returncode == 0, proc.stderr[-2000:]
    lines = [line for line in proc.stdout.splitlines() if ": " in line and not line.startswith(("Hangtag", "summary", "Backends"))]
    assert sum("ERROR" in line and "too large" in line for line in lines) == 2
    assert sum("ERROR" not in line for line in lines) == 3 and "summary: ERROR 4" in proc.stdout


# -- streams ---------------------------------------------------------------------------------------

@pytest.fixture
def silent_server():
    """Accepts connections and never answers."""
    server = socket.socket()
    server.bind(("127.0.0.1", 0))
    server.listen(8)
    held: list = []
    stop = threading.Event()

    def accept() -> None:
        server.settimeout(0.2)
        while not stop.is_set():
            try:
                held.append(server.accept()[0])
            except OSError:
                continue

    thread = threading.Thread(target=accept, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for conn in held:
        conn.close()
    server.close()


@pytest.fixture
def mjpeg_that_stops():
    """An MJPEG stream over HTTP that sends 10 frames, then holds the connection open and sends nothing."""
    frame = jpeg_bytes(hw=(96, 128))
    release = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:
            pass

        def do_GET(self) -> None:
            self.send_response(200)
            self.send_header("Content-Type", "multipart/x-mixed-replace; boundary=frame")
            self.end_headers()
            for _ in range(10):
                self.wfile.write(b"--frame\r\nContent-Type: image/jpeg\r\nContent-Length: %d\r\n\r\n" % len(frame)
                                 + frame + b"\r\n")
                self.wfile.flush()
                time.sleep(0.02)
            release.wait(30)

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/stream.mjpg"
    release.set()
    server.shutdown()
    server.server_close()


@pytest.mark.timeout(20)  # OpenCV's own default would take ~30 s
def test_a_stream_that_never_answers_is_no_frames_within_the_timeout(silent_server) -> None:
    with pytest.raises(SourceError) as info:
        open_source(f"http://127.0.0.1:{silent_server}/stream.mjpg")
    assert "no frames within 3 s" in str(info.value)
    assert_explained(str(info.value))


@pytest.mark.timeout(30)
def test_a_stream_that_stalls_is_reported_then_reconnected(mjpeg_that_stops) -> None:
    source = open_source(mjpeg_that_stops)
    frames, error, waiting = 0, None, None
    try:
        for item in source.frames():
            if isinstance(item, Frame):
                frames += 1
            elif isinstance(item, FrameError):
                error = item
            elif isinstance(item, Waiting) and error is not None:
                waiting = item
                break
    finally:
        source.close()
    assert frames == 10
    assert "stopped delivering frames; reconnecting" in error.message
    assert waiting is WAITING  # reconnecting: the station waits (and stays responsive) instead of ending


# -- watched folders -------------------------------------------------------------------------------

def _items(source: WatchedFolderSource, until: float, want: int) -> list:
    got = []
    for item in source.frames():
        if not isinstance(item, Waiting):
            got.append(item)
        if len(got) >= want or time.monotonic() > until:
            return got
    return got


@pytest.mark.timeout(30)
def test_a_file_written_slowly_is_inspected_once_complete(tmp_path) -> None:
    data = jpeg_bytes(seed=3)
    source = WatchedFolderSource(tmp_path, poll_s=0.05)

    def write_in_halves() -> None:
        with open(tmp_path / "slow.jpg", "wb") as handle:
            handle.write(data[: len(data) // 2])
            handle.flush()
            time.sleep(0.3)
            handle.write(data[len(data) // 2:])

    writer = threading.Thread(target=write_in_halves)
    writer.start()
    items = _items(source, time.monotonic() + 15, 1)
    writer.join()
    assert len(items) == 1 and isinstance(items[0], Frame) and items[0].image.shape == (240, 320, 3)


@pytest.mark.timeout(30)
def test_a_file_that_fails_to_decode_gets_one_more_try(tmp_path) -> None:
    data = jpeg_bytes(seed=4)
    source = WatchedFolderSource(tmp_path, poll_s=0.05, settle_s=0.1, retry_after_s=1.5)
    (tmp_path / "paused.jpg").write_bytes(data[:200])  # a writer that pauses longer than the settle time

    def finish_later() -> None:
        time.sleep(0.6)
        (tmp_path / "paused.jpg").write_bytes(data)

    writer = threading.Thread(target=finish_later)
    writer.start()
    items = _items(source, time.monotonic() + 15, 1)
    writer.join()
    assert isinstance(items[0], Frame), items


@pytest.mark.timeout(30)
def test_empty_files_and_entries_that_are_not_files_get_a_record(tmp_path) -> None:
    source = WatchedFolderSource(tmp_path, poll_s=0.05, empty_after_s=0.5)
    (tmp_path / "empty.jpg").write_bytes(b"")
    (tmp_path / "dir.jpg").mkdir()
    os.symlink("loop.png", tmp_path / "loop.png")
    (tmp_path / "ok.jpg").write_bytes(jpeg_bytes(seed=5))
    items = _items(source, time.monotonic() + 15, 4)
    errors = {item.name: item.message for item in items if isinstance(item, FrameError)}
    assert [item.name for item in items if isinstance(item, Frame)] == ["ok.jpg"]
    assert "empty file" in errors["empty.jpg"] and "a folder" in errors["dir.jpg"]
    assert "link loop" in errors["loop.png"]
    assert all("expected:" in message for message in errors.values())


def test_a_watched_folder_forgets_files_that_left_it(tmp_path) -> None:
    source = WatchedFolderSource(tmp_path, poll_s=0.01, settle_s=0.0)
    frames = source.frames()
    for i in range(5):
        (tmp_path / f"{i}.jpg").write_bytes(jpeg_bytes(seed=i, hw=(32, 32)))
        item = next(frames)
        while not isinstance(item, Frame):
            item = next(frames)
        (tmp_path / f"{i}.jpg").unlink()
    next(frames)
    assert source.arrivals.seen == set()  # weeks of files leave no ever-growing list behind


# -- the same, through the real CLI and the real headless station -------------------------------------------

@pytest.mark.timeout(60)
def test_the_cli_says_a_silent_stream_has_no_frames_and_exits(tmp_path, silent_server) -> None:
    proc = cli("run", "--source", f"http://127.0.0.1:{silent_server}/stream.mjpg", "--backend", "onnxruntime-cpu",
               data_dir=tmp_path / "data", timeout=45)
    seen = assert_no_traceback(proc)
    assert proc.returncode == 2 and "no frames within 3 s" in proc.stderr, seen[-2000:]
    assert_explained(proc.stderr)


@pytest.mark.timeout(120)
def test_the_headless_station_watching_a_folder_records_every_arrival(tmp_path) -> None:
    """A file written in two halves is inspected once complete; an empty file and a folder named like an image
    each get a line; the station keeps watching until its service manager stops it."""
    import signal

    from tests.reliability.helpers import watching_station

    watched = tmp_path / "drop"
    watched.mkdir()
    station = watching_station(watched, tmp_path / "data")
    try:
        (watched / "empty.jpg").write_bytes(b"")
        (watched / "x.jpg").mkdir()
        data = jpeg_bytes(seed=12)
        with open(watched / "slow.jpg", "wb") as handle:
            handle.write(data[: len(data) // 2])
            handle.flush()
            time.sleep(0.3)
            handle.write(data[len(data) // 2:])
        lines = {}
        while len(lines) < 3:
            line = station.stdout.readline()
            assert line, "the station ended before every arrival had its line"
            lines[line.split(":")[0]] = line.strip()
        station.send_signal(signal.SIGTERM)
        out, err = station.communicate(timeout=60)
    finally:
        station.kill()
    assert "Traceback" not in out + err
    assert "ERROR" not in lines["slow.jpg"]  # inspected, not "could not be decoded"
    assert "ERROR" in lines["empty.jpg"] and "empty file" in lines["empty.jpg"]
    assert "ERROR" in lines["x.jpg"] and "a folder" in lines["x.jpg"]
    for name in ("empty.jpg", "x.jpg"):  # the operator's one line says why and what to do
        assert_explained(lines[name])
        assert "hint: remove or rename it" in lines[name]
    with Journal.open(tmp_path / "data" / "journal.sqlite3", read_only=True) as journal:
        assert sorted(f.source_name for f in journal.frames(journal.last_session_id())) == ["empty.jpg", "slow.jpg", "x.jpg"]
