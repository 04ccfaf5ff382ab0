"""Where a task's code lives in the student's files: the functions a repair may edit (a `Scope`).

The exercise API fixes most names (`Neuron.__call__`, `backward`, `train`); an operation is its method
(`__mul__`, `tanh`) wherever it is defined (a mixin class in another file, a function of a module of
its own), and any function the student binds to that name (`__mul__ = _mul` in a class body,
`Value.__mul__ = mul`, `setattr(Value, "__mul__", mul)`).
"""
from __future__ import annotations

import libcst as cst

from autograder.diagnosis.repair.base import Scope
from autograder.tasks import EVERY_OP

NN = {
    "neuron": Scope(frozenset({"__call__", "__init__"}), frozenset({"Neuron"})),
    "layer": Scope(frozenset({"__call__"}), frozenset({"Layer"})),
    "mlp": Scope(frozenset({"__init__", "__call__"}), frozenset({"MLP"})),
    "parameters": Scope(frozenset({"parameters"}), frozenset({"Neuron", "Layer", "MLP", "Module"})),
    "zero_grad": Scope(frozenset({"zero_grad"})),
    "mse_loss": Scope(frozenset({"mse_loss"})),
    "train": Scope(frozenset({"train"})),
    "backward": Scope(frozenset({"backward"})),
}


def needles(task: str) -> tuple[str, ...]:
    """Text a file holding the task's code has in it: a file without any is not parsed."""
    if task in NN:
        return tuple(f"def {name}" for name in NN[task].names)
    return (method_name(task),)


def method_name(task: str) -> str:
    op = EVERY_OP[task]
    return op.method or ("__pow__" if op.form == "power" else task)


def scope(task: str, modules: list[cst.Module]) -> Scope:
    """The functions task's code is in, across the student's modules."""
    if task in NN:
        return NN[task]
    name = method_name(task)
    if any(_defines(m, name) for m in modules):  # `def __mul__` in a class: no need to look for other bindings
        return Scope(frozenset({name}))
    return Scope(frozenset({name, *(a for m in modules for a in _aliases(m, name))}))


def scope_known(task: str, defined: bool | None) -> Scope | None:
    """scope() where it needs no module: the exercise API's, or the operation's method where a class of the files
    defines it (defined: narrow.defined's answer); None where the other bindings would have to be looked for."""
    if task in NN:
        return NN[task]
    return Scope(frozenset({method_name(task)})) if defined else None


def _defines(module: cst.Module, name: str) -> bool:
    return any(isinstance(line, cst.ClassDef) and any(isinstance(inner, cst.FunctionDef) and inner.name.value == name
                                                      for inner in line.body.body) for line in module.body)


def _aliases(module: cst.Module, name: str) -> set[str]:
    """The functions bound to `name` as a method: `__mul__ = f`, `X.__mul__ = f`, `setattr(X, "__mul__", f)`."""
    found: set[str] = set()

    class Bindings(cst.CSTVisitor):
        def visit_Assign(self, node: cst.Assign) -> None:
            if not isinstance(node.value, cst.Name):
                return
            for target in node.targets:
                t = target.target
                if (isinstance(t, cst.Name) and t.value == name) or \
                        (isinstance(t, cst.Attribute) and t.attr.value == name):
                    found.add(node.value.value)

        def visit_Call(self, node: cst.Call) -> None:
            if isinstance(node.func, cst.Name) and node.func.value == "setattr" and len(node.args) == 3 and \
                    isinstance(node.args[1].value, cst.SimpleString) and \
                    node.args[1].value.evaluated_value == name and isinstance(node.args[2].value, cst.Name):
                found.add(node.args[2].value.value)
    module.visit(Bindings())
    return found - {name}
