"""Notebook submissions: code cells only, and no shell escape or magic ever runs."""
import json
import subprocess
import sys
from pathlib import Path

import nbformat
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook

from autograder.submission.notebook import MARKER, NotebookError, convert_cell, notebook_cells, notebook_to_python

SOLUTIONS = Path(__file__).resolve().parents[2] / "solutions" / "micrograd"


def write_notebook(path: Path, *cells: str, markdown: str = "# My engine") -> Path:
    nb = new_notebook(cells=[new_markdown_cell(markdown)] + [new_code_cell(c) for c in cells])
    nb.metadata["kernelspec"] = {"name": "python3", "language": "python", "display_name": "Python 3"}
    nbformat.write(nb, str(path))
    return path


def run_python(source: str, cwd: Path) -> subprocess.CompletedProcess:
    (cwd / "converted.py").write_text(source, encoding="utf-8")
    return subprocess.run([sys.executable, "converted.py"], cwd=cwd, capture_output=True,
                          text=True, timeout=120)


def engine_cells() -> list[str]:
    nn = (SOLUTIONS / "nn.py").read_text().replace("from micrograd.engine import Value\n", "")
    return [(SOLUTIONS / "engine.py").read_text(), nn, (SOLUTIONS / "train.py").read_text()]


ESCAPES = ["!pip install torch", "%matplotlib inline", "%%bash\necho hello\nls -la",
           "files = !ls\nprint('after')", "Value?", "for i in range(2):\n    !echo $i\n    %time i"]


