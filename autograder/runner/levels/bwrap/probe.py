"""Does the "bubblewrap" level work here? A real run of the child's Python with a child's options.

Run by root: with the child's own uid if it can be had (userns.py; the test run's uid
outside must be 65534), else in bwrap's own user namespace (uid 0 outside; the level's
note says why). Made once per process and interpreter; one that passed is remembered between
processes, keyed by all that decides its answer (probe_cache.py).
"""
from __future__ import annotations

import functools
import os
import shutil
import subprocess
from pathlib import Path

from autograder.runner.levels.bwrap import probe_cache
from autograder.runner.levels.bwrap.level import CHILD_DIR, SUBMISSION, BubblewrapLevel
from autograder.runner.levels.basic import NOBODY, PROBE_CODE, PROBE_TIMEOUT, empty_folder, last_line
from autograder.runner.limits import Limits
from autograder.runner.sandbox import CHILD_MAIN
from autograder.runner.levels.bwrap.userns import OWN_FEATURES, host_uid, own_userns


# the child's imports and files, then its uid inside and the map to the uids outside
PROBE = PROBE_CODE + f"; os.listdir({SUBMISSION!r}); print(open('/proc/self/uid_map').read())"


def _features(bwrap: str) -> frozenset[str]:
    """The options of ours this bwrap knows (older ones lack some)."""
    try:
        text = subprocess.run([bwrap, "--help"], capture_output=True, timeout=PROBE_TIMEOUT).stdout.decode()
    except (OSError, subprocess.SubprocessError):
        return frozenset()
    known = ("--disable-userns", "--size", "--assert-userns-disabled") + OWN_FEATURES
    return frozenset(opt for opt in known if opt in text)


@functools.lru_cache(maxsize=None)
def probe(python: str) -> tuple[BubblewrapLevel | None, str]:
    """(the level, "") when bwrap runs the child's Python with the very options of a child.

    Run by root: with the child's own uid if it can be had (the test run's uid outside must be
    65534), else in bwrap's user namespace (uid 0 outside; the level's note says why).
    """
    bwrap = shutil.which("bwrap")
    if bwrap is None:
        return None, "no bwrap on PATH"
    known = probe_cache.recall(bwrap, python)
    if known is not None:  # passed before, with all that decides it unchanged (probe_cache.py)
        level = _recalled(bwrap, python, known)
        if level is not None:
            return level, ""
    level, why = _probe(bwrap, python)
    if level is not None:
        probe_cache.remember(bwrap, python, level.features, level.userns is not None, level.why)
    return level, why


def _recalled(bwrap: str, python: str, known: dict) -> BubblewrapLevel | None:
    """The level a passed probe found, without its test run; None when its own user namespace can't be had now."""
    features = frozenset(known["features"])
    if not known["userns"]:
        if os.geteuid() == 0:  # root without its own uid: what was missing may be there now (setpriv)
            return None
        level = BubblewrapLevel(bwrap, python, features)
        level.why = known["why"]
        return level
    userns, _ = own_userns()
    return BubblewrapLevel(bwrap, python, features, userns) if userns is not None else None


def _probe(bwrap: str, python: str) -> tuple[BubblewrapLevel | None, str]:
    features = _features(bwrap)
    why_not_own = ""
    if os.geteuid() == 0:
        missing = [opt for opt in OWN_FEATURES if opt not in features]
        userns, why_not_own = own_userns() if not missing else (None, f"bwrap lacks {', '.join(missing)}")
        if userns is not None:
            level, why_not_own = _test_run(BubblewrapLevel(bwrap, python, features, userns), python)
            if level is not None:
                return level, ""
    level, why = _test_run(BubblewrapLevel(bwrap, python, features), python)
    if level is not None:
        level.why = why_not_own
    return level, why


def _test_run(level: BubblewrapLevel, python: str) -> tuple[BubblewrapLevel | None, str]:
    limits = Limits()
    with empty_folder() as submission:
        if level.userns is not None:
            os.chmod(submission, 0o755)  # as launch's copy
        argv, fds = level.command(submission, None, [
            python, "-I", "-S", "-c", PROBE, f"{CHILD_DIR}/{Path(CHILD_MAIN).name}"])
        try:
            done = subprocess.run(argv, cwd="/", env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                                  capture_output=True, timeout=PROBE_TIMEOUT, start_new_session=True,
                                  pass_fds=tuple(fds) + level.own_fds(),
                                  preexec_fn=level.preexec(limits, limits.cpu_seconds(1)))
        except (OSError, subprocess.SubprocessError) as err:
            return None, f"bwrap did not run: {err}"
        finally:
            for fd in fds:
                os.close(fd)
    words = done.stdout.split()
    if done.returncode != 0 or len(words) < 2 or words[0] != b"ok":
        return None, f"bwrap's test run failed: {last_line(done.stderr)}"
    try:
        uid, outside = int(words[1]), host_uid(int(words[1]), words[2:])
    except ValueError:
        return None, f"bwrap's test run said {done.stdout[:100]!r}"
    if os.geteuid() == 0 and uid != NOBODY:
        return None, f"bwrap's test run ran as uid {uid}, not {NOBODY}"
    if level.userns is not None and outside != NOBODY:
        return None, f"bwrap's test run ran as uid {outside} outside the sandbox, not {NOBODY}"
    return level, ""
