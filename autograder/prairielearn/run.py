"""What the PrairieLearn grading container runs: grade ROOT/student with the kit, write ROOT/results/results.json.

PrairieLearn's layout (docs/externalGrading.md): the student's files in /grade/student, the question's
tests/ folder in /grade/tests (here: the rubric with its hidden seed, and every golden; students never
see it), the course's serverFilesCourse/backprop_kit in /grade/serverFilesCourse/backprop_kit (the kit).
Whatever the upload does, a results.json is written. When the kit itself can't grade (no sandbox that
holds the secrets, the kit's own failure) it is `gradable: false`: no points given or taken, and the
attempt not counted. The sandbox level used is said on stdout (the grading job's log, for the
instructor): in Docker's default seccomp profile bubblewrap can't make its namespaces, and the grader,
run as root there, falls back to the uid level (chrooted, a uid of its own).
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import traceback
from pathlib import Path

SECRET = "tests"
ALLOW_BASIC = "AUTOGRADER_PRAIRIELEARN_ALLOW_BASIC"
NOT_GRADED = ("The autograder could not grade this submission; this is not your code's fault, and it did not "
              "cost you an attempt. Your instructor can see why in the grading job's log.")


def main(root: str) -> int:
    from autograder.gradescope.run import SandboxTooWeak
    from autograder.report.prairielearn_json import not_gradable

    root_path = Path(root)
    try:
        data = grade(root_path)
    except SandboxTooWeak as err:
        print(f"backprop-kit: {err}")
        data = not_gradable(NOT_GRADED)
    except BaseException:  # never without a results.json, and the reason in the job's log
        traceback.print_exc()
        data = not_gradable(NOT_GRADED)
    results = root_path / "results" / "results.json"
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


def grade(root: Path) -> dict:
    from autograder.config import load_rubric
    from autograder.goldens import GoldenStore
    from autograder.gradescope.run import SandboxTooWeak, lock_up, submission_path
    from autograder.grading import grade_path
    from autograder.report.prairielearn_json import results_json
    from autograder.runner.levels import current

    secret = root / SECRET
    lock_up(secret)
    level = current()
    print(f"backprop-kit: sandbox level {level.name}" + (f" ({level.why})" if getattr(level, "why", "") else ""))
    if level.name == "basic" and os.environ.get(ALLOW_BASIC) != "1":
        raise SandboxTooWeak(f"sandbox level basic: student code would run as root and could read {secret}. Use "
                             f"the kit's grader image (bubblewrap, or the uid level: root with the right to chroot); {ALLOW_BASIC}=1 grades anyway")
    rubric = variants_rubric(load_rubric(secret / "assignment.toml"), root / DATA)
    shipped = secret / "goldens" if rubric.variants is not None else secret / "goldens.json"
    with tempfile.TemporaryDirectory(prefix="goldens-") as cache:
        store = GoldenStore(cache_dir=Path(cache), shipped=shipped, compute=False)
        report = grade_path(submission_path(root / "student"), rubric=rubric, include_hidden=True,
                            store=store, name="submission")
    for note in report.sandbox_notes:
        print(f"backprop-kit: {note}")
    return results_json(report)


DATA = Path("data") / "data.json"


def variants_rubric(rubric, data: Path):
    """With [variants]: the rubric of the question's variant, the kit variant server.py's generate() put in its
    params (PrairieLearn's, which students can't edit); the course's rubric otherwise."""
    if rubric.variants is None:
        return rubric
    from autograder.variants.assign import with_variant
    from autograder.variants.model import Variant

    params = json.loads(data.read_text(encoding="utf-8")).get("params") or {}
    if not isinstance(params.get("variant"), dict):
        raise ValueError(f"{data}: no params.variant: is server.py the one `autograder export prairielearn` wrote?")
    return with_variant(rubric, Variant.from_json(params["variant"]))


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/grade"))
