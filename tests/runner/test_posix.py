"""On Windows (no fds to pass, no rlimits, no `resource`), is a student told in one line what to do?"""
from __future__ import annotations

import subprocess
import sys

from autograder.paths import SOLUTIONS


def test_does_check_on_windows_say_to_use_wsl_in_one_line_instead_of_a_traceback(tmp_path):
    # the CLI as a student starts it; the platform is Windows from then on (the runner not yet imported)
    code = ("import sys\nfrom autograder.cli import main\nsys.platform = 'win32'\n"
            f"raise SystemExit(main(['check', {str(SOLUTIONS)!r}]))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=tmp_path)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert done.stderr.startswith("autograder: ") and "wsl --install" in done.stderr
