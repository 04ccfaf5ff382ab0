import gc
import sys

CHECK = sys.argv[1:2] == ["check"]
if CHECK:  # a check is short and ends without teardown: what it allocates (mostly modules, kept to the end) is
    gc.disable()  # never worth a collection meanwhile (about 5 ms of its ~140 ms of CPU)

from autograder.cli import main  # noqa: E402

code = main()
if CHECK:  # a check's files are closed: it ends without the interpreter's teardown
    from autograder.cli.leave import leave

    leave(code)
raise SystemExit(code)
