"""A file that is neither an image nor a video, opened as the source, is refused when it is opened: a report.pdf or
notes.txt was accepted ('is open — press Start'), then journaled as an ERROR row whose hint said to re-export or
re-capture the image."""

from __future__ import annotations

import numpy as np
import pytest

from inference.errors import SourceError
from inference.sources import open_source
from tests.factories import write_image


@pytest.mark.parametrize(("name", "found"), [("report.pdf", "a .pdf file"), ("notes.txt", "a .txt file"),
                                             ("capture", "a file with no extension")])
def test_a_file_that_is_not_an_image_or_a_video_is_refused_at_open(tmp_path, name, found):
    path = tmp_path / name
    path.write_bytes(b"%PDF-1.4 not an image")
    with pytest.raises(SourceError) as caught:
        open_source(str(path))
    said = {line.split(":", 1)[0].strip(): line.split(":", 1)[1].strip() for line in str(caught.value).splitlines()[1:]}
    assert said["found"] == found and ".jpg" in said["expected"] and ".mp4" in said["expected"] and said["hint"]
    # its whole path, as the window's NO SOURCE banner needs to name it once ('PATH: report.pdf is neither…' said it twice)
    assert str(caught.value).splitlines()[0].startswith(str(path))
    assert len(str(caught.value).splitlines()[1]) <= 100  # one line in the window's error panel, so the hint shows


@pytest.mark.parametrize("name", ["tag.JPG", "tag.png", "torn.jpg"])
def test_an_image_file_still_opens_even_when_it_will_not_decode(tmp_path, name):
    path = tmp_path / name
    if name.startswith("torn"):
        path.write_bytes(b"\xff\xd8\xff torn")  # said per frame, as a folder's torn file is
    else:
        write_image(path, np.zeros((8, 8, 3), np.uint8))
    assert len(list(open_source(str(path)).frames())) == 1


@pytest.mark.parametrize("spec", ["gige:nosuchcam", "basler:40012345", "usb:0"])
def test_a_source_with_a_prefix_the_station_does_not_know_names_the_ones_it_does(spec):
    """'gige:nosuchcam' said 'nothing at that path; check the spelling; quote paths with spaces'."""
    with pytest.raises(SourceError) as caught:
        open_source(spec)
    text = str(caught.value)
    assert "genicam:SERIAL" in text and "aravis:SERIAL" in text and f"'{spec.split(':')[0]}:'" in text


def test_a_missing_path_is_still_a_missing_path(tmp_path):
    with pytest.raises(SourceError, match="nothing at that path"):
        open_source(str(tmp_path / "tags" / "run 2"))


@pytest.mark.parametrize(("spec", "hint"), [("camera:7", "camera 7 is entered as 7 alone"),
                                            ("camera:/line/run.avi", "check the video's path")])
def test_a_replay_of_a_video_that_is_not_there_says_what_camera_means(spec, hint):
    """'camera:7' said 'cannot open camera replay 7 … OpenCV could not open it'."""
    with pytest.raises(SourceError) as caught:
        open_source(spec)
    assert "no video to replay as a camera" in str(caught.value) and hint in str(caught.value)
