"""A cache of goldens on disk, keyed by what determines them.

The digest covers the kit version, the activation, every case's program and
parameters, and the source of the case programs; a file of goldens records it
and is used only where it matches. The cache file's name also covers the
reference's source, so a change to the oracle computes fresh goldens. A file is
written atomically; a damaged one is ignored and rewritten.
"""
from __future__ import annotations

import hashlib
import json
import os
from contextlib import contextmanager
from pathlib import Path
from typing import Iterator

from autograder import __version__
from autograder.cases.model import Case
from autograder.errors import KitError
from autograder.files import write_json_atomic
from autograder.goldens.compute import compute_goldens
from autograder.own_folders import cache_dir, open_own, own_folder

CACHE_ENV = "AUTOGRADER_CACHE"
OWN_HINT = f"remove it, or set {CACHE_ENV} to a folder of your own"
_KIT = Path(__file__).resolve().parent.parent


def default_cache_dir() -> Path:
    return cache_dir()  # $AUTOGRADER_CACHE, $XDG_CACHE_HOME/backprop-kit or ~/.cache/backprop-kit


def _source_digest(root: Path) -> str:
    """sha256 of the *.py files under `root` (the reference's mistakes/ too); once a process per root (the kit's sources don't
    change under a running grader)."""
    root = Path(root)
    digest = _SOURCE_DIGESTS.get(root)
    if digest is None:
        digest = _SOURCE_DIGESTS[root] = _hash_sources(root)
    return digest


_SOURCE_DIGESTS: dict[Path, str] = {}


def _hash_sources(root: Path) -> str:
    h = hashlib.sha256()
    for path in sorted(root.rglob("*.py")) if root.is_dir() else ():
        h.update(path.relative_to(root).as_posix().encode())
        h.update(path.read_bytes())
    return h.hexdigest()


def cases_digest(cases: list[Case], activation: str) -> str:
    payload = json.dumps(
        [__version__, activation, [[c.id, c.program, c.params] for c in cases]],
        sort_keys=True, separators=(",", ":"),
    )
    programs = _source_digest(_KIT / "child" / "programs")
    return hashlib.sha256(payload.encode() + programs.encode()).hexdigest()[:32]


def case_fingerprints(cases: list[Case], activation: str) -> dict[str, str]:
    """case id -> the digest of that one case: a file of goldens for many cases serves any
    subset of them (`check --task mul` in a handout that ships every public golden)."""
    return {c.id: cases_digest([c], activation) for c in cases}


def _digest_of(cases: list[Case], activation: str) -> str:
    """cases_digest, computed once a process for the same case objects (a worker grades every submission
    with the same cases, built once: grading.select_cases); ~2 ms of JSON and hashing otherwise each time.
    The entry holds the cases, so their ids can't be reused by other objects while it is kept."""
    key = (activation, tuple(map(id, cases)))
    found = _DIGESTS.get(key)
    if found is None:
        if len(_DIGESTS) > 64:
            _DIGESTS.clear()
        found = _DIGESTS[key] = (cases_digest(cases, activation), tuple(cases))
    return found[0]


_DIGESTS: dict[tuple, tuple[str, tuple[Case, ...]]] = {}


# digest -> goldens, for the whole process: the digest covers everything that determines them
# (kit version, activation, cases, case programs); the reference oracle does not change in a process
_IN_MEMORY: dict[str, dict[str, dict]] = {}


