"""The rubric: points, tolerances, limits, activation, hidden seed, forbidden and allowed imports.

Read from `assignment.toml` (top-level keys) or `[tool.autograder]` in a
pyproject.toml; every key is optional. The hidden seed may also come from the
environment variable AUTOGRADER_HIDDEN_SEED, which wins.
"""
from __future__ import annotations

import hashlib
import os
import sys
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Callable, Iterable, Mapping

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from autograder.errors import UserError
from autograder.tasks import ACTIVATIONS, DEFAULT_POINTS, TASK_IDS
from autograder.variants import settings as variant_settings
from autograder.variants.model import BASE, Variant

# The sha256 of the hidden seed in the kit's own assignment.toml: that seed is public (it is in the
# repository), so a course that keeps it has hidden cases any student can regenerate, and
# `autograder handout` warns. Kept as a digest so that the handout's copy of this file holds no seed.
_KIT_SEED_SHA256 = "37ba3881108bf3e48180350246c5959b9481633d0cb1d8694fb141dc74e5fe79"


def is_public_seed(seed: int | None) -> bool:
    """True when the seed is unset or the kit's own, which every student can read."""
    return seed is None or hashlib.sha256(str(seed).encode()).hexdigest() == _KIT_SEED_SHA256


def public_seed_warning(rubric: "Rubric", *, before: str) -> str | None:
    """One line for stderr when the hidden seed is unset or the kit's public one (None otherwise):
    what `handout` and `grade` say; `export` refuses (require_own_seed)."""
    if not is_public_seed(rubric.hidden_seed):
        return None
    which = "not set" if rubric.hidden_seed is None else "the kit’s public default"
    return (f"warning: the hidden seed is {which} ({rubric.source}): anyone with the kit can regenerate your "
            f"hidden cases. Set hidden_seed in assignment.toml or {HIDDEN_SEED_ENV} to a number of your own "
            f"{before}.")


def require_own_seed(rubric: "Rubric") -> None:
    """An instructor-side edition carries hidden cases: their seed must be the instructor's own."""
    if is_public_seed(rubric.hidden_seed):
        raise ConfigError("set a hidden seed of your own (hidden_seed in assignment.toml or AUTOGRADER_HIDDEN_SEED) "
                          "before exporting: the hidden cases would otherwise be anyone's to regenerate")


# key -> (lowest, highest) that can work: outside it a correct solution fails (a timeout of 0, an
# import in 10 ms) or every answer passes (a tolerance of 1e8)
RANGES: Mapping[str, tuple[float, float]] = MappingProxyType({
    "rel_tol": (0.0, 0.01),
    "abs_tol": (0.0, 0.01),
    "case_timeout": (0.5, 600.0),
    "import_timeout": (0.5, 600.0),
    "memory_mb": (256, 65536),
    "submission_budget": (0.0, 7200.0),
    "one_time_work": (0.0, 600.0),
})
HIDDEN_SEED_ENV = "AUTOGRADER_HIDDEN_SEED"
CONFIG_NAME = "assignment.toml"


class ConfigError(UserError, ValueError):
    """A rubric file that can't be used: one line saying what and where."""


# [feedback] diagnosis: how much a student is shown of a named mistake (autograder/diagnosis/repair/ladder.py):
# where (the line a repair changed), rule (the mistake's sentence), fix (and the change that made the cases pass)
DIAGNOSIS_SHOWN = ("where", "rule", "fix")


@dataclass(frozen=True)
class Rubric:
    points: Mapping[str, float] = field(default_factory=lambda: DEFAULT_POINTS)
    rel_tol: float = 1e-6
    abs_tol: float = 1e-8
    case_timeout: float = 3.0
    import_timeout: float = 5.0
    memory_mb: int = 1024
    # seconds of wall time for all of one submission's cases; 0: derived from the cases
    # (every task timing out twice, or a tenth of them running their full case_timeout)
    submission_budget: float = 0.0
    # seconds of CPU each of a submission's processes may spend on work done once (an import, a
    # self-check) before a case computing far past the others is suspected of an endless loop (runner/endless.py;
    # a guess, confirmed by grading the submission again: runner/confirm.py)
    one_time_work: float = 0.3
    activation: str = "tanh"
    hidden_seed: int | None = None
    forbidden_imports: tuple[str, ...] = ("torch", "jax", "tensorflow")
    # installed packages (top-level names) the student's code may import, beyond the standard
    # library: the only ones the sandbox shows it
    allowed_imports: tuple[str, ...] = ("numpy",)
    # [variants]: per-student variants (None: every student gets the base assignment), and the one
    # this rubric grades (autograder/variants/assign.py makes a student's rubric: points, activation)
    variants: variant_settings.VariantsConfig | None = None
    variant: Variant = BASE
    feedback: str = "fix"   # [feedback] diagnosis: what a student is shown of a named mistake (a plain string: rubric
    #                         fields travel as JSON and pickles)
    source: str = "built-in defaults"

    @property
    def max_score(self) -> float:
        return float(sum(self.points.values()))


