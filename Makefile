# Quick start: `make demo` and `make test` work on a fresh machine (they create .venv and install).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
GK := $(VENV)/bin/gatekeeper

.PHONY: setup test lint pytest bytecode policy-test demo bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml requirements-reference.txt
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	# The reference engine (OPA) declares Requires-Python >= 3.14 but runs on 3.11+; the flag applies to
	# this one hash-pinned wheel only (see requirements-reference.txt and docs/policies.md).
	$(PY) -m pip install --quiet --no-deps --ignore-requires-python --require-hashes -r requirements-reference.txt
	touch $@

# Order matters: the cheap static checks first, then the tests, then the policy suite.
test: setup
	$(MAKE) lint
	$(MAKE) pytest
	$(MAKE) policy-test

lint: setup
	$(VENV)/bin/ruff check
	$(VENV)/bin/mypy gatekeeper

# Two workers: the slow tests are end-to-end runs that wait on subprocesses (sandboxes, git, the CLI).
# They start first (tests/conftest.py START_FIRST) and an idle worker steals queued tests from a busy one,
# so both workers finish together.
pytest: setup bytecode
	$(PY) -m pytest -n 2 --dist worksteal

# The suite starts hundreds of `gatekeeper` processes; each compiles every module it imports unless a
# current .pyc exists, and PYTHONDONTWRITEBYTECODE (set on some CI machines) means none is ever written:
# 0.5 s of CPU per process instead of 0.25 s. compileall writes them whatever that variable says.
bytecode: setup
	$(PY) -m compileall -q gatekeeper tests

policy-test: setup
	$(GK) test --policy policies --fixtures fixtures

demo: setup
	$(PY) -m gatekeeper.demo

bench: setup
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) .demo bench/out
