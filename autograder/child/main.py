"""The sandboxed child: import the student's package, run the cases, send observations.

    python -I -S autograder/child/main.py --job-fd N --result-fd M [--programs DIR]

Standard library only, and nothing of the kit but this folder: `-I` leaves the
script's folder off sys.path, so it is put there by hand (for `student`, `observe`
and `programs`). The job, read from the job fd:

    {"student_root": "...", "cases": [{"id", "program", "params"}], "forbidden": ["torch", ...],
     "output_cap": 4000, "max_result_line": 1000000, "files": {"engine": "micrograd/engine.py"}}

The result fd gets one JSON line about the imports, then one per case, in order
(see autograder/runner/protocol.py). --programs loads the case programs from
another folder (the kit's tests use a small fake set).
"""
import importlib
import importlib.util
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import observe  # noqa: E402
import student  # noqa: E402

RECURSION_LIMIT = 10_000  # the parent gives the process a stack deep enough for it
RESULT_PIPE_LOST = 86     # exit status: protocol.RESULT_PIPE_LOST


class ResultPipe:
    """The result fd, moved to a high number so that a student's files don't land on it."""

    def __init__(self, fd, max_line):
        self.fd = os.dup2(fd, 63, inheritable=False)  # the highest the parent's limit of 64 files allows
        os.close(fd)
        self.max_line = max_line

    def send(self, line):
        data = json.dumps(line, allow_nan=True)
        if len(data) > self.max_line and "case" in line:
            data = json.dumps({
                "case": line["case"], "status": "error", "where": "",
                "message": f"the observations of this case are too large to send ({len(data)} bytes)",
            })
        # a leading newline: bytes a student wrote here without one can't spoil this line
        data = ("\n" + data + "\n").encode()  # ASCII: json.dumps escapes the rest
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError:  # the student's code closed or replaced it: nothing more can be said
            os._exit(RESULT_PIPE_LOST)


def read_job(fd):
    chunks = []
    while True:
        chunk = os.read(fd, 1 << 16)
        if not chunk:
            break
        chunks.append(chunk)
    os.close(fd)
    return json.loads(b"".join(chunks))


def load_programs(folder, names):
    """{module name: the module of case programs, or why it did not load}."""
    if folder:
        spec = importlib.util.spec_from_file_location(
            "programs", os.path.join(folder, "__init__.py"), submodule_search_locations=[folder])
        package = importlib.util.module_from_spec(spec)
        sys.modules["programs"] = package
        spec.loader.exec_module(package)
    programs = {}
    for name in names:
        try:
            programs[name] = importlib.import_module("programs." + name)
        except Exception as exc:
            programs[name] = student.describe(exc)
    return programs


def find_program(name, programs):
    module, _, function = name.rpartition(".")
    found = programs.get(module, "no such module")
    program = None if isinstance(found, str) else getattr(found, function, None)
    if program is None:
        why = found if isinstance(found, str) else "no such function"
        raise LookupError(f"the grader's program {name} could not be loaded: {why}")
    return program


class Captured:
    """sys.stdout and sys.stderr go to one capped buffer while it is active."""

    def __init__(self, cap):
        self.buffer = observe.CappedText(cap)

    def __enter__(self):
        self.saved = sys.stdout, sys.stderr
        sys.stdout = sys.stderr = self.buffer
        return self.buffer

    def __exit__(self, *exc):
        sys.stdout, sys.stderr = self.saved
        return False


def run_case(case, programs, api, pupil, cap):
    """One case as a result line: its observations, or why there are none."""
    line = {"case": case["id"]}
    with Captured(cap) as output:
        sys.setrecursionlimit(RECURSION_LIMIT)
        try:
            obs = find_program(case["program"], programs)(api, case["params"])
            line.update(status="ok", obs={str(k): observe.to_json(v) for k, v in obs.items()})
        except NotImplementedError as exc:
            line.update(status="missing", message=_text(exc))
        except student.MissingPiece as exc:
            line.update(status="error", message=_text(exc), where="")
        except BaseException as exc:  # noqa: B036 - SystemExit, KeyboardInterrupt, MemoryError: the student's
            line.update(status="error", message=student.describe(exc), where=pupil.where(exc))
    if "message" in line:
        line["message"] = pupil.scrub(line["message"])
    line["output"] = output.getvalue()
    return line


def _text(exc):
    try:
        return str(exc)[:500]
    except BaseException:  # noqa: B036
        return type(exc).__name__


def options(argv):
    opts = dict(zip(argv[::2], argv[1::2]))
    return int(opts["--job-fd"]), int(opts["--result-fd"]), opts.get("--programs")


def main(argv):
    job_fd, result_fd, programs_dir = options(argv)
    job = read_job(job_fd)
    out = ResultPipe(result_fd, job.get("max_result_line", 1_000_000))
    cap = job.get("output_cap", 4000)
    programs = load_programs(programs_dir, sorted({c["program"].rpartition(".")[0] for c in job["cases"]}))

    sys.setrecursionlimit(RECURSION_LIMIT)
    sys.meta_path.insert(0, student.Forbidden(job.get("forbidden", ())))
    pupil = student.Student(job["student_root"], job.get("files"))
    sys.meta_path.insert(1, pupil.hooks)
    sys.meta_path.append(student.DisplayStandIn())
    with Captured(cap):  # prints at import time are dropped
        pupil.import_all()
    out.send({"import": pupil.errors, "missing_files": pupil.missing})

    api = pupil.api()
    for case in job["cases"]:
        out.send(run_case(case, programs, api, pupil, cap))
    os._exit(0)  # no student atexit hooks or __del__ after the last case


if __name__ == "__main__":
    main(sys.argv[1:])
