"""Does following the README's commands in the kit's folder leave nothing untracked in the kit's git?

Every folder or file the README's exports, handouts and grade runs write (and the course files beside them:
a roster, PLATFORM.toml, the tool's key) is ignored by the kit's .gitignore, or outside the kit's tree."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
WRITES = re.compile(r"autograder (?:export \w+|handout|grade \S+(?: \S+)*? --out|merge \S+(?: \S+)*? --out) "
                    r"(?P<dest>[^\s`]+)|--out (?P<out>[^\s`]+)")
COURSE_FILES = ("roster.csv", "platform.toml", "tool-private.pem", "hw1-otter/ada_7/kit_secret/goldens.json",
                "my-course/kit_secret/hw1/assignment.toml", "grades/hw1/lti-sent.json")


def destinations() -> list[str]:
    found = set()
    for line in (ROOT / "README.md").read_text(encoding="utf-8").splitlines():
        for m in WRITES.finditer(line):
            dest = (m["dest"] or m["out"]).rstrip("/").replace("$I", "1")
            if not dest.startswith(("..", "~", "/", "DIR", "OUT", "-", "<")) and dest not in ("X",):
                found.add(dest)
    return sorted(found)


@pytest.mark.skipif(shutil.which("git") is None or not (ROOT / ".git").exists(), reason="not a git checkout")
def test_is_every_course_file_the_readme_writes_ignored_by_the_kits_git():
    paths = [f"{d}/x" if not d.endswith(".zip") else d for d in destinations()] + list(COURSE_FILES)
    assert len(paths) >= 10, paths   # the README's grade, export and handout commands were found
    answer = subprocess.run(["git", "check-ignore", "--no-index", "--stdin"], cwd=ROOT, input="\n".join(paths),
                            capture_output=True, text=True)
    ignored = set(answer.stdout.split())
    assert [p for p in paths if p not in ignored] == []
