"""How long a notebook takes to grade: `otter run` with the otter edition's autograder zip, next to
`autograder grade` on the same notebook (the solution, filled into dist/student's notebook).

    .venv/bin/python benchmarks/bench_notebooks.py [--runs N]

Both are run as an instructor runs them: a new process each time, medians of --runs runs. Needs the
kit's `notebooks` extra (otter-grader). The otter edition is exported and `otter assign`ed once,
beforehand, and not timed.
"""
from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

KIT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(KIT))
BIN = Path(sys.executable).parent
SEED = "4242"


def _timed(argv: list[str], cwd: Path, env: dict) -> float:
    start = time.perf_counter()
    done = subprocess.run(argv, cwd=cwd, capture_output=True, text=True, env=env)
    elapsed = time.perf_counter() - start
    assert done.returncode in (0, 1), done.stderr[-2000:]
    return elapsed


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=5)
    args = parser.parse_args(argv)
    import nbformat

    from autograder.notebooks.solution_cells import module_source

    env = {**os.environ, "AUTOGRADER_HIDDEN_SEED": SEED, "PATH": f"{BIN}:{os.environ['PATH']}"}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        env["AUTOGRADER_CACHE"] = str(tmp / "cache")
        subprocess.run([sys.executable, "-m", "autograder", "export", "otter", str(tmp / "master")], cwd=KIT,
                       env=env, check=True, capture_output=True)
        subprocess.run([str(BIN / "otter"), "assign", "backprop.ipynb", str(tmp / "dist")], cwd=tmp / "master",
                       env=env, check=True, capture_output=True)
        nb = nbformat.read(tmp / "dist" / "student" / "backprop.ipynb", as_version=4)
        for cell in nb.cells:
            for module, key in (("engine", "class Value"), ("nn", "class Neuron"), ("train", "def mse_loss")):
                if cell.cell_type == "code" and key in cell.source:
                    cell.source = module_source(module)
        notebook = tmp / "filled.ipynb"
        nbformat.write(nb, str(notebook))
        zip_path = next((tmp / "dist" / "autograder").glob("*.zip"))
        (tmp / "out").mkdir()
        otter = [_timed([str(BIN / "otter"), "run", "-a", str(zip_path), str(notebook), "-o", str(tmp / "out")],
                        tmp, env) for _ in range(args.runs)]
        kit = [_timed([sys.executable, "-m", "autograder", "grade", str(notebook), "--config",
                       str(KIT / "assignment.toml")], KIT, env) for _ in range(args.runs)]
    o, k = statistics.median(otter), statistics.median(kit)
    print(f"{'measure (one notebook, solution, public + hidden cases)':58} {'median':>8} {'min':>8} {'max':>8}")
    print(f"{'otter run -a <autograder zip> (kit tests in the kernel)':58} {o:8.2f} {min(otter):8.2f} {max(otter):8.2f}")
    print(f"{'autograder grade notebook.ipynb':58} {k:8.2f} {min(kit):8.2f} {max(kit):8.2f}")
    print(f"otter run / autograder grade: {o / k:.1f}x")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
