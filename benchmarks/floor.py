"""The floor: what grading a class costs with the least machinery that keeps the kit's trust line.

    .venv/bin/python benchmarks/floor.py DIR [--out FILE] [--batched]

Grades every submission in DIR (folders or .py files, as `autograder grade` takes them) the way a
bare-bones sandboxed grader would, to give the kit's batch a figure to be measured against
(issue 32 item 3; bench_batch.py runs both on the same class and prints the ratio of their CPU):

  - the driver (this process) prepares each submission as the kit does (submission/load.py's prepare),
    and holds the cases (the rubric's public and hidden ones: select_cases) and the nonces;
  - a zygote (`python -I -S` this file, --zygote) imports the child's own modules and every case program
    once (autograder/child: student, adapt, observe, programs), then per submission clones into fresh
    PID, mount and IPC namespaces (B, pid 1 there, child/kernel.py's clone_into), which forks C; C makes
    its mounts private, mounts a fresh /proc, sets the kit's rlimits, drops every capability and becomes
    uid/gid 65534 without groups (kernel.drop_privileges), imports the student's modules
    (child/student.py) and answers;
  - one process per submission, one case at a time: the driver sends a case's line with a fresh nonce,
    reads the one result line, checks its case and nonce (json.loads) and only then sends the next;
    --batched sends every case at once instead (the floor without the per-case round trips);
  - one JSON line per submission written to --out: its import errors and every case's status and
    observations.

Not here (what the kit adds above the floor): bubblewrap and its user namespace, seccomp, a session
keyring, a fresh /tmp, deadlines on every read, flood and size bounds, the endless-loop watch, captured
prints, scoring, diagnosis, feedback pages, the gradebook. The floor trusts its class (no endless loop:
a case past FLOOR_ALARM seconds ends its process).

Runs as root (namespaces, setuid); prints one JSON line: {"submissions", "cases", "seconds"}.
"""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import threading
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
CHILD = KIT / "autograder" / "child"
FLOOR_ALARM = 30  # seconds a submission's process may live (SIGALRM): the floor's class has no endless loop


# ---- the zygote and its forks (standard library and autograder/child only) ----------------------

