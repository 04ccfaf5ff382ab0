"""The CPU time a command and every process it starts use, counted by the kernel.

    seconds, cpu, how = run_counted(argv, cwd=..., env=...)

getrusage(RUSAGE_CHILDREN) counts only processes their parents waited for: a process
that ends reparented (a sandbox's namespace, a forked child of a zygote, whatever a
killed worker left) is missed, and the batch's CPU comes out low. A cgroup counts every
process in it, whoever reaps it, so where the benchmark can make one (root: cgroup v2's
cpu.stat, or v1's cpuacct) the command runs in a cgroup of its own and that is the
figure. Elsewhere the figure is getrusage's, and `how` says it is a lower bound.
"""
from __future__ import annotations

import contextlib
import os
import resource
import subprocess
import time
from pathlib import Path


def _mounts() -> dict[str, Path]:
    """'v2' -> the cgroup2 mount, 'v1' -> the cpuacct hierarchy's mount (whichever exist)."""
    found: dict[str, Path] = {}
    try:
        lines = Path("/proc/mounts").read_text().splitlines()
    except OSError:
        return found
    for line in lines:
        parts = line.split()
        if len(parts) < 4:
            continue
        if parts[2] == "cgroup2":
            found.setdefault("v2", Path(parts[1]))
        elif parts[2] == "cgroup" and "cpuacct" in parts[3].split(","):
            found.setdefault("v1", Path(parts[1]))
    return found


class _Group:
    """A fresh cgroup the command is moved into before it runs (None where none can be made)."""

    def __init__(self) -> None:
        self.path: Path | None = None
        self.kind = ""
        name = f"bench-tree-cpu-{os.getpid()}-{time.monotonic_ns()}"
        for kind, mount in sorted(_mounts().items()):  # v1's cpuacct first: exact, no controller to enable
            try:
                (mount / name).mkdir()
            except OSError:
                continue
            self.path, self.kind = mount / name, kind
            return

    def join(self) -> None:  # in the child, before exec
        (self.path / "cgroup.procs").write_text(str(os.getpid()))

    def seconds(self) -> float:
        if self.kind == "v1":
            return int((self.path / "cpuacct.usage").read_text()) / 1e9
        for line in (self.path / "cpu.stat").read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == "usage_usec":
                return int(value) / 1e6
        raise OSError("no usage_usec in cpu.stat")

    def settle(self, wait: float = 5.0) -> None:
        """Wait (at most `wait` s) until no process is left in the group."""
        end = time.monotonic() + wait
        while time.monotonic() < end and (self.path / "cgroup.procs").read_text().strip():
            time.sleep(0.02)

    def close(self, wait: float = 5.0) -> None:
        """Remove the group once what the command left has ended (its figure is read before)."""
        end = time.monotonic() + wait
        while time.monotonic() < end:
            try:
                self.path.rmdir()
                return
            except OSError:
                time.sleep(0.05)


@contextlib.contextmanager
def counting_here():
    """This process, and what it starts from now on, counted in a cgroup of its own while the block runs: yields
    a function that says the CPU seconds counted so far (None where no cgroup can be made)."""
    group = _Group()
    home = _home(group.kind) if group.path is not None else None
    if home is None:
        yield None
        return
    group.join()
    try:
        yield group.seconds
    finally:
        (home / "cgroup.procs").write_text(str(os.getpid()))
        group.close()


def _home(kind: str) -> Path | None:
    """The cgroup this process is in, in the hierarchy of `kind` ('v1': cpuacct's, 'v2')."""
    mount = _mounts().get(kind)
    try:
        lines = Path("/proc/self/cgroup").read_text().splitlines()
    except OSError:
        return None
    for line in lines:
        _, controllers, path = line.split(":", 2)
        if (kind == "v1" and "cpuacct" in controllers.split(",")) or (kind == "v2" and controllers == ""):
            return mount / path.lstrip("/") if mount is not None else None
    return None


def run_counted(argv: list[str], **popen) -> tuple[float, float, str, subprocess.CompletedProcess]:
    """(wall seconds, CPU seconds of the whole tree, how it was counted, the finished process)."""
    group = _Group()
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    if group.path is not None:
        done = subprocess.run(argv, preexec_fn=group.join, **popen)
    else:
        done = subprocess.run(argv, **popen)
    wall = time.perf_counter() - started
    if group.path is not None:
        group.settle()  # what the command left behind (a zygote's sandbox ending) is counted too
        try:
            return wall, group.seconds(), f"every process of the run (a cgroup, {group.kind})", done
        except (OSError, ValueError):
            pass
        finally:
            group.close()
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    return wall, cpu, "the processes their parents waited for (getrusage: a lower bound; no cgroup here)", done
