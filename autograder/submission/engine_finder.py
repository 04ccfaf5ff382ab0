"""Which of a submission's files holds the engine (and the nn and train pieces): read from the text.

A student's engine is where they put it: `micrograd/micrograd/engine.py` in a cloned repo,
`nanograd/engine.py` beside a `main.py`, `src/tinygrad2/value.py`, a single `micrograd.py`.
What makes a file the engine is what it holds, not its place: a class with `__add__`,
`__mul__` and `backward`, and `.data` and `.grad` used (a stub of the handout has them all).
As own_names.py, this reads the text and never runs or parses it: at most MAX_BYTES of each
file, line by line, each line looked at only when a cheap test in C says it may matter; a
notebook's JSON is searched as text (its source lines are in it, quoted); every pattern takes
time linear in the line. The child then imports the file chosen: its class is used as Value by
what it does (child/student.py), and the child says plainly if it holds none after all.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from autograder.submission.own_names import MAX_BYTES

_CLASS = re.compile(r"\bclass[ \t]+([A-Za-z_]\w*)")
_DEF = re.compile(r"\bdef[ \t]+(__add__|__mul__|backward|mse_loss)[ \t]*\(")
_ATTR = re.compile(r"\.(data|grad)\b")
# the top-level names a file imports (a notebook's lines are quoted in its JSON: not anchored)
_IMPORTS = re.compile(r"\b(?:from[ \t]+([A-Za-z_]\w*)(?:\.[\w.]*)?[ \t]+import\b|import[ \t]+([A-Za-z_]\w*))")
ENGINE_NEEDS = frozenset({"class", "__add__", "__mul__", "backward", "data", "grad"})
NN_CLASSES = frozenset({"MLP", "Neuron", "Layer"})


@dataclass(frozen=True)
class Profile:
    """What one file defines, as far as its text tells."""
    path: Path
    rel: Path           # below the submission's folder
    engine: bool        # a class with the operations and backward, .data and .grad used
    value: bool         # a class named Value (the exercise API's name)
    nn: bool            # class MLP, Neuron or Layer
    train: bool         # def mse_loss
    classes: bool       # defines a class at all
    imports: frozenset  # the top-level names it imports

    def rank(self) -> tuple:
        """How plausible an engine this is (lower: more): the API's name, a .py file, named engine.py,
        shallower. Two files of the same rank are equally plausible."""
        return (not self.value, self.path.suffix.lower() != ".py", self.path.stem.lower() != "engine",
                len(self.rel.parts))


def profile(path: Path, folder: Path) -> Profile:
    """The Profile of the file at path (folder: the submission's folder, for `rel`)."""
    try:
        with open(path, "rb") as f:
            text = f.read(MAX_BYTES).decode("utf-8", "replace")
    except OSError:
        text = ""
    found: set[str] = set()
    classes: set[str] = set()
    imports: set[str] = set()
    for line in text.splitlines():
        if "import" in line:
            imports.update(a or b for a, b in _IMPORTS.findall(line))
        if "class" in line:
            classes.update(_CLASS.findall(line))
        if "def" in line:
            found.update(_DEF.findall(line))
        if ".data" in line or ".grad" in line:
            found.update(_ATTR.findall(line))
    if classes:
        found.add("class")
    return Profile(path, path.relative_to(folder), ENGINE_NEEDS <= found, "Value" in classes,
                   bool(classes & NN_CLASSES), "mse_loss" in found, bool(classes), frozenset(imports))


def may_tie(one: Path, other: Path, top: Path) -> bool:
    """Could these two files be engines as plausible, as far as their paths tell (Profile.rank's parts that
    do not need the text)? Only those are read to see if one line must name both."""
    return one != other and (one.suffix == ".py") == (other.suffix == ".py") and \
        (one.stem.lower() == "engine") == (other.stem.lower() == "engine") and \
        len(one.relative_to(top).parts) == len(other.relative_to(top).parts)


def engines(profiles: list[Profile]) -> list[Profile]:
    """The files that look like an engine, the most plausible first (then by path, for a stable choice)."""
    return sorted((p for p in profiles if p.engine), key=lambda p: (p.rank(), p.rel.as_posix()))


def rivals(chosen: Profile, profiles: list[Profile]) -> list[Profile]:
    """The other engines as plausible as the one chosen."""
    return [p for p in engines(profiles) if p.path != chosen.path and p.rank() == chosen.rank()]


def ambiguity(chosen: Profile, profiles: list[Profile]) -> list[str]:
    """One line naming the engine graded and those as plausible, if there are any."""
    others = rivals(chosen, profiles)
    if not others:
        return []
    named = ", ".join(p.rel.as_posix() for p in others[:3]) + (" ..." if len(others) > 3 else "")
    return [f"{chosen.rel.as_posix()} and {named} each look like your engine: {chosen.rel.as_posix()} was graded "
            f"(hand in only the one you mean)"]


def used(engine: Profile, package: Path, top: Path, profiles: list[Profile]) -> bool:
    """May the engine found in package (below the submission's top folder) be graded, when the usual places
    hold none? Yes where the other files (outside its package; all the others, for files at the top) are
    only scripts (no class of their own), or one of them imports it (by its package's name or its own): a
    copy of someone's engine kept for reference beside the student's own half-written one is not theirs."""
    outside = [p for p in profiles if p.path != engine.path and (package == top or package not in p.path.parents)]
    names = {package.name, engine.path.stem}
    return not any(p.classes for p in outside) or any(p.imports & names for p in outside)
