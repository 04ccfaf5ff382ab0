"""Does run_cases give every case an outcome, whatever the student's code does to its process?

Real child processes on real files: the solutions, the stubs, and students whose
Value has methods that loop, exit, flood, allocate or forge result lines (the
fake program `basic.poke` calls them by name).
"""
from __future__ import annotations

import os
import shutil
import textwrap
import time
from pathlib import Path

import pytest

from autograder.cases import PUBLIC_SEED, build_cases
from autograder.cases.model import Case
from autograder.runner import Limits, run_cases
from autograder.runner.protocol import BadValue


@pytest.fixture(autouse=True)
def basic_sandbox(monkeypatch):
    """The runner's protocol, at the level every machine has (levels/test_sandbox_levels.py: the others)."""
    monkeypatch.setenv("AUTOGRADER_SANDBOX", "basic")


def without_sandbox_note(notes):
    return [n for n in notes if not n.startswith("sandbox:")]

KIT = Path(__file__).resolve().parents[2]
FAKE = Path(__file__).resolve().parent / "fake_programs"
LIMITS = Limits(case_timeout=1.0, import_timeout=3.0)


def make_student(tmp_path: Path, extra: str = "", source: Path = KIT / "solutions") -> Path:
    """A copy of a kit package whose engine.py ends with `extra` (methods attached to Value)."""
    root = tmp_path / "sub"
    shutil.copytree(source / "micrograd", root / "micrograd")
    if extra:
        engine = root / "micrograd" / "engine.py"
        engine.write_text(engine.read_text() + "\n\n" + textwrap.dedent(extra))
    return root


def add_case(name: str = "add/one", task: str = "add") -> Case:
    return Case(id=name, task=task, program="basic.add", params={"a": 2.0, "b": -3.0, "upstream": 0.5})


def poke(name: str, method: str, task: str = "add") -> Case:
    return Case(id=name, task=task, program="basic.poke", params={"method": method})


def run(root: Path, cases: list[Case], **kw):
    return run_cases(root, cases, limits=kw.pop("limits", LIMITS), programs_dir=FAKE, **kw)


def gone(pid: int) -> bool:
    """Is the process gone (a zombie waiting for a reaper counts as gone)?"""
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
    except FileNotFoundError:
        return True
    return stat[stat.rfind(b")") + 2:][:1] in (b"Z", b"X")


def pids_written(path: Path) -> list[int]:
    return [int(line) for line in path.read_text().split()] if path.exists() else []


def test_the_solutions_pass_every_real_case_and_the_stubs_are_missing():
    """Do the real programs run on the solutions (all ok) and on the stubs (all missing)?"""
    cases = build_cases(seed=PUBLIC_SEED, visibility="public", activation="tanh")
    for folder, status in (("solutions", "ok"), ("exercises", "missing")):
        result = run_cases(KIT / folder, cases, limits=LIMITS)
        assert set(result.outcomes) == {c.id for c in cases}
        assert {o.status for o in result.outcomes.values()} == {status}, folder
        assert result.imports.errors == {} and result.imports.missing_files == ()
        assert result.sandbox == "basic"


def test_observations_come_back_as_numbers(tmp_path):
    result = run(make_student(tmp_path), [add_case()])
    outcome = result.outcomes["add/one"]
    assert outcome.status == "ok"
    assert outcome.obs == {"out": -1.0, "grads": [0.5, 0.5]}
    assert without_sandbox_note(result.notes) == []


def test_odd_observations_are_described_not_trusted(tmp_path):
    result = run(make_student(tmp_path), [Case("add/odd", "add", "basic.odd", {})])
    obs = result.outcomes["add/odd"].obs
    assert obs["int"] == 3.0
    assert obs["bool"] == BadValue("bool", "True")
    assert obs["nan"] != obs["nan"] and obs["inf"] == float("inf")  # parsed; scoring refuses them
    assert obs["big"] == BadValue("int", "an integer too large for a float")
    assert obs["nested"] == [1.0, [2.5, [3.0]]]
    assert obs["value"] == BadValue("Value", "Value(data=1.5, grad=0)")
    assert obs["shy"].type == "Shy" and "__repr__ raised RuntimeError" in obs["shy"].repr
    assert obs["none"] == BadValue("NoneType", "None")
    assert obs["long"].type == "str" and obs["long"].repr.endswith("...") and len(obs["long"].repr) == 200


