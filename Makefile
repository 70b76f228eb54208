# `make` sets up, generates and builds; `make test` sets up and runs every check.
# Both create .venv when it is missing and install what they need into it.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: all setup generate check test lint typecheck clean

all: generate

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

generate: $(STAMP)
	$(BIN)/errorbook generate

check: $(STAMP)
	$(BIN)/errorbook check

lint: $(STAMP)
	$(BIN)/ruff check generator tests
	$(BIN)/ruff format --check generator tests
	$(BIN)/ruff check --select E,F,W,B,RUF --ignore E501 surface_errors

typecheck: $(STAMP)
	$(BIN)/mypy
	$(BIN)/mypy --strict surface_errors

test: $(STAMP) lint typecheck
	$(BIN)/errorbook check
	$(BIN)/python -m pytest

clean:
	rm -rf $(VENV) build dist .pytest_cache .mypy_cache .ruff_cache
