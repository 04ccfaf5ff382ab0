"""Is a submission whose grading stopped a case by a guess graded again by the pool's confirmer, at idle
priority beside the next submissions, and is that grading the one reported, once? (issue 29)"""
from __future__ import annotations

import json
import os
import time
from pathlib import Path

import pytest

from autograder.batch.pool import Job, grade_parallel
from autograder.config import load_rubric
from autograder.report.model import Report

from batch_fakes import fake_report

RUBRIC = load_rubric(Path(__file__).resolve().parents[2] / "assignment.toml")


def grade_guessing(path: Path, *, rubric, name: str) -> Report:
    """As a worker grades (confirm.DEFER): a submission planned to guess has a case stopped by a guess (mul
    fails, the guess counted); as the confirmer grades (CONFIRMING): every task passes. Each call logged with
    its mode and scheduling policy; a submission planned to wait for another's confirmation waits for it."""
    from autograder.runner import confirm

    plan = json.loads((Path(path) / "plan.json").read_text())
    log = Path(plan["log"])
    with open(log, "a", encoding="utf-8") as f:
        f.write(f"{name} {confirm.mode()} {os.sched_getscheduler(0)}\n")
    end = time.monotonic() + 60
    while plan.get("after") and f"{plan['after']} {confirm.CONFIRMING}" not in log.read_text() and \
            time.monotonic() < end:
        time.sleep(0.05)
    if confirm.mode() == confirm.DEFER and plan.get("guess"):
        confirm.defer()
        return fake_report(name, rubric, fail=("mul",), message="stopped while still computing (a guess)")
    return fake_report(name, rubric)


def plan(tmp_path: Path, name: str, log: Path, **how) -> str:
    path = tmp_path / name
    path.mkdir()
    (path / "plan.json").write_text(json.dumps({"log": str(log), **how}))
    return str(path)


CPUS = len(os.sched_getaffinity(0))


@pytest.mark.parametrize("workers", sorted({1, CPUS}))
def test_is_a_guessed_submission_confirmed_beside_the_next_and_its_confirmation_reported_once(tmp_path, workers):
    """At idle priority (where the grader may raise it again: root), beside fewer workers than CPUs (a CPU of its
    own, which the grading process shares) as where the workers fill the CPUs."""
    log = tmp_path / "log"
    jobs = [Job("ana", plan(tmp_path, "ana", log, guess=True)),
            Job("ben", plan(tmp_path, "ben", log, after="ana")),  # graded while ana is confirmed
            Job("cai", plan(tmp_path, "cai", log, guess=True))]
    done: list[tuple[str, float, str | None]] = []
    grade_parallel(jobs, workers=workers, grade_one=grade_guessing, rubric=RUBRIC,
                   on_done=lambda job, report, why: done.append((job.student, report.score, why)))
    assert sorted(done) == [("ana", 100.0, None), ("ben", 100.0, None), ("cai", 100.0, None)]
    calls = [line.split() for line in log.read_text().splitlines()]
    assert sorted((name, mode) for name, mode, _ in calls if mode != "confirming") == [
        ("ana", "defer"), ("ben", "defer"), ("cai", "defer")]
    confirmed = {name: int(policy) for name, mode, policy in calls if mode == "confirming"}
    assert sorted(confirmed) == ["ana", "cai"]  # ben had no guess: graded once
    if os.geteuid() == 0:
        assert confirmed["ana"] == os.SCHED_IDLE


def grade_logged(path: Path, *, rubric, name: str) -> Report:
    """As a batch grades (worker.grade_hidden), each grading logged with its mode and score."""
    from autograder.batch.worker import grade_hidden
    from autograder.runner import confirm

    report = grade_hidden(path, rubric=rubric, name=name)
    with open(Path(path).parent / "log", "a", encoding="utf-8") as f:
        f.write(f"{name} {confirm.mode()} {report.score:g}\n")
    return report


