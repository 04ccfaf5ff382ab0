"""Where an endless-cost run's time goes (endless_cost.py): the confirmations' timeline and the machine around it.

A run is graded with AUTOGRADER_CONFIRM_TRACE set (batch/confirm_trace.trace): the grading process writes when it
asked for each confirmation and when its workers were done (every submission graded once; only confirmations
left), the confirmer when each confirmation began and ended, all on the system's monotonic clock, which this
process reads too just before the batch starts and after it ends. /proc/stat, read around the run, gives the
machine's whole CPU use and its steal (on a virtual machine, time a vCPU was runnable but the host ran
something else): the machine's busy CPU less the batch's own (its cgroup) is what others used meanwhile.
"""
from __future__ import annotations

import os
import statistics
from pathlib import Path

SHARED = 0.1  # others' CPU during a run, of the batch's own, past which its wall figures are flagged
TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def proc_stat() -> dict[str, float]:
    """The machine's CPU seconds so far, all CPUs: 'busy' (user, nice, system, irq, softirq) and 'steal'."""
    try:
        fields = Path("/proc/stat").read_text().splitlines()[0].split()
    except (OSError, IndexError):
        return {"busy": 0.0, "steal": 0.0}
    numbers = [int(x) / TICK for x in fields[1:]] + [0.0] * 8
    user, nice, system, _idle, _iowait, irq, softirq, steal = numbers[:8]
    return {"busy": user + nice + system + irq + softirq, "steal": steal}


def read_trace(path: Path) -> list[tuple[float, str, str]]:
    """(time, event, submission) of each line of a trace file, in order of time."""
    if not path.exists():
        return []
    rows = []
    for line in path.read_text(encoding="utf-8").splitlines():
        parts = line.split()
        if len(parts) >= 3:
            rows.append((float(parts[0]), parts[1], parts[2]))
    return sorted(rows)


def timeline(trace: list[tuple[float, str, str]], start: float, end: float) -> dict:
    """One run's timeline from its trace, in seconds from the batch's start: when the workers were done, the
    tail after that, and each confirmation's ask, wait and run."""
    done = next((t for t, event, _ in trace if event == "workers-done"), end)
    confirmations = []
    for name in sorted({n for _, e, n in trace if e == "asked"}):
        asked = min(t for t, e, n in trace if e == "asked" and n == name)
        began = min((t for t, e, n in trace if e == "began" and n == name), default=end)
        ended = max((t for t, e, n in trace if e == "ended" and n == name), default=end)
        confirmations.append({"name": name, "asked": asked - start, "waited": began - asked, "ran": ended - began,
                              "after_workers": max(0.0, ended - max(began, done))})
    where = [n for _, e, n in trace if e == "confirmer"]  # each confirmer process: "cpus=1;workers=0"
    waits = [0.0] * 4  # the grading process's wait and CPU, the worker trees' (the last pool's, at its end)
    for _, e, n in trace:
        if e == "waits":  # "grading=<wait>,<cpu>;workers=<wait>,<cpu>"
            waits = [float(x) for part in n.split(";") for x in part.split("=", 1)[1].split(",")]
    return {"workers_done": done - start, "tail": end - done, "confirmations": confirmations, "wall": end - start,
            "confirmers": where, "waits": waits}


def machine(before: dict, after: dict, tree_cpu: float, wall: float) -> dict:
    """The machine during a run: steal, and the CPU others used (busy less the batch's tree), in seconds."""
    return {"steal": after["steal"] - before["steal"],
            "others": max(0.0, after["busy"] - before["busy"] - tree_cpu), "wall": wall, "tree": tree_cpu}


def summary(runs: dict[str, list[dict]], machines: dict[str, list[dict]]) -> dict:
    """The medians the lines say, over the runs with and without endless submissions."""
    def med(label: str, key: str) -> float:
        values = [r[key] for r in runs[label]]
        return statistics.median(values) if values else 0.0

    confirmations = [c for r in runs["with"] for c in r["confirmations"]]
    return {"workers_done": {k: med(k, "workers_done") for k in runs},
            "tail": {k: med(k, "tail") for k in runs},
            "slowdown": med("with", "workers_done") - med("without", "workers_done"),
            "tail_extra": med("with", "tail") - med("without", "tail"),
            "waited": sorted(c["waited"] for c in confirmations),
            "ran": sorted(c["ran"] for c in confirmations),
            "after_workers": [round(sum(c["after_workers"] for c in r["confirmations"]), 2) for r in runs["with"]],
            "waits": {k: [statistics.median(r["waits"][i] for r in v) if v else 0.0 for i in range(4)]
                      for k, v in runs.items()},
            "runs_with": [(r["workers_done"], r["wall"], " ".join(r["confirmers"]) or "-") for r in runs["with"]],
            "shared": max((m["others"] / max(0.1, m["tree"]) for v in machines.values() for m in v), default=0.0),
            "steal": {k: [round(m["steal"], 2) for m in v] for k, v in machines.items()},
            "others": {k: [round(m["others"], 1) for m in v] for k, v in machines.items()}}


def lines(s: dict) -> list[str]:
    waited, ran = s["waited"] or [0.0], s["ran"] or [0.0]
    return [
        f"  where the extra wall goes (medians): the worker is done with every submission "
        f"{s['workers_done']['with']:.2f} s in with, {s['workers_done']['without']:.2f} s without: "
        f"{s['slowdown']:+.2f} s while the confirmer runs beside it; after that the batch takes "
        f"{s['tail']['with']:.2f} s with (the confirmations left, then the gradebook), "
        f"{s['tail']['without']:.2f} s without: a tail of {s['tail_extra']:+.2f} s",
        f"  confirmations (every run with): each waited {statistics.median(waited):.2f} s for the confirmer "
        f"(median; most {waited[-1]:.2f} s) and took {statistics.median(ran):.2f} s of wall (median; most "
        f"{ran[-1]:.2f} s); their wall after the worker was done, each run: "
        f"{', '.join(f'{x:.2f}' for x in s['after_workers'])} s",
        "  waiting runnable for a CPU / computing (medians, s; the kernel's run_delay): the grading process "
        f"{s['waits']['with'][0]:.2f} / {s['waits']['with'][1]:.2f} with, {s['waits']['without'][0]:.2f} / "
        f"{s['waits']['without'][1]:.2f} without; the worker (its live processes at its end) "
        f"{s['waits']['with'][2]:.2f} / {s['waits']['with'][3]:.2f} with, {s['waits']['without'][2]:.2f} / "
        f"{s['waits']['without'][3]:.2f} without",
        "  each run with: the worker done at / the batch's end (s), where its confirmers ran (the CPUs they may use; "
        "the workers' slots): " + "; ".join(f"{d:.2f}/{w:.2f} {c}" for d, w, c in s["runs_with"]),
        f"  the machine meanwhile (/proc/stat): steal, each run: with {', '.join(map(str, s['steal']['with']))} s; "
        f"without {', '.join(map(str, s['steal']['without']))} s; CPU used by others (the machine's busy CPU less "
        f"the batch's): with {', '.join(map(str, s['others']['with']))} s; without "
        f"{', '.join(map(str, s['others']['without']))} s",
        *([f"  A SHARED MACHINE: others used up to {s['shared']:.0%} of the batch's own CPU during a run; the wall "
           "figures above measure that sharing as much as the kit (the CPU figures and the timeline less so)"]
          if s["shared"] > SHARED else []),
    ]
