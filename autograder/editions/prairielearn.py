"""A PrairieLearn question with its external grader (PrairieLearn docs/externalGrading.md):

    DEST/questions/backprop-<assignment>/info.json         external grading on, the image, the entrypoint
    DEST/questions/backprop-<assignment>/question.html     the task, the starting files, a file upload
    DEST/questions/backprop-<assignment>/clientFilesQuestion/{engine,nn,train}.py   the starting files
    DEST/questions/backprop-<assignment>/tests/            -> /grade/tests: the rubric with its hidden
                                                              seed, every golden (never shown to students)
    DEST/serverFilesCourse/backprop_kit/run.sh             the entrypoint (autograder/prairielearn/)
    DEST/serverFilesCourse/backprop_kit/kit/autograder/    the grader
    DEST/serverFilesCourse/backprop_kit/{Dockerfile,requirements.txt}   the grader image to build and push
    DEST/assessment-slot.json                              the question's slot for a Homework's infoAssessment.json

Copy questions/ and serverFilesCourse/ into the course's repository; build and push the image, and put
its name in info.json. With [variants], the question also has server.py and one engine.py per variant of its
pool: PrairieLearn's variants carry the kit's (prairielearn/question_variants.py).
"""
from __future__ import annotations

import json
import shutil
import uuid
from pathlib import Path

from autograder import paths
from autograder.config import Rubric, require_own_seed
from autograder.editions.gradescope import PACKAGE, kit_files
from autograder.files import write_text_atomic
from autograder.gradescope.requirements import grading_requirements
from autograder.notebooks.support import fresh_folder, write_secret

TEMPLATES = PACKAGE / "prairielearn" / "templates"
KIT = "backprop_kit"
IMAGE = "backprop-kit/prairielearn-grader"   # the name to replace with the image the course pushed
TIMEOUT = 300     # seconds (PrairieLearn's limit is 600)
STUDENT_FILES = ("engine.py", "nn.py", "train.py")
# graded submissions a variant takes before a Homework makes a new one. PrairieLearn's default is 1: every
# try below 100% then brings a new variant, and with [variants] a new variant is another extra operation
# (the pool of 24), mid-assignment. A student keeps theirs for this many tries.
TRIES_PER_VARIANT = 100
SLOT = "assessment-slot.json"


def assessment_slot(assignment: str, points: float) -> dict:
    """The question's slot in a Homework's zones (PrairieLearn's infoAssessment.json)."""
    return {"id": f"backprop-{assignment}", "points": points, "maxPoints": points,
            "triesPerVariant": TRIES_PER_VARIANT}


def info_json(assignment: str, *, varied: bool = False) -> dict:
    """varied: with [variants], PrairieLearn's variants of the question are the kit's (singleVariant off)."""
    return {
        "uuid": str(uuid.uuid5(uuid.NAMESPACE_URL, f"backprop-kit/prairielearn/{assignment}")),
        "title": f"Backprop: a micrograd-style autograd engine ({assignment})",
        "topic": "Automatic differentiation",
        "tags": ["backprop-kit", assignment],
        "type": "v3",
        "singleVariant": not varied,
        "gradingMethod": "External",
        "externalGradingOptions": {
            "enabled": True,
            "image": IMAGE,
            "serverFilesCourse": [f"{KIT}/"],
            "entrypoint": f"/grade/serverFilesCourse/{KIT}/run.sh",
            "timeout": TIMEOUT,
        },
    }


class PrairieLearnQuestion:
    name = "prairielearn"
    summary = "a PrairieLearn question and its external grader (questions/, serverFilesCourse/)"

    def next_step(self, dest: Path, *, roster: Path | None = None) -> str:
        return (f"Next: copy {dest}/questions/ and {dest}/serverFilesCourse/ into your course, and put the slot in "
                f"{dest}/{SLOT} into your Homework's infoAssessment.json zones (triesPerVariant "
                f"{TRIES_PER_VARIANT}: PrairieLearn's default of 1 gives a new variant after every try below 100%)")

    def write(self, dest: Path, *, rubric: Rubric, assignment: str = "hw1", **_) -> list[Path]:
        require_own_seed(rubric)
        dest = fresh_folder(dest)
        question = dest / "questions" / f"backprop-{assignment}"
        info = info_json(assignment, varied=rubric.variants is not None)
        write_text_atomic(question / "info.json", json.dumps(info, indent=2) + "\n")
        shutil.copy(TEMPLATES / "question.html", question / "question.html")
        (question / "clientFilesQuestion").mkdir()
        for name in STUDENT_FILES:
            shutil.copy(paths.EXERCISES / "micrograd" / name, question / "clientFilesQuestion" / name)
        write_secret(question / "tests", rubric)
        if rubric.variants is not None:   # PrairieLearn's variants carry the kit's (prairielearn/question_variants.py)
            from autograder.prairielearn.question_variants import write_variants
            write_variants(question, rubric, assignment, (TEMPLATES / "question.html").read_text(encoding="utf-8"))
        kit = dest / "serverFilesCourse" / KIT
        for path in kit_files():
            target = kit / "kit" / "autograder" / path.relative_to(PACKAGE)
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, target)
        for name in ("run.sh", "Dockerfile"):
            shutil.copy(TEMPLATES / name, kit / name)
        (kit / "run.sh").chmod(0o755)
        write_text_atomic(kit / "requirements.txt", grading_requirements(rubric))
        slot = assessment_slot(assignment, rubric.max_score + (rubric.variants.points if rubric.variants else 0))
        write_text_atomic(dest / SLOT, json.dumps(slot, indent=2) + "\n")
        return sorted(p for p in dest.rglob("*") if p.is_file())


EDITION = PrairieLearnQuestion()
