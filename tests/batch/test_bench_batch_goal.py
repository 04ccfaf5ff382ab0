"""Is bench_batch's 50/s goal judged on a run of the class without its endless loops (whose confirmations cost a
case_timeout of CPU each by issue 29's rule, measured apart by endless_cost.py), the rest of the class all in it?"""
from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).parents[2] / "benchmarks"))


def test_does_the_goals_run_grade_the_class_without_its_endless_loops(tmp_path):
    import bench_batch

    subs = tmp_path / "class"
    subs.mkdir()
    made = bench_batch.make_class(subs, 120, seed=1)
    endless = {m.path.name for m in made if m.kind == "endless"}
    assert endless
    count = bench_batch.without_endless(made, tmp_path / "honest")
    held = {p.name for p in (tmp_path / "honest").iterdir()}
    assert held == {m.path.name for m in made} - endless and count == len(made) - len(endless)
    assert "no endless" in bench_batch.HONEST and "without its endless loops" in bench_batch.__doc__
