"""Where the child's time goes over one submission's cases: cProfile of autograder/child/main.py, unsandboxed.

    .venv/bin/python benchmarks/profile_child.py [PATH] [--top N] [--repeat N]

The child is fed the job lines a grade sends it (the header, then every public and hidden case with
a nonce) from a file, and writes its results to another; os._exit is caught so that the profile is
kept. Prints: CPU time of the child per run (user+sys, medians of --repeat, the import of the
student's modules apart), the share of the case programs (child/programs/*.py), of the JSON lines
both ways (observe.loads / dumps_own), of observe.to_json, of run_case's own capture and
bookkeeping, and the --top functions by own time.
"""
from __future__ import annotations

import argparse
import json
import os
import pstats
import secrets
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))

from autograder.config import load_rubric  # noqa: E402
from autograder.grading import limits_for, select_cases  # noqa: E402
from autograder.runner.levels.basic import interpreter  # noqa: E402
from autograder.runner.packages import package_paths  # noqa: E402
from autograder.submission.load import prepare  # noqa: E402

CHILD = KIT / "autograder" / "child"
# run in the child's interpreter: main.py with os._exit caught, under cProfile unless PROFILE is ""
HARNESS = r"""
import cProfile, os, resource, sys, time
sys.path.insert(0, {child!r})
import main
class Exit(BaseException): pass
def _exit(code): raise Exit(code)
main.os._exit = _exit
profile = cProfile.Profile() if {profile!r} else None
started = time.process_time()
try:
    if profile: profile.enable()
    main.main(sys.argv[1:])
except Exit:
    pass
finally:
    if profile:
        profile.disable()
        profile.dump_stats({profile!r})
    usage = resource.getrusage(resource.RUSAGE_SELF)
    print(usage.ru_utime + usage.ru_stime, time.process_time() - started, file=sys.stderr)
"""


def job_lines(path: Path, tmp: Path) -> tuple[bytes, int]:
    """What a grade sends the child for `path`: the header and every case line; and the case count."""
    rubric = load_rubric(KIT / "assignment.toml")
    cases = select_cases(rubric, include_hidden=True)
    prepared = prepare(path, tmp / "submission")
    limits = limits_for(rubric)
    allowed = [name for name in rubric.allowed_imports if name not in rubric.forbidden_imports]
    header = {"student_root": str(prepared.root), "nonce": secrets.token_hex(16),
              "cases": [{"id": c.id, "program": c.program} for c in cases],
              "forbidden": list(rubric.forbidden_imports), "allowed": allowed, "site": None,
              "output_cap": limits.output_cap, "max_result_line": limits.max_result_line,
              "import_seconds": limits.import_timeout, "files": prepared.files}
    packages = package_paths(tuple(allowed))
    if packages:
        header["site"] = str(Path(packages[0]).parent)
    lines = [json.dumps(header)] + [json.dumps({"case": c.to_job(), "nonce": secrets.token_hex(16)})
                                    for c in cases]
    return ("\n".join(lines) + "\n").encode(), len(cases)


def run_child(jobs: Path, results: Path, profile: str) -> float:
    """CPU seconds (user+sys) of one child run over `jobs`."""
    code = HARNESS.format(child=str(CHILD), profile=profile)
    with open(jobs, "rb") as job, open(results, "wb") as out:
        done = subprocess.run(
            [interpreter(), "-I", "-S", "-c", code, "--job-fd", str(job.fileno()), "--result-fd", str(out.fileno())],
            pass_fds=(job.fileno(), out.fileno()), capture_output=True, text=True, check=True)
    return float(done.stderr.split()[-2])


def shares(stats: pstats.Stats) -> dict[str, float]:
    """Cumulative seconds of the parts named in the docstring (they can overlap: callers and callees)."""
    parts = {"case programs (programs/*.py, cumulative)": 0.0, "observe.to_json": 0.0,
             "observe.dumps_own (result lines)": 0.0, "observe.loads (job lines)": 0.0,
             "run_case (all of a case)": 0.0, "import of the student's modules": 0.0}
    for (file, _, name), (_, _, _, cumulative, _) in stats.stats.items():
        if file.endswith("observe.py") and name in ("to_json", "dumps_own", "loads"):
            key = {"to_json": "observe.to_json", "dumps_own": "observe.dumps_own (result lines)",
                   "loads": "observe.loads (job lines)"}[name]
            parts[key] = max(parts[key], cumulative)
        if file.endswith("main.py") and name == "run_case":
            parts["run_case (all of a case)"] = cumulative
        if file.endswith("student.py") and name == "import_all":
            parts["import of the student's modules"] = cumulative
    programs = 0.0
    for (file, _, name), (_, _, _, cumulative, callers) in stats.stats.items():
        if "/programs/" in file and any(c[0].endswith("main.py") and c[2] == "run_case" for c in callers):
            programs += cumulative
    parts["case programs (programs/*.py, cumulative)"] = programs
    return parts


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("path", nargs="?", type=Path, default=KIT / "solutions")
    parser.add_argument("--top", type=int, default=15)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as name:
        tmp = Path(name)
        data, count = job_lines(args.path, tmp)
        jobs, header_only, results = tmp / "jobs", tmp / "header", tmp / "results"
        jobs.write_bytes(data)
        header_only.write_bytes(data.split(b"\n", 1)[0] + b"\n")
        whole = statistics.median(run_child(jobs, results, "") for _ in range(args.repeat))
        start = statistics.median(run_child(header_only, results, "") for _ in range(args.repeat))
        print(f"the child over {args.path.name}, CPU time (user+sys), medians of {args.repeat}, unsandboxed:")
        print(f"  {'start, the child own imports, the student import':52} {start * 1000:8.1f} ms")
        print(f"  {f'{count} cases':52} {(whole - start) * 1000:8.1f} ms  "
              f"({(whole - start) / count * 1000:.3f} ms a case)")
        run_child(jobs, results, str(tmp / "prof"))
        stats = pstats.Stats(str(tmp / "prof"))
        print(f"under cProfile ({stats.total_tt * 1000:.1f} ms profiled; cProfile slows calls down):")
        for part, seconds in shares(stats).items():
            print(f"  {part:52} {seconds * 1000:8.1f} ms")
        print(f"the top {args.top} by own time:")
        stats.sort_stats("tottime").print_stats(args.top)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
