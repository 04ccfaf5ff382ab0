"""bench_scale's --replay: a class graded by the real grading process whose workers replay reports graded for real.

    python benchmarks/scale_replay.py REPORTS SUBMISSIONS OUT [--shard I/N]

Each worker hands back, for student sNNNNN, the report (REPORTS/sNNNNN.json of a real `grade --out`) of the
engine that student's file holds (bench_scale.make_class: student i has engine i mod len(REPORTS)), under the
student's name. The grading process does all it does in a real run (keys, the store, every report and feedback
page, the class's files) and its peak memory is measured the same way; the workers' grading, whose speed is
bench_batch's, is skipped, so a class of 20,000 takes minutes on a shared machine. Prints MAXRSS (KiB) last.
"""
from __future__ import annotations

import json
import os
import re
import resource
import sys
from functools import lru_cache
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
if str(KIT) not in sys.path:
    sys.path.insert(0, str(KIT))

ENV = "BENCH_SCALE_REPORTS"


@lru_cache(maxsize=None)
def _reports() -> tuple[dict, ...]:
    folder = Path(os.environ[ENV])
    return tuple(json.loads(p.read_text(encoding="utf-8")) for p in sorted(folder.glob("s*.json")))


def replay(path: Path, *, rubric, name: str):
    """The report of the engine student `name` handed in (see the module's doc), as theirs."""
    from autograder.batch.report_json import report_from_dict

    reports = _reports()
    data = dict(reports[(int(re.sub(r"\D", "", name)) - 1) % len(reports)])
    data["submission"] = name
    return report_from_dict(data)


def main(argv: list[str]) -> int:
    from autograder.batch.discover import discover
    from autograder.batch.run import grade_batch
    from autograder.batch.shard import parse_shard
    from autograder.batch.shard_run import grade_shard
    from autograder.config import load_rubric

    reports, subs, out, *more = argv
    os.environ[ENV] = reports
    rubric = load_rubric(KIT / "assignment.toml")
    found = discover([Path(subs)])
    kwargs = dict(rubric=rubric, grade_one=replay, workers=2, progress=False, intake=found.problems)
    if more and more[0] == "--shard":
        grade_shard(found.entries, Path(out), shard=parse_shard(more[1]), **kwargs)
    else:
        grade_batch(found.entries, Path(out), **kwargs)
    print("MAXRSS", resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from scale_replay import main as _main  # workers unpickle `replay` from this module's name, not __main__

    raise SystemExit(_main(sys.argv[1:]))
