"""Single-mistake notebooks for the Jupyter editions' end-to-end tests: edits of the solution's code."""
from __future__ import annotations

MISTAKES = {  # one classic mistake each
    "mul_overwrites": ("other.grad += self.data * out.grad", "other.grad = self.data * out.grad"),
    "tanh_at_input": ("(1 - t**2) * out.grad", "(1 - x**2) * out.grad"),
    "relu_at_zero": ("(out.data > 0) * out.grad", "(out.data >= 0) * out.grad"),
    "mse_sum": ("/ len(predictions)", "/ 1"),
    "backward_unreversed": ("for v in reversed(topo):", "for v in topo:"),
}


def with_mistake(source: str, mistake: str | None) -> str:
    if mistake is None:
        return source
    old, new = MISTAKES[mistake]
    return source.replace(old, new)
