"""Frame sources: a folder, one image, a video file, a camera. Bad frames become error records."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Iterator

import cv2
import numpy as np

from inference.errors import HangtagError, SourceError
from inference.errors import ImageDecodeError
from inference.imageio import IMAGE_SUFFIXES, read_image, scan_images, skipped_error
from inference.lending import FrameLender, FrameMemory

LENT_FRAMES = 8  # the grabber's newest, the one being read, the one inspected, the window's, and spare
_SIZE = re.compile(r"(\d+)[xX](\d+)")  # a camera's WIDTHxHEIGHT
STREAM_TIMEOUT_MS = 3000  # a stream URL that answers nothing for this long is "no frames", not a 30 s hang
RECONNECT_BACKOFF_S = (0.5, 1.0, 2.0, 4.0, 8.0)  # then every 8 s, as long as the station runs
VIDEO_SUFFIXES = frozenset({".mp4", ".avi", ".mov", ".mkv", ".m4v", ".webm", ".mpg", ".mpeg"})
SOURCE_FORMS = ("a folder, image, video, camera index, URL, or one of genicam:SERIAL, aravis:SERIAL, "
                  "watch:FOLDER, camera:VIDEO")


@dataclass(frozen=True)
class Frame:
    index: int
    name: str
    path: str | None
    image: np.ndarray
    decode_ms: float
    trigger_id: int | None = None  # the trigger that asked for this frame (software or hardware), if any


@dataclass(frozen=True)
class FrameError:
    """A frame that could not be read; the run goes on with the next one."""

    index: int
    name: str
    path: str | None
    message: str


FrameOrError = Frame | FrameError


class Waiting:
    """Yielded by sources that wait for input (a watched folder): nothing new yet, ask again. `reason` says
    what for, where it matters to the operator (an industrial camera lost and being looked for)."""

    def __init__(self, reason: str = "") -> None:
        self.reason = reason


WAITING = Waiting()


class FrameSource:
    """Iterates frames; `live` sources (cameras) may drop frames, others deliver every one."""

    live = False
    description = "source"

    def frames(self) -> Iterator[FrameOrError]:
        raise NotImplementedError

    def __len__(self) -> int:  # unknown length → 0
        return 0

    def lend_frames(self, memory: FrameMemory | None) -> None:
        """Read frames into lent memory from `memory` (the GPU pipeline's page-locked frames) where this source
        can read into given memory; None: ordinary memory. Sources that cannot (image decoders) ignore it."""

    def close(self) -> None:
        pass


class ImageFilesSource(FrameSource):
    def __init__(self, paths: list[Path], description: str, skipped: dict[Path, str] | None = None) -> None:
        self.skipped = dict(skipped or {})  # entries named like images that are not files: one error record each
        self.paths = list(paths) + sorted(self.skipped, key=lambda p: p.name)
        self.description = description

    def __len__(self) -> int:
        return len(self.paths)

    def frames(self) -> Iterator[FrameOrError]:
        for index, path in enumerate(self.paths):
            start = time.perf_counter_ns()
            if path in self.skipped:
                yield FrameError(index, path.name, str(path), str(skipped_error(path, self.skipped[path])))
                continue
            try:
                image = read_image(path)
            except HangtagError as exc:
                yield FrameError(index, path.name, str(path), str(exc))
                continue
            yield Frame(index, path.name, str(path), image, (time.perf_counter_ns() - start) / 1e6)


def folder_contents(folder: Path, named: int = 4) -> str:
    """What a folder without images holds, by name: '0 other entries' said nothing of an empty folder, and a set's
    own folder (images/, recipes/, truth.jsonl) shows the operator which one to pick."""
    entries = sorted(folder.iterdir())
    if not entries:
        return "an empty folder"
    names = [entry.name + ("/" if entry.is_dir() else "") for entry in entries[:named]]
    more = f" and {len(entries) - named} more" if len(entries) > named else ""
    return f"{len(entries)} other {'entry' if len(entries) == 1 else 'entries'}: {', '.join(names)}{more}"


def folder_source(folder: Path) -> ImageFilesSource:
    paths, skipped = scan_images(folder)
    if not paths and not skipped:
        raise SourceError(f"no images in {folder}", expected=f"files ending in {', '.join(sorted(IMAGE_SUFFIXES))}",
                          found=folder_contents(folder), hint="pick the folder that holds the captured tag images")
    return ImageFilesSource(paths, f"folder {folder}", skipped)


class VideoSource(FrameSource):
    """A video file or a camera (index or URL). Cameras are live: the consumer keeps only the newest."""

    def __init__(self, target: str | int, *, live: bool, resolution: tuple[int, int] | None = None,
                 simulated: bool = False) -> None:
        self.target = target
        self.live = live
        self.simulated = simulated  # a recorded video played as a camera: its end is no fault
        self.description = ("camera replay " if simulated else "camera ") + str(target) if live else f"video {target}"
        self._capture = _capture(target)
        if not self._capture.isOpened():
            stream = isinstance(target, str) and "://" in target
            raise SourceError(f"cannot open {self.description}", expected="a readable video file or camera",
                              found=f"no frames within {STREAM_TIMEOUT_MS / 1000:g} s" if stream
                              else "OpenCV could not open it",
                              hint="check the path, the camera index or URL, and that no other program holds it")
        if resolution:
            self._capture.set(cv2.CAP_PROP_FRAME_WIDTH, resolution[0])
            self._capture.set(cv2.CAP_PROP_FRAME_HEIGHT, resolution[1])
        # a replay knows its recording's length, so a file cut short says so: it ended as quietly as a whole one
        self._expected = int(self._capture.get(cv2.CAP_PROP_FRAME_COUNT) or 0) if not live or simulated else 0
        fps = float(self._capture.get(cv2.CAP_PROP_FPS) or 0.0)
        self._period_s = 1.0 / fps if simulated and 1.0 <= fps <= 240.0 else 0.0
        self._memory: FrameMemory | None = None
        self.lender: FrameLender | None = None  # made at the first frame read after lend_frames(), in its shape
        self.frames_in_own_memory = 0  # frames read into ordinary memory while lending was asked for

    def lend_frames(self, memory: FrameMemory | None) -> None:
        """OpenCV's read() fills a given array of the right shape in place: with `memory`, each frame is read
        into a lent frame of LENT_FRAMES, which returns when no one refers to it any more. Takes effect at
        the next frame; safe to call while another thread iterates frames()."""
        self._memory = memory

    def _read(self, shape: tuple[int, ...] | None) -> tuple[bool, np.ndarray | None]:
        memory = self._memory
        if memory is None:
            self.lender = None
            return self._capture.read()
        if shape is not None and (self.lender is None or self.lender.make != memory or self.lender.shape != shape):
            self.lender = FrameLender(shape, LENT_FRAMES, memory)  # the first frame tells the shape
        target = self.lender.lend() if self.lender is not None else None
        ok, image = self._capture.read() if target is None else self._capture.read(target)
        if ok and image is not target:  # no frame free, or the camera changed its frame size
            self.frames_in_own_memory += 1
        return ok, image

    def __len__(self) -> int:
        return max(self._expected, 0) if not self.live else 0  # a replay is a camera: frames dropped, no count

    def frames(self) -> Iterator[FrameOrError]:
        index = 0
        name = Path(str(self.target)).name if not self.live else f"camera-{self.target}"
        next_due = time.perf_counter()
        shape: tuple[int, ...] | None = None
        while True:
            if self._period_s:  # a replay delivers at the recording's frame rate, like the camera did
                next_due += self._period_s
                time.sleep(max(0.0, next_due - time.perf_counter()))
            start = time.perf_counter_ns()
            ok, image = self._read(shape)
            if not ok or image is None:
                if self._expected and index < self._expected - 1:
                    yield FrameError(index, f"{name}#{index}", str(self.target),
                                     f"{self.description} stopped at frame {index} of {self._expected}: "
                                     "the file is truncated or the stream broke; frames before it were kept")
                elif self.live and not self.simulated:
                    yield FrameError(index, f"{name}#{index}", str(self.target),
                                     f"{self.description} stopped delivering frames; reconnecting (check the "
                                     "cable or stream)")
                    yield from self._reconnect()
                    index += 1
                    continue
                return
            shape = image.shape
            yield Frame(index, f"{name}#{index}", str(self.target), image, (time.perf_counter_ns() - start) / 1e6)
            index += 1

    def _reconnect(self) -> Iterator[Waiting]:
        """Open the camera again with growing pauses, as a camera's own software does (the error before it said so)."""
        for attempt in range(1_000_000_000):
            pause = RECONNECT_BACKOFF_S[min(attempt, len(RECONNECT_BACKOFF_S) - 1)]
            until = time.monotonic() + pause
            while time.monotonic() < until:
                yield WAITING  # the singleton: the window's worker tells "nothing yet" by identity
                time.sleep(min(0.2, max(0.0, until - time.monotonic())))
            self._capture.release()
            self._capture = _capture(self.target)
            if self._capture.isOpened():
                return

    def close(self) -> None:
        self._capture.release()


def _capture(target: str | int) -> cv2.VideoCapture:
    """Stream URLs open and read with a timeout (FFmpeg's default is 30 s); files and device indices as they are."""
    if isinstance(target, str) and "://" in target:
        return cv2.VideoCapture(target, cv2.CAP_FFMPEG, [cv2.CAP_PROP_OPEN_TIMEOUT_MSEC, STREAM_TIMEOUT_MS,
                                                         cv2.CAP_PROP_READ_TIMEOUT_MSEC, STREAM_TIMEOUT_MS])
    return cv2.VideoCapture(target)


class WatchedFolderSource(FrameSource):
    """Inspects files that appear in a folder after it is opened, in arrival order; never ends by itself.

    A file is inspected once it is complete (inference.arrivals: size and time unchanged for a moment, a
    failed decode tried once more); empty files and entries that are not files get an error record.
    Every file is inspected (nothing is dropped): the line waits for the station. Each file is one item (one
    garment the camera software shot), never a frame of a moving line: `one_item_per_frame`.
    """

    one_item_per_frame = True

    def __init__(self, folder: Path, poll_s: float = 0.2, **arrival_options: float) -> None:
        if not folder.is_dir():
            raise SourceError(f"cannot watch {folder}", expected="an existing folder", found="no such folder",
                              hint="create the folder the camera software writes into, then watch it")
        from inference.arrivals import Arrivals

        self.folder = folder
        self.poll_s = poll_s
        self.description = f"watched folder {folder}"
        self.arrivals = Arrivals(folder, **arrival_options)

    def frames(self) -> Iterator[FrameOrError | Waiting]:
        index = 0
        while True:
            now = time.monotonic()
            ready, problems = self.arrivals.poll(now)
            before = index
            for path, reason in problems:
                yield FrameError(index, path.name, str(path), str(skipped_error(path, reason)))
                index += 1
            for path in ready:
                start = time.perf_counter_ns()
                try:
                    image = read_image(path)
                except HangtagError as exc:
                    if isinstance(exc, ImageDecodeError) and self.arrivals.retry_later(path, now):
                        continue  # perhaps still being written: once more after a pause
                    self.arrivals.done(path)
                    yield FrameError(index, path.name, str(path), str(exc))
                else:
                    self.arrivals.done(path)
                    yield Frame(index, path.name, str(path), image, (time.perf_counter_ns() - start) / 1e6)
                index += 1
            if index == before:  # nothing new (or only files waiting for their second try)
                yield WAITING
                time.sleep(self.poll_s)


def split_camera(text: str) -> tuple[str, str]:
    """A camera spec's target and size ("" when none): '0@1280x720' → ('0', '1280x720'). The '@' of a stream
    URL's credentials (rtsp://user:pw@host/…) belongs to the URL unless WIDTHxHEIGHT follows the last '@'."""
    target, at, size = text.rpartition("@")
    if at and (target.isdigit() or _SIZE.fullmatch(size)):
        return target, size
    return text, ""


def spec_kind(spec: str | Path) -> str:
    """What a source spec names, by its text: "watch", "replay", "camera", "video", "image" or "folder"
    (open_source then asks the file system; the source bar shows the kind)."""
    text = str(spec)
    if text.startswith(("genicam:", "aravis:")):  # industrial cameras (inference.cameras)
        return "camera"
    if text.startswith("watch:"):
        return "watch"
    if text.startswith("camera:"):
        return "replay"
    target, _ = split_camera(text)
    if target.isdigit() or "://" in target:
        return "camera"
    suffix = Path(text).suffix.lower()
    if suffix in VIDEO_SUFFIXES:
        return "video"
    return "image" if suffix in IMAGE_SUFFIXES else "folder"


def _camera(text: str) -> FrameSource:
    if text.startswith(("genicam:", "aravis:")):
        from inference.cameras.specs import open_camera  # harvesters / Aravis load only when asked for

        return open_camera(text)
    target, size = split_camera(text)
    resolution = None
    if size:
        match = _SIZE.fullmatch(size)
        if match is None:
            raise SourceError("camera resolution not understood", expected="WIDTHxHEIGHT, e.g. 0@1280x720",
                              found=size)
        resolution = (int(match[1]), int(match[2]))
    return VideoSource(int(target) if target.isdigit() else target, live=True, resolution=resolution)


def open_source(spec: str | Path) -> FrameSource:
    """A folder, an image file, a video file, a camera index ('0', '0@1280x720'), a stream URL,
    'watch:FOLDER' for new files arriving in a folder, 'camera:VIDEO' to replay a video as a camera, or an
    industrial camera: 'genicam:SERIAL' (any GenTL producer) or 'aravis:SERIAL' (GigE Vision through Aravis)."""
    text, kind = str(spec), spec_kind(spec)
    if kind == "watch":
        return WatchedFolderSource(Path(text[len("watch:"):]))
    if kind == "replay":  # replay a recorded video as if it were a live camera
        video = text[len("camera:"):]
        if not Path(video).is_file():  # 'camera:7' meant camera 7, and was told OpenCV could not open "camera replay 7"
            raise SourceError(f"no video to replay as a camera: {video}", expected="camera:PATH of a recorded video",
                              found="nothing at that path",
                              hint=f"camera {video} is entered as {video} alone" if split_camera(video)[0].isdigit()
                              else "check the video's path")
        return VideoSource(video, live=True, simulated=True)
    if kind == "camera":
        return _camera(text)
    path = Path(text)
    if path.is_dir():
        return folder_source(path)
    if not path.exists():
        prefix = re.match(r"([A-Za-z][\w-]+):", text)  # 'gige:cam1' was told to check a path's spelling
        if prefix:
            raise SourceError(f"source not found: {text}", expected=SOURCE_FORMS,
                              found=f"'{prefix[1]}:', which names no kind of source, and no file or folder of that name",
                              hint="industrial cameras are genicam:SERIAL (any GenTL producer) or aravis:SERIAL")
        raise SourceError(f"source not found: {path}", expected="a folder, image, video, camera index or URL",
                          found="nothing at that path", hint="check the spelling; quote paths with spaces")
    if path.suffix.lower() in VIDEO_SUFFIXES:
        return VideoSource(str(path), live=False)
    if path.suffix.lower() not in IMAGE_SUFFIXES:  # a report or notes opened by mistake: said now, not as an ERROR row
        raise SourceError(f"{path} is neither an image nor a video",
                          # one line in the window's 4-line error panel: the suffix lists pushed the hint out of it
                          expected="an image (.jpg, .png…), a video (.mp4, .avi…), a folder of images or a camera",
                          found=f"a {path.suffix.lower()} file" if path.suffix else "a file with no extension",
                          hint="open the tag images themselves, or the folder that holds them")
    return ImageFilesSource([path], f"image {path.name}")
