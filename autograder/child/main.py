"""The sandboxed child: import the student's package, run the cases, send observations.

    python -I -S autograder/child/main.py --job-fd N --result-fd M [--programs DIR]

Standard library only, and nothing of the kit but this folder. `-I` leaves the
script's folder off sys.path, and it stays off: the child's modules (student, hooks, observe,
adapt, cells, programs...) are imported as the package KIT, made by hand, so that none of
their names is taken from the student, whose own `student`, `programs` or `main` are theirs
(child/student.py's hook). A conversation (autograder/runner/protocol.py): the job fd brings
the job's header line, then one line per case, each sent once the parent has the
previous result; the result fd gets one line about the imports, then one per case,
each echoing the nonce of what it answers. The job fd's end means: no more cases.
--programs loads the case programs from another folder (the kit's tests use a small
fake set).

Start-up time counts (a child per submission, and again after a case kills one):
only cheap modules are imported here: no `json` (observe.dumps / loads), no
`importlib.util` but for --programs.
"""
import importlib
import importlib.machinery
import os
import sys

KIT = "_autograder_child"  # the child's own modules' package: a name no student's file has


def kit_package():
    """This folder as the package KIT, once (the zygote's forks find it made)."""
    if KIT not in sys.modules:
        spec = importlib.machinery.ModuleSpec(KIT, None, is_package=True)
        spec.submodule_search_locations = [os.path.dirname(os.path.abspath(__file__))]
        sys.modules[KIT] = importlib._bootstrap.module_from_spec(spec)


kit_package()
from _autograder_child import adapt, hooks, observe, places, student  # noqa: E402

PROGRAMS = KIT + ".programs"  # the case programs (another folder's with --programs)
RECURSION_LIMIT = 10_000  # the parent gives the process a stack deep enough for it
RESULT_PIPE_LOST = 86     # exit status: protocol.RESULT_PIPE_LOST
JOB_PIPE_LOST = 87        # exit status: protocol.JOB_PIPE_LOST
MAX_JOB_LINE = 16 << 20   # bytes; the parent's lines are far shorter


def _identity(fd):
    """What fd is (device, inode), or None when it is closed."""
    try:
        st = os.fstat(fd)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def _high_fd(fd, target):
    """fd moved to `target`, a number a student's files don't land on, not inherited."""
    if fd != target:
        os.dup2(fd, target, inheritable=False)
        os.close(fd)
    else:
        os.set_inheritable(fd, False)
    return target


class JobPipe:
    """The job fd, moved to 62: the parent's lines one by one, None at its end.

    A student's code can close it or replace it (the child ends with JOB_PIPE_LOST at
    the end of that case), or write on it, opening /proc/self/fd/62: a line that is not
    JSON ends the child the same way when it is read; one that is, is run as a case,
    but its result can't echo a nonce the parent awaits: those are never written ahead.
    """

    def __init__(self, fd):
        self.fd = _high_fd(fd, 62)
        self.identity = _identity(self.fd)
        self.buffer = b""

    def intact(self):
        """Is fd 62 still the parent's pipe? (Whether it holds only the parent's lines can't be told
        here: a case may have answered for itself, with its own nonce, before it ended, and the
        parent sent the next one. Bytes a student wrote there spoil at most the next line: then
        the child ends, and no line of theirs runs as a case with a nonce the parent awaits.)"""
        return self.identity is not None and _identity(self.fd) == self.identity

    def next(self):
        """The next line as a dict, or None when the parent has closed the pipe (no more cases)."""
        while b"\n" not in self.buffer:
            if len(self.buffer) > MAX_JOB_LINE:
                os._exit(JOB_PIPE_LOST)
            try:
                chunk = os.read(self.fd, 1 << 16)
            except OSError:  # closed or replaced by the student's code
                os._exit(JOB_PIPE_LOST)
            if not chunk:
                return None
            self.buffer += chunk
        line, _, self.buffer = self.buffer.partition(b"\n")
        try:
            message = observe.loads(line)
        except (ValueError, RecursionError):  # not the parent's: written there by the student's code
            os._exit(JOB_PIPE_LOST)
        if not isinstance(message, dict):
            os._exit(JOB_PIPE_LOST)
        return message


class ResultPipe:
    """The result fd, moved to a high number so that a student's files don't land on it."""

    def __init__(self, fd, max_line):
        self.fd = _high_fd(fd, 63)  # the highest the parent's limit of 64 files allows
        self.identity = _identity(self.fd)
        self.max_line = max_line

    def check(self):
        """End the process if fd 63 is no longer the parent's pipe (what is sent there would be lost)."""
        if self.identity is None or _identity(self.fd) != self.identity:
            os._exit(RESULT_PIPE_LOST)

    def send(self, line):
        data = observe.dumps_own(line)  # the kit's own dicts and lists (to_json's), the student's strings
        if len(data) > self.max_line and "case" in line:
            data = observe.dumps_own({
                "case": line["case"], "nonce": line.get("nonce"), "status": "error", "where": "",
                "message": f"the observations of this case are too large to send ({len(data)} bytes)",
            })
        # a leading newline: bytes a student wrote here without one can't spoil this line
        data = ("\n" + data + "\n").encode()  # ASCII: dumps escapes the rest
        try:
            while data:
                data = data[os.write(self.fd, data):]
        except OSError:  # the student's code closed or replaced it: nothing more can be said
            os._exit(RESULT_PIPE_LOST)