def rubric_toml(rubric: Rubric, *, with_seed: bool) -> str:
    """The rubric as an assignment.toml; with the hidden seed only where students never read it."""
    forbidden = ", ".join(f'"{m}"' for m in rubric.forbidden_imports)
    allowed = ", ".join(f'"{m}"' for m in rubric.allowed_imports)
    lines = [
        "# The rubric of this assignment" + ("." if with_seed else ", as the autograder applies it to the public cases."),
        *([f"hidden_seed = {rubric.hidden_seed}"] if with_seed and rubric.hidden_seed is not None else []),
        f'activation = "{rubric.activation}"',
        f"rel_tol = {rubric.rel_tol!r}",
        f"abs_tol = {rubric.abs_tol!r}",
        f"case_timeout = {rubric.case_timeout!r}",
        f"import_timeout = {rubric.import_timeout!r}",
        f"memory_mb = {rubric.memory_mb}",
        f"submission_budget = {rubric.submission_budget!r}",
        f"one_time_work = {rubric.one_time_work!r}",
        f"forbidden_imports = [{forbidden}]",
        f"allowed_imports = [{allowed}]",
        "",
        "[points]",
        *(f"{task} = {points:g}" for task, points in rubric.points.items() if task in TASK_IDS),
        *(["", "[feedback]", f'diagnosis = "{rubric.feedback}"'] if rubric.feedback != "fix" else []),
        *([""] + variant_settings.to_toml(rubric.variants, secret=_variants_secret(rubric) if with_seed else None)
          if rubric.variants else []),
    ]
    return "\n".join(lines) + "\n"


def _variants_secret(rubric: Rubric) -> str | None:
    """The secret variants are drawn from, for an instructor-side edition that draws them again (None when it
    is the hidden seed, which that edition's rubric holds already)."""
    try:
        return rubric.variants.secret_or(None) if rubric.variants else None
    except variant_settings.VariantsError:
        return None


def load_rubric(path: Path | None = None, *, search: Path | None = None) -> Rubric:
    """The rubric from `path`, else assignment.toml in `search` (default: cwd), else defaults."""
    if path is None:
        candidate = (search or Path.cwd()) / CONFIG_NAME
        path = candidate if candidate.is_file() else None
    rubric = Rubric() if path is None else _from_file(Path(path))
    env_seed = os.environ.get(HIDDEN_SEED_ENV)
    if env_seed:
        rubric = replace(rubric, hidden_seed=_seed(env_seed, HIDDEN_SEED_ENV))
    return rubric


def _from_file(path: Path) -> Rubric:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ConfigError(f"no rubric file at {path}") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as err:
        raise ConfigError(f"{path}: not valid TOML: {err}") from None
    if path.name == "pyproject.toml":
        data = data.get("tool", {}).get("autograder", {})
    return from_mapping(data, source=str(path))


