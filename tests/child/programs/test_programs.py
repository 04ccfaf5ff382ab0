"""The case programs: portable, agreed on by every engine, and one task per bug.

Observations are compared as the parent compares them: numbers as floats, any
other object by its type name, an exception as "missing" (NotImplementedError)
or "error".
"""
from __future__ import annotations

import ast
import importlib
import json
import math
import shutil
import subprocess
import sys
from pathlib import Path
from types import SimpleNamespace

import pytest

from autograder import paths
from autograder.cases import PUBLIC_SEED, build_cases
from autograder.child.programs import DIAGNOSTIC
from autograder.engines import package_api, reference_api
from autograder.exercises.markers import BEGIN, END, HEADER, strip_solutions
from autograder.tasks import TASK_IDS

PROGRAMS = Path(importlib.import_module("autograder.child.programs").__file__).parent
HIDDEN_SEED = 8675309


def _all_cases():
    """Public and hidden cases; the relu ones only where they differ from the tanh ones."""
    cases = {}
    for activation in ("tanh", "relu"):
        for vis, seed in (("public", PUBLIC_SEED), ("hidden", HIDDEN_SEED)):
            for c in build_cases(seed=seed, visibility=vis, activation=activation):
                cases.setdefault(json.dumps([c.id, c.params], sort_keys=True), c)
    return list(cases.values())


CASES = _all_cases()
TANH_CASES = [c for c in CASES if c.params.get("activation", "tanh") == "tanh"]


def program(name):
    module, _, function = name.rpartition(".")
    return getattr(importlib.import_module(f"autograder.child.programs.{module}"), function)


def plain(v):
    if isinstance(v, bool):
        return ("bool", v)
    if isinstance(v, (int, float)):
        return float(v)
    if isinstance(v, (list, tuple)):
        return [plain(x) for x in v]
    return ("object", type(v).__name__)


def observe(api, case):
    """What the parent would learn from running the case on api."""
    try:
        obs = program(case.program)(api, case.params)
    except NotImplementedError:
        return "missing"
    except Exception as err:  # noqa: BLE001 - a student's bug is an observation too
        return ("error", type(err).__name__)
    # what the diagnosis alone reads (probes, the closures' call order) is tested in tests/diagnosis
    return {k: plain(v) for k, v in obs.items() if k not in DIAGNOSTIC}


