"""Does a repair made on a file narrowed to its task's methods (narrow.py) write exactly what a repair of the
whole file writes, and does LibCST then parse only those methods?"""
from __future__ import annotations

import sys
import textwrap
from pathlib import Path

import libcst as cst
import pytest

from autograder.diagnosis.repair import apply, narrow
from autograder.diagnosis.repair.base import Scope

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "corpus"))
import real_shapes as shapes  # noqa: E402
import variants as corpus  # noqa: E402

SOLUTION = {name: (corpus.SOLUTIONS / name).read_text(encoding="utf-8") for name in ("engine.py", "nn.py", "train.py")}


@pytest.fixture
def parsed(monkeypatch) -> list[str]:
    """The texts LibCST is given to parse from now on (monkeypatch.undo() lets it parse unseen again)."""
    texts: list[str] = []
    real = cst.parse_module

    def parse(text, *args, **kwargs):
        texts.append(text)
        return real(text, *args, **kwargs)
    monkeypatch.setattr(apply.cst, "parse_module", parse)
    return texts


def _one_file(texts: dict[str, str]) -> dict[str, str]:
    """engine, nn and train pasted into one file, as a student hands in one .py."""
    body = "\n".join(t.replace("from micrograd.engine import Value\n", "").replace("from micrograd.nn import ", "# ")
                     for t in texts.values())
    return {"engine.py": body}


def _submissions():
    """(id, files, task, mistakes): every corpus variant with a named mistake, as files and as one file; the
    real students' shapes with what they must be named."""
    for v in corpus.VARIANTS:
        if corpus.NAMED[v.id]:
            texts = {**SOLUTION, v.file: corpus.variant_source(v)}
            yield v.id, texts, v.task, (corpus.NAMED[v.id],)
            yield v.id + "/one-file", _one_file(texts), v.task, (corpus.NAMED[v.id],)
    for shape in shapes.SHAPES:
        for task, named in shape.named.items():
            if named:
                yield shape.id, {"engine.py": shape.engine, "nn.py": shape.nn, "train.py": shape.train}, task, \
                    tuple(named)


SUBMISSIONS = list(_submissions())


def test_does_a_narrowed_repair_write_what_a_whole_one_writes_for_every_variant_and_shape():
    narrowed, differing = 0, []
    for name, files, task, mistakes in SUBMISSIONS:
        whole = apply._wholly(dict(sorted(files.items())), task, mistakes)
        try:
            narrow_result = apply._narrowly(dict(sorted(files.items())), task, mistakes)
        except apply._Whole:
            continue
        narrowed += 1
        if narrow_result != whole:
            differing.append(name)
    assert not differing
    assert narrowed >= 0.6 * len(SUBMISSIONS), f"narrowed {narrowed} of {len(SUBMISSIONS)}"


def test_does_libcst_parse_only_the_operations_method_when_mul_is_repaired(tmp_path, parsed):
    variant = next(v for v in corpus.VARIANTS if v.task == "mul" and corpus.NAMED[v.id]
                   and all(narrow.narrows(r) for r in apply.repairs("mul", corpus.NAMED[v.id])))
    package = tmp_path / "micrograd"
    package.mkdir()
    for name, text in {**SOLUTION, variant.file: corpus.variant_source(variant)}.items():
        (package / name).write_text(text, encoding="utf-8")
    texts, edits = apply.repaired(package, "mul", (corpus.NAMED[variant.id],))
    assert edits[corpus.NAMED[variant.id]], "the repair found its spot"
    assert parsed and all("def __mul__" in t and "def __init__" not in t and "def tanh" not in t for t in parsed)


CLASS = '''\
class Value:
    """A number."""

    def __init__(self, data):
        self.data = data

    # the product
    def __mul__(self, other):
        out = Value(self.data * other.data)
        return out

    @property
    def twice(self):
        return self.data * 2
'''


def test_are_the_methods_outside_the_scope_cut_with_their_decorators_and_the_comments_kept():
    part = narrow.narrowed(CLASS, Scope(frozenset({"__mul__"})))
    assert part.text == textwrap.dedent('''\
        class Value:
            """A number."""


            # the product
            def __mul__(self, other):
                out = Value(self.data * other.data)
                return out

        ''')
    changed = part.text.replace("out = Value(", "out = Value(  # fixed\n            ")
    assert narrow.put_back(part, changed) == CLASS.replace("out = Value(", "out = Value(  # fixed\n            ")


@pytest.mark.parametrize("newline", ["\n", "\r\n"])
def test_is_the_whole_file_given_back_byte_for_byte_with_its_line_endings_and_no_final_newline(newline):
    text = CLASS.replace("\n", newline).rstrip(newline)  # the cut method is the file's last, with no final newline
    part = narrow.narrowed(text, Scope(frozenset({"__mul__"})))
    assert narrow.put_back(part, part.text) == text
    assert narrow.put_back(part, part.text.replace("return out", "return  out")) == text.replace("return out",
                                                                                                "return  out")


def test_is_a_line_added_beside_a_cut_refused_rather_than_put_on_a_guessed_side():
    text = CLASS.replace("        return out\n\n", "        return out\n")  # `twice` right after __mul__
    part = narrow.narrowed(text, Scope(frozenset({"__mul__"})))
    # a line added after __mul__'s last one: the cut (`twice`) follows, and which side it belongs on is a guess
    assert narrow.put_back(part, part.text.replace("        return out\n", "        return out\n    x = 1\n")) is None
    # one more blank line kept between them, and the side is known
    part = narrow.narrowed(CLASS, Scope(frozenset({"__mul__"})))
    assert narrow.put_back(part, part.text.replace("        return out\n", "        return out\n    x = 1\n")) == \
        CLASS.replace("        return out\n", "        return out\n    x = 1\n")


