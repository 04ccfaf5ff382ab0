"""A corpus of engines in the shapes real students write them, beyond the single-bug variants.

Public re-implementations of micrograd (found with the `micrograd` searches of issue 18) show
shapes the single-bug variants don't: children kept under another name (`prev`, `_children`,
`came_from`), a `self.backward = lambda: None` left in __init__ that hides the backward() method,
leaves gated by `requires_grad=False`, a closure attached to the operand instead of `out`, a
package imported by its own name (`from my_micrograd.engine import Value`, `import
crudgrad.engine`), grads kept as numpy arrays, two mistakes in one task, a `.grad` where the
local derivative needs a `.data`, `topo.append` outside the visited check. Each Shape is made
from the solutions by the edits such an engine shows, and says what the kit must name in each
task (`named`: exactly these ids; a task not listed: nothing named), which tasks must keep full
marks, and a line its notes must hold.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SOLUTIONS = REPO / "solutions" / "micrograd"
ENGINE = (SOLUTIONS / "engine.py").read_text(encoding="utf-8")
NN = (SOLUTIONS / "nn.py").read_text(encoding="utf-8")
TRAIN = (SOLUTIONS / "train.py").read_text(encoding="utf-8")
ENGINE_TASKS = frozenset({"add", "mul", "pow", "tanh", "exp", "relu", "backward"})


def sub(text: str, old: str, new: str, count: int = 1) -> str:
    """text with `old` (found exactly `count` times) replaced by `new`; count 0: every time, at least once."""
    found = text.count(old)
    assert found and (count == 0 or found == count), (old, found)
    return text.replace(old, new)


@dataclass(frozen=True)
class Shape:
    id: str
    why: str                                        # the shape, as real code has it
    engine: str = ENGINE
    nn: str = NN
    train: str = TRAIN
    folder: str = ""                                # loose files in a folder of this name ("": micrograd/)
    named: dict = field(default_factory=dict)       # task -> the ids it must be named, exactly
    intact: frozenset = frozenset()                 # tasks that must keep full marks
    note: str = ""                                  # a line of the report's notes holds this


def children(name: str, container: str = "set") -> str:
    """The solution with a node's children kept in `name` (walked there by its own backward())."""
    text = sub(ENGINE, "self._prev = set(_children)", f"self.{name} = {container}(_children)")
    return sub(text, "for child in v._prev:", f"for child in v.{name}:")


HIDDEN_BACKWARD = sub(ENGINE, "        self._backward = lambda: None\n",
                      "        self._backward = lambda: None\n        self.backward = lambda: None\n")

# leaves track no gradient unless asked; a node tracks one when an operand does, and closures are gated
REQUIRES_GRAD = sub(sub(sub(sub(ENGINE,
    "    def __init__(self, data, _children=(), _op='', label=''):\n        self.data = data\n",
    "    def __init__(self, data, _children=(), _op='', label='', requires_grad=False):\n        self.data = data\n"
    "        self.requires_grad = requires_grad or any(c.requires_grad for c in _children)\n"),
    "            self.grad += out.grad\n            other.grad += out.grad",
    "            if self.requires_grad:\n                self.grad += out.grad\n"
    "            if other.requires_grad:\n                other.grad += out.grad"),
    "            self.grad += other.data * out.grad\n            other.grad += self.data * out.grad",
    "            if self.requires_grad:\n                self.grad += other.data * out.grad\n"
    "            if other.requires_grad:\n                other.grad += self.data * out.grad"),
    "            self.grad += out.data * out.grad",
    "            if self.requires_grad:\n                self.grad += out.data * out.grad")

def _in_method(text: str, method: str, old: str, new: str) -> str:
    """text with the first `old` after `def <method>(` replaced by `new`."""
    start = text.index(f"    def {method}(")
    at = text.index(old, start)
    return text[:at] + new + text[at + len(old):]


CLOSURE_ON_INPUT = _in_method(ENGINE, "__mul__", "out._backward = _backward", "self._backward = _backward")

# grads as numpy arrays (0-d), reset in place: a float the kit put there has no .fill
NUMPY_ENGINE = sub(sub(ENGINE, "import math\n", "import math\n\nimport numpy as np\n"),
                   "        self.grad = 0\n", "        self.grad = np.zeros(())\n")
NUMPY_NN = sub(NN, "            p.grad = 0\n", "            p.grad.fill(0.0)\n")

ASSIGN_AND_UNWRAPPED_ADD = sub(sub(ENGINE, """        other = other if isinstance(other, Value) else Value(other)
        out = Value(self.data + other.data, (self, other), '+')""", """        out = Value(self.data + other.data, (self, other), '+')"""),
    """            self.grad += out.grad
            other.grad += out.grad""", """            self.grad = out.grad
            other.grad = out.grad""")

GRAD_FOR_DATA_MUL = sub(ENGINE, """            self.grad += other.data * out.grad
            other.grad += self.data * out.grad""", """            self.grad += other.grad * out.grad
            other.grad += self.grad * out.grad""")

