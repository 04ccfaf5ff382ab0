"""Do 200 real submissions (the benchmark's class: correct, buggy, unfinished, broken, endless
loops) graded as one run, as 2 shards merged, and on a Dask LocalCluster of 2 workers, all give
the same files, byte for byte (one run and 2 merged shards with a roster too)? Through the real `autograder`
command, as an instructor runs it."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from test_shards import class_files

KIT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(KIT / "benchmarks"))

pytestmark = pytest.mark.slow


def autograder(*args: str, env=None) -> subprocess.CompletedProcess:
    done = subprocess.run([sys.executable, "-m", "autograder", *args, "--config", str(KIT / "assignment.toml")],
                          cwd=KIT, capture_output=True, text=True, env=env)
    assert done.returncode in (0, 1), done.stderr[-2000:]
    return done


def test_are_one_run_two_merged_shards_and_a_dask_cluster_the_same_class(tmp_path):
    distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")
    from bench_batch import make_class

    subs = tmp_path / "class"
    subs.mkdir()
    made = make_class(subs, 200, seed=7)
    assert {m.kind for m in made} >= {"correct", "bug", "endless"}

    autograder("grade", str(subs), "--out", str(tmp_path / "one"), "--workers", "2")
    for i in (1, 2):
        shard = autograder("grade", str(subs), "--out", str(tmp_path / f"shard-{i}"), "--shard", f"{i}/2")
        assert f"shard {i}/2:" in shard.stdout
    merged = autograder("merge", str(tmp_path / "shard-1"), str(tmp_path / "shard-2"), "--out", str(tmp_path / "merged"))
    assert "Merged 2 shard(s): 200 submission(s)." in merged.stdout
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, host="127.0.0.1", dashboard_address=None,
                                  silence_logs=50) as cluster:
        address = "dask://" + cluster.scheduler_address.split("://", 1)[1]
        autograder("grade", str(subs), "--out", str(tmp_path / "dask"), "--executor", address)

    one = class_files(tmp_path / "one")
    assert len([f for f in one if f.startswith("reports/")]) == 200
    assert class_files(tmp_path / "merged") == one
    assert class_files(tmp_path / "dask") == one


def test_are_one_run_and_two_merged_shards_the_same_class_with_a_roster(tmp_path):
    """Real submissions, the roster leaving two out and naming one who handed nothing in: the shards graded with
    it and merged write what one machine writes with it, the missing and unrostered rows too."""
    from bench_batch import make_class

    subs = tmp_path / "class"
    subs.mkdir()
    made = make_class(subs, 10, seed=3)
    roster = tmp_path / "roster.csv"
    roster.write_text("id\n" + "".join(f"{m.student}\n" for m in made[:8]) + "zoe\n")

    autograder("grade", str(subs), "--out", str(tmp_path / "one"), "--workers", "2", "--roster", str(roster))
    for i in (1, 2):
        autograder("grade", str(subs), "--out", str(tmp_path / f"shard-{i}"), "--shard", f"{i}/2", "--roster", str(roster))
    merged = autograder("merge", str(tmp_path / "shard-1"), str(tmp_path / "shard-2"), "--out", str(tmp_path / "merged"))

    said = " ".join(merged.stdout.split())
    assert "no submission (1 of 9 on the roster): zoe" in said
    assert f"not on the roster (2; graded, and named): {made[8].student}, {made[9].student}" in said
    assert class_files(tmp_path / "merged") == class_files(tmp_path / "one")
