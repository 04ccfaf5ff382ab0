"""OUT/shard.json: what one shard's run graded, and against what, so `autograder merge` can join
shards only when they belong together (the same class, assignment, rubric, seed, kit and roster) and are
finished. The seed itself is never written: a digest tells two seeds apart. With --roster it holds the
roster (its ids and where it was read) and the shard's submissions not graded for not being on it, so the
merge makes their rows, and the missing students', as one machine would.
"""
from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

from autograder import __version__
from autograder.batch.class_list import Roster
from autograder.config import Rubric
from autograder.files import write_bytes_atomic

MANIFEST = "shard.json"
SCHEMA = 1


@dataclass(frozen=True)
class ShardManifest:
    shard: str                   # "I/N"
    kit_version: str
    assignment: str              # a digest of the public case library (the exercises)
    rubric: str                  # batch.keys.rubric_digest
    seed: str                    # a digest of the hidden seed
    roster: tuple[str, ...]      # every student of the class, in the class's order
    intake: tuple[str, ...]      # what discovery said, as a one-machine run keeps it
    own: dict                    # student -> content digest, for the students this shard grades
    finished: bool = False
    class_roster: dict | None = None   # --roster: {"ids", "source"} (class_list.Roster), None: none given
    unrostered: dict = field(default_factory=dict)  # student -> [source, late, original]: not graded, not on it

    def given_roster(self) -> Roster | None:
        """The roster the shard was graded with (class_list.Roster), or None."""
        r = self.class_roster
        return None if r is None else Roster(tuple(r["ids"]), str(r["source"]))

    @property
    def index(self) -> int:
        return int(self.shard.split("/")[0])

    @property
    def count(self) -> int:
        return int(self.shard.split("/")[1])

    def class_digest(self) -> str:
        return _sha(json.dumps([self.roster, self.intake]))


def describe(rubric: Rubric) -> dict:
    """The fields that say what a shard was graded against."""
    from autograder.batch.keys import rubric_digest
    from autograder.goldens.store import cases_digest
    from autograder.grading import select_cases

    return {"kit_version": __version__,
            "assignment": cases_digest(select_cases(rubric, include_hidden=False), rubric.activation),
            "rubric": rubric_digest(rubric),
            "seed": _sha(f"backprop-kit seed:{rubric.hidden_seed}")[:16]}


def write_manifest(out_dir: Path, manifest: ShardManifest) -> None:
    data = {"schema": SCHEMA, **asdict(manifest), "roster": list(manifest.roster), "intake": list(manifest.intake)}
    write_bytes_atomic(Path(out_dir) / MANIFEST, (json.dumps(data, indent=1, sort_keys=True) + "\n").encode())


def read_manifest(out_dir: Path) -> ShardManifest | None:
    """The manifest in out_dir, or None when there is none or it can't be read."""
    try:
        data = json.loads((Path(out_dir) / MANIFEST).read_text(encoding="utf-8"))
        if data.pop("schema") != SCHEMA:
            return None
        return ShardManifest(**{**data, "roster": tuple(data["roster"]), "intake": tuple(data["intake"])})
    except (OSError, ValueError, TypeError, KeyError, AttributeError):
        return None


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8", "surrogatepass")).hexdigest()
