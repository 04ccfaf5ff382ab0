"""Engines in the API shapes of issue 29, and what the kit must and must not say of them.

Public re-implementations of micrograd gate their leaves under other spellings (`require_grad`,
`requires_grad=False` by default, a `track` attribute set by hand), keep a node's children under
properties (`prev` over `_parents`, `parents` over a dict) or inside an object the node holds
(`_ctx.inputs`), leave an operation unfinished (returning None, or its `.data`) or keep numpy numbers.
None of these is an algorithm's mistake: each gets full marks where its code is right, its own note,
and no mistake's name. The hint shapes each make one mistake with the rest right, and say what no
hint may claim of them (`unsaid`: a `+=` hint where the code has +=, a visited-set hint where it has
one) and what a hint must say (`said`). Each Shape is made from the solutions by the edits it shows.
"""
from __future__ import annotations

from dataclasses import dataclass

from real_shapes import ENGINE, ENGINE_TASKS, Shape, sub

ALL = ENGINE_TASKS | {"neuron", "layer", "mlp", "parameters", "zero_grad", "mse_loss", "train"}
_ADD = "            self.grad += out.grad\n            other.grad += out.grad"
_MUL = "            self.grad += other.data * out.grad\n            other.grad += self.data * out.grad"
_INIT = "    def __init__(self, data, _children=(), _op='', label=''):\n        self.data = data\n"


@dataclass(frozen=True)
class ApiShape(Shape):
    said: tuple[str, ...] = ()      # each in some hint of the report
    unsaid: tuple[str, ...] = ()    # none in any hint or diagnosis of the report


def _in_method(text: str, method: str, old: str, new: str) -> str:
    """text with the first `old` after `def <method>(` replaced by `new`."""
    start = text.index(f"    def {method}(")
    at = text.index(old, start)
    return text[:at] + new + text[at + len(old):]


def _gated(flag: str, init_line: str, signature: str = "") -> str:
    """The solution whose + and * pass a grad only to an operand with `flag` set."""
    text = sub(ENGINE, _INIT, _INIT.replace("label=''", f"label=''{signature}") + init_line)
    text = sub(text, _ADD, f"            if self.{flag}:\n                self.grad += out.grad\n"
                           f"            if other.{flag}:\n                other.grad += out.grad")
    return sub(text, _MUL, f"            if self.{flag}:\n                self.grad += other.data * out.grad\n"
                           f"            if other.{flag}:\n                other.grad += self.data * out.grad")


REQUIRE_GRAD = _gated("require_grad", "        self.require_grad = require_grad or any(c.require_grad for c in "
                      "_children)\n", ", require_grad=False")
TRACK = _gated("track", "        self.track = any(c.track for c in _children)  # v.track = True to ask\n")


def _walked(store: str, walk: str, extra: str = "") -> str:
    """The solution keeping a node's children by `store`, its backward() walking `walk`, with `extra` methods."""
    text = sub(ENGINE, "        self._prev = set(_children)\n", store)
    text = sub(text, "for child in v._prev:", f"for child in {walk}:")
    return sub(text, "    def __add__(self, other):\n", extra + "    def __add__(self, other):\n")


PREV_PROPERTY = _walked("        self._parents = list(_children)\n", "v.prev",
                        "    @property\n    def prev(self):\n        return tuple(self._parents)\n\n")
PARENTS_PROPERTY = _walked("        self._graph = {'in': tuple(_children)}\n", "v.parents",
                           "    @property\n    def parents(self):\n        return self._graph['in']\n\n")
CTX = "class _Ctx:\n    def __init__(self, inputs):\n        self.inputs = tuple(inputs)\n\n\n"
CTX_INPUTS = sub(_walked("        self._ctx = _Ctx(_children)\n", "v._ctx.inputs"), "class Value:", CTX + "class Value:")

OP = "class _Op:\n    def __init__(self, inputs, name):\n        self.inputs, self.name = list(inputs), name\n\n\n"
CREATOR = sub(_walked("        self._creator = _Op(_children, _op) if _children else None\n",
                      "(v._creator.inputs if v._creator else ())"), "class Value:", OP + "class Value:")
PARENTS = _walked("        self._parents = tuple(_children)\n", "v._parents")
NUMPY_ARRAYS = sub(sub(sub(ENGINE, "import math\n", "import math\n\nimport numpy as np\n"),
                       "        self.data = data\n", "        self.data = np.asarray(data, dtype=float)\n"),
                   "        self.grad = 0\n", "        self.grad = np.zeros(())\n")

ADD_RETURNS_NONE = _in_method(ENGINE, "__add__", "        return out\n", "")
EXP_RETURNS_FLOAT = _in_method(ENGINE, "exp", "        return out\n", "        return out.data\n")
NUMPY_DATA = sub(sub(ENGINE, "import math\n", "import math\n\nimport numpy as np\n"),
                 "        self.data = data\n", "        self.data = np.float64(data)\n")

