"""Training images held on the GPU, letterboxed once, augmented per batch on the GPU.

The generator may still be writing when training starts: a loader thread picks up every
image whose label file exists (labels are written last) and the store grows as it trains,
so generation and training share the same minutes of a leased machine.
"""

from __future__ import annotations

import queue
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import cv2
import numpy as np
import torch
import torch.nn.functional as F

PAD_VALUE = 114
MAX_OBJECTS = 40  # a sheet of six tags with their codes, plus codes on packaging


def letterbox(image_bgr: np.ndarray, size: int) -> tuple[np.ndarray, float, int, int]:
    """The station's letterbox (inference/preprocess.py): area-resize, centre pad with 114.
    Returns RGB."""
    h, w = image_bgr.shape[:2]
    scale = min(size / h, size / w)
    rh, rw = max(1, int(round(h * scale))), max(1, int(round(w * scale)))
    top, left = int(round((size - rh) / 2 - 0.1)), int(round((size - rw) / 2 - 0.1))
    canvas = np.full((size, size, 3), PAD_VALUE, np.uint8)
    interp = cv2.INTER_AREA if rh < h else cv2.INTER_LINEAR
    resized = image_bgr if (rh, rw) == (h, w) else cv2.resize(image_bgr, (rw, rh), interpolation=interp)
    canvas[top:top + rh, left:left + rw] = resized[..., ::-1]
    return canvas, scale, left, top


def load_item(image_path: Path, label_path: Path, size: int) -> tuple[np.ndarray, np.ndarray]:
    image = cv2.imread(str(image_path), cv2.IMREAD_COLOR)
    if image is None:
        raise FileNotFoundError(image_path)
    h, w = image.shape[:2]
    canvas, scale, left, top = letterbox(image, size)
    rows = np.loadtxt(label_path, ndmin=2, dtype=np.float32) if label_path.stat().st_size else np.zeros((0, 5), np.float32)
    gt = np.full((MAX_OBJECTS, 5), -1, np.float32)
    rows = rows[:MAX_OBJECTS]
    if len(rows):
        cx, cy, bw, bh = rows[:, 1] * w, rows[:, 2] * h, rows[:, 3] * w, rows[:, 4] * h
        gt[:len(rows), 0] = rows[:, 0]
        gt[:len(rows), 1] = (cx - bw / 2) * scale + left
        gt[:len(rows), 2] = (cy - bh / 2) * scale + top
        gt[:len(rows), 3] = (cx + bw / 2) * scale + left
        gt[:len(rows), 4] = (cy + bh / 2) * scale + top
    return canvas, gt