def test_an_endless_loop_times_out_that_case_only_and_leaves_no_process(tmp_path):
    pids = tmp_path / "pids"
    root = make_student(tmp_path, f"""
        import os
        def _loop(self):
            with open({str(pids)!r}, "a") as f:
                f.write(f"{{os.getpid()}}\\n")
            while True:
                pass
        Value.loop = _loop
    """)
    started = time.monotonic()
    result = run(root, [add_case("add/before"), poke("add/loop", "loop"), add_case("mul/after", task="mul")])
    # the guess, then its confirmation: the loop's 1 s of CPU, which a loaded machine spreads over several
    assert time.monotonic() - started < 30
    assert result.outcomes["add/loop"].status == "timeout"
    assert result.outcomes["add/loop"].message.endswith("an endless loop?")
    assert result.outcomes["add/before"].status == result.outcomes["mul/after"].status == "ok"
    written = pids_written(pids)  # the guess's child, and the confirmation's (runner/confirm.py)
    assert len(written) == 2
    for pid in written:
        assert gone(pid)
        with pytest.raises(ProcessLookupError):
            os.killpg(pid, 0)


def test_does_a_task_whose_case_timed_out_skip_its_other_cases(tmp_path):
    root = make_student(tmp_path, """
        def _loop(self):
            while True:
                pass
        Value.loop = _loop
    """)
    cases = [poke("add/loop1", "loop"), poke("add/loop2", "loop"), add_case("add/third"),
             add_case("mul/other", task="mul")]
    result = run(root, cases)
    statuses = {k: (o.status, o.message) for k, o in result.outcomes.items()}
    assert statuses["add/loop1"][0] == "timeout"
    skipped = ("timeout", "skipped: an earlier case of this task ran too long (above)")
    assert statuses["add/loop2"] == statuses["add/third"] == skipped
    assert statuses["mul/other"][0] == "ok"


@pytest.mark.parametrize("body, message", [
    ("import os; os._exit(7)", "the process exited with code 7 during this case"),
    ("import sys; sys.exit(3)", "SystemExit: your code called exit(3)"),
    ("raise KeyboardInterrupt", "KeyboardInterrupt"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)",
     "crashed with signal 11 (SIGSEGV): a recursion too deep?"),
])
def test_a_case_that_ends_the_process_costs_that_case_only(tmp_path, body, message):
    root = make_student(tmp_path, f"""
        def _quit(self):
            {body}
        Value.quit = _quit
    """)
    result = run(root, [poke("add/quit", "quit"), add_case("add/after")])
    assert result.outcomes["add/quit"].status == "error"
    assert result.outcomes["add/quit"].message == message
    assert result.outcomes["add/after"].status == "ok"


def test_a_student_error_says_where_in_the_students_file(tmp_path):
    root = make_student(tmp_path, """
        def _broken(self):
            return self.data + "one"
        Value.broken = _broken
    """)
    outcome = run(root, [poke("add/broken", "broken")]).outcomes["add/broken"]
    assert outcome.status == "error"
    assert outcome.message.startswith("TypeError: unsupported operand")
    lines = (root / "micrograd" / "engine.py").read_text().splitlines()
    line = lines.index('    return self.data + "one"') + 1
    assert outcome.where == f"engine.py:{line}"


def test_a_print_flood_is_capped_and_does_not_hang(tmp_path):
    root = make_student(tmp_path, """
        import os
        def _flood(self):
            print("x" * 100_000_000)
            block = b"y" * (1 << 20)
            for _ in range(100):
                os.write(1, block)  # past sys.stdout, into the real pipe
            return 1.0
        Value.flood = _flood
    """)
    started = time.monotonic()
    result = run(root, [poke("add/flood", "flood"), add_case("add/after")], limits=Limits(case_timeout=5.0))
    assert time.monotonic() - started < 8
    flood = result.outcomes["add/flood"]
    assert flood.status == "ok" and flood.obs == {"result": 1.0}
    assert flood.output == "x" * 4000 + "...[truncated]"
    assert result.outcomes["add/after"].status == "ok"


