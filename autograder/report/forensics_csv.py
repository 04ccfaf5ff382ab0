"""forensics.csv: one row per submission whose code solves another student's variant and not its own.

Columns: student, own_variant, solves_variant_of (the students, ";"-separated), their_variant, evidence
(the sample inputs, the numbers the code gave, and what each variant gives there). A header alone
when nothing was flagged. Written with the csv module, formula-like cells quoted as in the gradebook.
"""
from __future__ import annotations

import csv
import io

from autograder.report.csv_report import guard

COLUMNS = ("student", "own_variant", "solves_variant_of", "their_variant", "evidence")


def render_forensics(forensics: dict) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for flag in forensics["flags"]:
        writer.writerow([guard(flag["student"]), guard(flag["own"]), guard(";".join(flag["sources"])),
                         guard(flag["source_variant"]), guard(flag["evidence"])])
    return out.getvalue()
