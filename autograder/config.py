"""The rubric: points, tolerances, limits, activation, hidden seed, forbidden and allowed imports.

Read from `assignment.toml` (top-level keys) or `[tool.autograder]` in a
pyproject.toml; every key is optional. The hidden seed may also come from the
environment variable AUTOGRADER_HIDDEN_SEED, which wins.
"""
from __future__ import annotations

import os
import sys
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from types import MappingProxyType
from typing import Mapping

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from autograder.tasks import TASK_IDS

DEFAULT_POINTS: Mapping[str, float] = MappingProxyType({
    "add": 5, "mul": 5, "pow": 5, "tanh": 5, "exp": 5, "relu": 5,
    "backward": 15,
    "neuron": 8, "layer": 6, "mlp": 8, "parameters": 8, "zero_grad": 5,
    "mse_loss": 8, "train": 12,
})
ACTIVATIONS = ("tanh", "relu")
HIDDEN_SEED_ENV = "AUTOGRADER_HIDDEN_SEED"
CONFIG_NAME = "assignment.toml"


class ConfigError(ValueError):
    """A rubric file that can't be used: one line saying what and where."""


@dataclass(frozen=True)
class Rubric:
    points: Mapping[str, float] = field(default_factory=lambda: DEFAULT_POINTS)
    rel_tol: float = 1e-6
    abs_tol: float = 1e-8
    case_timeout: float = 3.0
    import_timeout: float = 5.0
    memory_mb: int = 1024
    activation: str = "tanh"
    hidden_seed: int | None = None
    forbidden_imports: tuple[str, ...] = ("torch", "jax", "tensorflow")
    # installed packages (top-level names) the student's code may import, beyond the standard
    # library: the only ones the sandbox shows it
    allowed_imports: tuple[str, ...] = ("numpy",)
    source: str = "built-in defaults"

    @property
    def max_score(self) -> float:
        return float(sum(self.points.values()))


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
    known = {f.name for f in fields(Rubric)} - {"source"}
    unknown = sorted(set(data) - known)
    if unknown:
        raise ConfigError(f"{source}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}")
    kwargs: dict = {"source": source}
    if "points" in data:
        points = dict(DEFAULT_POINTS)
        for task, value in dict(data["points"]).items():
            if task not in TASK_IDS:
                raise ConfigError(f"{source}: points for unknown task {task!r}; tasks are {', '.join(TASK_IDS)}")
            points[task] = _number(value, f"points.{task}", source, minimum=0)
        kwargs["points"] = MappingProxyType(points)
    for key in ("rel_tol", "abs_tol", "case_timeout", "import_timeout"):
        if key in data:
            kwargs[key] = _number(data[key], key, source, minimum=0)
    if "memory_mb" in data:
        kwargs["memory_mb"] = int(_number(data["memory_mb"], "memory_mb", source, minimum=64))
    if "activation" in data:
        if data["activation"] not in ACTIVATIONS:
            raise ConfigError(f"{source}: activation must be one of {', '.join(ACTIVATIONS)}, not {data['activation']!r}")
        kwargs["activation"] = data["activation"]
    if "hidden_seed" in data:
        kwargs["hidden_seed"] = _seed(data["hidden_seed"], f"{source}: hidden_seed")
    if "forbidden_imports" in data:
        kwargs["forbidden_imports"] = tuple(str(m) for m in data["forbidden_imports"])
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


def _allowed(value, source: str) -> tuple[str, ...]:
    if not isinstance(value, list) or not all(isinstance(m, str) for m in value):
        raise ConfigError(f"{source}: allowed_imports must be a list of package names, like [\"numpy\"]")
    for name in value:
        if not name.isidentifier():
            raise ConfigError(f"{source}: allowed_imports: {name!r} is not a top-level package name (like \"numpy\")")
        if name in NEVER_ALLOWED or name in sys.stdlib_module_names:
            raise ConfigError(f"{source}: allowed_imports can't name {name!r}: "
                              + ("it is the standard library's, always allowed" if name in sys.stdlib_module_names
                                 else "the kit's and the student's own packages are never taken from the grader's"))
    return tuple(dict.fromkeys(value))


def _number(value, key: str, source: str, *, minimum: float) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value < minimum:
        raise ConfigError(f"{source}: {key} must be a number >= {minimum}, not {value!r}")
    return float(value)


def _seed(value, where: str) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        raise ConfigError(f"{where} must be a whole number, not {value!r}") from None