def zygote(control_fd: int) -> None:
    sys.path.insert(0, str(CHILD))
    import main  # noqa: F401  - the child's package, _autograder_child, as the kit's zygote imports it
    from kernel import CLONE_NEWIPC, CLONE_NEWNS, CLONE_NEWPID, MS_NODEV, MS_NOEXEC, MS_NOSUID, MS_PRIVATE, MS_REC, \
        clone_into, drop_privileges, mount, set_rlimits

    view_of_the_standard_library()
    names = sorted(n[:-3] for n in os.listdir(CHILD / "programs") if n.endswith(".py") and n != "__init__.py")
    programs = main.load_programs(None, names)
    with open("/proc/sys/kernel/cap_last_cap") as f:
        last_cap = int(f.read())
    control = socket.socket(fileno=control_fd)

    def child(request, job_fd, result_fd):
        mount(None, b"/", None, MS_REC | MS_PRIVATE, None)
        mount(b"proc", b"/proc", b"proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, None)
        os.setsid()
        set_rlimits(request["rlimits"])
        drop_privileges(last_cap)
        os.chdir("/")
        null = os.open("/dev/null", os.O_RDWR)
        for fd in (0, 1, 2):
            os.dup2(null, fd)
        import signal
        signal.alarm(FLOOR_ALARM)
        serve_cases(request, os.fdopen(job_fd, "rb"), result_fd, programs, main)

    while True:
        data, fds, _, _ = socket.recv_fds(control, 1 << 16, 2)
        if not data:
            os._exit(0)
        request = json.loads(data)
        b = clone_into(CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWIPC)
        if b == 0:  # B: pid 1 of the namespace; forks C, ends with C's status
            control.close()
            try:
                c = os.fork()
                if c == 0:
                    child(request, *fds)
                    os._exit(0)
                for fd in fds:
                    os.close(fd)
                while True:
                    pid, status = os.waitpid(-1, 0)
                    if pid == c:
                        os._exit(os.waitstatus_to_exitcode(status) & 0xFF)
            except BaseException:  # noqa: B036
                os._exit(90)
        for fd in fds:
            os.close(fd)
        _, status = os.waitpid(b, 0)
        control.send(json.dumps({"status": os.waitstatus_to_exitcode(status)}).encode())


def view_of_the_standard_library() -> None:
    """The zygote's own mount namespace, once, as bubblewrap gives the kit's: where the interpreter's prefix is
    under a folder uid 65534 can't enter (/root/.pyenv), a 0755 tmpfs there with the prefix bound back in."""
    import ctypes
    from kernel import MS_BIND, MS_PRIVATE, MS_RDONLY, MS_REC, MS_REMOUNT, mount

    libc = ctypes.CDLL(None, use_errno=True)
    if libc.unshare(0x00020000) != 0:  # CLONE_NEWNS
        raise OSError(ctypes.get_errno(), "unshare")
    mount(None, b"/", None, MS_REC | MS_PRIVATE, None)
    prefix = os.path.realpath(sys.base_prefix)
    top = "/" + prefix.strip("/").split("/")[0]
    if os.stat(top).st_mode & 0o005 == 0o005:
        return
    held = os.open(prefix, os.O_PATH)  # the prefix, reached through this fd once the tmpfs hides its path
    mount(b"tmpfs", top.encode(), b"tmpfs", 0, b"mode=0755")
    os.makedirs(prefix, mode=0o755)
    mount(f"/proc/self/fd/{held}".encode(), prefix.encode(), None, MS_BIND | MS_REC, None)
    mount(None, prefix.encode(), None, MS_REMOUNT | MS_BIND | MS_RDONLY, None)
    os.close(held)


def serve_cases(request, job, result_fd, programs, main) -> None:
    """C: import the student's modules, say how that went, then one result line per case line."""
    from _autograder_child import adapt, observe, student

    pupil = student.Student(request["root"], request["files"], 5.0)
    sys.meta_path.insert(0, pupil.hooks)
    pupil.import_all()
    api = pupil.api()
    adapt.adapt(api)
    dumps, to_json = json.dumps, observe.to_json
    os.write(result_fd, (dumps({"import": pupil.errors, "nonce": request["nonce"]}) + "\n").encode())
    for line in job:
        message = json.loads(line)
        case = message["case"]
        answer = {"case": case["id"], "nonce": message["nonce"]}
        try:
            obs = main.find_program(case["program"], programs)(api, case["params"])
            answer["status"], answer["obs"] = "ok", {str(k): to_json(v) for k, v in obs.items()}
        except NotImplementedError as exc:
            answer["status"], answer["message"] = "missing", str(exc)[:500]
        except BaseException as exc:  # noqa: B036
            answer["status"], answer["message"] = "error", student.describe(exc)
        os.write(result_fd, (dumps(answer) + "\n").encode())
    os._exit(0)


# ---- the driver ---------------------------------------------------------------------------------

def submissions(folder: Path) -> list[Path]:
    return sorted(p for p in folder.iterdir() if not p.name.startswith(".") and (p.is_dir() or p.suffix == ".py"))


def grade(folder: Path, out: Path, *, batched: bool = False) -> dict:
    import tempfile

    sys.path.insert(0, str(KIT))
    from autograder.config import load_rubric
    from autograder.grading import limits_for, select_cases
    from autograder.runner.levels.basic import open_up
    from autograder.runner.limits import rlimit_values
    from autograder.submission.copy_in import SubmissionError
    from autograder.submission.load import prepare

    started = time.perf_counter()
    rubric = load_rubric(KIT / "assignment.toml")
    cases = select_cases(rubric, include_hidden=True)
    limits = limits_for(rubric)
    rlimits = rlimit_values(limits, limits.cpu_seconds(len(cases)))
    lines = [json.dumps(case.to_job()) for case in cases]
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    zyg = subprocess.Popen([sys.executable, "-I", "-S", __file__, "--zygote", str(theirs.fileno())],
                           pass_fds=[theirs.fileno()])
    theirs.close()
    count = 0
    with tempfile.TemporaryDirectory(prefix="floor-") as tmp, open(out, "w", encoding="utf-8") as report:
        os.chmod(tmp, 0o755)
        for i, path in enumerate(submissions(folder)):
            work = Path(tmp) / str(i)
            try:
                prepared = prepare(path, work)
            except SubmissionError as exc:
                report.write(json.dumps({"student": path.stem, "error": str(exc)}) + "\n")
                continue
            open_up(str(work))
            result = one(ours, prepared, cases, lines, rlimits, batched)
            report.write(json.dumps({"student": path.stem, **result}) + "\n")
            count += 1
    ours.close()
    zyg.wait()
    return {"submissions": count, "cases": len(cases), "seconds": time.perf_counter() - started}


def one(control, prepared, cases, lines, rlimits, batched: bool) -> dict:
    """One submission in a fresh process: the import line, then each case's."""
    job_r, job_w = os.pipe()
    res_r, res_w = os.pipe()
    nonces = os.urandom(16 * (1 + len(cases))).hex()
    nonce = iter(nonces[i:i + 32] for i in range(0, len(nonces), 32))
    request = {"root": str(prepared.root), "files": prepared.files, "rlimits": rlimits, "nonce": next(nonce)}
    socket.send_fds(control, [json.dumps(request).encode()], [job_r, res_w])
    os.close(job_r)
    os.close(res_w)
    results = os.fdopen(res_r, "rb")
    imported = json.loads(results.readline())
    assert imported["nonce"] == request["nonce"]
    outcomes = {}
    sent = [b'{"case": ' + line.encode() + b', "nonce": "' + next(nonce).encode() + b'"}\n' for line in lines]
    if batched:  # every case at once (a thread: the pipes hold 64 KiB each way)
        writer = threading.Thread(target=lambda: (os.write(job_w, b"".join(sent)), os.close(job_w)))
        writer.start()
    for case, line in zip(cases, sent):
        if not batched:
            os.write(job_w, line)
        raw = results.readline()
        if not raw:
            outcomes[case.id] = {"status": "lost"}
            break
        answer = json.loads(raw)
        if answer.get("case") != case.id or answer.get("nonce") != line[-35:-3].decode():
            outcomes[case.id] = {"status": "refused"}
            continue
        outcomes[case.id] = {k: answer.get(k) for k in ("status", "obs", "message") if k in answer}
    if batched:
        writer.join()
    else:
        os.close(job_w)
    results.close()
    status = json.loads(control.recv(1 << 16))["status"]
    return {"imports": imported["import"], "exit": status, "outcomes": outcomes}


# ---- beside the kit (bench_batch.py) ------------------------------------------------------------

def compare(folder: Path, tmp: Path, env: dict, repeats: int = 3, workers: int = 2) -> dict:
    """The kit (`autograder grade folder --workers 2`, fresh out folders) and the floor on the same class, in
    turns, `repeats` runs each, every process's CPU counted (tree_cpu.run_counted): medians, ms a submission."""
    import statistics

    sys.path.insert(0, str(KIT / "benchmarks"))
    from tree_cpu import run_counted

    tmp.mkdir(parents=True, exist_ok=True)
    count = len(submissions(folder))
    runs: dict[str, list[float]] = {"kit": [], "floor": [], "floor, batched": [], "kit wall": []}
    how = ""
    for r in range(repeats):
        argv = [sys.executable, "-m", "autograder", "grade", str(folder), "--out", str(tmp / f"kit-{r}"),
                "--workers", str(workers), "--config", str(KIT / "assignment.toml")]
        wall, cpu, how, done = run_counted(argv, cwd=KIT, env=env, capture_output=True, text=True)
        if done.returncode not in (0, 1):
            raise SystemExit(f"floor.compare: {' '.join(argv)} exited {done.returncode}:\n{done.stderr[-3000:]}")
        runs["kit"].append(cpu / count * 1000)
        runs["kit wall"].append(wall)
        for label, extra in (("floor", []), ("floor, batched", ["--batched"])):
            argv = [sys.executable, __file__, str(folder), "--out", str(tmp / f"floor-{r}.jsonl"), *extra]
            _wall, cpu, _how, done = run_counted(argv, cwd=KIT, env=env, capture_output=True, text=True)
            if done.returncode != 0:
                raise SystemExit(f"floor.compare: {' '.join(argv)} exited {done.returncode}:\n{done.stderr[-3000:]}")
            runs[label].append(cpu / count * 1000)
    medians = {label: statistics.median(values) for label, values in runs.items()}
    turns = [kit / floor for kit, floor in zip(runs["kit"], runs["floor"])]  # each turn's runs side by side
    return {"count": count, "repeats": repeats, "how": how, "runs": runs, "turn_ratios": turns,
            "kit_ms": medians["kit"], "floor_ms": medians["floor"], "floor_batched_ms": medians["floor, batched"],
            "kit_rate": count / medians["kit wall"], "ratio": medians["kit"] / medians["floor"]}


def lines(found: dict, goal: float = 1.5) -> list[str]:
    return [
        f"the kit against the floor (benchmarks/floor.py), the same {found['count']} submissions (no endless loop), "
        f"{found['repeats']} runs each in turns, CPU counted by {found['how']}, medians:",
        f"  kit (grade --workers 2):                {found['kit_ms']:6.1f} ms CPU a submission "
        f"({found['kit_rate']:.1f} submissions/s)",
        f"  floor (one round trip a case):          {found['floor_ms']:6.1f} ms",
        f"  floor without the per-case round trips: {found['floor_batched_ms']:6.1f} ms",
        f"  kit/floor CPU ratio: {found['ratio']:.2f} (goal {goal:g})",
        f"  (turn by turn, each kit run against the floor run beside it: "
        f"{' '.join(f'{r:.2f}' for r in found.get('turn_ratios', ()))})",
    ]


def main(argv: list[str]) -> int:
    if argv[:1] == ["--zygote"]:
        zygote(int(argv[1]))
        return 0
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("folder", type=Path)
    parser.add_argument("--out", type=Path, default=Path(os.devnull))
    parser.add_argument("--batched", action="store_true", help="every case sent at once (no per-case round trip)")
    args = parser.parse_args(argv)
    if os.geteuid() != 0:
        print("floor.py: needs root (fresh namespaces, a switch to uid 65534)", file=sys.stderr)
        return 2
    print(json.dumps(grade(args.folder, args.out, batched=args.batched)))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