APPEND_OUTSIDE = sub(ENGINE, """                for child in v._prev:
                    build_topo(child)
                topo.append(v)""", """                for child in v._prev:
                    build_topo(child)
            topo.append(v)""")

UNREVERSED_UNSEEDED = sub(sub(ENGINE, "        for v in reversed(topo):", "        for v in topo:"),
                          "        self.grad = 1\n", "")

# the closure kept in `backward`, the walk in backprop(): as some public engines name them
CLOSURE_NAMED_BACKWARD = sub(sub(sub(sub(ENGINE, "self._backward = lambda: None", "self.backward = lambda: None"),
                                 "out._backward = _backward", "out.backward = _backward", 0),
                             "v._backward()", "v.backward()"),
                         "    def backward(self):", "    def backprop(self):")

# children as (child, local derivative) pairs, walked by a backward() of its own: nothing to adapt to
PAIRS = sub(sub(ENGINE, "self._prev = set(_children)", "self.parents = [(c, None) for c in _children]"),
            "for child in v._prev:", "for child, _ in v.parents:")

SHAPES: tuple[Shape, ...] = (
    Shape("children-prev", "children kept in `prev`", children("prev"), intact=ENGINE_TASKS, note="`prev`"),
    Shape("children-_children", "children kept in `_children`", children("_children"), intact=ENGINE_TASKS,
          note="`_children`"),
    Shape("children-came_from", "children kept in a list `came_from`", children("came_from", "list"),
          intact=ENGINE_TASKS, note="`came_from`"),
    Shape("children-_prev-list", "`_prev` as a list", children("_prev", "list"), intact=ENGINE_TASKS),
    Shape("hidden-backward", "`self.backward = lambda: None` in __init__ hides backward()", HIDDEN_BACKWARD,
          intact=ENGINE_TASKS - {"backward"}, note="hides your backward() method"),
    Shape("requires-grad-gate", "leaves track no gradient by default; closures gated on requires_grad",
          REQUIRES_GRAD, note="requires_grad=False"),
    Shape("closure-on-input", "mul's closure attached to its first operand, not to `out`", CLOSURE_ON_INPUT,
          named={"mul": ("closure_on_operand",)}, intact=ENGINE_TASKS - {"mul", "backward"}),
    Shape("own-package", "a folder my_micrograd/ whose nn.py imports `from my_micrograd.engine import Value`",
          nn=sub(NN, "from micrograd.engine import Value", "from my_micrograd.engine import Value"),
          folder="my_micrograd", intact=ENGINE_TASKS | {"neuron", "layer", "mlp", "parameters", "zero_grad"},
          note="`my_micrograd`"),
    Shape("own-package-dotted", "loose files whose nn.py does `import crudgrad.engine`",
          nn=sub(sub(NN, "from micrograd.engine import Value", "import crudgrad.engine"),
                 "Value(", "crudgrad.engine.Value(", 0),
          folder="handin", intact=ENGINE_TASKS | {"neuron", "layer", "mlp", "parameters", "zero_grad"},
          note="`crudgrad`"),
    Shape("numpy-grads", "grads as numpy arrays, zero_grad() resetting them in place with .fill",
          NUMPY_ENGINE, nn=NUMPY_NN, intact=ENGINE_TASKS | {"neuron", "layer", "mlp", "parameters", "zero_grad"}),
    Shape("assign-and-unwrapped-add", "`=` for `+=` and a number left unwrapped, both in add",
          ASSIGN_AND_UNWRAPPED_ADD, named={"add": ("overwrites_grad", "number_not_wrapped")}),
    Shape("grad-for-data-mul", "`other.grad` where mul's local derivative needs `other.data`", GRAD_FOR_DATA_MUL,
          named={"mul": ("grad_for_data",)}),
    Shape("append-outside-visited", "`topo.append(v)` outside the visited check", APPEND_OUTSIDE,
          named={"backward": ("append_outside_visited",)}),
    Shape("unreversed-and-unseeded", "two mistakes in backward(): no seed, the topo walked leaves first",
          UNREVERSED_UNSEEDED, named={"backward": ("topo_not_reversed", "grad_not_seeded")}),
    Shape("closure-named-backward", "closures kept in `backward`, the walk named backprop()",
          CLOSURE_NAMED_BACKWARD, note="the exercise API names the closure `_backward`"),
    Shape("children-as-pairs", "children kept as (child, derivative) pairs: nothing the kit can walk", PAIRS,
          note="exercise API keeps them in `_prev`"),
)


def submission(shape: Shape, root: Path) -> Path:
    """The shape as a student hands it in: micrograd/ with an __init__.py, or loose files in `folder`."""
    if root.exists():
        shutil.rmtree(root)
    folder = root / (shape.folder or "micrograd")
    folder.mkdir(parents=True)
    if not shape.folder:
        (folder / "__init__.py").write_text("")
    for name, text in (("engine.py", shape.engine), ("nn.py", shape.nn), ("train.py", shape.train)):
        (folder / name).write_text(text, encoding="utf-8")
    return root
