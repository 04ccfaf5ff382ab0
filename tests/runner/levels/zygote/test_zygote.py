"""Does a child forked by the zygote keep today's isolation, submission after submission?

Two submissions graded one after the other by the same grading process (so by the same zygote):
the first leaves a file in /tmp and /dev/shm, tries to leave a process behind, changes modules of
the child and of the standard library; the second looks for all of it, and into its namespace's
pid 1 (which forked it from the zygote), and prints what it finds.
Real bwrap, real namespaces: skipped where the bubblewrap level has no zygote (not root, no setpriv).
"""
from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest

from autograder.runner import run_cases
from forked import KIT, LIMITS, student, zygote_level

pytestmark = pytest.mark.usefixtures("bubblewrap")

LEAVE = """
import os, sys, time
observe = sys.modules['_autograder_child.observe']  # the child's own module, preloaded by the zygote
open('/tmp/left-behind', 'w').write('x')
open('/dev/shm/left-behind', 'w').write('x') if os.path.isdir('/dev/shm') else None
os.MARK = 'changed'
observe.MARK = 'changed'
sys.modules['json'] = 'changed'
try:
    if os.fork() == 0:
        time.sleep(60)
        os._exit(0)
    print('forked')
except OSError as err:
    print('fork refused:', err.strerror)
"""

LOOK = """
import os, sys
observe = sys.modules['_autograder_child.observe']
seen = []
for path in ('/tmp/left-behind', '/dev/shm/left-behind'):
    if os.path.exists(path):
        seen.append(path)
if hasattr(os, 'MARK') or hasattr(observe, 'MARK') or sys.modules.get('json') == 'changed':
    seen.append('a changed module')
try:
    open('/proc/sys/kernel/hostname', 'w').write('x')
    seen.append('/proc/sys writable')
except OSError:
    pass
others = [p for p in os.listdir('/proc') if p.isdigit() and int(p) not in (1, os.getpid())]
seen += ['process ' + open(f'/proc/{p}/cmdline').read().replace(chr(0), ' ') for p in others]
for secret in ('/proc/1/fd', '/proc/1/mem', '/proc/1/environ'):  # pid 1 holds the zygote's socket: not readable
    try:
        os.listdir(secret) if secret.endswith('fd') else open(secret, 'rb').read(1)
        seen.append(secret)
    except OSError:
        pass
seen.append('uid %d' % os.getuid())
print('seen:', seen, 'pid', os.getpid(), 'files', sorted(os.listdir('/submission')))
"""


def test_a_submission_sees_nothing_the_one_before_it_left(tmp_path):
    """Does the second submission a zygote forks find no file, process or module change of the first?"""
    level = zygote_level()
    first = run_cases(student(tmp_path, "first", LEAVE), [], limits=LIMITS)
    assert "fork refused: Operation not permitted" in first.imports.output
    count = sum(z.count for z in level.zygotes.values())
    second = run_cases(student(tmp_path, "second", LOOK), [], limits=LIMITS)
    assert sum(z.count for z in level.zygotes.values()) == count + 1, "not forked by the zygote"
    assert "seen: ['uid 65534'] pid 2 files ['micrograd']" in second.imports.output, second.imports.output


def test_each_submission_draws_its_own_random_numbers(tmp_path):
    """random, imported once by the zygote, is seeded afresh in every fork, as a fresh import would be: two
    submissions forked one after the other don't draw the same numbers."""
    zygote_level()
    code = "import random\nprint('drew', random.random(), random.getrandbits(64))\n"
    first, second = (run_cases(student(tmp_path, name, code), [], limits=LIMITS) for name in ("one", "two"))
    assert first.imports.output.startswith("drew ") and second.imports.output.startswith("drew ")
    assert first.imports.output != second.imports.output


TOUCH = """
import os
tried = []
here = os.path.join(os.path.dirname(os.path.abspath(__file__)), 'nn.py')
for what, act in (('write', lambda: open(here, 'a').write('# changed')), ('chmod', lambda: os.chmod(here, 0o666)),
                  ('utime', lambda: os.utime(here, (0, 0))), ('link', lambda: os.link(here, '/tmp/nn-link')),
                  ('rename', lambda: os.rename(here, here + '.moved')), ('unlink', lambda: os.unlink(here))):
    try:
        act()
        tried.append(what + ' done')
    except OSError:
        tried.append(what + ' refused')
print(tried)
"""


def test_a_submission_cant_change_its_staged_files_nor_the_graders(tmp_path):
    """The staged files (hard links to the grader's where they can be) can't be written, chmod'ed, linked
    elsewhere, renamed or removed from the child; the grader's own files stay as they were."""
    zygote_level()
    root = student(tmp_path, "toucher", TOUCH)
    nn = root / "micrograd" / "nn.py"
    before = (nn.read_bytes(), nn.stat().st_mode, nn.stat().st_mtime_ns)
    run = run_cases(root, [], limits=LIMITS)
    assert run.imports.output.strip() == str([f"{what} refused" for what in
                                              ("write", "chmod", "utime", "link", "rename", "unlink")])
    assert (nn.read_bytes(), nn.stat().st_mode, nn.stat().st_mtime_ns) == before


def test_is_staging_a_submission_free_of_chmods_of_the_graders_files(tmp_path, monkeypatch):
    """The staged files are hard links to the grader's own, 0644 already: staging chmods none of them (a
    system call and an inode written a file, every submission, for a mode they have)."""
    zygote_level()
    root = student(tmp_path, "still", "")
    for path in (root / "micrograd").glob("*.py"):
        path.chmod(0o644)
    chmods = []
    real = os.chmod
    monkeypatch.setattr(os, "chmod", lambda path, mode, *a, **k: chmods.append(str(path)) or real(path, mode, *a, **k))
    run = run_cases(root, [], limits=LIMITS)
    assert not run.imports.errors and not run.imports.missing_files
    assert [path for path in chmods if path.endswith(".py")] == []


