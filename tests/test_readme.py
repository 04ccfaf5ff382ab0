"""Do the README's commands leave the kit's own git tree as it was?"""
from __future__ import annotations

import re
from pathlib import Path

from autograder.paths import KIT_ROOT


def test_does_the_handout_example_write_outside_the_kits_tree():
    """`autograder handout DIR` as the README gives it, run from the kit's root, writes DIR beside the kit."""
    readme = (KIT_ROOT / "README.md").read_text(encoding="utf-8")
    outs = re.findall(r"autograder handout (\S+)", readme)
    assert outs, "the README shows no `autograder handout` command"
    for out in outs:
        target = (KIT_ROOT / out).resolve()
        assert KIT_ROOT not in target.parents, f"`autograder handout {out}` writes into the kit's tree"
