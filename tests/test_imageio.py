from __future__ import annotations

import cv2
import numpy as np
import pytest

from inference.errors import ImageDecodeError, SourceError
from inference.imageio import header_size, read_image, reduction_for
from inference.sources import Frame, FrameError, open_source, spec_kind, split_camera
from tests.factories import write_image


def test_non_ascii_path_reads(tmp_path):
    folder = tmp_path / "吊牌 样本"
    folder.mkdir()
    path = write_image(folder / "货号-001.png", np.full((20, 30, 3), 77, np.uint8))
    assert read_image(path).shape == (20, 30, 3)


@pytest.mark.parametrize(("content", "fragment"), [
    (b"", "0 bytes"),
    (b"this is not an image at all", "not a recognised image format"),
])
def test_bad_files_say_what_was_found(tmp_path, content, fragment):
    path = tmp_path / "bad.jpg"
    path.write_bytes(content)
    with pytest.raises(ImageDecodeError) as info:
        read_image(path)
    assert fragment in str(info.value) and "hint" in str(info.value)


def test_truncated_jpeg_is_reported(tmp_path):
    ok, data = cv2.imencode(".jpg", np.random.default_rng(0).integers(0, 255, (200, 200, 3), dtype=np.uint8))
    path = tmp_path / "cut.jpg"
    path.write_bytes(data.tobytes()[:300])
    try:
        image = read_image(path)
    except ImageDecodeError as exc:
        assert "truncated or corrupt" in str(exc)
    else:  # libjpeg may return a partial image for a cut stream; it must still be the right size
        assert image.shape == (200, 200, 3)


@pytest.mark.parametrize(("ext", "hw"), [(".png", (37, 91)), (".jpg", (6000, 8000))])
def test_header_size_without_decoding(ext, hw):
    ok, data = cv2.imencode(ext, np.zeros((*hw, 3), np.uint8))
    assert header_size(data.tobytes()) == hw


def test_very_large_image_decodes_reduced(tmp_path):
    ok, data = cv2.imencode(".jpg", np.zeros((6000, 8000, 3), np.uint8))
    path = tmp_path / "huge.jpg"
    path.write_bytes(data.tobytes())
    assert reduction_for((6000, 8000)) == 2
    assert read_image(path).shape == (3000, 4000, 3)


def test_folder_source_yields_errors_and_keeps_going(tmp_path):
    write_image(tmp_path / "a_1.png", np.zeros((8, 8, 3), np.uint8))
    (tmp_path / "a_2.png").write_bytes(b"")
    write_image(tmp_path / "a_10.png", np.zeros((8, 8, 3), np.uint8))
    items = list(open_source(tmp_path).frames())
    assert [type(i) for i in items] == [Frame, FrameError, Frame]
    assert [i.name for i in items] == ["a_1.png", "a_2.png", "a_10.png"]  # natural order


@pytest.mark.parametrize("spec, kind, camera", [
    ("0", "camera", ("0", "")), ("0@1280x720", "camera", ("0", "1280x720")), ("2@640X480", "camera", ("2", "640X480")),
    ("0@wide", "camera", ("0", "wide")),  # a malformed size stays a size: opening it says so
    ("rtsp://user:pw@cam/stream", "camera", ("rtsp://user:pw@cam/stream", "")),  # the URL's own '@'
    ("rtsp://cam/stream@1920x1080", "camera", ("rtsp://cam/stream", "1920x1080")),
    ("watch:/line/drop", "watch", None), ("camera:/line/run.avi", "replay", None), ("/line/run.MP4", "video", None),
    ("/line/tag.jpg", "image", None), ("/line/run@2/tags", "folder", None),
])
def test_a_source_spec_names_its_kind_by_its_text(spec, kind, camera):
    assert spec_kind(spec) == kind
    if camera is not None:
        assert split_camera(spec) == camera


def test_a_camera_size_that_is_not_width_x_height_is_refused():
    with pytest.raises(SourceError, match="resolution not understood"):
        open_source("0@wide")


@pytest.mark.parametrize("entries, found", [
    ((), "an empty folder"),
    (("notes.txt",), "1 other entry: notes.txt"),
    (("images/", "manifest.json", "recipes/", "truth.jsonl"), "4 other entries: images/, manifest.json, recipes/, "
                                                               "truth.jsonl"),
    (("a.txt", "b.txt", "c.txt", "d.txt", "e.txt", "f.txt"), "6 other entries: a.txt, b.txt, c.txt, d.txt and 2 more"),
])
def test_a_folder_without_images_says_what_it_holds(tmp_path, entries, found):
    """An empty folder said 'found: 0 other entries'; a set's own folder now names its images/ folder."""
    for name in entries:
        (tmp_path / name.rstrip("/")).mkdir() if name.endswith("/") else (tmp_path / name).write_text("x")
    with pytest.raises(SourceError) as caught:
        open_source(str(tmp_path))
    said = {line.split(":", 1)[0].strip(): line.split(":", 1)[1].strip() for line in str(caught.value).splitlines()[1:]}
    assert said["found"] == found
