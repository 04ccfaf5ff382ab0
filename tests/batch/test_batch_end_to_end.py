"""Does a real batch (real grader, real sandbox) grade the solutions full marks and the stubs zero?"""
from __future__ import annotations

import csv
import json
import re
import shutil

from autograder import paths
from autograder.cli.batch import run_batch_command
from autograder.config import Rubric

def test_a_class_of_a_solution_and_a_stub_is_graded_end_to_end(tmp_path):
    shutil.copytree(paths.SOLUTIONS, tmp_path / "class" / "solved")
    shutil.copytree(paths.EXERCISES, tmp_path / "class" / "stubs")
    rubric = Rubric(hidden_seed=1234)

    code = run_batch_command([tmp_path / "class"], tmp_path / "out", 2, False, rubric)

    assert code == 0
    with open(tmp_path / "out" / "gradebook.csv", newline="", encoding="utf-8") as f:
        rows = {r["student"]: r for r in csv.DictReader(f)}
    assert float(rows["solved"]["score"]) == rubric.max_score
    assert float(rows["stubs"]["score"]) == 0 and rows["stubs"]["status"] == "graded"
    report = json.loads((tmp_path / "out" / "reports" / "stubs.json").read_text())
    assert {c["status"] for t in report["tasks"] for c in t["cases"]} == {"missing"}
    assert any(c["visibility"] == "hidden" for t in report["tasks"] for c in t["cases"])
    page = (tmp_path / "out" / "summary.html").read_text()
    links = re.findall(r'<a href="([^"]+)">', page)
    assert sorted(links) == ["feedback/solved.html", "feedback/stubs.html"]
    assert all((tmp_path / "out" / link).is_file() for link in links)
    assert '<img class="histogram" src="score_histogram.png"' in page and (tmp_path / "out" / "score_histogram.png").is_file()
