"""A file of goldens that ships: every case of an assignment, public and hidden, with fingerprints.

What the instructor-side editions (the Gradescope zip, the otter autograder, nbgrader's course)
carry so that grading there needs neither torch nor the reference engine. Secret: it holds the
hidden cases' expected values (never in anything a student receives).
"""
from __future__ import annotations

import json

from autograder.config import Rubric
from autograder.goldens.store import GoldenStore, case_fingerprints, cases_digest


def every_golden(rubric: Rubric) -> bytes:
    """The JSON of every case's golden, of the rubric's variant (rubric.hidden_seed must be set)."""
    from autograder.grading import golden_values, select_cases

    cases = select_cases(rubric, include_hidden=True)
    goldens = golden_values(cases, rubric, GoldenStore())
    return json.dumps({"digest": cases_digest(cases, rubric.activation), "goldens": goldens,
                       "fingerprints": case_fingerprints(cases, rubric.activation)}, sort_keys=True).encode()


def every_variants_goldens(rubric: Rubric, students: list[str]) -> dict[str, bytes]:
    """file name -> JSON: the goldens of every student's variant (public and hidden), one file per set of
    cases as grading asks for them (grading.golden_values: the class's shared ones, each extra operation's),
    named by its digest, for a GoldenStore whose `shipped` is the folder holding them."""
    from autograder.batch.progress import progress_bar
    from autograder.grading import golden_groups, select_cases
    from autograder.variants.assign import for_student

    files: dict[str, bytes] = {}
    store = GoldenStore()
    with progress_bar(len(students), what="the roster's goldens") as advance:
        for student in students:
            _add_goldens(files, store, for_student(rubric, student), golden_groups, select_cases)
            advance(student)
    return files


def _add_goldens(files: dict[str, bytes], store: GoldenStore, mine: Rubric, golden_groups, select_cases) -> None:
    """The goldens of one student's rubric, each set of cases once (students share the class's)."""
    for group in golden_groups(select_cases(mine, include_hidden=True), mine):
        digest = cases_digest(group, mine.activation)
        if f"{digest}.json" not in files:
            goldens = store.goldens(group, activation=mine.activation)
            files[f"{digest}.json"] = json.dumps({"digest": digest, "goldens": goldens}, sort_keys=True).encode()
