"""One shard of a class: a stable split by student id, so a batch scheduler can grade a class on
many machines (a Kubernetes Indexed Job, a SLURM array, a CI matrix) and `autograder merge` joins
the shards into the files one machine would have written.

    autograder grade class.zip --out shard-1 --shard 1/4      # ... through 4/4, anywhere
    autograder merge shard-1 shard-2 shard-3 shard-4 --out grades/hw1

A student's shard depends on their id alone (sha256 of it), never on who else is in the class or
on the order the shards run in, so a regrade of one shard grades the same students again.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass

_FORM = re.compile(r"\s*(\d+)\s*/\s*(\d+)\s*")


class ShardError(ValueError):
    """--shard that is not I/N with 1 <= I <= N."""


@dataclass(frozen=True)
class Shard:
    index: int  # 1..count
    count: int

    def __post_init__(self) -> None:
        if not 1 <= self.index <= self.count:
            raise ShardError(f"--shard {self}: I/N needs 1 <= I <= N (e.g. 1/{max(self.count, 2)})")

    def __str__(self) -> str:
        return f"{self.index}/{self.count}"

    def owns(self, student: str) -> bool:
        return shard_of(student, self.count) == self.index


def shard_of(student: str, count: int) -> int:
    """The shard (1..count) that grades `student`."""
    digest = hashlib.sha256(student.encode("utf-8", "surrogatepass")).digest()
    return int.from_bytes(digest[:8], "big") % count + 1


def parse_shard(text: str) -> Shard:
    """'2/4' -> Shard(2, 4); anything else: ShardError, one line."""
    found = _FORM.fullmatch(text or "")
    if not found:
        raise ShardError(f"--shard {text!r}: give I/N, this machine's shard of N (e.g. 1/4, from 1 to N)")
    return Shard(int(found[1]), int(found[2]))