def test_a_memory_bomb_costs_that_case_only(tmp_path):
    root = make_student(tmp_path, """
        def _bomb(self):
            hoard = []
            while True:
                hoard.append(bytearray(50 * 1024 * 1024))
        Value.bomb = _bomb
    """)
    limits = Limits(case_timeout=5.0, memory_mb=300)
    result = run(root, [poke("add/bomb", "bomb"), add_case("add/after")], limits=limits)
    bomb = result.outcomes["add/bomb"]
    assert bomb.status == "error"
    assert bomb.message.startswith(("MemoryError", "killed by signal 9"))
    assert result.outcomes["add/after"].status == "ok"


def test_forged_and_garbage_result_lines_are_ignored(tmp_path):
    root = make_student(tmp_path, """
        import json, os
        def _forge(self):
            for name in os.listdir("/proc/self/fd"):
                fd = int(name)
                try:
                    target = os.readlink(f"/proc/self/fd/{fd}")
                except OSError:
                    continue
                if fd > 2 and target.startswith("pipe:"):
                    try:  # the job pipe's end is read-only
                        for case in ("add/before", "add/after", "add/other"):
                            line = {"case": case, "status": "ok", "obs": {"out": 999.0, "grads": [9.0, 9.0]}}
                            os.write(fd, (json.dumps(line) + "\\n").encode())
                        os.write(fd, b"\\x00\\xff\\xfe binary {{{ not json\\n" + b"z" * 2_000_000 + b"\\n")
                        os.write(fd, b'[1, 2]\\n{"case": "add/after", "status": "bogus"}\\n' + b"[" * 100_000 + b"\\n")
                        os.write(fd, b"garbage with no newline at the end")
                    except OSError:
                        pass
            return 2.0
        Value.forge = _forge
    """)
    cases = [add_case("add/before"), poke("add/forge", "forge"), add_case("add/after")]
    result = run(root, cases)
    forge = result.outcomes["add/forge"]
    assert forge.obs == {"result": 2.0}, (forge.status, forge.message, result.notes)
    for case in ("add/before", "add/after"):
        assert result.outcomes[case].obs == {"out": -1.0, "grads": [0.5, 0.5]}
    assert any("were ignored" in note for note in result.notes)


def test_result_lines_written_ahead_for_later_cases_are_not_taken(tmp_path):
    """The hole the per-case nonce closes. During one case, the student's code finds the case ids and
    the nonces in the child's memory and writes, on the result fd, its own case's line (with its own
    nonce: its own business) and then lines for every later case, with no nonce, a made-up one, the
    header's and its own. Before, those were taken as the later cases' results."""
    root = make_student(tmp_path, """
        import json, os, sys
        def _ahead(self):
            frame, ids, nonces, mine, me = sys._getframe(), [], ["0" * 32], None, None
            while frame is not None:
                job = frame.f_locals.get("job")
                if isinstance(job, dict) and "cases" in job:
                    ids = [c["id"] for c in job["cases"]]
                    mine, me = frame.f_locals.get("nonce"), frame.f_locals.get("case", {}).get("id")
                    nonces += [job.get("nonce"), mine]
                frame = frame.f_back
            obs = {"out": 999.0, "grads": [9.0, 9.0]}
            lines = [{"case": me, "nonce": mine, "status": "ok", "obs": {"result": 42.0}}]
            lines += [{"case": case, "status": "ok", "obs": obs} for case in ids]
            lines += [{"case": case, "nonce": n, "status": "ok", "obs": obs} for case in ids for n in nonces]
            os.write(63, "".join("\\n" + json.dumps(line) + "\\n" for line in lines).encode())
            return 2.0
        Value.ahead = _ahead
    """)
    cases = [add_case("add/before"), poke("add/ahead", "ahead"), add_case("add/after"),
             add_case("mul/later", task="mul")]
    result = run(root, cases)
    assert result.outcomes["add/ahead"].obs == {"result": 42.0}  # the line it wrote for itself
    for case in ("add/before", "add/after", "mul/later"):
        assert result.outcomes[case].obs == {"out": -1.0, "grads": [0.5, 0.5]}, case
    assert any("were ignored" in note for note in result.notes)


def test_the_job_pipe_holds_nothing_ahead_of_the_running_case(tmp_path):
    """The next case (and its nonce) is sent only once this case's result is in."""
    root = make_student(tmp_path, """
        import os
        def _peek(self):
            os.set_blocking(62, False)
            try:
                return float(len(os.read(62, 1 << 16)))
            except BlockingIOError:
                return 0.0
            finally:
                os.set_blocking(62, True)
        Value.peek_jobs = _peek
    """)
    result = run(root, [poke("add/peek", "peek_jobs"), add_case("add/after"), add_case("add/last")])
    assert result.outcomes["add/peek"].obs == {"result": 0.0}
    assert result.outcomes["add/after"].status == result.outcomes["add/last"].status == "ok"


