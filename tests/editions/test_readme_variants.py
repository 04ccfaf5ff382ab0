"""Does the README's "How each edition carries the variant", followed literally, give each student an edition
of their own variant on every platform that can carry one?

Its ```sh block runs as written in bash (the seed filled in), from a folder holding the kit's .venv, an
assignment.toml with [variants] and a roster of two students, as the README says.
"""
from __future__ import annotations

import json
import re
import zipfile

import nbformat
import pytest

from autograder.config import from_mapping
from autograder.paths import KIT_ROOT
from autograder.variants.assign import variant_of
from test_readme_notebooks import SEED, a_kit_folder, sh

pytestmark = pytest.mark.slow
TITLE = "#### How each edition carries the variant\n"
IDS = ("ada_7", "bob_33")


def block() -> str:
    section = (KIT_ROOT / "README.md").read_text().split(TITLE, 1)[1].split("\n### ", 1)[0]
    found = re.findall(r"```sh\n(.*?)```", section, flags=re.S)
    assert len(found) == 1
    return found[0]


def test_does_each_edition_carry_each_students_variant(tmp_path):
    root = a_kit_folder(tmp_path)
    (root / "assignment.toml").write_text("[variants]\npoints = 6\n")
    (root / "roster.csv").write_text("id\n" + "\n".join(IDS) + "\n")
    sh(block(), root, root)
    course = from_mapping({"hidden_seed": int(SEED), "variants": {"points": 6}})

    with zipfile.ZipFile(root / "hw1-variants.zip") as zf:
        assert any(n.startswith("secret/goldens/") for n in zf.namelist())
    for student in IDS:
        own = variant_of(course, student)
        dist = root / "hw1-otter" / student / "dist"
        text = (dist / "student" / "backprop.ipynb").read_text()
        nb = nbformat.reads(text, as_version=4)
        assert f"def {own.op}(self):" in text and own.label in text and "BEGIN SOLUTION" not in text
        assert any(c.source.startswith(f"## Question: {own.op}") or f"`{own.op}`" in c.source for c in nb.cells)
        signed = json.loads((dist / "student" / "autograder" / "variant.json").read_text())
        assert signed["variant"]["op"] == own.op and signed["variant"]["student"] == student
        assert list((dist / "autograder").glob("*.zip")) and not (dist / "student" / "kit_secret").exists()
    question = root / "pl-hw1-variants" / "questions" / "backprop-hw1"
    assert "def generate(data):" in (question / "server.py").read_text()
    assert json.loads((question / "info.json").read_text())["singleVariant"] is False
