import sys

from autograder.cli import main

code = main()
if sys.argv[1:2] == ["check"]:  # a check's files are closed: it ends without the interpreter's teardown
    from autograder.cli.leave import leave

    leave(code)
raise SystemExit(code)