JOB_PIPE_ATTACKS = {
    "close": "os.close(62)",
    "replace": "r, w = os.pipe()\nos.dup2(r, 62)",
    "inject": """fd = os.open("/proc/self/fd/62", os.O_WRONLY)
line = {"case": {"id": "add/after", "program": "basic.add", "params": {"a": 9.0, "b": 9.0}}, "nonce": "0" * 32}
os.write(fd, json.dumps(line).encode() + b"\\n")""",
    "garbage": """fd = os.open("/proc/self/fd/62", os.O_WRONLY)
os.write(fd, b"not json")""",
    "fill": """fd = os.open("/proc/self/fd/62", os.O_WRONLY | os.O_NONBLOCK)  # the parent's next write can't go
try:
    while True:
        os.write(fd, b"x" * 4096)
except BlockingIOError:
    pass""",
}


JOB_PIPE_LOST = "your code closed, replaced or wrote on the grader's job pipe during this case or the one before"


@pytest.mark.parametrize("attack", JOB_PIPE_ATTACKS)
def test_tampering_with_the_job_pipe_costs_the_tamperer_only(tmp_path, attack):
    """Closing or replacing it costs that case; bytes written on it cost at most the next case
    (a line of JSON runs as a case whose result is ignored: its nonce is not the awaited one)."""
    body = textwrap.indent(JOB_PIPE_ATTACKS[attack], " " * 12)
    root = make_student(tmp_path, f"""
        import json, os
        def _tamper(self):
{body}
            return 1.0
        Value.tamper = _tamper
    """)
    started = time.monotonic()
    cases = [add_case("add/before"), poke("add/tamper", "tamper"), add_case("add/after"), add_case("add/last")]
    result = run(root, cases)
    assert time.monotonic() - started < 3  # found at once, not by a timeout
    lost = {"close": "add/tamper", "replace": "add/tamper", "inject": None, "garbage": "add/after",
            "fill": "add/after"}[attack]
    for case in ("add/before", "add/tamper", "add/after", "add/last"):
        outcome = result.outcomes[case]
        if case == lost:
            assert (outcome.status, outcome.message) == ("error", JOB_PIPE_LOST), case
        else:
            assert outcome.status == "ok" and outcome.obs in ({"out": -1.0, "grads": [0.5, 0.5]}, {"result": 1.0}), case


def test_a_case_that_waits_on_the_job_pipe_times_out_alone(tmp_path):
    """Reading the job pipe blocks (nothing is there): that case times out, the parent does not wait."""
    root = make_student(tmp_path, """
        import os
        def _wait(self):
            return float(len(os.read(62, 100)))
        Value.wait_jobs = _wait
    """)
    started = time.monotonic()
    result = run(root, [poke("add/wait", "wait_jobs"), add_case("mul/after", task="mul")])
    assert time.monotonic() - started < 4
    assert result.outcomes["add/wait"].status == "timeout"
    assert result.outcomes["mul/after"].status == "ok"


def test_tampering_with_the_job_pipe_at_import_is_said_once(tmp_path):
    root = make_student(tmp_path, "import os\nos.close(62)\n")
    result = run(root, [add_case("add/a"), add_case("add/b")])
    assert {o.message for o in result.outcomes.values()} == {
        "your code closed, replaced or wrote on the grader's job pipe while it was imported"}
    assert result.imports.fatal


def test_replacing_the_result_fd_costs_that_case_only(tmp_path):
    root = make_student(tmp_path, """
        import os
        def _replace(self):
            os.dup2(os.open(os.devnull, os.O_WRONLY), 63)
            return 1.0
        Value.replace_result = _replace
    """)
    started = time.monotonic()
    result = run(root, [poke("add/replace", "replace_result"), add_case("add/after")])
    assert time.monotonic() - started < 3
    assert result.outcomes["add/replace"].message == "your code closed the grader's result pipe during this case"
    assert result.outcomes["add/after"].status == "ok"