def from_mapping(data: Mapping, *, source: str = "<mapping>") -> Rubric:
    known = {f.name for f in fields(Rubric)} - {"source", "variant"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{source}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    kwargs: dict = {"source": source}
    if "points" in data:
        kwargs["points"] = _points(data["points"], source)
    for key in ("rel_tol", "abs_tol", "case_timeout", "import_timeout", "one_time_work"):
        if key in data:
            kwargs[key] = _in_range(data[key], key, source)
    if "submission_budget" in data:
        budget = _in_range(data["submission_budget"], "submission_budget", source)
        if 0 < budget < 5:
            raise ConfigError(f"{source}: submission_budget = {budget:g} can't work: 0 (derived from the cases) "
                              "or at least 5 seconds")
        kwargs["submission_budget"] = budget
    if "memory_mb" in data:
        kwargs["memory_mb"] = int(_in_range(data["memory_mb"], "memory_mb", source))
    if "activation" in data:
        if data["activation"] not in ACTIVATIONS:
            raise ConfigError(f"{source}: activation must be one of {', '.join(ACTIVATIONS)}, not {data['activation']!r}")
        kwargs["activation"] = data["activation"]
    if "hidden_seed" in data:
        kwargs["hidden_seed"] = _seed(data["hidden_seed"], f"{source}: hidden_seed")
    if "variants" in data:
        kwargs["variants"] = variant_settings.parse(data["variants"], source)
    if "feedback" in data:
        kwargs["feedback"] = _feedback(data["feedback"], source)
    if "forbidden_imports" in data:
        kwargs["forbidden_imports"] = _package_names(data["forbidden_imports"], "forbidden_imports", "torch", source)
    if "allowed_imports" in data:
        kwargs["allowed_imports"] = _allowed(data["allowed_imports"], source)
    forbidden = kwargs.get("forbidden_imports", Rubric.forbidden_imports)
    both = sorted(set(kwargs.get("allowed_imports", Rubric.allowed_imports)) & set(forbidden))
    if both:
        raise ConfigError(f"{source}: {', '.join(both)} both allowed and forbidden: take it out of one of "
                          "allowed_imports and forbidden_imports")
    return Rubric(**kwargs)


# the kit's own packages, and the student's: never "allowed" from the grader's installation
NEVER_ALLOWED = frozenset({"autograder", "reference", "micrograd"})


def _package_names(value, key: str, example: str, source: str) -> tuple[str, ...]:
    """A list of top-level package names (a single string would be read letter by letter)."""
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise ConfigError(f"{source}: {key} must be a list of package names, like [\"{example}\"], not {value!r}")
    for name in value:
        if not name.isidentifier():
            raise ConfigError(f"{source}: {key}: {name!r} is not a top-level package name (like \"{example}\")")
    return tuple(dict.fromkeys(value))


def _allowed(value, source: str) -> tuple[str, ...]:
    value = _package_names(value, "allowed_imports", "numpy", source)
    for name in value:
        if name in NEVER_ALLOWED or name in sys.stdlib_module_names:
            raise ConfigError(f"{source}: allowed_imports can't name {name!r}: "
                              + ("it is the standard library's, always allowed" if name in sys.stdlib_module_names
                                 else "the kit's and the student's own packages are never taken from the grader's"))
    return value


def require_installed(rubric: Rubric, not_installed: Callable[[Iterable[str]], list[str]]) -> None:
    """Grading (and an edition that grades) shows student code the allowed packages from this installation:
    one that is not installed is a rubric mistake (a misspelling, a package never installed), said here
    rather than as an import error in every submission."""
    missing = not_installed(rubric.allowed_imports)
    if missing:
        raise ConfigError(f"{rubric.source}: allowed_imports names {', '.join(map(repr, missing))}, which is not "
                          "installed here: install it in the grader's venv, or take it out of allowed_imports")


def _feedback(table, source: str) -> str:
    if not isinstance(table, Mapping) or set(table) - {"diagnosis"} or \
            table.get("diagnosis", "fix") not in DIAGNOSIS_SHOWN:
        raise ConfigError(f"{source}: [feedback] takes diagnosis = " + " | ".join(f'"{x}"' for x in DIAGNOSIS_SHOWN)
                          + f", not {dict(table) if isinstance(table, Mapping) else table!r}")
    return table.get("diagnosis", "fix")


def _points(table, source: str) -> Mapping[str, float]:
    """Every task's points, each given: a task left out is a mistake, not a silent default (0 is explicit)."""
    if not isinstance(table, Mapping):
        raise ConfigError(f"{source}: [points] must be a table of task = points")
    unknown = [t for t in table if t not in TASK_IDS]
    if unknown:
        raise ConfigError(f"{source}: points for unknown task(s) {', '.join(map(repr, unknown))}; "
                          f"tasks are {', '.join(TASK_IDS)}")
    given = {t: _number(table[t], f"points.{t}", source, minimum=0) for t in table}
    missing = [t for t in TASK_IDS if t not in given]
    if missing:
        raise ConfigError(f"{source}: [points] has no {', '.join(missing)}: give every task its points "
                          "(0 to leave a task out of the grade)")
    points = {t: given[t] for t in TASK_IDS}
    if not any(points.values()):
        raise ConfigError(f"{source}: [points] gives every task 0: nothing could be scored")
    return MappingProxyType(points)


def _in_range(value, key: str, source: str) -> float:
    low, high = RANGES[key]
    number = _number(value, key, source, minimum=low)
    if number > high:
        raise ConfigError(f"{source}: {key} = {value!r} can't work: it must be between {low:g} and {high:g}")
    return number


def _number(value, key: str, source: str, *, minimum: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < minimum:
        raise ConfigError(f"{source}: {key} must be a number >= {minimum:g}, not {value!r}")
    return float(value)


def _seed(value, where: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{where} must be a whole number, not {value!r}") from None