def test_is_a_repair_that_reads_a_whole_class_given_its_classes_uncut_and_one_that_reads_everywhere_the_whole_file():
    from autograder.diagnosis.repair import nn, nn_params, ops_wiring
    reflected = ops_wiring.AddReflectedMethod
    assert not narrow.narrows(reflected) and narrow.narrows_to_classes(reflected)
    assert not narrow.narrows(nn.AddBias) and narrow.narrows_to_classes(nn.AddBias)
    # everywhere: it reads how __init__ keeps the bias, wherever that is
    assert not narrow.narrows(nn_params.ListBias) and not narrow.narrows_to_classes(nn_params.ListBias)
    part = narrow.narrowed(CLASS, Scope(frozenset({"__mul__"})), whole_classes=True)
    assert part is None or part.text == CLASS  # the class holding __mul__ whole: `twice` stays
    assert narrow.narrowed(CLASS, Scope(frozenset({"__call__"}), frozenset({"Neuron"})), whole_classes=True) \
        is narrow.NOTHING


@pytest.mark.parametrize("task, mistake", [("mul", "reflected_op_missing"), ("neuron", "bias_missing"),
                                           ("neuron", "wrong_activation")])
def test_does_libcst_parse_only_the_class_a_whole_class_repair_reads(tmp_path, parsed, monkeypatch, task, mistake):
    """Neuron's repairs read Neuron whole (its __init__ says where the bias is kept), the reflected method's the class
    holding the operation: is only that class parsed (engine.py not at all for Neuron: its Value has an __init__
    too, but is not Neuron), and is the repair the whole files' one?"""
    variant = next(v for v in corpus.VARIANTS if v.task == task and corpus.NAMED[v.id] == mistake)
    files = {**SOLUTION, variant.file: corpus.variant_source(variant)}
    package = tmp_path / "micrograd"
    package.mkdir()
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")
    found = apply.repaired(package, task, (mistake,))
    assert found[1][mistake], "the repair found its spot"
    held = "class Neuron" if task == "neuron" else "def __mul__"
    assert parsed and all(held in t and "def train" not in t for t in parsed)
    if task == "neuron":
        assert all("class Value" not in t and "class MLP" not in t for t in parsed)
    else:
        assert all("def __add__" in t for t in parsed)  # the class whole: its other methods too
    monkeypatch.undo()
    assert found == apply._wholly(dict(sorted(files.items())), task, (mistake,))


def test_does_libcst_parse_only_the_statements_holding_the_scope_when_one_file_is_repaired(tmp_path, parsed,
                                                                                         monkeypatch):
    """A student's one file holds engine, nn and train: is only the class holding __mul__ parsed (the imports, the
    other classes and functions cut: a repair never visits them), and the repair still what the whole file's is?"""
    variant = next(v for v in corpus.VARIANTS if v.task == "mul" and corpus.NAMED[v.id]
                   and all(narrow.narrows(r) for r in apply.repairs("mul", corpus.NAMED[v.id])))
    files = _one_file({**SOLUTION, variant.file: corpus.variant_source(variant)})
    package = tmp_path / "micrograd"
    package.mkdir()
    (package / "engine.py").write_text(files["engine.py"], encoding="utf-8")
    mistakes = (corpus.NAMED[variant.id],)
    found = apply.repaired(package, "mul", mistakes)
    assert found[1][mistakes[0]], "the repair found its spot"
    assert parsed and all("def __mul__" in t and "class MLP" not in t and "def train" not in t and "import" not in t
                          for t in parsed)
    monkeypatch.undo()
    assert found == apply._wholly(files, "mul", mistakes)


@pytest.mark.parametrize("text", [
    "if True:\n  import math\n\n\nclass Value:\n    def __mul__(self, other):\n        return self\n",
    '"""A docstring."""\r\nimport math\n\n\nclass Value:\n    def __mul__(self, other):\n        return self\n',
    "import math\n\n\ndef helper():\n\treturn 1\n\n\nclass Value:\n    def __mul__(self, other):\n        return self\n",
])
def test_does_a_narrowed_file_keep_the_indent_and_line_ending_libcst_reads_first(text):
    """LibCST writes the lines a repair adds with the file's first indent and first line ending: the statement
    holding the first indented line stays, and where cutting would change the first line ending, nothing at the
    top level is cut."""
    part = narrow.narrowed(text, Scope(frozenset({"__mul__"})))
    whole, kept = cst.parse_module(text), cst.parse_module(part.text if part else text)
    assert (kept.default_indent, kept.default_newline) == (whole.default_indent, whole.default_newline)
    assert part is None or narrow.put_back(part, part.text) == text


def test_is_a_class_no_repair_looks_into_cut_but_for_its_header_and_the_first_indented_line():
    """Repairing MLP in a student's one file whose first indented line is in Value: Value's header and that line
    stay (LibCST reads the indent there), Neuron and Layer go whole (the scope names MLP), and the repair of the
    narrowed text is the whole file's."""
    text = _one_file(SOLUTION)["engine.py"]
    part = narrow.narrowed(text, Scope(frozenset({"__init__", "__call__"}), frozenset({"MLP"})))
    assert "class Value" in part.text and "def __add__" not in part.text and "def backward" not in part.text
    assert "class Neuron" not in part.text and "class Layer" not in part.text and "class MLP" in part.text
    assert len(part.text) < len(text) / 4
    assert narrow.put_back(part, part.text) == text