def test_closing_the_result_pipe_costs_that_case_only(tmp_path):
    root = make_student(tmp_path, """
        import os
        def _close(self):
            for fd in range(3, 64):
                try:
                    os.close(fd)
                except OSError:
                    pass
            return 1.0
        Value.close_all = _close
    """)
    result = run(root, [poke("add/close", "close_all"), add_case("add/after")])
    assert result.outcomes["add/close"].status == "error"
    assert result.outcomes["add/close"].message == "your code closed the grader's result pipe during this case"
    assert without_sandbox_note(result.notes) == []
    assert result.outcomes["add/after"].status == "ok"


def test_forked_processes_are_killed_with_the_session(tmp_path):
    """Run as root, fork works; the forked processes die with the child, even one in its own group."""
    pids = tmp_path / "pids"
    root = make_student(tmp_path, f"""
        import os, time
        def _spawn(self):
            for leave_group in (False, True):
                try:
                    pid = os.fork()
                except OSError:
                    return 0.0  # RLIMIT_NPROC did its job (not root)
                if pid == 0:
                    if leave_group:
                        os.setpgid(0, 0)
                    with open({str(pids)!r}, "a") as f:
                        f.write(f"{{os.getpid()}}\\n")
                    while True:
                        time.sleep(1)
            time.sleep(0.3)
            return 1.0
        Value.spawn = _spawn
    """)
    result = run(root, [poke("add/spawn", "spawn"), add_case("add/after")])
    assert result.outcomes["add/after"].status == "ok"
    for pid in pids_written(pids):
        assert gone(pid), f"process {pid} survived"


def test_the_kit_is_not_importable_from_student_code(tmp_path):
    root = make_student(tmp_path, """
        def _peek(self):
            found = []
            for name in ("autograder", "reference", "rich"):
                try:
                    __import__(name)
                    found.append(1.0)
                except ImportError:
                    found.append(0.0)
            return found
        Value.peek = _peek
    """)
    outcome = run(root, [poke("add/peek", "peek")]).outcomes["add/peek"]
    assert outcome.obs == {"result": [0.0, 0.0, 0.0]}


def test_a_5000_deep_recursive_backward_works_and_endless_recursion_is_an_error(tmp_path):
    root = make_student(tmp_path, """
        def _recurse(self):
            return self._recurse()
        Value._recurse = _recurse
    """)
    cases = [Case("backward/deep", "backward", "basic.chain", {"depth": 5000}),
             poke("add/recurse", "_recurse"), add_case("mul/after", task="mul")]
    # unwinding an endless recursion under the raised recursion limit takes a while on a busy machine
    result = run(root, cases, limits=Limits(case_timeout=6.0, import_timeout=3.0))
    assert result.outcomes["backward/deep"].obs == {"grad": 1.0}
    recurse = result.outcomes["add/recurse"].message
    # Python's RecursionError, or, on a busy machine, the endless-loop watch stopping it first (runner/endless.py)
    assert recurse.startswith("RecursionError") or recurse.endswith("an endless loop?"), recurse
    assert result.outcomes["mul/after"].status == "ok"


def test_code_that_hangs_at_import_makes_every_case_an_error(tmp_path):
    root = make_student(tmp_path, "while True:\n    pass\n")
    result = run(root, [add_case("add/a"), add_case("add/b")], limits=Limits(case_timeout=1.0, import_timeout=1.0))
    for outcome in result.outcomes.values():
        assert outcome.status == "error"
        assert outcome.message.startswith("importing your code took longer than 1 s")
    assert result.imports.fatal.startswith("importing your code took longer")


def test_code_that_exits_at_import_makes_every_case_an_error(tmp_path):
    root = make_student(tmp_path, "import os\nos._exit(4)\n")
    result = run(root, [add_case("add/a"), add_case("add/b")])
    assert {o.message for o in result.outcomes.values()} == {
        "the process exited with code 4 while importing your code"}


def test_a_signal_to_the_parent_group_is_not_possible(tmp_path):
    """The child is in its own session: killing its process group leaves the grader alone."""
    root = make_student(tmp_path, """
        import os, signal
        def _kill_group(self):
            os.killpg(0, signal.SIGKILL)
        Value.kill_group = _kill_group
    """)
    result = run(root, [poke("add/kill", "kill_group"), add_case("add/after")])
    assert result.outcomes["add/kill"].message == "killed by signal 9: memory limit?"
    assert result.outcomes["add/after"].status == "ok"
    assert os.getpgid(0) != 0  # still here