def test_whole_engine_notebook_converts_compiles_and_trains(tmp_path):
    cells = ESCAPES[:2] + engine_cells() + ESCAPES[2:] + [
        "%%time\nmodel = MLP(2, [4, 1])\nxs = [[0.0, 1.0], [1.0, 0.0], [1.0, 1.0]]\nys = [1.0, -1.0, 0.5]",
        "losses = train(model, xs, ys, 20, 0.05)\nassert losses[-1] < losses[0], losses\nprint('trained')",
    ]
    source = notebook_to_python(write_notebook(tmp_path / "engine.ipynb", *cells))
    compile(source, "engine.py", "exec")
    for gone in ["!pip", "torch", "%matplotlib", "%%bash", "echo", "ls -la", "!ls", "%time", "Value?"]:
        assert gone not in source
    assert "My engine" not in source  # markdown cells are left out
    assert "    pass  " + MARKER in source  # indented escapes keep the loop body valid
    result = run_python(source, tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stdout.split() == ["after", "trained"]


def test_shell_escapes_and_magics_never_run(tmp_path):
    cells = [
        "!touch pwned_bang.txt",
        "out = !touch pwned_assign.txt",
        "%system touch pwned_system.txt",
        "%%bash\ntouch pwned_bash.txt",
        "%%script sh\ntouch pwned_script.txt",
        "%%writefile pwned_writefile.txt\nhello",
        "if True:\n    !touch pwned_indented.txt\n    x = 1",
        "%%capture\n!touch pwned_capture.txt\ny = 2",
        "!touch pwned_continued.txt \\\n    pwned_second.txt",
        "open('python_ran.txt', 'w').write(str(x + y))",
    ]
    source = notebook_to_python(write_notebook(tmp_path / "attack.ipynb", *cells))
    compile(source, "attack.py", "exec")
    assert "touch" not in source and "pwned" not in source
    result = run_python(source, tmp_path)
    assert result.returncode == 0, result.stderr
    assert (tmp_path / "python_ran.txt").read_text() == "3"  # the Python cells did run
    assert not list(tmp_path.glob("pwned*"))


def test_line_structure_and_indentation_are_kept():
    cell = "def f(x):\n    %time y = x\n    return x\n!ls\nz = f(1)"
    out = convert_cell(cell).split("\n")
    assert out == ["def f(x):", f"    pass  {MARKER}", "    return x", MARKER, "z = f(1)"]


def test_percent_and_bang_inside_python_are_not_escapes():
    cell = ('doc = """\n!not a shell command\n%not a magic\n"""\n'
            "r = (10\n% 3)\nok = (1\n!= 2)\ns = 'a' \\\n    '%b'\nd = {'k': 1}")
    assert convert_cell(cell) == cell
    namespace: dict = {}
    exec(convert_cell(cell), namespace)
    assert namespace["r"] == 1 and namespace["ok"] is True and "!not a shell" in namespace["doc"]


def test_cell_magic_removes_the_whole_cell_keeping_its_line_count():
    assert convert_cell("\n%%bash\nrm -rf /\necho done") == "\n".join([MARKER] * 4)


def test_notebook_without_code_cells_is_an_empty_module(tmp_path):
    source = notebook_to_python(write_notebook(tmp_path / "empty.ipynb"))
    compile(source, "empty.py", "exec")


def malformed(tmp_path: Path, name: str, content: bytes) -> Path:
    path = tmp_path / name
    path.write_bytes(content)
    return path


def valid_nb_dict(**changes) -> dict:
    nb = {"cells": [{"cell_type": "code", "id": "a1", "metadata": {}, "outputs": [],
                     "execution_count": None, "source": "x = 1"}],
          "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    nb.update(changes)
    return nb


@pytest.mark.parametrize("content, says", [
    (b"this is not json", "not JSON"),
    (b'{"cells": [}', "not JSON"),
    (b"[1, 2, 3]", "not a Jupyter notebook"),
    (b'{"cells": []}', "not a Jupyter notebook"),
    (json.dumps(valid_nb_dict(nbformat=99)).encode(), "not a valid notebook"),
    (json.dumps(valid_nb_dict(cells=[{"cell_type": "code", "metadata": {}}])).encode(),
     "not a valid notebook"),
    (json.dumps(valid_nb_dict(cells=[{"cell_type": "bogus", "source": "", "metadata": {}}])).encode(),
     "not a valid notebook"),
    ('{"cells": [], "nbformat": 4, "source": "caf\u00e9"}'.encode("latin-1"), "not UTF-8"),
    (json.dumps(valid_nb_dict(metadata={"kernelspec": {"name": "ir", "language": "R",
                                                       "display_name": "R"}})).encode(),
     "not a Python notebook"),
])
def test_malformed_notebooks_give_a_one_line_error(tmp_path, content, says):
    path = malformed(tmp_path, "broken.ipynb", content)
    with pytest.raises(NotebookError) as info:
        notebook_to_python(path)
    message = str(info.value)
    assert says in message and message.startswith("broken.ipynb: ")
    assert "\n" not in message and len(message) < 300


def test_missing_file_is_a_notebook_error(tmp_path):
    with pytest.raises(NotebookError, match="can't be read"):
        notebook_to_python(tmp_path / "nope.ipynb")


def test_valid_minimal_notebook_without_cell_ids_converts(tmp_path):
    nb = valid_nb_dict(nbformat_minor=4)
    del nb["cells"][0]["id"]
    path = malformed(tmp_path, "old.ipynb", json.dumps(nb).encode())
    assert "x = 1" in notebook_to_python(path)


def test_is_a_plain_v4_notebook_read_without_importing_nbformat(tmp_path, monkeypatch):
    """nbformat's import alone takes about a second: a student's check of a notebook must not pay it."""
    path = write_notebook(tmp_path / "nb.ipynb", "x = 1")
    monkeypatch.setitem(sys.modules, "nbformat", None)
    assert "x = 1" in notebook_to_python(path)


def test_without_nbformat_an_older_notebook_says_what_to_install(tmp_path, monkeypatch):
    v3 = {"nbformat": 3, "nbformat_minor": 0, "metadata": {},
          "worksheets": [{"cells": [{"cell_type": "code", "input": "x = 1", "outputs": [], "language": "python"}]}]}
    path = malformed(tmp_path, "old.ipynb", json.dumps(v3).encode())
    assert "x = 1" in notebook_to_python(path)  # converted by nbformat
    monkeypatch.setitem(sys.modules, "nbformat", None)
    with pytest.raises(NotebookError, match=r"backprop-kit\[notebooks\]"):
        notebook_to_python(path)


_LINES = st.lists(st.sampled_from(["x = 1", "", "   ", "!ls", "%time x", "s = '''a", "b'''", "def f():",
                                   "    return 2", "# In[9]:", "\\", "y = (1,", "2)", "\t", "ünï = 'ç'"]),
                  max_size=6)


@settings(max_examples=80, deadline=None)
@given(st.lists(st.tuples(st.booleans(), _LINES), max_size=6))
def test_does_the_cell_map_point_at_each_cells_own_lines(tmp_path_factory, cells):
    """The child runs a notebook cell by cell from these line ranges (child/cells.py): each range must
    hold exactly its cell, whatever the cells hold (blank ones, escapes, strings across lines)."""
    nb = new_notebook(cells=[new_code_cell("\n".join(lines)) if code else new_markdown_cell("\n".join(lines))
                             for code, lines in cells])
    path = tmp_path_factory.mktemp("nb") / "n.ipynb"
    nbformat.write(nb, str(path))
    source, table = notebook_cells(path)
    lines = source.split("\n")
    code_numbers = [n for n, (code, _) in enumerate(cells, 1) if code]
    assert [number for number, _, _ in table] == code_numbers
    for number, first, last in table:
        chunk = lines[first - 1:last]
        assert chunk[0] == f"# In[{number}]:"
        assert "\n".join(chunk[1:]) == convert_cell(nb.cells[number - 1].source)
    covered = {i for _, first, last in table for i in range(first, last + 1)}
    assert all(not lines[i - 1] or lines[i - 1].startswith("# Code cells") for i in range(1, len(lines) + 1)
               if i not in covered)  # outside the cells: the header and blank lines only


def test_is_a_cell_too_large_left_out_alone_and_named(tmp_path):
    """A 2 MB cell, and cells that together pass the code's limit (the largest, later first), are left out
    one by one with a note each; every other cell, and where each stands, is kept."""
    big = "x = [" + "1," * 1_000_000 + "]"            # 2 MB alone
    part = "y = [" + "2," * 200_000 + "]"             # 0.4 MB: three of them pass the limit together
    path = write_notebook(tmp_path / "hw.ipynb", *engine_cells(), big, part, part, part, "z = 3")
    notes: list[str] = []
    source, cells = notebook_cells(path, notes)
    assert [n.split(":")[1].split(" holds")[0].strip() for n in notes] == ["cell 5", "cell 8"], notes
    assert all("left out; the rest of the notebook is graded" in n for n in notes)
    assert [c[0] for c in cells] == [2, 3, 4, 5, 6, 7, 8, 9] and "z = 3" in source
    assert source.count("y = [") == 2 and "x = [" not in source and len(source.encode()) < 2**20
    compile(source, "hw.py", "exec")