@pytest.mark.skipif(CPUS < 2, reason="a one-worker batch's confirmer has a CPU of its own only on 2 or more")
def test_does_a_worker_with_a_cpu_to_spare_leave_work_done_once_to_the_confirmer_at_its_look(tmp_path):
    """A one-worker batch's confirmer has a CPU of its own: the worker spends none of its time on one-time work
    past a case's look (confirm.one_time), so a 0.2 s self-check in the first backward() is guessed and graded
    again by the confirmer, whose full marks are the report. (Before, the worker gave it 0.3 s of its own CPU:
    what every endless loop cost it too.)"""
    import shutil
    import sys

    kit = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(kit / "tests" / "runner"))
    from one_time_engines import SELF_CHECK

    root = tmp_path / "class" / "ana"
    shutil.copytree(kit / "solutions" / "micrograd", root / "micrograd", ignore=shutil.ignore_patterns("__pycache__"))
    engine = root / "micrograd" / "engine.py"
    engine.write_text(engine.read_text() + "\n\n" + SELF_CHECK)
    done: list[tuple[str, float, str | None]] = []
    grade_parallel([Job("ana", str(root))], workers=1, grade_one=grade_logged, rubric=RUBRIC,
                   on_done=lambda job, report, why: done.append((job.student, report.score, why)))
    assert done == [("ana", 100.0, None)]
    calls = [line.split() for line in (tmp_path / "class" / "log").read_text().splitlines()]
    assert [(name, mode) for name, mode, _ in calls] == [("ana", "defer"), ("ana", "confirming")]
    assert calls[1][2] == "100"


@pytest.mark.slow
def test_does_a_one_worker_batch_beside_two_cpu_burners_keep_one_time_work_and_stop_an_endless_loop(tmp_path):
    """A real `autograder grade --workers 1`: a 1.5 s self-check in the first backward() keeps full marks; an
    endless tanh is stopped after its case_timeout in CPU seconds; the gradebook in the class's order."""
    import csv
    import shutil
    import subprocess
    import sys

    kit = Path(__file__).resolve().parents[2]
    sys.path.insert(0, str(kit / "tests" / "runner"))
    from one_time_engines import ENGINES

    endless_tanh = "\n\ndef _tanh(self):\n    while True:\n        pass\n\n\nValue.tanh = _tanh\n"
    for name, extra in (("alice", ENGINES["long-self-check"]), ("bob", endless_tanh), ("carol", "")):
        shutil.copytree(kit / "solutions" / "micrograd", tmp_path / "class" / name / "micrograd",
                        ignore=shutil.ignore_patterns("__pycache__"))
        engine = tmp_path / "class" / name / "micrograd" / "engine.py"
        engine.write_text(engine.read_text() + "\n\n" + extra)
    burners = [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(2)]
    try:
        subprocess.run([sys.executable, "-m", "autograder", "grade", str(tmp_path / "class"), "--workers", "1",
                        "--out", str(tmp_path / "out")], cwd=kit, check=True, capture_output=True, timeout=600)
    finally:
        for burner in burners:
            burner.kill()
            burner.wait()
    rows = list(csv.DictReader((tmp_path / "out" / "gradebook.csv").open()))
    assert [(r["student"], r["score"]) for r in rows][::2] == [("alice", "100"), ("carol", "100")]
    assert rows[1]["student"] == "bob" and rows[1]["tanh"] == "0" and rows[1]["add"] == "5"
    assert "still computing after 3 s of CPU, its whole case_timeout" in rows[1]["error"]


def grade_timed(path: Path, *, rubric, name: str) -> Report:
    """As a worker grades: a guess (the first pass), or, planned to hold the worker, `hold` seconds first; as the
    confirmer grades: `confirm` seconds of waiting, logged as (name, began, ended, pid) on the monotonic clock."""
    from autograder.runner import confirm

    plan = json.loads((Path(path) / "plan.json").read_text())
    if confirm.mode() == confirm.DEFER:
        if plan.get("hold"):
            began = time.monotonic()
            time.sleep(plan["hold"])
            with open(plan["log"], "a", encoding="utf-8") as f:
                f.write(f"{name}-held {began} {time.monotonic()} {os.getpid()}\n")
        if plan.get("guess"):
            confirm.defer()
            return fake_report(name, rubric, fail=("mul",), message="stopped while still computing (a guess)")
        return fake_report(name, rubric)
    if plan.get("die"):
        os._exit(3)  # the confirmer process dies
    began = time.monotonic()
    time.sleep(plan["confirm"])
    with open(plan["log"], "a", encoding="utf-8") as f:
        f.write(f"{name} {began} {time.monotonic()} {os.getpid()}\n")
    return fake_report(name, rubric)


def confirmations(log: Path) -> dict[str, tuple[float, float, int]]:
    return {name: (float(b), float(e), int(pid)) for name, b, e, pid in (l.split() for l in log.read_text().splitlines())}


