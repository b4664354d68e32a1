# Quick start: `make demo` and `make test` work on a fresh machine (they create .venv and install).
PYTHON ?= python3
VENV ?= .venv
PY := $(VENV)/bin/python
GK := $(VENV)/bin/gatekeeper

.PHONY: setup test lint pytest policy-test demo bench clean

setup: $(VENV)/.installed

$(VENV)/.installed: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	touch $@

# Order matters: the cheap static checks first, then the tests, then the policy suite.
test: setup
	$(MAKE) lint
	$(MAKE) pytest
	$(MAKE) policy-test

lint: setup
	$(VENV)/bin/ruff check
	$(VENV)/bin/mypy gatekeeper

pytest: setup
	$(PY) -m pytest

policy-test: setup
	$(GK) test --policy policies --fixtures fixtures

demo: setup
	$(PY) -m gatekeeper.demo

bench: setup
	$(PY) bench/run_all.py

clean:
	rm -rf $(VENV) .demo bench/out
