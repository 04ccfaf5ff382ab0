"""Real-world engine styles, made from the solutions by the edits students' own engines show.

Students write micrograd-style engines in many shapes (public re-implementations
show all of these): other constructor signatures, `_prev` as a list or tuple,
`__slots__`, a dataclass Value, grad behind a property, tanh built from exp the
way the lecture does, extra operations, loose files importing each other by
plain name. Each style here is a whole, correct engine; a few carry one real
bug. `submission(tmp, style)` writes one as a student would hand it in.
"""
from __future__ import annotations

import re
import shutil
from pathlib import Path

from autograder.paths import SOLUTIONS

ENGINE = (SOLUTIONS / "micrograd" / "engine.py").read_text()
NN = (SOLUTIONS / "micrograd" / "nn.py").read_text()
TRAIN = (SOLUTIONS / "micrograd" / "train.py").read_text()

INIT = "    def __init__(self, data, _children=(), _op='', label=''):"
CALL = re.compile(r"Value\((?P<d>[^\n]*?), \((?P<c>self(?:, other)?,?)\), (?P<o>f?'[^']*')\)")


def _sub(text: str, old: str, new: str) -> str:
    assert old in text, old
    return text.replace(old, new)


def _keyword_calls(text: str, children: str, op: str) -> str:
    return CALL.sub(lambda m: f"Value({m['d']}, {children}=({m['c']}), {op}={m['o']})", text)


def keyword_only() -> str:
    """Value(data, *, children=(), op='', label=''): the kit can't pass children positionally."""
    text = _sub(ENGINE, INIT, "    def __init__(self, data, *, children=(), op='', label=''):")
    text = _sub(text, "self._prev = set(_children)", "self._prev = set(children)")
    text = _sub(text, "self._op = _op", "self._op = op")
    return _keyword_calls(text, "children", "op")


def label_second() -> str:
    """Value(data, label='', _children=(), _op=''): a tuple in second place would be the label."""
    text = _sub(ENGINE, INIT, "    def __init__(self, data, label='', _children=(), _op=''):")
    return _keyword_calls(text, "_children", "_op")


def prev_list() -> str:
    return _sub(ENGINE, "self._prev = set(_children)", "self._prev = list(_children)")


def prev_tuple() -> str:
    return _sub(ENGINE, "self._prev = set(_children)", "self._prev = tuple(_children)")


def slots() -> str:
    return _sub(ENGINE, "class Value:\n", "class Value:\n    __slots__ = ('data', 'grad', '_backward', '_prev', '_op', 'label')\n")


def grad_property() -> str:
    """grad kept in _g behind a property with a setter: the API (read, +=, =) holds."""
    text = _sub(ENGINE, "        self.grad = 0\n", "        self._g = 0.0\n")
    return _sub(text, "    def __repr__(self):", (
        "    @property\n    def grad(self):\n        return self._g\n\n"
        "    @grad.setter\n    def grad(self, value):\n        self._g = value\n\n    def __repr__(self):"))


COMPOSITE_TANH = '''    def tanh(self):
        e = (2 * self).exp()
        return (e - 1) / (e + 1)

    def _unused_tanh(self):'''


def composite_tanh() -> str:
    """tanh built from exp, -, / and + as the lecture builds it: its result has a graph underneath."""
    return _sub(ENGINE, "    def tanh(self):", COMPOSITE_TANH)


def extra_ops() -> str:
    return _sub(ENGINE, "    def __repr__(self):", '''    def sigmoid(self):
        s = 1 / (1 + math.exp(-self.data))
        out = Value(s, (self,), 'sigmoid')

        def _backward():
            self.grad += s * (1 - s) * out.grad
        out._backward = _backward
        return out

    def log(self):
        out = Value(math.log(self.data), (self,), 'log')

        def _backward():
            self.grad += out.grad / self.data
        out._backward = _backward
        return out

    def __repr__(self):''')


def dataclass_value() -> str:
    """@dataclass(eq=False) Value with its fields, grad and closure set in __post_init__."""
    start = ENGINE.index("class Value:")
    end = ENGINE.index("        self.label = label\n") + len("        self.label = label\n")
    header = '''from dataclasses import dataclass


@dataclass(eq=False)
class Value:
    data: float
    _children: tuple = ()
    _op: str = ''
    label: str = ''

    def __post_init__(self):
        self.grad = 0.0
        self._backward = lambda: None
        self._prev = set(self._children)
'''
    return ENGINE[:start] + header + ENGINE[end:]


def pow_exponent_in_prev() -> str:
    """A bug: the int exponent goes into _prev, so every real backward() through ** crashes."""
    return _sub(ENGINE, "Value(self.data**other, (self,), f'**{other}')", "Value(self.data**other, (self, other), f'**{other}')")


STYLES = {
    "keyword-only-children": keyword_only,
    "label-second": label_second,
    "prev-list": prev_list,
    "prev-tuple": prev_tuple,
    "slots": slots,
    "grad-property": grad_property,
    "composite-tanh": composite_tanh,
    "extra-ops": extra_ops,
    "dataclass": dataclass_value,
}


def submission(root: Path, engine: str, *, nn: str = NN, flat: bool = False) -> Path:
    """A student's folder: micrograd/{engine,nn,train}.py, or (flat) the three files loose,
    nn.py importing `from engine import Value` as a student running them side by side does."""
    if root.exists():
        shutil.rmtree(root)
    if flat:
        root.mkdir(parents=True)
        (root / "engine.py").write_text(engine)
        (root / "nn.py").write_text(nn.replace("from micrograd.engine import Value", "from engine import Value"))
        (root / "train.py").write_text(TRAIN.replace("from micrograd.", "from "))
    else:
        pkg = root / "micrograd"
        pkg.mkdir(parents=True)
        (pkg / "__init__.py").write_text("")
        (pkg / "engine.py").write_text(engine)
        (pkg / "nn.py").write_text(nn)
        (pkg / "train.py").write_text(TRAIN)
    return root
