"""forensics.csv: one row per submission and other student's variant its code computes.

Columns: student, own_variant, solves_variant_of (the students, ";"-separated: those who share that
variant), their_variant, evidence (the sample inputs, the numbers the code gave, and what each variant
gives there), finding (`instead`: it fits that variant and not its own; `beside`: it fits its own, and
holds another operation with that student's exact constant). A header alone when nothing was flagged.
Written with the csv module, formula-like cells quoted as in the gradebook.
"""
from __future__ import annotations

import csv
import io

from autograder.report.csv_report import guard

COLUMNS = ("student", "own_variant", "solves_variant_of", "their_variant", "evidence", "finding")


def render_forensics(forensics: dict) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for flag in forensics["flags"]:
        writer.writerow([guard(flag["student"]), guard(flag["own"]), guard(";".join(flag["sources"])),
                         guard(flag["source_variant"]), guard(flag["evidence"]), flag.get("finding", "instead")])
    return out.getvalue()