def test_is_the_orphan_sweep_left_to_the_children_the_grader_starts_itself(tmp_path, monkeypatch):
    """A zygote's fork is pid 2 of a PID namespace that ends with its pid 1: nothing it starts can be
    orphaned to the grader, so the grader reads no /proc for a sweep; a child bwrap starts (no zygote) is
    still swept."""
    from autograder.runner import sandbox

    zygote_level()
    calls = []
    for name in ("own_children", "sweep_orphans"):
        real = getattr(sandbox, name)
        monkeypatch.setattr(sandbox, name, lambda *a, real=real, name=name: calls.append(name) or real(*a))
    root = student(tmp_path, "plain", "")
    assert run_cases(root, [], limits=LIMITS).sandbox == "bubblewrap"
    assert calls == []
    monkeypatch.setenv("AUTOGRADER_ZYGOTE", "0")
    assert run_cases(root, [], limits=LIMITS).sandbox == "bubblewrap"
    assert calls == ["own_children", "sweep_orphans"]


def test_a_submission_is_graded_the_same_with_and_without_the_zygote(tmp_path, monkeypatch):
    """Do the solutions get the same outcomes whether their child was forked or started by bwrap?"""
    from autograder.config import load_rubric
    from autograder.grading import select_cases

    zygote_level()
    cases = select_cases(load_rubric(KIT / "assignment.toml"), include_hidden=True)
    root = student(tmp_path, "solutions", "")
    forked = run_cases(root, cases, limits=LIMITS)
    monkeypatch.setenv("AUTOGRADER_ZYGOTE", "0")
    started = run_cases(root, cases, limits=LIMITS)
    assert forked.outcomes == started.outcomes
    assert forked.imports == started.imports and forked.sandbox == started.sandbox == "bubblewrap"


def test_ending_a_submission_ends_every_process_in_it(tmp_path):
    """Is the submission's process gone once its run ends (its pid 1 killed, the namespace with it) and the
    zygote has answered its reap (asked without waiting: Zygote.reap_later)?"""
    level = zygote_level()
    run_cases(student(tmp_path, "one", "import os\nprint('pid', os.getpid())\n"), [], limits=LIMITS)
    used = [z for key, z in level.zygotes.items() if key[1] == threading.get_ident() and key[2] is None]
    assert used
    for zygote in used:
        assert zygote.alive()
        zygote.settle()
        kids = Path(f"/proc/{zygote.proc.pid}/task/{zygote.proc.pid}/children").read_text().split()
        tree = list(kids)
        while kids:  # bwrap -> (its pid 1) -> the zygote: nothing below the zygote once a run has ended
            pid = kids.pop()
            below = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
            tree += below
            kids += below
        assert len(tree) <= 2, tree
    assert not level.live



def test_a_zygote_that_died_is_started_again(tmp_path):
    """Is a submission after the zygote's death forked by a new one (and graded)?"""
    level = zygote_level()
    run_cases(student(tmp_path, "one", ""), [], limits=LIMITS)
    used = [key for key in level.zygotes if key[2] is None]  # the kit's own case programs (not a test's)
    for key in used:
        os.killpg(level.zygotes[key].proc.pid, signal.SIGKILL)
        level.zygotes[key].proc.wait()
    dead = {key: level.zygotes[key] for key in used}
    again = run_cases(student(tmp_path, "two", "print('graded')\n"), [], limits=LIMITS)
    assert again.imports.output == "graded\n" and again.sandbox == "bubblewrap"
    assert used and all(level.zygotes[key] is not dead[key] and level.zygotes[key].alive() for key in used)


def test_where_the_zygote_cant_start_each_child_gets_its_own_bwrap(tmp_path, monkeypatch):
    """Does a zygote that can't start leave the level working the old way, saying why?"""
    from autograder.runner.levels.zygote import level as module

    level = zygote_level()

    def refuse(*args, **kwargs):
        raise OSError("no zygote here")

    monkeypatch.setattr(module, "Zygote", refuse)
    monkeypatch.setattr(level, "zygotes", {})
    run = run_cases(student(tmp_path, "one", "print('graded')\n"), [], limits=LIMITS)
    assert run.imports.output == "graded\n" and run.sandbox == "bubblewrap"
    assert level.failed == "no zygote here" and not level.live


LISTEN = """
import socket, time
_s = socket.socket(socket.AF_UNIX)
_s.bind('\\0backprop-zygote-meet')
_s.listen()
time.sleep(1.5)
print('listened')
"""

CONNECT = """
import socket, time
time.sleep(0.5)
try:
    socket.socket(socket.AF_UNIX).connect('\\0backprop-zygote-meet')
    print('met')
except OSError:
    print('alone')
"""


def test_two_submissions_graded_at_once_by_two_threads_dont_meet(tmp_path):
    """Do two threads grading at once fork from zygotes of their own (no shared network namespace: an
    abstract socket one binds is out of the other's reach)?"""
    from concurrent.futures import ThreadPoolExecutor

    level = zygote_level()
    roots = [student(tmp_path, "listen", LISTEN), student(tmp_path, "connect", CONNECT)]
    with ThreadPoolExecutor(2) as pool:
        runs = list(pool.map(lambda root: run_cases(root, [], limits=LIMITS), roots))
    assert [run.imports.output for run in runs] == ["listened\n", "alone\n"]
    assert len({key[1] for key in level.zygotes}) >= 2
