"""What a stub says when it says nothing: the message of a bare `raise NotImplementedError()`.

nbgrader's release puts its own stub, `# YOUR CODE HERE` and a bare `raise NotImplementedError()`
(ClearSolutions.code_stub), in place of each solution block, so the kit's own message is lost; the
kit's nbgrader edition writes that message as a comment right above the block
(`# mul: add each input's local derivative ...`, notebooks/solution_cells.for_nbgrader). Read back
from the student's file, the comment lines just above the raise give it again.

Standard library only: this runs in the sandboxed child.
"""
import re

TASK_LINE = re.compile(r"\s*#\s*([a-z][a-z_]*: \S.*?)\s*$")
LINES_UP = 5  # the comments right above the raise, nbgrader's "# YOUR CODE HERE" among them


def message(exc, student_file):
    """The task's line from the comments above where exc was raised in a student's file, or ""."""
    where = None
    tb = BaseException.__traceback__.__get__(exc)  # the real one: a student's class can't fake it
    while tb is not None:
        path = tb.tb_frame.f_code.co_filename
        if student_file(path):
            where = (path, tb.tb_lineno)
        tb = tb.tb_next
    if where is None:
        return ""
    try:
        with open(where[0], encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return ""
    for line in reversed(lines[max(0, where[1] - 1 - LINES_UP):where[1] - 1]):
        if not line.strip().startswith("#"):
            break
        found = TASK_LINE.match(line)
        if found:
            return found.group(1)
    return ""