def test_no_cases_still_reports_the_imports(tmp_path):
    root = make_student(tmp_path)
    (root / "micrograd" / "train.py").unlink()
    result = run(root, [])
    assert result.outcomes == {}
    assert result.imports.missing_files == ("train",)


def test_limits_cpu_time_follows_the_timeouts():
    limits = Limits(case_timeout=2.0, import_timeout=5.0)
    assert limits.cpu_seconds(10) == 26


def test_does_a_flood_on_the_result_pipe_fail_its_case_in_time_with_bounded_memory(tmp_path):
    """A correct engine flooding the result pipe (garbage lines on every fd) once held the parent
    for minutes and kept full marks: now the case fails as a flood, fast, and the next one runs."""
    import resource

    root = make_student(tmp_path, """
        def _flood(self):
            import os, time
            lines = b'{"case": "add/flood", "garbage": true}\\n' * 4096
            end = time.monotonic() + 20
            while time.monotonic() < end:
                for fd in range(3, 256):
                    try:
                        os.write(fd, lines)
                    except OSError:
                        pass
            return 1.0
        Value.flood = _flood
    """)
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.monotonic()
    result = run(root, [poke("add/flood", "flood"), add_case("add/after")], limits=Limits(case_timeout=5.0))
    assert time.monotonic() - started < 8
    flood = result.outcomes["add/flood"]
    assert flood.status == "error" and "flooded the grader's result pipe" in flood.message
    assert result.outcomes["add/after"].status == "ok"
    assert resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before < 200_000  # KiB: the parent stays small


def test_does_a_slow_burn_stop_at_the_submissions_time_budget(tmp_path):
    """Every case sleeping just under its timeout once took minutes and kept full marks."""
    root = make_student(tmp_path, """
        def _slow(self):
            import time
            time.sleep(0.8)
            return 1.0
        Value.slow = _slow
    """)
    cases = [poke(f"add/slow-{i}", "slow") for i in range(10)]
    started = time.monotonic()
    result = run(root, cases, limits=Limits(case_timeout=1.0, import_timeout=3.0, submission_budget=3.0))
    assert time.monotonic() - started < 5
    statuses = [result.outcomes[c.id].status for c in cases]
    assert statuses[0] == "ok" and statuses[-1] == "timeout"
    assert "time budget" in result.outcomes["add/slow-9"].message
    assert any("time budget of 3 s" in note for note in result.notes)


def test_is_the_derived_budget_enough_for_every_task_to_time_out_twice():
    limits = Limits(case_timeout=3.0, import_timeout=5.0)
    assert limits.budget(153, 14) == 5.0 + 3.0 * 28
    assert limits.budget(500, 14) == 5.0 + 3.0 * 50
    assert Limits(submission_budget=60.0).budget(153, 14) == 60.0


def test_is_a_burst_of_garbage_a_flood_however_fast_it_came(tmp_path):
    """2,500 garbage lines in one write, then nothing: the parent's queue holds 2,000 and drops the rest
    unread. Those count as refused too, so the verdict is a flood on every run, not a flood when the
    parent happened to read in time and an import timeout when it did not."""
    root = make_student(tmp_path, """
        import os, time
        os.write(63, b'{"garbage": true}\\n' * 2500)
        time.sleep(30)
    """)
    for _ in range(3):
        started = time.monotonic()
        result = run(root, [add_case("add/one")], limits=Limits(case_timeout=1.0, import_timeout=3.0))
        assert time.monotonic() - started < 3.0
        assert "flooded the grader's result pipe while it was imported" in result.outcomes["add/one"].message


@pytest.mark.parametrize("level", ["basic", "bubblewrap"])
def test_is_a_forbidden_module_the_child_had_imported_itself_refused(tmp_path, monkeypatch, level):
    """The zygote preloads `random` (nearly every nn.py imports it): a rubric that forbids it still
    refuses the student's `import random`."""
    monkeypatch.setenv("AUTOGRADER_SANDBOX", level)
    from autograder.runner.levels import current

    try:
        current()
    except Exception as err:  # noqa: BLE001 - no bubblewrap here
        pytest.skip(f"no {level} level here: {err}")
    root = make_student(tmp_path, "import random\n")
    result = run(root, [add_case("add/one")], forbidden=("random",))
    assert "random is not allowed in this assignment" in result.imports.forbidden
