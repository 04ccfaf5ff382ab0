"""Do the shipped cluster examples run the kit's real command, with a split that covers every shard?"""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

from autograder.cli import _parser

CLUSTER = Path(__file__).resolve().parents[2] / "examples" / "cluster"


def _argv_as_run(script: str, **env: str) -> list[str]:
    """The arguments the script hands `autograder`, as the shell expands them (autograder stubbed)."""
    stub = 'autograder() { printf "%s\\n" "$@"; }; '
    done = subprocess.run(["bash", "-c", stub + script], capture_output=True, text=True, env={"PATH": "/usr/bin:/bin", **env})
    return done.stdout.splitlines()


def test_does_the_kubernetes_job_run_one_shard_per_index_of_its_completions():
    yaml = pytest.importorskip("yaml")
    job = yaml.safe_load((CLUSTER / "grade-indexed-job.yaml").read_text())
    spec = job["spec"]
    assert spec["completionMode"] == "Indexed"
    script = " ".join(spec["template"]["spec"]["containers"][0]["args"])
    n = spec["completions"]
    assert f"--shard $((JOB_COMPLETION_INDEX + 1))/{n}" in script
    for index in (0, n - 1):
        args = _parser().parse_args(_argv_as_run(script, JOB_COMPLETION_INDEX=str(index)))
        assert args.command == "grade" and args.shard == f"{index + 1}/{n}" and str(args.out).endswith(f"-{index + 1}")


def test_does_the_slurm_array_cover_shards_1_to_n():
    text = (CLUSTER / "grade-array.slurm").read_text()
    n = int(re.search(r"^N=(\d+)", text, re.M).group(1))
    assert re.search(rf"#SBATCH --array=1-{n}\b", text)
    assert '--shard "$SLURM_ARRAY_TASK_ID/$N"' in text
    args = _parser().parse_args(_argv_as_run(text, SLURM_ARRAY_TASK_ID="3", SLURM_CPUS_PER_TASK="2"))
    assert args.shard == f"3/{n}" and args.workers == 2
