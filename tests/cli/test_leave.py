"""Does `python -m autograder check`, which ends without the interpreter's teardown (cli/leave.py), still
end as a check should: its exit code, its whole report on stdout, every temporary folder and the sandbox's
zygote and staging folder gone?"""
import json
import os
import subprocess
import sys

from autograder.paths import KIT_ROOT


def check(tmp_path, *argv: str) -> subprocess.CompletedProcess:
    temp = tmp_path / "tmp"
    temp.mkdir(exist_ok=True)
    env = {**os.environ, "TMPDIR": str(temp), "AUTOGRADER_CACHE": str(tmp_path / "cache")}
    return subprocess.run([sys.executable, "-m", "autograder", "check", *argv], cwd=KIT_ROOT, env=env,
                          capture_output=True, text=True, timeout=300)


def test_does_a_check_end_with_its_code_its_report_and_nothing_left_behind(tmp_path):
    done = check(tmp_path, "solutions", "--format", "json")
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["score"] == 100  # the whole document, flushed
    failing = check(tmp_path, "exercises")
    assert failing.returncode == 1 and failing.stdout.rstrip().endswith("/ 100")
    left = sorted(p.name for p in (tmp_path / "tmp").iterdir())
    assert [name for name in left if not name.startswith("backprop-kit-cpus-")] == []  # the CPU slots stay


def test_is_a_usage_mistake_still_one_line_and_exit_2(tmp_path):
    done = check(tmp_path, str(tmp_path / "nowhere"))
    assert done.returncode == 2 and done.stderr.count("\n") == 1