@pytest.mark.skipif(CPUS < 2, reason="one confirmation a CPU needs two")
def test_once_the_workers_are_done_do_waiting_confirmations_run_at_once_one_a_cpu(tmp_path):
    """Two guesses at the end of a one-worker batch: the second's confirmation need not wait 4 s for the first's
    (the worker's CPU is free by then): it runs beside it, in a confirmer process of its own (before: one after
    the other in the one confirmer, the tail of a batch whose last endless submissions came close together)."""
    log = tmp_path / "log"
    jobs = [Job(n, plan(tmp_path, n, log, guess=True, confirm=4)) for n in ("ana", "cai")]
    done: list[tuple[str, float]] = []
    grade_parallel(jobs, workers=1, grade_one=grade_timed, rubric=RUBRIC,
                   on_done=lambda job, report, why: done.append((job.student, report.score)))
    assert sorted(done) == [("ana", 100.0), ("cai", 100.0)]
    seen = confirmations(log)
    (a_began, a_ended, a_pid), (c_began, c_ended, c_pid) = seen["ana"], seen["cai"]
    assert a_pid != c_pid
    assert max(a_began, c_began) < min(a_ended, c_ended)  # they overlapped


@pytest.mark.skipif(CPUS < 2, reason="a one-worker batch's confirmer has a CPU of its own only on 2 or more")
def test_while_the_workers_grade_are_two_guesses_confirmed_side_by_side_and_no_more(tmp_path):
    """Beside the worker, three guesses made while it still has 10 s of grading: two confirmations at once (they
    share the CPU it leaves, so that what is left of them when it is done spreads over both CPUs; before: one
    at a time, and the rest of a late one ran alone at the end), the third once one of them is done."""
    log = tmp_path / "log"
    jobs = [*(Job(n, plan(tmp_path, n, log, guess=True, confirm=2)) for n in ("ana", "ben", "cai")),
            Job("dan", plan(tmp_path, "dan", log, hold=10))]
    grade_parallel(jobs, workers=1, grade_one=grade_timed, rubric=RUBRIC, on_done=lambda job, report, why: None)
    seen = confirmations(log)
    held = seen.pop("dan-held")[1]  # when the worker was done
    spans = sorted((began, ended) for began, ended, _ in seen.values())
    at_once = max(sum(b <= t < e for b, e in spans) for t, _ in spans if t < held)
    assert at_once == 2 and len({pid for _, _, pid in seen.values()}) == 2


def grade_pinned(path: Path, *, rubric, name: str) -> Report:
    """As a session grades (runner/same_cpu.one_cpu), logging the CPUs its cases would run on; the worker's first
    submission then waits until the test has crowded the other CPUs' slots; the second is guessed."""
    from autograder.runner import confirm
    from autograder.runner.same_cpu import one_cpu

    plan = json.loads((Path(path) / "plan.json").read_text())
    with one_cpu() as cpu:
        cpus = {cpu} if cpu is not None else os.sched_getaffinity(0)
    with open(plan["log"], "a", encoding="utf-8") as f:
        f.write(f"{name} {confirm.mode()} {','.join(map(str, sorted(cpus)))}\n")
    if confirm.mode() == confirm.DEFER and plan.get("guess"):
        confirm.defer()
        return fake_report(name, rubric, fail=("mul",), message="stopped while still computing (a guess)")
    time.sleep(plan.get("hold", 0) if confirm.mode() == confirm.DEFER else 0)
    return fake_report(name, rubric)