class GoldenStore:
    """Goldens for a set of cases: from a shipped file, the cache, or computed and cached."""

    def __init__(self, cache_dir: Path | None = None, shipped: Path | None = None, *, compute: bool = True):
        """compute=False: the shipped file must hold every golden asked for (a Gradescope image has no
        reference engine to compute one): KitError otherwise."""
        self.compute = compute
        self.cache_dir = Path(cache_dir) if cache_dir else default_cache_dir()
        self._own = False  # cache_dir checked to be this user's own folder (own_folders.py)
        # a student handout ships its public goldens inside the package
        self.shipped = shipped if shipped is not None else _KIT / "public_goldens.json"

    def goldens(self, cases: list[Case], *, activation: str = "tanh") -> dict[str, dict]:
        """The goldens of `cases` (shared, read-only: don't change them). Kept in memory per
        digest for the rest of the process, so a worker reads its file once, not per submission."""
        digest = _digest_of(cases, activation)
        found = _IN_MEMORY.get(digest)
        if found is not None:
            return found
        found = self._load_or_compute(cases, activation, digest)
        _IN_MEMORY[digest] = found
        return found

    def _load_or_compute(self, cases: list[Case], activation: str, digest: str) -> dict[str, dict]:
        # a shipped folder holds one file per set of cases, named by its digest (a class's variants)
        shipped = self.shipped / f"{digest}.json" if self.shipped is not None and self.shipped.is_dir() else self.shipped
        for source in (shipped, self._cache_file(digest)):
            found = read_goldens(source, digest)
            if found is not None:
                return found
        found = read_goldens_for(shipped, cases, activation)
        if found is not None:
            return found
        if not self.compute:
            raise KitError(f"{self.shipped} does not hold the goldens of these cases (another kit version, "
                           "rubric or seed?): export it again")
        with _computing(self._cache_file(digest)):  # another process computing the same: wait, then read it
            found = read_goldens(self._cache_file(digest), digest)
            if found is not None:
                return found
            # as a later run reads them back from the cache (keys sorted, lists): the first line of a case's
            # message (compare walks the golden's keys) is the same whether computed or read
            goldens = json.loads(json.dumps(compute_goldens(cases), sort_keys=True))
            try:
                write_goldens(self._cache_file(digest), digest, goldens)
            except OSError:
                pass  # a read-only cache only costs speed
        return goldens

    def _cache_file(self, digest: str) -> Path:
        if not self._own and os.path.lexists(self.cache_dir):  # goldens decide scores: none from another's folder
            own_folder(self.cache_dir, hint=OWN_HINT)
            self._own = True
        oracle = _source_digest(_KIT.parent / "reference")[:16]
        return self.cache_dir / f"goldens-{digest}-{oracle}.json"


@contextmanager
def _computing(cache_file: Path) -> Iterator[None]:
    """Held while this process computes the goldens of one cache file: the workers of a class, or two
    graders started at once, compute each set once (flock; where the cache can't hold a lock, no wait)."""
    try:
        import fcntl  # POSIX: where there is none, each process computes its own
        own_folder(cache_file.parent, hint=OWN_HINT)
        lock = os.fdopen(open_own(cache_file.with_suffix(".lock"), os.O_WRONLY | os.O_CREAT | os.O_APPEND), "a")
    except (ImportError, OSError):
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def write_goldens(path: Path, digest: str, goldens: dict, fingerprints: dict[str, str] | None = None) -> None:
    """fingerprints (case id -> case digest), when given, let the file serve a subset of its cases."""
    data = {"digest": digest, "kit_version": __version__, "goldens": goldens}
    if fingerprints is not None:
        data["fingerprints"] = fingerprints
    write_json_atomic(path, data)


def read_goldens(path: Path | None, digest: str) -> dict | None:
    """The goldens in a file written for exactly these cases, else None."""
    data = _read(path)
    if data is None or data.get("digest") != digest:
        return None
    return data["goldens"]


def read_goldens_for(path: Path | None, cases: list[Case], activation: str) -> dict | None:
    """The goldens of `cases` from a file written for a superset of them, each case's
    fingerprint matching (same kit, activation, program, parameters); else None."""
    data = _read(path)
    if data is None or not isinstance(data.get("fingerprints"), dict):
        return None
    kept, goldens = data["fingerprints"], data["goldens"]
    wanted = case_fingerprints(cases, activation)
    if any(kept.get(cid) != fp or not isinstance(goldens.get(cid), dict) for cid, fp in wanted.items()):
        return None
    return {cid: goldens[cid] for cid in wanted}


def _read(path: Path | None) -> dict | None:
    if path is None or not path.is_file():
        return None
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    if not isinstance(data, dict) or not isinstance(data.get("goldens"), dict):
        return None
    return data