def load_programs(folder, names):
    """{module name: the module of case programs, or why it did not load}."""
    if folder:
        from importlib.util import module_from_spec, spec_from_file_location  # only here: it is slow to import

        spec = spec_from_file_location(
            PROGRAMS, os.path.join(folder, "__init__.py"), submodule_search_locations=[folder])
        package = module_from_spec(spec)
        sys.modules[PROGRAMS] = package
        spec.loader.exec_module(package)
    programs = {}
    for name in names:
        try:
            programs[name] = importlib.import_module(PROGRAMS + "." + name)
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
    output = observe.CappedText(cap)
    saved = sys.stdout, sys.stderr  # Captured's work, without its calls: this runs once a case
    sys.stdout = sys.stderr = output
    try:
        sys.setrecursionlimit(RECURSION_LIMIT)
        try:
            obs = find_program(case["program"], programs)(api, case["params"])
            line["status"] = "ok"
            line["obs"] = {str(k): observe.to_json(v) for k, v in obs.items()}
        except NotImplementedError as exc:
            line.update(status="missing", message=_text(exc) or _stub_comment(exc, pupil))
        except student.MissingPiece as exc:
            line.update(status="error", message=_text(exc), where="")
        except BaseException as exc:  # noqa: B036 - SystemExit, KeyboardInterrupt, MemoryError: the student's
            line.update(status="error", message=student.describe(exc), where=pupil.where(exc))
    finally:
        sys.stdout, sys.stderr = saved
    if "message" in line:
        line["message"] = pupil.scrub(line["message"])
    line["output"] = output.getvalue()
    return line


def _stub_comment(exc, pupil):
    """A bare stub's message from the comment above it (nbgrader's release: stubs.py); imported only then."""
    from _autograder_child import stubs

    return stubs.message(exc, pupil.file_name)


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
    if result_fd == 62:  # out of the way of the job fd's new number
        result_fd = os.dup(result_fd)
    jobs = JobPipe(job_fd)
    job = jobs.next()  # the header
    if job is None:
        os._exit(0)
    out = ResultPipe(result_fd, job.get("max_result_line", 1_000_000))
    cap = job.get("output_cap", 4000)
    programs = load_programs(programs_dir, sorted({c["program"].rpartition(".")[0] for c in job["cases"]}))

    sys.setrecursionlimit(RECURSION_LIMIT)
    if job.get("site"):  # the allowed packages (numpy), after the standard library
        sys.path.append(job["site"])
    forbidden = hooks.Forbidden(job.get("forbidden", ()))
    sys.meta_path.insert(0, forbidden)
    forbidden.unload()  # what the child (or its zygote) imported itself is not there for the student's code
    pupil = student.Student(job["student_root"], job.get("files"), job.get("import_seconds"))
    sys.meta_path.insert(1, pupil.hooks)
    sys.meta_path.append(hooks.DisplayStandIn())
    sys.meta_path.append(hooks.Unavailable(job.get("allowed", ())))
    with Captured(cap) as printed:
        pupil.import_all()
        api = pupil.api()
        fitted = adapt.adapt(api)
    out.check()
    if not jobs.intact():
        os._exit(JOB_PIPE_LOST)
    out.send({"import": pupil.errors, "missing_files": pupil.missing, "forbidden": pupil.forbidden,
              "cells": pupil.cell_errors, "cells_failed": pupil.cells_failed, "output": printed.getvalue(),
              "adapted": pupil.notes + fitted.notes, "deviations": fitted.deviations, "syntax": pupil.syntax,
              "places": places.places(api, sorted({c["id"].partition("/")[0] for c in job["cases"]}), pupil.file_name),
              "nonce": job.get("nonce")})
    while True:
        request = jobs.next()
        if request is None:  # the parent has no more cases
            break
        case, nonce = request.get("case"), request.get("nonce")
        if not isinstance(case, dict) or not isinstance(nonce, str):
            os._exit(JOB_PIPE_LOST)
        line = run_case(case, programs, api, pupil, cap)
        if fitted.deviations and line.get("status") in ("ok", "error"):
            line.setdefault("obs", {})[adapt.DEVIATION] = 1.0  # an engine off the exercise API: no mistake named
        out.check()
        if not jobs.intact():  # the case closed, replaced or wrote on it: this case's fault, not the next one's
            os._exit(JOB_PIPE_LOST)
        line["nonce"] = nonce
        out.send(line)
    os._exit(0)  # no student atexit hooks or __del__ after the last case


if __name__ == "__main__":
    main(sys.argv[1:])
