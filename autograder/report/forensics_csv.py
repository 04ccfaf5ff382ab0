"""forensics.csv: one row per submission whose code solves another student's variant and not its own.

Columns: student, own_variant, solves_variant_of (the students, ";"-separated), their_variant, evidence
(the sample inputs, the numbers the code gave, and what each variant gives there). A header alone
when nothing was flagged. Written with the csv module, formula-like cells quoted as in the gradebook.
"""
from __future__ import annotations

import csv
import io

from autograder.report.csv_report import safe_text

COLUMNS = ("student", "own_variant", "solves_variant_of", "their_variant", "evidence")


def render_forensics(forensics: dict) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\r\n")
    writer.writerow(COLUMNS)
    for flag in forensics["flags"]:
        writer.writerow([safe_text(flag["student"]), safe_text(flag["own"]), safe_text(";".join(flag["sources"])),
                         safe_text(flag["source_variant"]), safe_text(flag["evidence"])])
    return out.getvalue()
