"""A mistake's model, and the engine it is built on: the lecture's engine with some pieces swapped.

A Model names its mistake (an id of autograder/diagnosis/catalogue.py) and the task it
belongs to; `api()` is the exercise API of an engine that makes exactly that mistake. A
mistake may have several models (a topological order can be wrong in more than one way):
each is one `variant`.
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Callable

from reference.mistakes import nn, train as loop
from reference.mistakes.engine import Value


@dataclass(frozen=True)
class Model:
    task: str
    id: str              # the mistake, as the catalogue names it
    variant: str         # "" when the mistake has one model
    api: Callable[[], SimpleNamespace]
    also: tuple[str, ...] = ()  # the other mistakes the same engine makes in the same task (two in one)

    @property
    def ids(self) -> tuple[str, ...]:
        return (self.id, *self.also)

    @property
    def key(self) -> str:
        """"overwrites_grad", "topo_wrong_order.preorder", "overwrites_grad+number_not_wrapped"."""
        joined = "+".join(self.ids)
        return f"{joined}.{self.variant}" if self.variant else joined


def build_api(value=Value, neuron=nn.Neuron, layer=nn.Layer, mlp=nn.MLP, module=nn.Module,
              mse_loss=loop.mse_loss, train=loop.train) -> SimpleNamespace:
    """The exercise API of the lecture's engine with the given pieces, wired to one another."""
    N = type("Neuron", (neuron,), {"Value": value})
    L = type("Layer", (layer,), {"Neuron": N})
    M = type("MLP", (mlp,), {"Layer": L})
    return SimpleNamespace(name="mistaken", Value=value, Module=module, Neuron=N, Layer=L, MLP=M,
                           mse_loss=mse_loss, train=train)


def subclass(base, **members):
    return type(base.__name__, (base,), members)
