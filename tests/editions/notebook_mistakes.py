"""Mistaken notebooks for the Jupyter editions' end-to-end tests: edits of the solution's code.

One classic mistake each, and several at once: a task with failing cases and cases not counted
because backward() fails its own (add with `=` for `+=` and an unreversed walk) is where a tool that
splits a question's points over its tests strays from the kit's score."""
from __future__ import annotations

EDITS = {  # one classic mistake each
    "mul_overwrites": ("other.grad += self.data * out.grad", "other.grad = self.data * out.grad"),
    "add_overwrites": ("other.grad += out.grad", "other.grad = out.grad"),
    "tanh_at_input": ("(1 - t**2) * out.grad", "(1 - x**2) * out.grad"),
    "relu_at_zero": ("(out.data > 0) * out.grad", "(out.data >= 0) * out.grad"),
    "mse_sum": ("/ len(predictions)", "/ 1"),
    "backward_unreversed": ("for v in reversed(topo):", "for v in topo:"),
}
SINGLE = ("mul_overwrites", "tanh_at_input", "relu_at_zero", "mse_sum", "backward_unreversed")
SEVERAL = {  # name -> the mistakes made at once
    "add_and_walk": ("add_overwrites", "backward_unreversed"),
    "four_at_once": ("mul_overwrites", "relu_at_zero", "mse_sum", "backward_unreversed"),
}
MISTAKES = {**{m: (m,) for m in SINGLE}, **SEVERAL}  # every notebook the editions are tested on


def with_mistake(source: str, mistake: str | None) -> str:
    for edit in MISTAKES[mistake] if mistake else ():
        old, new = EDITS[edit]
        source = source.replace(old, new)
    return source
