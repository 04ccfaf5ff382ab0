"""`autograder merge SHARD_OUT... --out OUT`: join the shards of a class into the files one machine
would have written (gradebook, reports, feedback pages, summaries: byte for byte the same).

The shards must be all N of one split, finished, and graded against the same class, assignment,
rubric, hidden seed and kit as each other and as this merge's rubric; otherwise one line says
which shard differs in what, and nothing is written.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

from autograder.batch.keys import GradeKey
from autograder.batch.lock import OutputBusy, hold_output
from autograder.batch.outputs import OutputFiles, Written
from autograder.batch.run import STORE_NAME, BatchInputError, ClassRows
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
    rows: tuple[BatchRow, ...]
    shards: int
    out_dir: Path
    written: Written


def merge_shards(shard_dirs: Sequence[Path], out_dir: Path, *, rubric: Rubric) -> MergeResult:
    shard_dirs = [Path(d) for d in shard_dirs]
    manifests = [_manifest(d) for d in shard_dirs]
    _check_split(shard_dirs, manifests)
    _check_same(shard_dirs, manifests, describe(rubric))
    keys = {s: k for m in manifests for s, k in _keys(m, rubric).items()}
    first = manifests[0]
    out_dir = Path(out_dir)
    if out_dir.resolve() in {d.resolve() for d in shard_dirs} or (out_dir / MANIFEST).exists():
        raise BatchInputError(f"--out {out_dir} is a shard's folder: merge into a folder of its own")
    if out_dir.exists() and not out_dir.is_dir():
        raise BatchInputError(f"{out_dir} is a file; --out needs a folder")
    out_dir.mkdir(parents=True, exist_ok=True)
    try:
        with hold_output(out_dir), Store(out_dir / STORE_NAME) as store:
            files = OutputFiles(out_dir, list(first.roster), store,
                                full=lambda row: store.get(row.student, keys[row.student]))
            stored = _rows(shard_dirs, manifests, keys, store, files)
            written = files.finish(stored, first.intake)
            files.keep_record()
    except OutputBusy as busy:
        raise BatchInputError(str(busy)) from None
    return MergeResult(tuple(stored), len(manifests), out_dir, written)


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


def _keys(manifest: ShardManifest, rubric: Rubric) -> dict[str, GradeKey]:
    seed = "none" if rubric.hidden_seed is None else str(rubric.hidden_seed)
    return {s: GradeKey(content, manifest.kit_version, seed, manifest.rubric) for s, content in manifest.own.items()}


def _rows(dirs: list[Path], manifests: list[ShardManifest], keys: dict[str, GradeKey], store: Store,
          files: OutputFiles) -> list[BatchRow]:
    """Each shard's rows copied into the merge's store as they are, and its students' files taken as they are
    where they are up to date (the rest are rendered by files.finish); the class's rows, with their briefs."""
    found: dict[str, BatchRow] = {}
    for folder, m in zip(dirs, manifests):
        try:
            with Store(folder / STORE_NAME) as shard:
                lost = store.copy_rows(shard, {s: keys[s] for s in m.own})
                if lost:
                    raise BatchInputError(f"shard {m.shard} ({folder}) has no grade for {len(lost)} of its students "
                                          f"({', '.join(sorted(lost)[:3])}{', …' if len(lost) > 3 else ''}): "
                                          "run its command again")
                briefs = store.briefs({s: keys[s] for s in m.own})  # read once: the files, then the class's
                for row in briefs.values():
                    files.adopt(row, folder, shard.output)
                found.update(briefs)
        except StoreError as err:
            raise BatchInputError(str(err)) from None
    roster = manifests[0].roster
    unowned = [s for s in roster if s not in found]
    if unowned:
        raise BatchInputError(f"no shard graded {', '.join(unowned[:3])}: were the shards run on the same class?")
    return [found[s] for s in roster]
