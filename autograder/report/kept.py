"""What a process makes once and keeps for the next student whose part reads the same, held to a fixed size."""
from __future__ import annotations

from typing import Callable


class Kept:
    """Values by key, up to `limit` in all by each value's measure (`size`, in the caller's unit); all dropped at
    once when the next would pass it (a class's later tasks are as likely as its first to read the same), so what
    is kept never grows with the class."""

    def __init__(self, limit: int):
        self.limit = limit
        self.values: dict = {}
        self.size = 0

    def get(self, key, make: Callable[[], object], size: Callable[[object], int]):
        """The value kept under `key`, else `make()`, kept."""
        found = self.values.get(key)
        if found is None:
            found = make()
            measure = size(found)
            if self.size + measure > self.limit:
                self.clear()
            self.values[key] = found
            self.size += measure
        return found

    def clear(self) -> None:
        self.values.clear()
        self.size = 0

    def __len__(self) -> int:
        return len(self.values)
