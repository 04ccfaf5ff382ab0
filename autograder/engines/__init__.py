"""The engines a case program runs on, each as one namespace of the exercise API.

A case program only ever touches `api.Value`, `api.MLP`, `api.train`, ...:
the same program runs on the reference, on PyTorch and on a student's engine.
"""
from __future__ import annotations

import importlib
import sys
from pathlib import Path
from types import ModuleType, SimpleNamespace

API_NAMES = ("Value", "Module", "Neuron", "Layer", "MLP", "mse_loss", "train")
TORCH_MISSING = "the torch adapter needs PyTorch: install the kit's torch extra: pip install -e '.[torch]'"


def api_from_modules(name: str, engine: ModuleType, nn: ModuleType, train: ModuleType) -> SimpleNamespace:
    """The exercise API of a micrograd-style package's three modules."""
    return SimpleNamespace(
        name=name, Value=engine.Value, Module=nn.Module, Neuron=nn.Neuron, Layer=nn.Layer,
        MLP=nn.MLP, mse_loss=train.mse_loss, train=train.train,
    )


def reference_api() -> SimpleNamespace:
    """The hidden oracle engine."""
    import reference

    return SimpleNamespace(name="reference", **{n: getattr(reference, n) for n in API_NAMES})


def torch_api() -> SimpleNamespace:
    """The PyTorch adapter (float64); ImportError with what to install when torch is missing."""
    try:
        from autograder.engines import torch_adapter
    except ModuleNotFoundError as err:
        if (err.name or "").partition(".")[0] != "torch":
            raise
        raise ImportError(TORCH_MISSING) from err
    return SimpleNamespace(name="torch", native_mix=torch_adapter.native_mix,
                           **{n: getattr(torch_adapter, n) for n in API_NAMES})


def with_constant(api: SimpleNamespace, op: str, constant: float, *, cache: bool = True) -> SimpleNamespace:
    """The API whose Value's `op` method takes no argument: a variant's constant bound, as a student's
    engine.py has it written in (the reference and torch take it as the method's argument). cache=False
    for an engine built afresh for one case (a mistake's model), which a cache would only keep alive."""
    key = (api.Value, op, constant)
    bound = _BOUND.get(key)
    if bound is None:
        method = getattr(api.Value, op)
        bound = type("Value", (api.Value,), {"__slots__": (), op: lambda self: method(self, constant)})
        if cache:
            _BOUND[key] = bound
    return SimpleNamespace(**{**vars(api), "Value": bound})


_BOUND: dict[tuple, type] = {}


def package_api(folder: Path, name: str, package: str = "micrograd") -> SimpleNamespace:
    """The exercise API of the `micrograd` package in `folder`, imported in this process.

    For the kit's own, trusted code only (solutions/, exercises/): student code
    runs only in the sandboxed child. Whatever `micrograd` was imported before
    (karpathy's from PyPI, say) is put back afterwards, and no bytecode is
    written into `folder`.
    """
    folder = Path(folder).resolve()

    def ours() -> list[str]:
        return [m for m in sys.modules if m == package or m.startswith(package + ".")]

    saved = {m: sys.modules.pop(m) for m in ours()}
    sys.path.insert(0, str(folder))
    dont_write, sys.dont_write_bytecode = sys.dont_write_bytecode, True
    try:
        modules = [importlib.import_module(f"{package}.{m}") for m in ("engine", "nn", "train")]
        for module in modules:
            if not Path(module.__file__).resolve().is_relative_to(folder):
                raise ImportError(f"{module.__name__} came from {module.__file__}, not from {folder}")
    finally:
        sys.dont_write_bytecode = dont_write
        sys.path.remove(str(folder))
        for m in ours():
            del sys.modules[m]
        sys.modules.update(saved)
    return api_from_modules(name, *modules)
