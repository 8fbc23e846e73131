"""Request bodies handed from a front-end process to the GPU owner without going through a pipe.

Each front end has its own shared-memory segment cut into equal slots, made and finally removed by the owner.
The front end writes a body into a free slot and sends only (slot, length) over its pipe; the owner copies the
bytes out when the message arrives; the front end frees the slot when the answer comes back. A body larger than a
slot, or one that finds every slot taken, travels in a segment of its own that the owner removes after reading: the
pipes carry only small messages, so neither side ever blocks the other on a full pipe."""

from __future__ import annotations

from multiprocessing import shared_memory

from inference.errors import ConfigError

SLOT_BYTES = 512 * 1024  # a 1080p JPEG at quality 90 is ~150 KB; larger bodies take a segment of their own


class BodySlots:
    """Equal slots in one shared segment. The owner makes it (`create=True`) and unlinks it at the end; the front
    end attaches by name. Slot bookkeeping lives on the front end only."""

    def __init__(self, count: int, slot_bytes: int = SLOT_BYTES, *, name: str | None = None,
                 create: bool = False) -> None:
        if count < 1 or slot_bytes < 1024:
            raise ConfigError("body slots out of range", expected="≥ 1 slot of ≥ 1024 bytes",
                              found=f"{count} × {slot_bytes} bytes")
        self.count, self.slot_bytes = int(count), int(slot_bytes)
        self._shm = shared_memory.SharedMemory(name=name, create=create, size=self.count * self.slot_bytes)
        self._owner = create
        self._free = list(range(self.count - 1, -1, -1))

    @property
    def name(self) -> str:
        return self._shm.name

    @property
    def free_slots(self) -> int:
        return len(self._free)

    def put(self, body: bytes) -> int | None:
        """The slot now holding `body`, or None when it does not fit or no slot is free."""
        if len(body) > self.slot_bytes or not self._free:
            return None
        slot = self._free.pop()
        start = slot * self.slot_bytes
        self._shm.buf[start:start + len(body)] = body
        return slot

    def release(self, slot: int) -> None:
        self._free.append(slot)

    def read(self, slot: int, size: int) -> bytes:
        if not (0 <= slot < self.count and 0 <= size <= self.slot_bytes):
            raise ValueError(f"slot {slot} of {self.count}, size {size} of {self.slot_bytes}")
        start = slot * self.slot_bytes
        return bytes(self._shm.buf[start:start + size])

    def close(self) -> None:
        """Idempotent; the owner also removes the segment."""
        if self._shm is not None:
            shm, self._shm = self._shm, None
            _release(shm, self._owner)


class SharedDepth:
    """The owner's queue depth in one shared 64-bit word, so a front end can refuse a request before reading its
    body when the owner's queue is full (as one process does), instead of after uploading it and a hop. The owner
    makes it (`create=True`) and writes; front ends attach by name and read. A front end reads a value at most one
    owner event old; the owner's own admission stays the authority."""

    def __init__(self, *, name: str | None = None, create: bool = False) -> None:
        self._shm = shared_memory.SharedMemory(name=name, create=create, size=8)
        self._word = self._shm.buf.cast("q")
        self._owner = create
        if create:
            self._word[0] = 0

    @property
    def name(self) -> str:
        return self._shm.name

    @property
    def value(self) -> int:
        return int(self._word[0])

    @value.setter
    def value(self, depth: int) -> None:
        self._word[0] = int(depth)

    def close(self) -> None:
        """Idempotent; the owner also removes the segment."""
        if self._shm is not None:
            self._word.release()
            shm, self._shm = self._shm, None
            _release(shm, self._owner)


def _release(shm: shared_memory.SharedMemory, owner: bool) -> None:
    """Detach from a segment; its owner also removes it (once: a second remove finds nothing)."""
    shm.close()
    if owner:
        try:
            shm.unlink()
        except FileNotFoundError:
            pass


def put_alone(body: bytes) -> str:
    """A segment holding only `body` (for one that does not fit a slot); its name goes to the owner, which
    reads it with `take_alone` and removes it."""
    shm = shared_memory.SharedMemory(create=True, size=max(1, len(body)))
    try:
        shm.buf[:len(body)] = body
    finally:
        shm.close()
    return shm.name


def take_alone(name: str, size: int) -> bytes:
    shm = shared_memory.SharedMemory(name=name)
    try:
        return bytes(shm.buf[:size])
    finally:
        shm.close()
        shm.unlink()


def drop_alone(name: str) -> None:
    """Remove a segment that was made but never sent (the owner had gone)."""
    try:
        shm = shared_memory.SharedMemory(name=name)
    except FileNotFoundError:
        return
    shm.close()
    shm.unlink()