def agree(a, b, rel, abs_tol=1e-12):
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=rel, abs_tol=abs_tol)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(agree(x, y, rel, abs_tol) for x, y in zip(a, b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(agree(a[k], b[k], rel, abs_tol) for k in a)
    return a == b


def finite(v):
    return all(map(finite, v)) if isinstance(v, list) else isinstance(v, float) and math.isfinite(v)


@pytest.fixture(scope="module")
def ref():
    return reference_api()


@pytest.fixture(scope="module")
def torch_api():
    engines = importlib.import_module("autograder.engines")
    try:
        return engines.torch_api()
    except ImportError:
        pytest.skip("torch is not installed")


def key(c):
    """A case's key among CASES: its id, and its activation where it has one."""
    return c.id + c.params.get("activation", "")


@pytest.fixture(scope="module")
def goldens(ref):
    return {key(c): observe(ref, c) for c in CASES}


# -- portable: standard library only, and runnable as the top-level package `programs` ------

def test_do_the_programs_import_only_the_standard_library_and_each_other():
    for path in PROGRAMS.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.level:
                continue  # from ._graph import ...
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) else []
            for name in names:
                assert name.partition(".")[0] in sys.stdlib_module_names, f"{path.name} imports {name}"


CHILD = """
import importlib, json, sys
from types import SimpleNamespace
sys.path[:0] = [sys.argv[1]]
from micrograd import engine, nn, train
api = SimpleNamespace(Value=engine.Value, Module=nn.Module, Neuron=nn.Neuron, Layer=nn.Layer,
                      MLP=nn.MLP, mse_loss=train.mse_loss, train=train.train)
out = {}
for job in json.load(sys.stdin):
    module, _, function = job["program"].rpartition(".")
    out[job["id"]] = getattr(importlib.import_module("programs." + module), function)(api, job["params"])
foreign = [m for m in sys.modules if m.partition(".")[0] not in (*sys.stdlib_module_names, "__main__", "programs", "micrograd")]
print(json.dumps({"obs": out, "foreign": foreign}))
"""


def test_do_the_programs_run_as_a_top_level_package_in_an_isolated_python(tmp_path):
    """Inside `python -I -S` (no site-packages), as package `programs`, do they observe what they do here?"""
    shutil.copytree(PROGRAMS, tmp_path / "programs", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(paths.SOLUTIONS / "micrograd", tmp_path / "micrograd", ignore=shutil.ignore_patterns("__pycache__"))
    jobs = [c.to_job() for c in TANH_CASES]
    done = subprocess.run([sys.executable, "-I", "-S", "-B", "-c", CHILD, str(tmp_path)], input=json.dumps(jobs),
                          capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    assert result["foreign"] == []
    sol = package_api(paths.SOLUTIONS, "solutions")
    for c in TANH_CASES:
        theirs = {k: plain(v) for k, v in result["obs"][c.id].items() if k not in DIAGNOSTIC}
        assert agree(theirs, observe(sol, c), rel=0.0, abs_tol=0.0), c.id


# -- agreed on: reference, torch, solutions ---------------------------------------------------

def test_does_the_reference_observe_finite_numbers_only(goldens):
    for k, obs in goldens.items():
        assert isinstance(obs, dict) and obs, (k, obs)
        assert all(finite(v) for v in obs.values()), (k, obs)


def test_do_the_reference_and_torch_agree(goldens, torch_api):
    for c in CASES:  # every case, backward included
        assert agree(observe(torch_api, c), goldens[key(c)], rel=1e-9), c.id


def _native_mix(children, coefs):
    """What the torch adapter's native_mix must do: sum(c * child) as a node of torch ops."""
    from autograder.engines import torch_adapter
    coefs = [float(c) for c in coefs]
    return torch_adapter.Value._node(lambda *t: sum(c * x for c, x in zip(coefs, t)), tuple(children), "mix")


def test_would_torch_agree_on_the_mix_node_graphs_with_a_native_mix(goldens, torch_api):
    """With native_mix (the adapter's own, or the one specified above), does torch agree on backward()'s cases?"""
    has_native = hasattr(torch_api, "native_mix")
    assert has_native, "the torch adapter builds the kit's mix nodes with torch ops (native_mix)"
    api = torch_api if has_native else SimpleNamespace(**{**vars(torch_api), "native_mix": _native_mix})
    for c in CASES:
        if c.program in ("backward.graph", "ops.graph"):
            assert agree(observe(api, c), goldens[key(c)], rel=1e-9), c.id


def test_does_the_solution_observe_what_the_reference_does(goldens):
    sol = package_api(paths.SOLUTIONS, "solutions")
    for c in CASES:
        assert agree(observe(sol, c), goldens[key(c)], rel=1e-6), c.id


def _karpathy_api():
    """karpathy's micrograd from PyPI (engine and nn only), imported with sys.modules put back after."""
    ours = [m for m in sys.modules if m == "micrograd" or m.startswith("micrograd.")]
    saved = {m: sys.modules.pop(m) for m in ours}
    try:
        engine = importlib.import_module("micrograd.engine")
        nn = importlib.import_module("micrograd.nn")
    except ImportError:
        pytest.skip("karpathy's micrograd is not installed")
    finally:
        for m in [m for m in sys.modules if m == "micrograd" or m.startswith("micrograd.")]:
            del sys.modules[m]
        sys.modules.update(saved)
    if any(Path(engine.__file__).resolve().is_relative_to(kit) for kit in (paths.SOLUTIONS, paths.EXERCISES)):
        pytest.skip("the micrograd on sys.path is one of the kit's own")
    return SimpleNamespace(Value=engine.Value, Module=nn.Module, Neuron=nn.Neuron, Layer=nn.Layer, MLP=nn.MLP)


def test_does_karpathys_micrograd_pass_every_task_it_implements(goldens):
    """With activation relu, its Value has no tanh/exp and there is no train module: every other case passes."""
    api = _karpathy_api()
    implemented = set(TASK_IDS) - {"tanh", "exp", "mse_loss", "train"}
    for c in CASES:
        if c.task in implemented and c.params.get("activation", "relu") == "relu":
            assert agree(observe(api, c), goldens[key(c)], rel=1e-6), c.id


def test_does_the_probe_put_train_s_mse_loss_back(ref):
    """Is mse_loss restored in train's module, even when train raises?"""
    scope = ref.train.__globals__
    before = scope["mse_loss"]
    probe = next(c for c in CASES if c.program == "train.probe")
    observe(ref, probe)
    assert scope["mse_loss"] is before
    broken = SimpleNamespace(**{**vars(ref), "train": _raising_train})  # its globals: this module's
    assert observe(broken, probe) == ("error", "RuntimeError")
    assert "mse_loss" not in globals()


def _raising_train(model, xs, ys, steps, lr):
    raise RuntimeError("a student's train that crashes")


# -- one task per bug -------------------------------------------------------------------------

def _write_variant(folder: Path, file: str, old: str, new: str) -> Path:
    """A copy of solutions/micrograd with one edit in one file."""
    shutil.copytree(paths.SOLUTIONS / "micrograd", folder / "micrograd", ignore=shutil.ignore_patterns("__pycache__"))
    target = folder / "micrograd" / file
    text = target.read_text(encoding="utf-8")
    assert text.count(old) == 1, (file, old)
    target.write_text(text.replace(old, new), encoding="utf-8")
    return folder


def _stub_one_task(text: str, task: str) -> str:
    """The solution text with only `task`'s solution blocks turned into stubs."""
    out, open_task = [], None
    for line in text.splitlines(keepends=True):
        begin, end = BEGIN.match(line), END.match(line)
        if begin:
            open_task = HEADER.match(begin["rest"])["task"]
        another_tasks_marker = (begin or end) and open_task != task
        if end:
            open_task = None
        if not another_tasks_marker:  # drop another task's markers, keep its code
            out.append(line)
    return strip_solutions("".join(out))


def _tasks_hit(api, goldens, cases):
    """The tasks with at least one case whose observations differ from the golden, and those cases."""
    obs = {c.id: observe(api, c) for c in cases}
    wrong = [c for c in cases if not agree(obs[c.id], goldens[key(c)], rel=1e-6)]
    # an end-to-end case that fails because a task it needs (backward) fails its own cases is
    # charged to that task, not to its own (scoring's Case.needs rule): leave it out here too
    own = {c.task for c in wrong if not c.needs}
    wrong = [c for c in wrong if not (set(c.needs) & own)]
    return {c.task for c in wrong}, wrong, obs


@pytest.mark.parametrize("task", TASK_IDS)
def test_does_a_stubbed_task_go_missing_in_its_own_cases_only(task, tmp_path, goldens):
    for file in ("engine.py", "nn.py", "train.py"):
        dest = tmp_path / "micrograd" / file
        dest.parent.mkdir(exist_ok=True)
        dest.write_text(_stub_one_task((paths.SOLUTIONS / "micrograd" / file).read_text(), task))
    (tmp_path / "micrograd" / "__init__.py").write_text("")
    hit, wrong, obs = _tasks_hit(package_api(tmp_path, f"stub-{task}"), goldens, TANH_CASES)
    assert hit == {task}
    assert all(obs[c.id] == "missing" for c in TANH_CASES if c.task == task)


# (name, task, file, old, new): one classic mistake each
VARIANTS = [
    ("add-overwrites", "add", "engine.py", "self.grad += out.grad\n            other.grad += out.grad",
     "self.grad = out.grad\n            other.grad = out.grad"),
    ("mul-overwrites", "mul", "engine.py", "self.grad += other.data * out.grad", "self.grad = other.data * out.grad"),
    ("pow-no-upstream", "pow", "engine.py", "(other - 1) * out.grad", "(other - 1)"),
    ("tanh-of-input", "tanh", "engine.py", "(1 - t**2)", "(1 - self.data**2)"),
    ("exp-of-input", "exp", "engine.py", "out.data * out.grad", "self.data * out.grad"),
    ("relu-at-zero", "relu", "engine.py", "(out.data > 0)", "(self.data >= 0)"),
    ("backward-no-visited", "backward", "engine.py", "if v not in visited:", "if True:"),
    ("backward-preorder", "backward", "engine.py",
     "visited.add(v)\n                for child in v._prev:\n                    build_topo(child)\n                topo.append(v)",
     "visited.add(v)\n                topo.append(v)\n                for child in v._prev:\n                    build_topo(child)"),
    ("backward-not-reversed", "backward", "engine.py", "for v in reversed(topo):", "for v in topo:"),
    ("neuron-ignores-nonlin", "neuron", "nn.py", "if not self.nonlin:", "if False:"),
    ("neuron-detaches-inputs", "neuron", "nn.py", "wi*xi for", "wi*(xi.data if isinstance(xi, Value) else xi) for"),
    ("layer-list-of-one", "layer", "nn.py", "return out[0] if len(out) == 1 else out", "return out"),
    ("mlp-all-nonlin", "mlp", "nn.py", "nonlin=i != len(nouts)-1", "nonlin=True"),
    ("parameters-bias-first", "parameters", "nn.py", "return self.w + [self.b]", "return [self.b] + self.w"),
    ("zero-grad-zeroes-data", "zero_grad", "nn.py", "            p.grad = 0\n", "            p.grad = p.data = 0\n"),
    ("mse-sum", "mse_loss", "train.py", ") / len(predictions)", ")"),
    ("train-no-zero-grad", "train", "train.py", "        model.zero_grad()\n", ""),
    ("train-returns-values", "train", "train.py", "losses.append(loss.data)", "losses.append(loss)"),
    ("train-wrong-sign", "train", "train.py", "p.data -= lr * p.grad\n", "p.data += lr * p.grad\n"),
]


@pytest.mark.parametrize("name, task, file, old, new", VARIANTS, ids=[v[0] for v in VARIANTS])
def test_does_a_single_bug_cost_points_in_its_own_task_only(name, task, file, old, new, tmp_path, goldens):
    """Caught by public and hidden cases of its task, by none of another task, the same way on every run."""
    runs = []
    for run in range(3):  # three fresh imports: _prev sets get other memory addresses each time
        folder = _write_variant(tmp_path / str(run), file, old, new)
        runs.append(_tasks_hit(package_api(folder, f"{name}-{run}"), goldens, TANH_CASES))
    hit, wrong, obs = runs[0]
    assert hit == {task}, f"{name} changes the observations of {sorted(hit)}"
    assert {c.visibility for c in wrong} == {"public", "hidden"}
    for other_hit, other_wrong, other_obs in runs[1:]:
        assert [c.id for c in other_wrong] == [c.id for c in wrong]
        assert other_obs == obs
