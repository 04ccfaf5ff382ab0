"""`autograder merge SHARD_OUT... --out OUT`: join the shards of a class into the files one machine
would have written (gradebook, reports, feedback pages, summaries: byte for byte the same).

The shards must be all N of one split, finished, and graded against the same class, assignment,
rubric, hidden seed and kit as each other and as this merge's rubric, and with the same roster (or none);
otherwise one line says which shard differs in what, and nothing is written. With a roster, the merge
writes what one machine writes with it: the unrostered rows, a missing row for every rostered student no
shard has, the summary's roster section; and its folder remembers the roster (class_list.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from autograder.batch.class_list import ROSTER_KEY, Roster, class_list, not_on_roster, roster_id, unrostered_row
from autograder.batch.entry import Entry
from autograder.batch.class_rows import StoredRows
from autograder.batch.keys import GradeKey
from autograder.batch.lock import OutputBusy, hold_output
from autograder.batch.outputs import OutputFiles, Written
from autograder.batch.run import STORE_NAME, BatchInputError, ClassRows
from autograder.batch.shard import shard_of
from autograder.batch.shard_manifest import MANIFEST, ShardManifest, describe, read_manifest
from autograder.batch.store import BatchRow, Store, StoreError
from autograder.config import Rubric

# what a shard must share with the merge, and how a difference is said
_SAME = (("assignment", "another assignment (other exercises or cases)"),
         ("rubric", "another rubric (points, tolerances, limits or activation)"),
         ("seed", "another hidden seed"),
         ("kit_version", "another version of the kit"))


@dataclass(frozen=True)
class MergeResult(ClassRows):
    rows: Sequence[BatchRow]   # the class's, in its order (read from the merged store when walked)
    shards: int
    out_dir: Path
    written: Written


def merge_shards(shard_dirs: Sequence[Path], out_dir: Path, *, rubric: Rubric) -> MergeResult:
    """The merged class's rows are read from its store when walked (class_rows.py): the merge holds the class's
    order and keys, never its rows, briefs or reports (issue 32)."""
    shard_dirs = [Path(d) for d in shard_dirs]
    manifests = [_manifest(d) for d in shard_dirs]
    _check_split(shard_dirs, manifests)
    _check_same(shard_dirs, manifests, describe(rubric))
    roster = _check_roster(shard_dirs, manifests)
    keys = {s: k for m in manifests for s, k in _keys(m, rubric).items()}
    made = _unrostered(manifests, roster, rubric)
    # what the merge needs of the manifests, each of which lists the whole class again: the rest is let go
    order, intake, shards = manifests[0].roster, manifests[0].intake, [(m.shard, m.index, m.count) for m in manifests]
    del manifests
    out_dir = Path(out_dir)
    if out_dir.resolve() in {d.resolve() for d in shard_dirs} or (out_dir / MANIFEST).exists():
        raise BatchInputError(f"--out {out_dir} is a shard's folder: merge into a folder of its own")
    if out_dir.exists() and not out_dir.is_dir():
        raise BatchInputError(f"{out_dir} is a file; --out needs a folder")
    unowned = [s for s in order if s not in keys and s not in made]
    if unowned:
        raise BatchInputError(f"no shard graded {', '.join(unowned[:3])}: were the shards run on the same class?")
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        with hold_output(out_dir), Store(out_dir / STORE_NAME) as store:
            files = OutputFiles(out_dir, order, store,
                                full=lambda row: store.get(row.student, keys[row.student]))
            if roster is not None:
                store.set_meta(ROSTER_KEY, roster.to_json())  # remembered, as one machine's folder does
            _copy(shard_dirs, shards, order, keys, store, files)
            stored = StoredRows(store, order, keys.get, made=made)
            listed = class_list(roster, [(r.student, r.source) for r in stored], rubric) if roster else None
            written = files.finish(stored, intake, roster=listed)
            files.keep_record()
    except OutputBusy as busy:
        raise BatchInputError(str(busy)) from None
    return MergeResult(stored, len(shards), out_dir, written)


def _manifest(folder: Path) -> ShardManifest:
    if not folder.is_dir():
        raise BatchInputError(f"{folder}: no such folder (give the --out folders of the shards' runs)")
    manifest = read_manifest(folder)
    if manifest is None:
        raise BatchInputError(f"{folder} is not a shard's output (no readable {MANIFEST}): "
                              "grade it with `autograder grade ... --out DIR --shard I/N`")
    return manifest


def _check_split(dirs: list[Path], manifests: list[ShardManifest]) -> None:
    if not manifests:
        raise BatchInputError("merge needs the output folders of the shards")
    counts = sorted({m.count for m in manifests})
    if len(counts) > 1:
        raise BatchInputError(f"the shards come from different splits ({' and '.join(f'N={n}' for n in counts)}): "
                              "merge the shards of one split")
    count = counts[0]
    seen: dict[int, Path] = {}
    for folder, m in zip(dirs, manifests):
        if m.index in seen:
            raise BatchInputError(f"shard {m.shard} is given twice ({seen[m.index]} and {folder})")
        seen[m.index] = folder
    missing = [f"{i}/{count}" for i in range(1, count + 1) if i not in seen]
    if missing:
        raise BatchInputError(f"shard(s) {', '.join(missing)} missing: merge needs all {count} shards' folders")
    for folder, m in zip(dirs, manifests):
        if not m.finished:
            raise BatchInputError(f"shard {m.shard} ({folder}) did not finish: run its command again "
                                  "(it resumes where it stopped), then merge")


def _check_same(dirs: list[Path], manifests: list[ShardManifest], merge: dict) -> None:
    first, class_digest = dirs[0], manifests[0].class_digest()
    for folder, m in zip(dirs, manifests):
        for field, what in _SAME:
            if getattr(m, field) != merge[field]:
                raise BatchInputError(f"shard {m.shard} ({folder}) was graded with {what} than this merge's "
                                      f"({'the rubric given' if field != 'kit_version' else merge[field]}): "
                                      "grade every shard and merge with the same kit, assignment.toml and seed")
        if m.class_digest() != class_digest:
            raise BatchInputError(f"shard {m.shard} ({folder}) was graded on another class than {first} "
                                  "(other submissions or ids): give every shard the same PATH")


def _check_roster(dirs: list[Path], manifests: list[ShardManifest]) -> Roster | None:
    """The roster every shard was graded with (None: none was), or one line naming the shard that differs."""
    first = manifests[0].given_roster()
    for folder, m in zip(dirs, manifests):
        theirs = m.given_roster()
        if (theirs is None) != (first is None) or (first is not None and theirs.digest() != first.digest()):
            one, other = f"shard {m.shard} ({folder})", f"shard {manifests[0].shard} ({dirs[0]})"
            said = (f"{one} was graded without --roster, {other} with one" if theirs is None
                    else f"{one} was graded with --roster, {other} without" if first is None
                    else f"{one} was graded with another roster than {other} (other ids)")
            raise BatchInputError(f"{said}: grade every shard with the same --roster (or none), then merge")
    return first


def _keys(manifest: ShardManifest, rubric: Rubric) -> dict[str, GradeKey]:
    seed = "none" if rubric.hidden_seed is None else str(rubric.hidden_seed)
    return {s: GradeKey(content, manifest.kit_version, seed, manifest.rubric) for s, content in manifest.own.items()}


def _unrostered(manifests: list[ShardManifest], roster: Roster | None, rubric: Rubric) -> dict[str, BatchRow]:
    """The rows of the submissions not graded for not being on the roster, made as one machine makes them."""
    made: dict[str, BatchRow] = {}
    for m in manifests:
        for s, (source, late, original) in m.unrostered.items():
            made[s] = unrostered_row(Entry(s, Path(), source, late, original),
                                     not_on_roster(s, roster_id(s, source), roster), rubric)
    return made


def _copy(dirs: list[Path], shards: list[tuple[str, int, int]], students: Sequence[str], keys: dict[str, GradeKey],
          store: Store, files: OutputFiles) -> None:
    """Each shard's rows copied into the merge's store as they are, and its students' files taken as they are
    where they are up to date (the rest are rendered by files.finish), a row at a time: none is held.
    shards: each one's (I/N, I, N); its students are the class's it owns (shard.py) that were graded (keyed)."""
    for folder, (name, index, count) in zip(dirs, shards):
        def owned():
            return ((s, keys[s]) for s in students if s in keys and shard_of(s, count) == index)
        try:
            with Store(folder / STORE_NAME) as shard:
                lost = store.copy_rows(shard, owned())
                if lost:
                    raise BatchInputError(f"shard {name} ({folder}) has no grade for {len(lost)} of its students "
                                          f"({', '.join(sorted(lost)[:3])}{', …' if len(lost) > 3 else ''}): "
                                          "run its command again")
                for row in store.rows_of(owned()):
                    files.adopt(row, folder, shard.output)
        except StoreError as err:
            raise BatchInputError(str(err)) from None
