# The two commands of the README: `make run` (the kit's main job) and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
SAMPLE_OUT := out/sample-class

.PHONY: run test test-all setup sandbox graphviz chromium axe benchmark clean

PIP    := $(PY) -m pip --quiet --disable-pip-version-check
# torch comes from PyTorch's own CPU wheel index, as its install page says: the default index
# serves Linux the CUDA build, with several GB of nvidia packages. Where that index can't be
# reached, pip's own configuration (a local wheel, a mirror, PyPI) gives torch, and a note says
# which build it was.
TORCH       := torch==2.13.0
TORCH_INDEX ?= https://download.pytorch.org/whl/cpu
# setuptools' editable install warns in a box about folders named like the package; the kit
# runs from its own root, whose `autograder/` is the package
EDITABLE_QUIET := PYTHONWARNINGS="ignore:Editable installation"

# pip runs --quiet (its own progress bars flood a log): a note before each long step says what comes and how
# long it takes, so a log or CI is never silent for minutes with nothing said
$(VENV)/.installed: pyproject.toml
	@echo "setup: a virtual environment in $(VENV), then the kit's packages (about 2 minutes the first time; pip is quiet meanwhile)"
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --upgrade pip
	@echo "setup: torch, the CPU build (about 200 MB: a minute or so)"
	@if $(PY) -c "import urllib.request as u; u.urlopen('$(TORCH_INDEX)/torch/', timeout=15)" 2>/dev/null; then \
	  echo "$(PIP) install --index-url $(TORCH_INDEX) '$(TORCH)'"; \
	  $(PIP) install --index-url $(TORCH_INDEX) '$(TORCH)'; \
	else \
	  $(PIP) install '$(TORCH)' && $(PY) -W ignore -c "import torch; print('note: $(TORCH_INDEX) could not be reached: torch', \
	    torch.__version__, 'came from the index pip is configured with:', 'the CPU build' if torch.version.cuda is None \
	    else 'a CUDA build (make clean setup where that index is reachable gives the CPU one)')"; \
	fi
	@echo "setup: the kit and its libraries (otter-grader, nbgrader, dask, Pillow...: a minute or so)"
	$(EDITABLE_QUIET) $(PIP) install -e '.[torch,dev,notebooks,dask,lti]'   # notebooks: otter-grader, nbgrader; dask: --executor; lti: pylti1p3
	@echo "setup: done"
	touch $@

# bubblewrap gives student code no network, a private /tmp and a narrow view of
# the disk. Installed when we are root with apt; otherwise the grader says
# "sandbox: basic" in its reports and goes on.
sandbox:
	@command -v bwrap >/dev/null 2>&1 \
	|| { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	     && (apt-get update -qq && apt-get install -y -qq bubblewrap) >/dev/null 2>&1; } \
	|| echo "note: bubblewrap is not installed (needs root and apt): student code will run in the basic sandbox"

# graphviz's `dot` draws a failing case's graph in the feedback pages; without it the pages
# show the graph as text and say so.
graphviz:
	@command -v dot >/dev/null 2>&1 \
	|| { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	     && (apt-get update -qq && apt-get install -y -qq graphviz) >/dev/null 2>&1; } \
	|| echo "note: graphviz's dot is not installed (needs root and apt): feedback shows graphs as text"

# a headless Chromium looks at the feedback pages as a student would (tests/report/test_pages_in_chromium.py:
# every graph fits 1280 px with its caption); without it that test is skipped and says why.
chromium:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 \
	|| { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	     && (apt-get update -qq && apt-get install -y -qq chromium) >/dev/null 2>&1; } \
	|| echo "note: chromium is not installed (needs root and apt): the test of the pages in a browser is skipped"

# axe-core checks every page type for WCAG 2.1 AA in that Chromium (tests/report/test_pages_accessible.py), from
# npm into .axe/ (npm from apt where it is missing); without it that test is skipped and says why.
AXE_CORE := axe-core@4.11.0
axe: chromium
	@[ -f .axe/node_modules/axe-core/axe.min.js ] \
	|| { { command -v npm >/dev/null 2>&1 || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1 \
	       && (apt-get update -qq && apt-get install -y -qq npm) >/dev/null 2>&1; }; } \
	     && npm install --silent --no-save --no-package-lock --prefix .axe $(AXE_CORE) >/dev/null 2>&1; } \
	|| echo "note: axe-core could not be installed (npm install $(AXE_CORE)): the accessibility test of the pages is skipped"

# the kit's own modules compiled once here: where PYTHONDONTWRITEBYTECODE is set (Docker images often set
# it) Python reads bytecode but never writes it, so every process (the CLI, each worker of a class) would
# compile the kit afresh, ~0.1 s of CPU each. compileall writes regardless, and only what is stale; a module
# edited later is compiled in memory, as before, until the next `make setup`.
setup: $(VENV)/.installed sandbox graphviz
	$(PY) -m compileall -q -j 0 autograder reference

run: setup
	$(PY) -m autograder exercises
	$(PY) -m autograder exercises --check
	$(PY) -m autograder.selfcheck
	@# exit 1 means a submission could not be graded: the sample class has one that imports torch
	$(PY) -m autograder grade examples/submissions --out $(SAMPLE_OUT) --regrade || [ $$? -eq 1 ]
	@echo "Open $(SAMPLE_OUT)/summary.html to see how the class did, and"
	@echo "$(SAMPLE_OUT)/feedback/alan_turing.html to see what a student receives."

# the tests on every core (pytest-xdist), a test file per worker: a file's module fixtures (a course
# built with nbgrader, a handout's venv) are built once. `make test` leaves out the slow end-to-end
# tests (real otter, nbgrader, kernels, browsers, venvs, platforms: under 3 minutes on 2 cores);
# `make test-all` runs them too, as CI does (.ci/run). The 15 slowest are listed at the end, so a slow run says
# where its time went; a test that hangs fails alone after pyproject's `timeout`, with its stacks.
PYTEST := $(PY) -m pytest -q -n auto --dist loadfile --durations=15

test: setup
	$(PY) -m autograder exercises --check
	$(PYTEST) -m "not slow"

test-all: setup chromium axe
	$(PY) -m autograder exercises --check
	$(PYTEST)

benchmark: setup
	$(PY) benchmarks/bench_reference.py
	$(PY) benchmarks/bench_grading.py
	$(PY) benchmarks/bench_corpus.py
	$(PY) benchmarks/bench_batch.py
	$(PY) benchmarks/bench_diagnosis.py

clean:
	rm -rf $(VENV) out .pytest_cache .hypothesis build *.egg-info .axe