MUL_NO_UPSTREAM = sub(ENGINE, _MUL, "            self.grad += other.data\n            other.grad += self.data")
ADD_ASSIGN = sub(ENGINE, _ADD, "            self.grad = out.grad\n            other.grad = out.grad")
NO_RADD = sub(ENGINE, "    def __radd__(self, other): # other + self\n        return self + other\n\n", "")
UNREVERSED = sub(ENGINE, "        for v in reversed(topo):", "        for v in topo:")
APPEND_OUTSIDE = sub(ENGINE, """                for child in v._prev:
                    build_topo(child)
                topo.append(v)""", """                for child in v._prev:
                    build_topo(child)
            topo.append(v)""")
EXPONENT_CHILD = sub(ENGINE, "out = Value(self.data**other, (self,), f'**{other}')",
                     "out = Value(self.data**other, (self, other), f'**{other}')")
TANH_AT_INPUT = sub(ENGINE, "            self.grad += (1 - t**2) * out.grad", "            self.grad += (1 - self.data**2) * out.grad")

# what no hint may say of code that has += everywhere, a reflected method and its children in _prev
_HAS_ADDS = ("not replace it (=)", "with =, the second", "with += they add up")
_FINE = _HAS_ADDS + ("reflected method", "_prev", "visited set")

SHAPES: tuple[ApiShape, ...] = (
    ApiShape("gate-require_grad", "leaves gated by `require_grad=False` (no s), + and * asking it", REQUIRE_GRAD,
             intact=ALL, note="`require_grad=False` by default"),
    ApiShape("gate-track-attribute", "leaves gated by a `track` attribute a student sets by hand", TRACK,
             intact=ALL, note="`self.track = False` in __init__"),
    ApiShape("children-prev-property", "children in `_parents`, read through a `prev` property", PREV_PROPERTY,
             intact=ALL, note="`_parents`"),
    ApiShape("children-parents-property", "children behind a read-only `parents` property", PARENTS_PROPERTY,
             intact=ALL, note="`parents`"),
    ApiShape("children-ctx-inputs", "children in a context object the node holds, `_ctx.inputs`", CTX_INPUTS,
             intact=ALL, note="`_ctx.inputs`"),
    ApiShape("children-_creator", "children in the creating op's `inputs`, None on a leaf", CREATOR,
             intact=ALL, note="`_creator.inputs`"),
    ApiShape("children-_parents", "children in a tuple `_parents`", PARENTS, intact=ALL, note="`_parents`"),
    ApiShape("numpy-arrays", "data and grads as 0-d numpy arrays", NUMPY_ARRAYS, intact=ENGINE_TASKS),
    ApiShape("add-returns-none", "an unfinished __add__ without `return out`", ADD_RETURNS_NONE,
             intact=ENGINE_TASKS - {"add"}, note="__add__ returns None", unsaid=("found no attribute",) + _FINE),
    ApiShape("exp-returns-float", "exp returning out.data, a float", EXP_RETURNS_FLOAT,
             intact=ALL - {"exp"}, note="exp returns a plain float", unsaid=_FINE),
    ApiShape("numpy-data", "data kept as numpy float64", NUMPY_DATA, intact=ALL),
    ApiShape("mul-no-upstream", "`self.grad += other.data`: the chain rule's out.grad left out", MUL_NO_UPSTREAM,
             named={"mul": ("missing_upstream_grad",)}, intact=ALL - {"mul"}, said=("b.data * out.grad",),
             unsaid=_FINE),
    ApiShape("add-assign", "`=` for `+=` in add", ADD_ASSIGN, named={"add": ("overwrites_grad",)},
             intact=ENGINE_TASKS - {"add"}, said=("not replace it (=)",),
             unsaid=("reflected method", "_prev", "visited set", "each input's grad gets")),
    ApiShape("no-radd", "no __radd__: `3 + a` fails", NO_RADD, named={"add": ("reflected_op_missing",)},
             intact=ENGINE_TASKS - {"add"}, said=("reflected method",), unsaid=_HAS_ADDS + ("_prev", "visited set")),
    ApiShape("unreversed", "the topo walked leaves first, with a visited set", UNREVERSED,
             named={"backward": ("topo_not_reversed",)}, said=("reverse of the topological order",),
             unsaid=_FINE),
    ApiShape("append-outside-visited", "`topo.append(v)` outside the visited check", APPEND_OUTSIDE,
             named={"backward": ("append_outside_visited",)}, unsaid=_FINE),
    ApiShape("exponent-in-children", "pow keeps its number exponent among the node's children", EXPONENT_CHILD,
             intact=ENGINE_TASKS - {"pow"}, said=("must hold in _prev the Values",), unsaid=_HAS_ADDS),
    ApiShape("tanh-at-input", "tanh's derivative at the input, 1 - a**2", TANH_AT_INPUT,
             named={"tanh": ("derivative_at_input",)}, said=("not 1 - a**2",), unsaid=_FINE),
)