class GpuImageStore:
    def __init__(self, root: Path, imgsz: int, capacity: int, device: torch.device, threads: int = 6) -> None:
        self.root, self.imgsz, self.capacity, self.device = Path(root), imgsz, capacity, device
        self.images = torch.empty((capacity, imgsz, imgsz, 3), dtype=torch.uint8, device=device)
        self.gt = torch.full((capacity, MAX_OBJECTS, 5), -1.0, device=device)
        self.count = 0
        self._queue: queue.Queue = queue.Queue(maxsize=4096)
        self._stop = threading.Event()
        self._threads = threads
        self._thread: threading.Thread | None = None
        self.finished = threading.Event()

    def start(self) -> GpuImageStore:
        self._thread = threading.Thread(target=self._scan, daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()

    def _scan(self) -> None:
        seen: set[str] = set()
        labels = self.root / "labels"
        with ThreadPoolExecutor(self._threads) as pool:
            while not self._stop.is_set() and len(seen) < self.capacity:
                done = (self.root / "annotations.json").exists()
                new = sorted(p.stem for p in labels.glob("*.txt") if p.stem not in seen)[: self.capacity - len(seen)]
                seen.update(new)
                jobs = [(self.root / "images" / f"{s}.jpg", labels / f"{s}.txt", self.imgsz) for s in new]
                for item in pool.map(lambda job: load_item(*job), jobs):
                    self._queue.put(item)
                if done and not new:
                    break
                if not new:
                    time.sleep(1.0)
        self.finished.set()

    def absorb(self, limit: int = 512) -> int:
        """Move decoded images onto the GPU; cheap enough to call every step."""
        items = []
        while len(items) < limit:
            try:
                items.append(self._queue.get_nowait())
            except queue.Empty:
                break
        if not items:
            return 0
        n = min(len(items), self.capacity - self.count)
        images = torch.from_numpy(np.stack([i[0] for i in items[:n]]))
        gt = torch.from_numpy(np.stack([i[1] for i in items[:n]]))
        self.images[self.count:self.count + n].copy_(images.to(self.device, non_blocking=False))
        self.gt[self.count:self.count + n].copy_(gt.to(self.device))
        self.count += n
        return n

    def wait_for(self, n: int, timeout_s: float = 600.0) -> None:
        deadline = time.time() + timeout_s
        while self.count < n and time.time() < deadline:
            if self.absorb() == 0:
                if self.finished.is_set() and self._queue.empty():
                    break
                time.sleep(0.2)

    def batch(self, index: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
        return self.images[index], self.gt[index]


def augment(images: torch.Tensor, gt: torch.Tensor, generator: torch.Generator,
            p_affine: float = 0.6, scale_range: tuple[float, float] = (0.55, 1.5)) -> tuple[torch.Tensor, torch.Tensor]:
    """uint8 NHWC batch -> float NCHW (channels-last memory) in 0..1, boxes moved to match.

    Zoom and shift only (no flips: mirrored print never reaches the camera), then brightness,
    contrast and saturation jitter, and now and then a channel shuffle for colour invariance.
    """
    b, s = images.shape[0], images.shape[1]
    dev = images.device
    x = images.permute(0, 3, 1, 2).float()

    def uniform(lo: float, hi: float, *shape: int) -> torch.Tensor:
        return torch.rand(*shape, device=dev, generator=generator) * (hi - lo) + lo

    gray = x.mean(1, keepdim=True)
    sat = uniform(0.6, 1.4, b, 1, 1, 1)
    x = gray + (x - gray) * sat
    mean = x.mean((1, 2, 3), keepdim=True)
    x = (x - mean) * uniform(0.7, 1.3, b, 1, 1, 1) + mean * uniform(0.7, 1.3, b, 1, 1, 1)
    shuffle = torch.rand(b, device=dev, generator=generator) < 0.1
    if shuffle.any():
        perm = torch.randperm(3, device=dev, generator=generator)
        x[shuffle] = x[shuffle][:, perm]

    do = torch.rand(b, device=dev, generator=generator) < p_affine
    log_lo, log_hi = np.log(scale_range[0]), np.log(scale_range[1])
    scale = torch.where(do, uniform(log_lo, log_hi, b).exp(), torch.ones(b, device=dev))
    shift = torch.where(do[:, None], uniform(-0.35, 0.35, b, 2), torch.zeros(b, 2, device=dev))
    theta = torch.zeros(b, 2, 3, device=dev)
    theta[:, 0, 0] = theta[:, 1, 1] = 1 / scale
    theta[:, :, 2] = -shift / scale[:, None]
    grid = F.affine_grid(theta, list(x.shape), align_corners=False)
    x = F.grid_sample(x - PAD_VALUE, grid, mode="bilinear", padding_mode="zeros", align_corners=False) + PAD_VALUE
    x = (x.clamp_(0, 255) / 255).contiguous(memory_format=torch.channels_last)

    boxes = gt[..., 1:].clone()
    valid = gt[..., 0] >= 0
    for k, axis in ((0, 0), (1, 1), (2, 0), (3, 1)):
        u = boxes[..., k] / s * 2 - 1
        boxes[..., k] = ((u * scale[:, None] + shift[:, axis, None]) + 1) / 2 * s
    area = (boxes[..., 2] - boxes[..., 0]) * (boxes[..., 3] - boxes[..., 1])
    clipped = boxes.clamp(0, s)
    w, h = clipped[..., 2] - clipped[..., 0], clipped[..., 3] - clipped[..., 1]
    keep = valid & (w >= 2) & (h >= 2) & (w * h >= 0.6 * area)
    out = torch.cat((gt[..., :1], clipped), -1)
    out[~keep] = -1
    return x, out
