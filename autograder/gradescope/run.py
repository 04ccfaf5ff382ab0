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
    rubric = load_rubric(secret / "assignment.toml")
    settings = json.loads((secret / SETTINGS).read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory(prefix="goldens-") as cache:
        store = GoldenStore(cache_dir=Path(cache), shipped=secret / "goldens.json", compute=False)
        report = grade_path(submission_path(root / "submission"), rubric=rubric, include_hidden=True,
                            store=store, name="submission")
    for note in report.sandbox_notes:  # the autograder's output, which students do not see
        print(f"backprop-kit: {note}")
    return results_json(report, execution_time=time.monotonic() - started,
                        hidden_visibility=settings.get("hidden_visibility", "after_published"))


def lock_up(secret: Path) -> None:
    """The secrets readable by root only, whatever the zip's modes were (setup.sh does it too)."""
    os.chmod(secret, 0o700)
    for path in secret.iterdir():
        os.chmod(path, 0o600)


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
