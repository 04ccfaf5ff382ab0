"""What run_autograder runs on Gradescope: grade ROOT/submission with the kit, write ROOT/results/results.json.

Whatever the submission does (broken, endless, hostile) and whatever goes wrong in the kit, a
results.json is written: the kit's report, or a zero with the reason. The secrets (the rubric's
hidden seed, the goldens) are made root-only before any student code runs.
"""
from __future__ import annotations

import json
import os
import sys
import tempfile
import time
import traceback
from pathlib import Path

SECRET = Path("source") / "secret"
SUBMISSION_SUFFIXES = (".zip", ".ipynb", ".py")
SETTINGS = "settings.json"   # {"hidden_visibility": "after_published"}
ALLOW_BASIC = "AUTOGRADER_GRADESCOPE_ALLOW_BASIC"
WEAK_SANDBOX = ("The autograder's sandbox is not available on this image, so your code was not run (your "
                "instructor has been told). This is not your code's fault.")


class NotInRoster(Exception):
    """With [variants]: the submitter's variant has no goldens in the zip (built before they were on the roster)."""


class SandboxTooWeak(Exception):
    """Only rlimits here: student code would run as root, next to the hidden seed and goldens."""


def main(root: str) -> int:
    root_path = Path(root)
    results = root_path / "results" / "results.json"
    started = time.monotonic()
    try:
        data = grade(root_path, started)
    except SandboxTooWeak as err:
        print(f"backprop-kit: {err}")
        data = {"score": 0.0, "tests": [], "stdout_visibility": "hidden", "output": WEAK_SANDBOX,
                "execution_time": round(time.monotonic() - started)}
    except NotInRoster as err:
        print(f"backprop-kit: {err}")
        data = {"score": 0.0, "tests": [], "stdout_visibility": "hidden", "output": str(err),
                "execution_time": round(time.monotonic() - started)}
    except BaseException as err:  # never without a results.json, and the reason for the instructor
        traceback.print_exc()
        data = {"score": 0.0, "tests": [], "stdout_visibility": "hidden",
                "execution_time": round(time.monotonic() - started),
                "output": f"The autograder failed on this submission ({type(err).__name__}); your instructor "
                          "can see why in the autograder's output. This is the kit's fault, not yours."}
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return 0


def grade(root: Path, started: float) -> dict:
    from autograder.config import load_rubric
    from autograder.errors import KitError
    from autograder.goldens import GoldenStore
    from autograder.grading import grade_path
    from autograder.report.gradescope_json import results_json

    from autograder.runner.levels import current

    secret = root / SECRET
    lock_up(secret)
    level = current()
    if level.name == "basic" and os.environ.get(ALLOW_BASIC) != "1":
        raise SandboxTooWeak(f"sandbox level basic ({level.why or 'no bubblewrap, no uid'}): student code would run "
                             f"as root and could read {secret}. Install bubblewrap in setup.sh, or let the uid "
                             f"level run (root with the right to chroot, and ldd); {ALLOW_BASIC}=1 grades anyway")
    rubric = submitters_rubric(load_rubric(secret / "assignment.toml"), root / METADATA)
    settings = json.loads((secret / SETTINGS).read_text(encoding="utf-8"))
    shipped = secret / "goldens" if rubric.variants is not None else secret / "goldens.json"
    with tempfile.TemporaryDirectory(prefix="goldens-") as cache:
        store = GoldenStore(cache_dir=Path(cache), shipped=shipped, compute=False)
        try:
            report = grade_path(submission_path(root / "submission"), rubric=rubric, include_hidden=True,
                                store=store, name="submission")
        except KitError:
            if rubric.variants is None:
                raise
            raise NotInRoster(f"Your id ({rubric.variant.student}) is not on the roster this autograder was built "
                              "with, so your variant can't be graded yet: your instructor has been told. This is "
                              "not your code's fault.") from None
    for note in report.sandbox_notes:  # the autograder's output, which students do not see
        print(f"backprop-kit: {note}")
    return results_json(report, execution_time=time.monotonic() - started,
                        hidden_visibility=settings.get("hidden_visibility", "after_published"))


METADATA = "submission_metadata.json"


def submitters_rubric(rubric, metadata: Path):
    """With [variants]: the rubric of the submitter's variant, drawn from their SID (else their email) as
    Gradescope's submission_metadata.json gives it (a group's first member); the course's rubric otherwise."""
    if rubric.variants is None:
        return rubric
    from autograder.variants.assign import for_student

    users = json.loads(metadata.read_text(encoding="utf-8")).get("users") or [{}]
    who = str(users[0].get("sid") or users[0].get("email") or "")
    if not who:
        raise ValueError(f"{metadata} names no submitter (sid or email): a variant can't be found")
    return for_student(rubric, who)


def lock_up(secret: Path) -> None:
    """The secrets readable by root only, whatever the zip's modes were (setup.sh does it too)."""
    os.chmod(secret, 0o700)
    for path in secret.rglob("*"):
        os.chmod(path, 0o700 if path.is_dir() else 0o600)


def submission_path(folder: Path) -> Path:
    """What the student uploaded: the folder, or the one zip, notebook or .py in it."""
    if not folder.is_dir():
        return folder
    visible = [p for p in folder.iterdir() if not p.name.startswith((".", "__MACOSX"))]
    if len(visible) == 1 and visible[0].is_file() and visible[0].suffix.lower() in SUBMISSION_SUFFIXES:
        return visible[0]
    return folder


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else "/autograder"))
