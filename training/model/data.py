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

from inference.adapt.htdet.data import MAX_OBJECTS, PAD_VALUE, augment, letterbox  # noqa: F401


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


class MixedStore:
    """Several image stores sampled in fixed shares per batch: replayed scenes beside new ones, so a
    fine-tune on hard negatives does not forget what the model already finds. One folder behaves as
    a single GpuImageStore."""

    def __init__(self, roots: list[Path], shares: list[float], imgsz: int, capacity: int, device: torch.device,
                 threads: int = 6) -> None:
        if len(roots) != len(shares) or not roots or min(shares) <= 0:
            raise ValueError(f"one positive share per data folder: {len(roots)} folders, shares {shares}")
        total = float(sum(shares))
        self.shares = [s / total for s in shares]
        per_threads = max(2, threads // len(roots))
        self.stores = [GpuImageStore(r, imgsz, max(1, int(capacity * s)), device, per_threads if len(roots) > 1 else threads)
                       for r, s in zip(roots, self.shares)]

    def start(self) -> MixedStore:
        for s in self.stores:
            s.start()
        return self

    def stop(self) -> None:
        for s in self.stores:
            s.stop()

    @property
    def count(self) -> int:
        return sum(s.count for s in self.stores)

    def counts(self) -> list[int]:
        return [s.count for s in self.stores]

    def absorb(self) -> int:
        return sum(s.absorb() for s in self.stores)

    def wait_for(self, n: int, timeout_s: float = 600.0) -> None:
        for s, share in zip(self.stores, self.shares):
            s.wait_for(max(1, int(n * share)), timeout_s)

    def quotas(self, batch: int) -> list[int]:
        out = [int(batch * s) for s in self.shares]
        out[0] += batch - sum(out)
        return out

    def sample(self, batch: int, generator: torch.Generator) -> tuple[torch.Tensor, torch.Tensor]:
        if len(self.stores) == 1:
            s = self.stores[0]
            return s.batch(torch.randint(0, s.count, (batch,), device=s.device, generator=generator))
        parts = [s.batch(torch.randint(0, max(s.count, 1), (k,), device=s.device, generator=generator))
                 for s, k in zip(self.stores, self.quotas(batch)) if k]
        return torch.cat([p[0] for p in parts]), torch.cat([p[1] for p in parts])

    def first(self, n: int) -> tuple[torch.Tensor, torch.Tensor]:
        """Up to n images in the shares' proportions (BatchNorm recalibration)."""
        parts = [s.batch(torch.arange(min(k, s.count), device=s.device)) for s, k in zip(self.stores, self.quotas(n))]
        return torch.cat([p[0] for p in parts]), torch.cat([p[1] for p in parts])
