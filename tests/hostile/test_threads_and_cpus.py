"""Can a submission's threads hide a loop from the endless-loop watcher, or leave the CPU its grading
thread holds it on, at the bubblewrap level (the zygote and a bwrap per child), the uid level and the basic
level? (issue 28)"""
from __future__ import annotations

import os
import sys
import time
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(REPO / "tests" / "runner"))

from test_session import add_case, make_student, poke, run  # noqa: E402

from autograder.runner import Limits  # noqa: E402
from autograder.runner import levels  # noqa: E402

SLOW = Limits(case_timeout=3.0, import_timeout=5.0)
LEVELS = {"bubblewrap": {"AUTOGRADER_SANDBOX": "bubblewrap"},
          "bubblewrap-no-zygote": {"AUTOGRADER_SANDBOX": "bubblewrap", "AUTOGRADER_ZYGOTE": "0"},
          "uid": {"AUTOGRADER_SANDBOX": "uid"},
          "basic": {"AUTOGRADER_SANDBOX": "basic"}}  # its only filter, keyrings', refuses the move too

CHAIN = """
import threading as _th
import time as _t

def _spin(left):
    end = _t.thread_time() + 0.001  # 1 ms of CPU, then the next thread takes over
    while _t.thread_time() < end:
        pass
    if left:
        _th.Thread(target=_spin, args=(left - 1,)).start()

def _chain(self):
    try:
        _th.stack_size(1 << 20)  # small stacks: the default is RLIMIT_STACK's 256 MB where the child set it
        _th.Thread(target=_spin, args=(10**9,)).start()
    except RuntimeError as e:  # no thread can be started here
        return "refused: " + str(e)
    _th.Event().wait()  # the main thread only waits: the loop is in threads that end every millisecond
Value.chain = _chain
"""

MOVE = """
import os as _os
import threading as _th

def _move(self):
    mine = _os.sched_getaffinity(0)
    others = set(range(_os.cpu_count() or 1)) - mine or mine
    said = []
    def _try():
        try:
            _os.sched_setaffinity(0, others)
            said.append("moved to %s" % sorted(_os.sched_getaffinity(0)))
        except OSError as e:
            said.append("refused: " + e.strerror)
    try:
        worker = _th.Thread(target=_try)
        worker.start()
        worker.join()
    except RuntimeError:
        said.append("refused: no thread")
    _try()  # the main thread too
    return " / ".join(said)
Value.move = _move
"""


@pytest.fixture(params=sorted(LEVELS))
def level(request, monkeypatch):
    for name, value in LEVELS[request.param].items():
        monkeypatch.setenv(name, value)
    try:
        levels.current()
    except Exception as e:  # noqa: BLE001 - this machine lacks the level: its reason
        pytest.skip(f"{request.param} level unusable here: {e}")
    return request.param


def test_is_a_loop_done_by_a_chain_of_short_lived_threads_stopped_like_any_other_loop(tmp_path, level):
    root = make_student(tmp_path, CHAIN + """
def _loop(self):
    while True:
        pass
Value.loop = _loop
""")
    from autograder.runner import confirm

    started = time.monotonic()
    confirm.set_mode(confirm.DEFER)  # the watch's guess, as a batch worker returns it (confirmed elsewhere)
    try:
        result = run(root, [add_case("add/one"), add_case("add/two"), poke("mul/chain", "chain", task="mul"),
                            poke("relu/loop", "loop", task="relu"), add_case("exp/after", task="exp")], limits=SLOW)
    finally:
        confirm.set_mode(confirm.IN_PLACE)
    took = time.monotonic() - started
    chain, loop = result.outcomes["mul/chain"], result.outcomes["relu/loop"]
    assert loop.status == "timeout" and loop.message.startswith("stopped while still computing")
    if chain.status == "ok":  # where no thread can start (RLIMIT_NPROC at the uid level), no loop runs either
        assert chain.obs["result"].repr.strip("'\"").startswith("refused: ")
    else:
        assert chain.status == "timeout" and chain.message.startswith("stopped while still computing"), chain.message
    assert result.outcomes["exp/after"].status == "ok"
    assert took < 2 * SLOW.case_timeout  # neither ran its whole 3 s


def test_is_a_thread_moving_itself_onto_another_cpu_refused(tmp_path, level):
    if len(os.sched_getaffinity(0)) < 2:
        pytest.skip("one CPU: nowhere to move to")
    root = make_student(tmp_path, MOVE)
    result = run(root, [add_case("add/one"), poke("add/move", "move")], limits=SLOW)
    said = result.outcomes["add/move"].obs["result"].repr.strip("'\"")
    assert "moved" not in said and said.startswith("refused: "), said
