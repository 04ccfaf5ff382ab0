"""Which of the copied files is each module of the API (engine, nn, train), and the map the child reads.

A module is its file by name (`nn.py`), or a file an OS or an LMS renamed ("nn (1).py", renamed
back), or the file whose text holds its pieces (engine_finder.Profile: the engine's class, MLP,
mse_loss), kept under its own name: a student's `from autograd import Value` then reaches the
very module the kit grades as engine. Those are written to MODULE_MAP beside the package, one
"module file" line each ("engine autograd"), for child/student.py.
"""
from __future__ import annotations

from pathlib import Path

from autograder.submission.engine_finder import Profile
from autograder.submission.tree import module_of

MODULES = ("engine", "nn", "train")
MODULE_MAP = "modules.txt"  # beside micrograd/: read by child/student.py
PIECES = {"engine": "the engine's class", "nn": "MLP", "train": "mse_loss"}


def holds(profile: Profile, module: str) -> bool:
    return {"engine": profile.engine, "nn": profile.nn, "train": profile.train}[module]


def holder(module: str, profiles: dict[str, Profile], engine: str | None) -> str | None:
    """The dotted name of the copied file that holds module's pieces: the engine's own file first (one
    file holding everything), else the shallowest; "" if only the package's own __init__.py does (the child
    runs it last, as the package, and finds the pieces there); None if none does."""
    if engine and importable(engine) and holds(profiles[engine], module):
        return importable(engine)
    found = sorted((not importable(name), name.count("."), name) for name, p in profiles.items() if holds(p, module))
    return importable(found[0][2]) if found else None


def importable(name: str) -> str:
    """The module a file is imported as: "ops" for ops/__init__.py; "" for the package's own __init__.py."""
    return name.removesuffix("__init__").removesuffix(".")


def module_map(files: dict[str, str], package: Path, prefix: str, problems: list[str],
               profiles: dict[str, Profile], engine: str | None = None) -> dict[str, str]:
    """{API module: the dotted name of the file that is it}, for those not in a file of their name; renames
    "engine (1).py" to engine.py; says in problems what was used for what, and what is missing."""
    found: dict[str, str] = {}
    if engine is not None and importable(engine) != "engine":
        found["engine"] = importable(engine) or "__init__"  # the package's own: the child runs it first
    for module in MODULES:
        if module in files or module in found:
            continue
        renamed = sorted(m for m in files if "." not in m and module_of(m + ".py") == module)
        if renamed:
            (package / f"{renamed[0]}.py").rename(package / f"{module}.py")
            files[module] = files.pop(renamed[0])
            problems.append(f"used {files[module]} as {prefix}{module}.py")
            continue
        name = holder(module, profiles, engine if engine in profiles else None)
        if not name:
            if name is None:
                problems.append(f"no {prefix}{module}.py found")
            continue
        found[module] = name
        if name != found.get("engine"):
            shown = files.get(name) or files[name + ".__init__"]
            problems.append(f"used {shown} as {module}.py (it holds {PIECES[module]})")
    return found


def write_map(root: Path, found: dict[str, str]) -> None:
    if found:
        (root / MODULE_MAP).write_text("".join(f"{m} {name}\n" for m, name in found.items()), encoding="utf-8")
