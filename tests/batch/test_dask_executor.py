"""Does a class graded on a running dask.distributed cluster (a LocalCluster of 2 worker
processes on 127.0.0.1) get the files one machine writes, every submission exactly one row,
whatever a submission does to the worker grading it?"""
from __future__ import annotations

import pytest

distributed = pytest.importorskip("distributed", reason="the dask extra is not installed")

from autograder.batch.dask_executor import ClusterError, DaskCluster, pack  # noqa: E402
from autograder.batch.executors import ExecutorError, LOCAL, executor_from  # noqa: E402
from autograder.batch.pool import WORKER_DIED  # noqa: E402
from autograder.batch.run import grade_batch  # noqa: E402
from autograder.config import Rubric  # noqa: E402
from batch_fakes import entry, grade_fake, submission  # noqa: E402
from test_shards import class_files  # noqa: E402

RUBRIC = Rubric(hidden_seed=42)


@pytest.fixture(scope="module")
def cluster():
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True, host="127.0.0.1",
                                  dashboard_address=None, silence_logs=50) as local:
        yield f"dask://{local.scheduler_address.split('://', 1)[1]}"


def test_does_the_executor_flag_name_what_it_takes():
    assert executor_from(None) is LOCAL and executor_from("local") is LOCAL
    assert executor_from("dask://10.0.0.1:8786") == DaskCluster("dask://10.0.0.1:8786")
    with pytest.raises(ExecutorError, match="local .* or dask://HOST:PORT"):
        executor_from("slurm://x")


@pytest.mark.slow
def test_does_a_cluster_grade_a_class_as_one_machine_does(cluster, tmp_path):
    plans = {f"s{i:02d}": {"fail": ("mul",) if i % 4 == 0 else ()} for i in range(16)}
    plans["s05"] = {"do": "raise"}
    entries = [entry(s, submission(tmp_path / "in", s, **p)) for s, p in plans.items()]
    entries.append(entry("loose", _loose_file(tmp_path)))
    local = grade_batch(entries, tmp_path / "one", rubric=RUBRIC, grade_one=grade_fake, progress=False, workers=2)
    remote = grade_batch(entries, tmp_path / "dask", rubric=RUBRIC, grade_one=grade_fake, progress=False,
                         executor=DaskCluster(cluster))
    assert [r.student for r in remote.rows] == [e.student for e in entries]
    assert class_files(tmp_path / "dask") == class_files(tmp_path / "one")
    assert remote.rows == local.rows


@pytest.mark.slow
def test_does_a_submission_that_kills_its_dask_worker_get_a_row_and_the_others_theirs(cluster, tmp_path):
    plans = {"ana": "ok", "ben": "exit", "cai": "ok", "dee": "ok"}
    entries = [entry(s, submission(tmp_path / "in", s, do=do)) for s, do in plans.items()]
    result = grade_batch(entries, tmp_path / "out", rubric=RUBRIC, grade_one=grade_fake, progress=False,
                         executor=DaskCluster(cluster))
    errors = {r.student: r.report.error for r in result.rows}
    assert errors == {"ana": None, "ben": WORKER_DIED, "cai": None, "dee": None}


def test_is_a_cluster_that_does_not_answer_one_line(tmp_path):
    entries = [entry("ana", submission(tmp_path / "in", "ana"))]
    with pytest.raises(ClusterError, match="no dask scheduler answers"):
        grade_batch(entries, tmp_path / "out", rubric=RUBRIC, grade_one=grade_fake, progress=False,
                    executor=DaskCluster("dask://127.0.0.1:9", connect_seconds=1))


def test_does_a_packed_folder_keep_its_files_and_links_and_nothing_escapes(tmp_path):
    from autograder.batch.dask_executor import grade_packed  # noqa: F401  (what a worker runs)

    folder = submission(tmp_path, "ana")
    (folder / "micrograd" / "link.py").symlink_to("engine.py")
    data = pack(folder)
    assert data.startswith(b"TAR:") and b"engine.py" in data
    assert pack(folder / "plan.json") == (folder / "plan.json").read_bytes()


def _loose_file(tmp_path):
    """A submission that is one file (a .py), as students hand in too."""
    folder = submission(tmp_path / "files", "loose")
    return folder