@pytest.mark.skipif(CPUS < 2 or not hasattr(os, "sched_setaffinity"), reason="pinning needs two CPUs and Linux")
def test_does_the_confirmer_keep_off_the_workers_cpu_when_others_hold_the_spare_cpus_slots(tmp_path):
    """Other graders on the machine (here the test process) hold the first slots of every CPU but the worker's:
    same_cpu's least-held slot was then the worker's own CPU, where the confirmer at idle priority got only what
    the worker left while the spare CPUs stood idle. It runs on a CPU the worker is not on."""
    import fcntl
    import tempfile

    folder = Path(tempfile.gettempdir()) / f"backprop-kit-cpus-{os.geteuid()}"
    log = tmp_path / "log"
    jobs = [Job("ana", plan(tmp_path, "ana", log)), Job("ben", plan(tmp_path, "ben", log, guess=True)),
            Job("cai", plan(tmp_path, "cai", log, hold=8))]  # the worker still grades while ben is confirmed
    held: list[int] = []

    def crowd(job, report, why) -> None:  # in this process, once the worker has its CPU: every other CPU's slots
        if job.student != "ana" or not folder.is_dir():
            return
        worker = {int(c) for c in log.read_text().split()[2].split(",")}
        for cpu in set(os.sched_getaffinity(0)) - worker:
            for level in range(8):
                fd = os.open(folder / f"{cpu}-{level}", os.O_RDWR | os.O_CREAT | os.O_CLOEXEC | os.O_NOFOLLOW, 0o600)
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                    held.append(fd)
                except OSError:
                    os.close(fd)

    try:
        import autograder.batch.pool as pool

        ahead, pool.AHEAD = pool.AHEAD, 0  # ben is handed over once ana is done: after the crowding
        try:
            grade_parallel(jobs, workers=1, grade_one=grade_pinned, rubric=RUBRIC, on_done=crowd)
        finally:
            pool.AHEAD = ahead
    finally:
        for fd in held:
            os.close(fd)
    if not folder.is_dir():
        pytest.skip("no slot folder in the temporary folder")
    calls = [line.split() for line in log.read_text().splitlines()]
    worker = {int(c) for name, mode, cpus in calls if mode == "defer" for c in cpus.split(",")}
    confirmer = [{int(c) for c in cpus.split(",")} for name, mode, cpus in calls if mode == "confirming"]
    assert len(worker) == 1 and len(confirmer) == 1 and not confirmer[0] & worker


def test_after_a_confirmer_process_dies_is_the_next_guess_still_confirmed(tmp_path):
    """ana's confirmation kills its confirmer process: her first report stands; ben, guessed after that, is
    confirmed by a fresh process (before: handing him over to the broken confirmer failed, the pool took that
    for his worker's death, and he got "the grading process died while grading this submission")."""
    log = tmp_path / "log"
    jobs = [Job("ana", plan(tmp_path, "ana", log, guess=True, die=True)),
            Job("ben", plan(tmp_path, "ben", log, guess=True, hold=4, confirm=0))]
    done: dict[str, float] = {}
    grade_parallel(jobs, workers=1, grade_one=grade_timed, rubric=RUBRIC,
                   on_done=lambda job, report, why: done.update({job.student: report.score if report else why}))
    assert done["ben"] == 100.0 and done["ana"] < 100.0


LOWERED = """
import json, os, subprocess, sys, time
from autograder.batch.confirmer import confirming
os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))  # as a confirmer is beside the workers
child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"], start_new_session=True,
                         stdout=subprocess.DEVNULL)  # not the pipe the test reads: its end is this process's
def seen():
    end = time.monotonic() + 10
    while time.monotonic() < end and "nice 19" not in open(f"/proc/{child.pid}/autogroup").read():
        time.sleep(0.05)
    return open(f"/proc/{child.pid}/autogroup").read().split()[-1]
print(json.dumps({"child": child.pid, "during": confirming(seen, "ana"),
                  "own": open("/proc/self/autogroup").read()}), flush=True)
sys.stdin.read()
"""


@pytest.mark.skipif(not Path("/proc/self/autogroup").exists() or os.geteuid() != 0,
                    reason="the kernel groups by session (autogroup) and the grader may set an autogroup's nice")
def test_is_a_confirmations_own_session_idle_against_the_grading_process_and_normal_after_the_hurry():
    """A sandboxed child has a session of its own, so an autogroup of its own, where SCHED_IDLE is idle only
    inside it: a busy loop there took 62-65% of a CPU against a normal process of another session. While the
    confirmer confirms at idle priority its children's sessions are at autogroup nice 19 (its own session, the
    grading process's, untouched), and back at 0 once the pool hurries (confirmer.normal)."""
    import subprocess
    import sys

    from autograder.batch.confirmer import normal

    kit = Path(__file__).resolve().parents[2]
    confirmer = subprocess.Popen([sys.executable, "-c", LOWERED], cwd=kit, stdin=subprocess.PIPE,
                                 stdout=subprocess.PIPE, text=True)
    said = {}
    try:
        said = json.loads(confirmer.stdout.readline())
        # the session of the test and the confirmer as it was (the kernel's default group, as under CI's init,
        # reads as an empty file)
        assert said["during"] == "19" and said["own"] == open("/proc/self/autogroup").read()
        normal(confirmer.pid)
        assert open(f"/proc/{said['child']}/autogroup").read().split()[-1] == "0"
    finally:
        if "child" in said:
            os.kill(said["child"], 9)
        confirmer.kill()
        confirmer.wait()
