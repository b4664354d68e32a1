# Quick start: `make demo` and `make test` work on a fresh machine (they create .venv and install).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
GK := $(VENV)/bin/gatekeeper

.PHONY: setup test lint pytest policy-test demo bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml requirements-reference.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	# The reference engine (OPA) declares Requires-Python >= 3.14 but runs on 3.11+; the flag applies to
	# this one hash-pinned wheel only (see requirements-reference.txt and docs/policies.md).
	$(PY) -m pip install --quiet --no-deps --ignore-requires-python --require-hashes -r requirements-reference.txt
	touch $@

# The three steps run side by side: mypy (~12-15 CPU-s cold: docs/measurements.md, suite round 27) and `gatekeeper
# test` (~4 s) use one core each, and run one after the other they left the second core idle for ~20 s before pytest
# started. Their few lines arrive
# among pytest's progress lines (not --output-sync, which would hold pytest's progress back until it ends);
# any step failing fails `make test`.
test: setup
	$(MAKE) --no-print-directory -j3 lint pytest policy-test

lint: setup
	$(VENV)/bin/ruff check
	$(VENV)/bin/mypy gatekeeper

# Two workers: the slow tests are end-to-end runs that wait on subprocesses (sandboxes, git, the CLI).
# They start first (tests/conftest.py START_FIRST) and an idle worker steals queued tests from a busy one,
# so both workers finish together.
# Bytecode is written even where PYTHONDONTWRITEBYTECODE is set (some CI images set it): without .pyc files
# each pytest worker redoes the assertion rewriting of every test module (~5 s of CPU) and each of the
# `gatekeeper` processes the suite starts compiles every module it imports (0.5 s of CPU instead of 0.25 s).
pytest: setup
	env -u PYTHONDONTWRITEBYTECODE $(PY) -m pytest -n 2 --dist worksteal

policy-test: setup
	$(GK) test --policy policies --fixtures fixtures

demo: setup
	$(PY) -m gatekeeper.demo

bench: setup
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) .demo bench/out
