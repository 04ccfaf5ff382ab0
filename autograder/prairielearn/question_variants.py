"""The PrairieLearn question with [variants]: PrairieLearn's own variants carry the kit's.

PrairieLearn gives each student their own variant of a question (server.py's generate(), with the
variant's own `variant_seed`) but tells neither generate() nor the external grader who the student
is, so the kit's draw from a roster id can't run there. Instead the question carries a pool of the kit's
variants, drawn from the course's secret for the ids "prairielearn-<assignment>-<i>": generate() picks one
into the variant's params (which students can't edit), the student downloads that variant's engine.py
(its extra operation's stub, its constant written in), and the grader grades against params["variant"],
with every pool variant's goldens in tests/goldens/. Forensics by roster id is for `autograder grade`.
"""
from __future__ import annotations

import pprint
import tempfile
from pathlib import Path

from autograder.config import Rubric
from autograder.exercises.variant_source import write_package
from autograder.files import write_bytes_atomic, write_text_atomic
from autograder.goldens.shipped import every_variants_goldens
from autograder.variants.assign import for_student

POOL_SIZE = 24   # PrairieLearn variants of the question, each a kit variant of its own
SERVER = '''\
# backprop-kit: PrairieLearn's variant of this question is one of the kit's variants (written by
# `autograder export prairielearn`), chosen by the variant's seed (data["variant_seed"])
import random

VARIANTS = {variants}


def generate(data):
    i = random.Random(data.get("variant_seed")).randrange(len(VARIANTS))
    data["params"]["variant"] = VARIANTS[i]["variant"]
    data["params"]["label"] = VARIANTS[i]["label"]
    data["params"]["engine"] = f"engine-{{i}}.py"
'''
ENGINE_LINK = '<a href="{{options.client_files_question_url}}/engine.py" download>engine.py</a>'
YOUR_ENGINE = '<a href="{{options.client_files_question_url}}/{{params.engine}}" download="engine.py">engine.py</a>'
YOUR_VARIANT = ("  <p>\n    Your variant of the assignment: <b>{{params.label}}</b>. Your <code>engine.py</code> below "
                "has its extra operation to write, its constant written in the method.\n  </p>\n")


def pool_ids(assignment: str) -> list[str]:
    return [f"prairielearn-{assignment}-{i}" for i in range(POOL_SIZE)]


def write_variants(question: Path, rubric: Rubric, assignment: str, question_html: str) -> None:
    """server.py, clientFilesQuestion/engine-<i>.py, question.html with the variant's link, tests/goldens/."""
    ids = pool_ids(assignment)
    pool = [for_student(rubric, student).variant for student in ids]
    entries = [{"variant": v.to_json(), "label": v.label} for v in pool]
    write_text_atomic(question / "server.py", SERVER.format(variants=pprint.pformat(entries, width=110)))
    for i, variant in enumerate(pool):
        with tempfile.TemporaryDirectory(prefix="pl-variant-") as tmp:
            engine = write_package(Path(tmp), variant, solution=False) / "engine.py"
            write_text_atomic(question / "clientFilesQuestion" / f"engine-{i}.py", engine.read_text(encoding="utf-8"))
    (question / "clientFilesQuestion" / "engine.py").unlink(missing_ok=True)
    html = question_html.replace(ENGINE_LINK, YOUR_ENGINE).replace("  <p>\n    <a href", YOUR_VARIANT + "  <p>\n    <a href", 1)
    write_text_atomic(question / "question.html", html)
    for name, data in sorted(every_variants_goldens(rubric, ids).items()):
        write_bytes_atomic(question / "tests" / "goldens" / name, data)
