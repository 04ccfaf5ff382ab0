"""The sandbox levels (bubblewrap, uid, basic): chosen right, and holding what they promise.

Real children on real files, as tests/runner/test_session.py; the student's code does its
mischief when its engine.py is imported (the result kept in a module global) or when a
case calls one of its Value methods (the fake program `basic.poke`). The bubblewrap tests
are skipped, with bwrap's reason, where bwrap can't run here; the uid tests where the
grader isn't root or no system Python of this version can be run by nobody.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import textwrap
import threading
import time
import uuid
from pathlib import Path

import pytest

from autograder import paths
from autograder.config import ConfigError, load_rubric
from autograder.runner import Limits, cleanup, levels, run_cases, seccomp, session
from autograder.runner.levels.bwrap import level as bwrap, probe as bwrap_probe, userns
from autograder.runner.levels.uid import level as uid_module, uids
from autograder.runner.levels import ENV, SandboxUnavailable

from test_session import FAKE, KIT, LIMITS, add_case, make_student, poke, run

ROOT = os.geteuid() == 0


def _bubblewrap():
    level, why = bwrap_probe.probe(levels.interpreter())
    return level, why


needs_bwrap = pytest.mark.skipif(_bubblewrap()[0] is None, reason=f"bubblewrap unusable here: {_bubblewrap()[1]}")


@pytest.fixture
def bubblewrap(monkeypatch):
    monkeypatch.setenv(ENV, "bubblewrap")


def result_of(outcome) -> object:
    """What a poke returned: a float, or the text of a string (a BadValue's repr, unquoted)."""
    value = outcome.obs["result"]
    return value if isinstance(value, float) else value.repr.strip("'\"")


def marked_processes(marker: str) -> list[int]:
    """Live host processes whose command line holds marker."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read()
            with open(f"/proc/{entry}/stat", "rb") as f:
                state = f.read().rsplit(b")", 1)[1].split()[0]
        except OSError:
            continue
        if marker.encode() in cmdline and state not in (b"Z", b"X"):
            found.append(int(entry))
    return found


# -- choosing ---------------------------------------------------------------------------

def test_a_level_nobody_knows_is_a_one_line_config_error(monkeypatch):
    monkeypatch.setenv(ENV, "docker")
    with pytest.raises(ConfigError) as err:
        levels.current()
    assert "\n" not in str(err.value) and str(err.value).startswith(f"{ENV}=docker: not a sandbox level")


def test_forcing_an_unavailable_level_is_a_one_line_error(monkeypatch, tmp_path):
    monkeypatch.setattr(levels, "_get", lambda name, python: (None, "it is not there") if name != "basic"
                        else (levels.Level(), ""))
    root = make_student(tmp_path)
    for name in ("uid", "bubblewrap"):
        monkeypatch.setenv(ENV, name)
        with pytest.raises(SandboxUnavailable, match=f"^{ENV}={name}: it is not there$"):
            run_cases(root, [add_case()])


def test_forcing_uid_as_a_normal_user_says_it_needs_root(monkeypatch):
    if ROOT:
        monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert uid_module.probe(levels.interpreter()) == (None, "not root")


def test_basic_is_chosen_when_nothing_better_works_and_says_so_once(monkeypatch, tmp_path):
    monkeypatch.delenv(ENV, raising=False)  # the best level, not one insisted on
    whys = {"bubblewrap": "no bwrap on PATH", "uid": "not root"}
    monkeypatch.setattr(levels, "_get", lambda name, python: (None, whys[name]) if name in whys
                        else (levels.Level(), ""))
    levels._best.cache_clear()
    try:
        result = run_cases(make_student(tmp_path), [add_case()], limits=LIMITS, programs_dir=FAKE)
    finally:
        levels._best.cache_clear()
    assert result.sandbox == "basic"
    assert result.notes == [levels.Level("no bubblewrap, not root").note()]
    assert result.outcomes["add/one"].status == "ok"
    monkeypatch.setattr(os, "geteuid", lambda: 1000)  # the words, for a grader that is not root
    assert levels.Level("no bubblewrap, not root").note() == (
        "sandbox: basic (no bubblewrap, not root): student code can read files (the installed packages "
        "beyond the allowed ones too: only an import hook refuses them) and use the network; "
        "install bubblewrap for isolation")


def test_the_probes_are_made_once_per_process(monkeypatch):
    levels.best()
    calls = []
    monkeypatch.setattr(subprocess, "run", lambda *a, **k: calls.append(a))
    for _ in range(3):
        levels.best()
    assert calls == []


def test_forcing_basic_gives_basic_and_its_note(monkeypatch, tmp_path):
    """(g)"""
    monkeypatch.setenv(ENV, "basic")
    result = run(make_student(tmp_path), [add_case()])
    assert result.sandbox == "basic"
    sandbox_notes = [note for note in result.notes if note.startswith("sandbox:")]
    assert sandbox_notes == [levels.Level(f"{ENV}=basic").note()]
    monkeypatch.setattr(os, "geteuid", lambda: 1000)
    assert levels.Level(f"{ENV}=basic").note() == (
        f"sandbox: basic ({ENV}=basic): student code can read files (the installed packages beyond the "
        "allowed ones too: only an import hook refuses them) and use the network; install bubblewrap for isolation")


def _our_zombies(since: int) -> list[int]:
    """This process's children started at or after `since` that no one has reaped."""
    found = []
    for entry in os.listdir("/proc"):
        stat = cleanup.proc_stat(entry) if entry.isdigit() else None
        if stat and stat[0] == "Z" and stat[1] == os.getpid() and stat[3] >= since:
            found.append(int(entry))
    return found


_DAEMONS = {
    # double fork: the first child calls setsid, forks the sleeper and exits
    "double-fork": """
            first = os.fork()
            if first == 0:
                try:
                    os.setsid()
                    if os.fork() == 0:
                        os.execv(sys.executable, SLEEPER)
                finally:
                    os._exit(0)
            os.waitpid(first, 0)""",
    # the first child stays: a sleeper in a session of its own, parent of another, three deep
    "setsid-tree": """
            if os.fork() == 0:
                try:
                    os.setsid()
                    if os.fork() == 0:
                        if os.fork() == 0:
                            os.execv(sys.executable, SLEEPER)
                        os.execv(sys.executable, SLEEPER)
                    os.execv(sys.executable, SLEEPER)
                finally:
                    os._exit(0)""",
}


@pytest.mark.parametrize("then", ["while True: pass", "time.sleep(0.3)"], ids=["timeout", "completion"])
@pytest.mark.parametrize("daemon", list(_DAEMONS))
def test_basic_kills_what_left_the_session(monkeypatch, tmp_path, daemon, then):
    """At the basic level, run by root (fork works), a daemon in a session of its own: the grading
    process is its subreaper, and the sweep after the child kills and reaps it. An older child
    of the grading process in a session of its own, and one in its session, are left alone."""
    monkeypatch.setenv(ENV, "basic")
    marker = f"daemon-{uuid.uuid4().hex}"
    older = subprocess.Popen(["sleep", "60"], start_new_session=True)
    root = make_student(tmp_path, f"""
        import os, sys, time
        SLEEPER = [sys.executable, "-c", "import time; time.sleep(1000)", "{marker}"]
        def _daemon(self):
            try:
{textwrap.indent(textwrap.dedent(_DAEMONS[daemon]).strip(), " " * 16)}
                started = 1.0
            except OSError as exc:
                started = type(exc).__name__
            time.sleep(0.3)  # the sleepers are running now
            {then}
            return started
        Value.daemon = _daemon
    """)
    since = cleanup.start_ticks(os.getpid())
    earlier = set(_our_zombies(since))  # other tests' leftovers in this long-lived pytest process
    try:
        result = run(root, [poke("add/daemon", "daemon"), add_case("mul/after", task="mul")])  # another task: a timeout skips its own task
        same_session = subprocess.Popen(["sleep", "60"])
        left = marked_processes(marker)
        assert result.sandbox == "basic"
        if ROOT and then.startswith("time"):
            assert result_of(result.outcomes["add/daemon"]) == 1.0  # it did start: nothing refused
        assert result.outcomes["mul/after"].status == "ok"
        assert left == [], f"left running: {left}"
        assert set(_our_zombies(since)) - earlier == set()
        assert older.poll() is None and same_session.poll() is None
    finally:
        for proc in [older] + ([same_session] if "same_session" in dir() else []):
            proc.kill()
            proc.wait()
        for pid in marked_processes(marker):
            os.kill(pid, 9)


def test_basic_as_root_says_it_isolates_nothing(monkeypatch, tmp_path):
    monkeypatch.setattr(os, "geteuid", lambda: 0)
    assert levels.Level(f"{ENV}=basic").note() == (
        f"sandbox: basic ({ENV}=basic): no isolation: student code runs as root and can read and change "
        "any file, use the network and signal any process; install bubblewrap for isolation")


def test_the_fork_filter_is_whole_instructions_and_only_for_known_machines():
    for machine in ("x86_64", "aarch64"):
        program = seccomp.fork_filter(machine)
        assert program and len(program) % 8 == 0 and len(program) // 8 < 256
    assert seccomp.fork_filter("riscv64") is None


# -- bubblewrap -------------------------------------------------------------------------

@needs_bwrap
def test_bubblewrap_no_network_no_kit_no_writes_outside_and_not_root(bubblewrap, tmp_path):
    """(a) the listener gets nothing, (b) the kit can't be read, (c) writes land nowhere, (d) not uid 0."""
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen()
    listener.setblocking(False)
    port = listener.getsockname()[1]
    marker = f"escape-{uuid.uuid4().hex}"
    out = tmp_path / "out"
    out.mkdir()
    kit_target = paths.KIT_ROOT / f"{marker}.txt"
    reference = paths.KIT_ROOT / "reference" / "engine.py"
    assert reference.is_file()
    root = make_student(tmp_path, f"""
        import os, socket
        _SEEN = {{}}
        try:
            with socket.create_connection(("127.0.0.1", {port}), timeout=2) as s:
                s.sendall(b"{marker}")
            _SEEN["net"] = "connected"
        except OSError as exc:
            _SEEN["net"] = type(exc).__name__
        try:
            with open({str(reference)!r}) as f:
                _SEEN["reference"] = "read " + f.read(20)
        except OSError as exc:
            _SEEN["reference"] = type(exc).__name__
        _SEEN["kit"] = str(os.path.exists({str(paths.KIT_ROOT)!r}))
        for key, target in (("kit_write", {str(kit_target)!r}), ("out_write", {str(out / "forged.json")!r}),
                            ("tmp_write", "/tmp/{marker}"), ("own_write", __file__ + ".{marker}")):
            try:
                os.makedirs(os.path.dirname(target), exist_ok=True)
                with open(target, "w") as f:
                    f.write("{marker}")
                _SEEN[key] = "written"
            except OSError as exc:
                _SEEN[key] = type(exc).__name__
        _SEEN["uid"] = str(os.getuid())
        def _seen(self, key):
            return _SEEN[key]
        for _key in _SEEN:
            setattr(Value, "seen_" + _key, lambda self, _k=_key: _seen(self, _k))
    """)
    keys = ("net", "reference", "kit", "kit_write", "out_write", "tmp_write", "own_write", "uid")
    try:
        result = run(root, [poke(f"add/{key}", f"seen_{key}") for key in keys])
    finally:  # should it have got out, leave nothing behind
        kit_written, tmp_written = kit_target.exists(), Path("/tmp", marker).exists()
        kit_target.unlink(missing_ok=True)
        Path("/tmp", marker).unlink(missing_ok=True)
    seen = {key: result_of(result.outcomes[f"add/{key}"]) for key in keys}
    assert result.sandbox == "bubblewrap"
    # (a)
    assert seen["net"] != "connected"
    with pytest.raises(BlockingIOError):
        listener.accept()
    listener.close()
    # (b)
    assert seen["reference"] in ("FileNotFoundError", "PermissionError")
    assert seen["kit"] == "False"
    # (c): the kit, the output folder, the submission and the host's /tmp are as they were
    # "/" is read-only but /tmp is private and writable: a kit cloned under /tmp is "written" only inside it
    assert not kit_written
    if not paths.KIT_ROOT.is_relative_to("/tmp"):
        assert seen["kit_write"] != "written"
    assert list(out.iterdir()) == []
    assert seen["own_write"] != "written" and not list(root.rglob(f"*{marker}*"))
    assert seen["tmp_write"] == "written"  # its private /tmp
    assert not tmp_written
    # (d)
    if ROOT:
        assert seen["uid"] == "65534"
    else:
        assert seen["uid"] == str(os.getuid())


def _status(pid: int) -> dict[str, str]:
    with open(f"/proc/{pid}/status") as f:
        return dict(line.split(":\t", 1) for line in f.read().splitlines() if ":\t" in line)


@needs_bwrap
def test_bubblewrap_child_runs_as_nobody_on_the_host_too(bubblewrap, tmp_path):
    """Seen from the host while it runs (/proc/<pid>/status): uid and gid 65534, no groups, no
    capabilities of any kind, no_new_privs, the fork filter; and it can make no user namespace."""
    if ROOT and _bubblewrap()[0].userns is None:
        pytest.skip(f"no own uid for the child here: {_bubblewrap()[0].why}")
    marker = f"uid{uuid.uuid4().hex[:12]}"  # a process name: 15 characters
    root = make_student(tmp_path, f"""
        import ctypes, time
        def _linger(self):
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(15, b"{marker}", 0, 0, 0)  # PR_SET_NAME: the host finds it by it
            refused = libc.unshare(0x10000000) != 0  # CLONE_NEWUSER
            time.sleep(1.5)
            return 1.0 if refused else 0.0
        Value.linger = _linger
    """)
    box = []
    runner = threading.Thread(target=lambda: box.append(run(root, [poke("add/linger", "linger")],
                                                              limits=Limits(case_timeout=5.0, import_timeout=5.0))))
    runner.start()
    seen = None
    try:
        end = time.monotonic() + 8
        while seen is None and time.monotonic() < end:
            for entry in filter(str.isdigit, os.listdir("/proc")):
                try:
                    status = _status(int(entry))
                except OSError:
                    continue
                if status.get("Name") == marker:
                    seen = status
                    break
            time.sleep(0.02)
    finally:
        runner.join()
    assert seen is not None, "the child was never seen running"
    expected = str(levels.NOBODY) if ROOT else str(os.getuid())
    assert seen["Uid"].split() == [expected] * 4
    if ROOT:
        assert seen["Gid"].split() == [expected] * 4 and seen["Groups"].strip() == ""
        assert {seen[cap] for cap in ("CapInh", "CapPrm", "CapEff", "CapBnd", "CapAmb")} == {"0" * 16}
    assert seen["NoNewPrivs"] == "1"
    if seccomp.fork_filter() is not None:
        assert seen["Seccomp"] == "2"
    result = box[0]
    assert result.sandbox == "bubblewrap" and not [n for n in result.notes if n.startswith("sandbox:")]
    assert result_of(result.outcomes["add/linger"]) == 1.0  # no user namespace inside


@needs_bwrap
def test_bubblewrap_without_an_own_uid_falls_back_and_says_so(monkeypatch, tmp_path):
    """No setpriv (or an older bwrap): bwrap's own user namespace, uid 0 outside, and a note."""
    if not ROOT:
        pytest.skip("the own uid is for a grader run as root")
    monkeypatch.setattr(bwrap_probe, "own_userns", lambda: (None, "no setpriv (util-linux)"))
    bwrap_probe.probe.cache_clear()
    try:
        level, why = bwrap_probe.probe(levels.interpreter())
    finally:
        bwrap_probe.probe.cache_clear()
    assert why == "" and level.userns is None
    monkeypatch.setattr(session, "current_level", lambda: level)
    result = run(make_student(tmp_path), [add_case()])
    assert result.outcomes["add/one"].status == "ok"
    assert [n for n in result.notes if n.startswith("sandbox:")] == [
        "sandbox: bubblewrap (no setpriv (util-linux)): student code runs as uid 0 outside the sandbox "
        "(without capabilities, read-only): install setpriv (util-linux) and bubblewrap >= 0.5 for an "
        "unprivileged uid"]


def test_uid_map_words_give_the_uid_outside():
    words = b"0 0 1 65534 65534 1".split()
    assert userns.host_uid(65534, words) == 65534 and userns.host_uid(0, words) == 0
    assert userns.host_uid(65534, b"65534 0 1".split()) == 0
    assert userns.host_uid(1000, words) is None


def _spawner(tmp_path: Path, marker: str, then: str) -> Path:
    return make_student(tmp_path, f"""
        import subprocess, time
        def _spawn(self):
            try:
                subprocess.Popen(["sleep", "1000", "{marker}"], start_new_session=True)
                started = 1.0
            except OSError as exc:
                started = type(exc).__name__
            {then}
            return started
        Value.spawn = _spawn
    """)


@needs_bwrap
@pytest.mark.parametrize("then", ["while True: pass", "time.sleep(0.3)"], ids=["timeout", "completion"])
def test_bubblewrap_refuses_fork(bubblewrap, tmp_path, then):
    """(e), first wall: the seccomp filter (where there is one) refuses the fork."""
    marker = f"stray-{uuid.uuid4().hex}"
    result = run(_spawner(tmp_path, marker, then), [poke("add/spawn", "spawn"), add_case("mul/after", task="mul")])
    assert result.sandbox == "bubblewrap"
    if seccomp.fork_filter() is not None and then.startswith("time"):
        assert result_of(result.outcomes["add/spawn"]) == "PermissionError"
    assert result.outcomes["mul/after"].status == "ok"
    assert marked_processes(marker) == []


@needs_bwrap
@pytest.mark.parametrize("then", ["while True: pass", "time.sleep(0.3)"], ids=["timeout", "completion"])
def test_bubblewrap_kills_what_was_forked_when_the_filter_is_off(monkeypatch, tmp_path, then):
    """(e), second wall: without the filter the `sleep` starts, and dies with the PID namespace."""
    level = bwrap.BubblewrapLevel(*_parts(_bubblewrap()[0]))
    level.seccomp = None
    monkeypatch.setattr(session, "current_level", lambda: level)
    marker = f"stray-{uuid.uuid4().hex}"
    result = run(_spawner(tmp_path, marker, then), [poke("add/spawn", "spawn"), add_case("mul/after", task="mul")])
    spawn = result.outcomes["add/spawn"]
    if then.startswith("while"):
        assert spawn.status == "timeout"
    else:
        assert result_of(spawn) == 1.0  # it did start
    assert result.outcomes["mul/after"].status == "ok"
    assert marked_processes(marker) == []


def _parts(level: bwrap.BubblewrapLevel):
    return level.bwrap, level.python, level.features


@needs_bwrap
def test_bubblewrap_threads_still_work(bubblewrap, tmp_path):
    root = make_student(tmp_path, """
        import threading
        def _threads(self):
            box = []
            worker = threading.Thread(target=lambda: box.append(2.0))
            worker.start()
            worker.join()
            return box[0]
        Value.threads = _threads
    """)
    assert run(root, [poke("add/threads", "threads")]).outcomes["add/threads"].obs == {"result": 2.0}


@needs_bwrap
@pytest.mark.parametrize("body, message", [
    ("import os; os._exit(7)", "the process exited with code 7 during this case"),
    ("import os, signal; os.kill(os.getpid(), signal.SIGSEGV)",
     "crashed with signal 11 (SIGSEGV): a recursion too deep?"),
    ("import os, signal; os.killpg(0, signal.SIGKILL)", "killed by signal 9: memory limit?"),
])
def test_bubblewrap_reports_how_the_child_ended_as_basic_does(bubblewrap, tmp_path, body, message):
    root = make_student(tmp_path, f"""
        def _quit(self):
            {body}
        Value.quit = _quit
    """)
    result = run(root, [poke("add/quit", "quit"), add_case("mul/after", task="mul")])
    assert (result.outcomes["add/quit"].status, result.outcomes["add/quit"].message) == ("error", message)
    assert result.outcomes["mul/after"].status == "ok"


@needs_bwrap
def test_bubblewrap_keeps_the_memory_limit(bubblewrap, tmp_path):
    root = make_student(tmp_path, """
        def _bomb(self):
            hoard = []
            while True:
                hoard.append(bytearray(50 * 1024 * 1024))
        Value.bomb = _bomb
    """)
    limits = Limits(case_timeout=5.0, memory_mb=300)
    result = run(root, [poke("add/bomb", "bomb"), add_case("mul/after", task="mul")], limits=limits)
    assert result.outcomes["add/bomb"].message.startswith(("MemoryError", "killed by signal 9"))
    assert result.outcomes["mul/after"].status == "ok"


@needs_bwrap
def test_the_solutions_get_full_marks_under_bubblewrap(bubblewrap):
    """(f)"""
    from autograder.grading import grade_path

    report = grade_path(KIT / "solutions", rubric=load_rubric(KIT / "assignment.toml"), include_hidden=True)
    assert report.sandbox == "bubblewrap"
    assert report.error is None and report.score == report.max_score > 0
    assert not [note for note in report.notes if note.startswith("sandbox:")]


# -- uid --------------------------------------------------------------------------------

@pytest.fixture
def uid_level(monkeypatch):
    """The uid level with this Python: its root holds a copy of what nobody could read under /root."""
    if not ROOT:
        pytest.skip("the uid level is for a grader run as root")
    level, why = uid_module.probe(levels.interpreter())
    if level is None:
        pytest.skip(f"the uid level does not run here: {why}")
    monkeypatch.setenv(ENV, "uid")


def test_uid_runs_as_its_own_uid_without_fork_or_any_file_of_the_grader(uid_level, tmp_path):
    """Chrooted: the grader's private files and the kit are not there at all (FileNotFoundError)."""
    private = tmp_path / "private"
    private.mkdir(mode=0o700)
    (private / "secret.txt").write_text("golden")
    marker = f"stray-{uuid.uuid4().hex}"
    root = make_student(tmp_path, f"""
        import os, subprocess
        def _probe(self):
            try:
                subprocess.Popen(["sleep", "1000", "{marker}"])
                spawned = "spawned"
            except OSError as exc:
                spawned = type(exc).__name__
            try:
                open({str(private / "secret.txt")!r}).read()
                secret = "read"
            except OSError as exc:
                secret = type(exc).__name__
            try:
                open({str(paths.KIT_ROOT / marker)!r}, "w")
                kit = "written"
            except OSError as exc:
                kit = type(exc).__name__
            return f"{{os.getuid()}} {{spawned}} {{secret}} {{kit}}"
        Value.probe = _probe
    """)
    result = run(root, [poke("add/probe", "probe"), add_case("mul/after", task="mul")])
    assert result.sandbox == "uid"
    uid, *rest = result_of(result.outcomes["add/probe"]).split()
    assert uids.FIRST <= int(uid) < uids.FIRST + uids.COUNT
    assert rest == ["BlockingIOError", "FileNotFoundError", "FileNotFoundError"]
    assert result.outcomes["mul/after"].status == "ok"
    assert marked_processes(marker) == [] and not (paths.KIT_ROOT / marker).exists()
    assert [note for note in result.notes if note.startswith("sandbox: uid")]


def test_uid_child_has_no_socket_no_ipc_object_and_no_shared_folder(uid_level, tmp_path):
    """What two students' children could meet through: a socket (TCP or an abstract unix one), SysV shared
    memory, a POSIX message queue, /tmp, /dev/shm, /proc (a classmate's cwd): none is there for the child."""
    drop = tmp_path.parent / f"drop-{uuid.uuid4().hex}"
    root = make_student(tmp_path, f"""
        import ctypes, os, socket
        def _probe(self):
            seen = []
            for family in (socket.AF_INET, socket.AF_UNIX):
                try:
                    socket.socket(family, socket.SOCK_STREAM).close()
                    seen.append("socket")
                except OSError as exc:
                    seen.append(type(exc).__name__)
            libc = ctypes.CDLL(None, use_errno=True)
            seen.append(str(libc.shmget(0, 4096, 0o1666)) + ":" + str(ctypes.get_errno()))
            seen.append(str(libc.mq_open(b"/hx", 0o100 | 2, 0o666, None)) + ":" + str(ctypes.get_errno()))
            for folder in ("/tmp", "/dev/shm", "/proc", {str(tmp_path.parent)!r}):
                seen.append(str(os.path.exists(folder)))
            try:
                open({str(drop)!r}, "w").write("x")
                seen.append("dropped")
            except OSError as exc:
                seen.append(type(exc).__name__)
            with open(os.devnull, "w") as null:  # what an honest notebook silences its prints with
                seen.append(str(null.write("quiet")))
            return " ".join(seen)
        Value.probe = _probe
    """)
    result = run(root, [poke("add/probe", "probe")])
    assert result.sandbox == "uid"
    assert result_of(result.outcomes["add/probe"]).split() == [
        "PermissionError", "PermissionError", "-1:1", "-1:1", "False", "False", "False", "False",
        "FileNotFoundError", "5"]
    assert not drop.exists()


def test_the_solutions_pass_under_uid(uid_level):
    from autograder.cases import PUBLIC_SEED, build_cases

    cases = build_cases(seed=PUBLIC_SEED, visibility="public", activation="tanh")
    result = run_cases(KIT / "solutions", cases, limits=LIMITS)
    assert result.sandbox == "uid"
    assert {o.status for o in result.outcomes.values()} == {"ok"}


# -- a batch ----------------------------------------------------------------------------

def test_a_batch_with_an_unavailable_forced_level_stops_at_once_with_one_line(monkeypatch, tmp_path, capsys):
    """Not a row per submission each saying so: one line, exit 2, nothing graded, no output folder."""
    from autograder.cli.batch import run_batch_command

    graded = []
    monkeypatch.setattr(levels, "_get", lambda name, python: (None, "it is not there") if name != "basic"
                        else (levels.Level(), ""))
    monkeypatch.setenv(ENV, "bubblewrap")
    (tmp_path / "class" / "ana").mkdir(parents=True)
    make_student(tmp_path / "class" / "ana")
    code = run_batch_command([tmp_path / "class"], tmp_path / "out", 1, False, load_rubric(KIT / "assignment.toml"),
                             grade_one=lambda *a, **k: graded.append(a))
    err = capsys.readouterr().err
    assert code == 2 and graded == []
    assert err.strip().splitlines() == [f"autograder: {ENV}=bubblewrap: it is not there"]
    assert not (tmp_path / "out").exists()
    monkeypatch.setenv(ENV, "docker")
    assert run_batch_command([tmp_path / "class"], tmp_path / "out", 1, False, load_rubric(KIT / "assignment.toml"),
                             grade_one=lambda *a, **k: graded.append(a)) == 2
    assert capsys.readouterr().err.startswith(f"autograder: {ENV}=docker: not a sandbox level")
