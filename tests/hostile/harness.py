"""Around the hostile batch: listeners, a /proc scan for what was left behind, the honest twins, the run."""
from __future__ import annotations

import csv
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import corpus
from autograder.report.csv_report import unguard

REPO = corpus.REPO


class Listener:
    """A TCP listener in a thread that records every connection (peer, first bytes)."""

    def __init__(self, host: str):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, 0))
        self.sock.listen(64)
        self.sock.settimeout(0.2)
        self.host, self.port = host, self.sock.getsockname()[1]
        self.hits: list[tuple[str, bytes]] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._serve, daemon=True)
        self._thread.start()

    def _serve(self) -> None:
        while not self._stop.is_set():
            try:
                conn, peer = self.sock.accept()
            except OSError:
                continue
            with conn:
                conn.settimeout(0.5)
                try:
                    data = conn.recv(256)
                except OSError:
                    data = b""
            self.hits.append((peer[0], data))

    def close(self) -> None:
        self._stop.set()
        self._thread.join(timeout=2)
        self.sock.close()


def external_address() -> str:
    """This machine's address on its default route, or "" (a UDP connect sends nothing)."""
    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))
            address = s.getsockname()[0]
    except OSError:
        return ""
    return "" if address.startswith("127.") or address == "0.0.0.0" else address


@dataclass(frozen=True)
class Proc:
    pid: int
    comm: str
    cmdline: str


def tagged_processes(prefix: str) -> list[Proc]:
    """Live processes whose name or command line carries `prefix` (the run's marker prefix)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as f:
                stat = f.read()
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                cmdline = f.read().replace(b"\0", b" ").decode("utf-8", "replace").strip()
        except OSError:
            continue
        comm = stat[stat.find(b"(") + 1: stat.rfind(b")")].decode("utf-8", "replace")
        state = stat[stat.rfind(b")") + 2:].split()[:1]
        if state in ([b"Z"], [b"X"]):
            continue
        if prefix in comm or prefix in cmdline:
            found.append(Proc(int(entry), comm, cmdline))
    return found


def kill(procs: list[Proc]) -> None:
    """SIGKILL the processes the corpus left behind (each was started by this test, found by its marker)."""
    for proc in procs:
        try:
            os.kill(proc.pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass


@dataclass(frozen=True)
class Honest:
    """What a hostile's honest twin earned: its score and each task's (score, max_score)."""
    score: float
    tasks: dict[str, tuple[float, float]]
    error: str | None = None

    def full(self, task: str) -> bool:
        score, top = self.tasks.get(task, (0.0, 1.0))
        return score >= top - 1e-9


def grade_twins(folder: Path, tokens: corpus.Tokens, rubric) -> dict[str, Honest]:
    """Each hostile's honest twin, graded like the batch grades (public and hidden cases)."""
    from autograder.grading import grade_path

    cache: dict[tuple, Honest] = {}
    twins: dict[str, Honest] = {}
    for index, h in enumerate(corpus.HOSTILES):
        if h.honest == "none":
            twins[h.id] = Honest(0.0, {t: (0.0, float(p)) for t, p in rubric.points.items()})
            continue
        files = corpus.package_files(h, tokens, index, h.id, twin=True)
        key = tuple(sorted(files.items()))
        if key not in cache:
            path = corpus.write_folder(folder / f"twin-{len(cache):02d}", files)
            report = grade_path(path, rubric=rubric, include_hidden=True, name=h.id)
            cache[key] = Honest(report.score, {t.id: (t.score, t.max_score) for t in report.tasks}, report.error)
        twins[h.id] = cache[key]
    return twins


@dataclass
class Run:
    code: int
    stdout: str
    stderr: str
    seconds: float
    rows: dict[str, dict] = field(default_factory=dict)        # gradebook.csv, by student
    rows_count: int = 0                                        # lines of gradebook.csv (a repeat hides in rows)
    reports: dict[str, dict] = field(default_factory=dict)     # reports/<id>.json, by file stem
    originals: dict[str, str] = field(default_factory=dict)    # the name in the class folder -> the kit's id


def run_batch(cwd: Path, class_dir: str, out: str, config: str, *, workers: int = 2, timeout: float = 300,
              level: str = "") -> Run:
    """`autograder grade CLASS --out OUT --workers N --config RUBRIC`, as an instructor runs it (under
    AUTOGRADER_SANDBOX=level when one is given)."""
    argv = [sys.executable, "-m", "autograder", "grade", class_dir, "--out", out, "--workers", str(workers),
            "--config", config]
    env = {**os.environ, "PYTHONPATH": str(REPO), **({"AUTOGRADER_SANDBOX": level} if level else {})}
    started = time.monotonic()
    proc = subprocess.Popen(argv, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True)
    try:
        stdout, stderr = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)  # the batch this test started, and its workers
        stdout, stderr = proc.communicate()
        stderr += f"\n[the batch did not finish in {timeout:g} s and was killed]".encode()
    run = Run(proc.returncode, stdout.decode("utf-8", "replace"), stderr.decode("utf-8", "replace"),
              time.monotonic() - started)
    gradebook = cwd / out / "gradebook.csv"
    if gradebook.is_file():
        with open(gradebook, newline="", encoding="utf-8") as f:
            rows = list(csv.DictReader(f))
        # the ids as the LMS commands read them back: a spreadsheet guard undone (csv_report.unguard)
        run.rows = {unguard(r["student"]): r for r in rows}
        run.originals = {unguard(r["original"]): unguard(r["student"]) for r in rows}
        run.rows_count = len(rows)
    for path in sorted((cwd / out / "reports").glob("*")):
        try:
            run.reports[path.stem] = json.loads(path.read_text(encoding="utf-8"))
        except (OSError, ValueError) as err:
            run.reports[path.stem] = {"unreadable": str(err)}
    return run


def forged_leftovers(marker_prefix: str) -> list[Path]:
    """Files the forger may have written outside the batch's output (its cwd's parent is /tmp)."""
    found = []
    for path in (Path("/tmp/gradebook.csv"), Path("/tmp/results.json")):
        try:
            if path.is_file() and marker_prefix in path.read_text(encoding="utf-8", errors="replace"):
                found.append(path)
        except OSError:
            pass
    return found


DROPS = ("/tmp", "/dev/shm", "/var/tmp")


def drops_left(run: str) -> list[str]:
    """What the hostile giver dropped for its classmates (corpus.DROP) that is still on this machine:
    files in the shared folders, a SysV shared memory segment under its key."""
    found = [os.path.join(d, f"hx-drop-{run}") for d in DROPS if os.path.lexists(os.path.join(d, f"hx-drop-{run}"))]
    key = 0x68780000 + int(run, 16) % 0xFFFF
    try:
        with open("/proc/sysvipc/shm") as f:
            rows = [line.split() for line in f.read().splitlines()[1:]]
    except OSError:
        rows = []
    found += [f"SysV shm {row[1]} (key {key:#x})" for row in rows if row and int(row[0]) == key]
    return found


def remove_drops(run: str) -> None:
    """Remove what drops_left finds (the test made it, through the giver)."""
    import ctypes

    for folder in DROPS:
        try:
            os.unlink(os.path.join(folder, f"hx-drop-{run}"))
        except OSError:
            pass
    key = 0x68780000 + int(run, 16) % 0xFFFF
    libc = ctypes.CDLL(None, use_errno=True)
    shm = libc.shmget(key, 0, 0)
    if shm >= 0:
        libc.shmctl(shm, 0, None)  # IPC_RMID
