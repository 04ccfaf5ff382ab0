# The two commands of the README: `make run` (the kit's main job) and `make test`.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python

.PHONY: run test setup benchmark clean

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[torch,dev]'
	touch $@

setup: $(VENV)/.installed

run: setup
	$(PY) -m autograder exercises
	$(PY) -m autograder exercises --check
	$(PY) -m autograder.selfcheck

test: setup
	$(PY) -m autograder exercises --check
	$(PY) -m pytest -q

benchmark: setup
	$(PY) benchmarks/bench_reference.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis build *.egg-info
