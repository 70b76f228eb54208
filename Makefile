# `make` sets up, generates and builds the site; `make test` sets up and runs every check.
# Both create .venv when it is missing and install what they need into it.

# The interpreter .venv is made from (Python 3.11 or newer). By default the distribution's own
# /usr/bin/python3, when it is new enough and can make a venv with pip, else python3 from PATH.
# Why: Debian's interpreter is built with profile-guided optimisation and libpython linked into
# the executable, and runs MkDocs about 15% faster than one built with --enable-shared and no
# PGO, as pyenv builds by default (measured: one language of a 1,000-code site, 4.3 s of CPU
# against 5.1 s). `make PYTHON=python3.13` picks another; an existing .venv is kept as it is.
CAN_MAKE_VENV := import sys, ensurepip, venv; sys.exit(sys.version_info < (3, 11))
PYTHON ?= $(firstword $(foreach p,/usr/bin/python3 python3,$(shell $(p) -c '$(CAN_MAKE_VENV)' >/dev/null 2>&1 && echo $(p))) python3)
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The MCP SDK's other major version: the dev extra installs 2.x, and the peer tests
# (tests/runtime/test_peers.py) read every MCP message with 1.x too, which still serves many
# clients. One environment cannot hold both, so 1.x and what it needs go into a folder of
# their own, which the test puts first on the path of a process of its own.
MCP1 := 'mcp>=1.20,<2'
export NO_MKDOCS_2_WARNING = 1

.PHONY: all setup generate site site-build site-strings check test ts-test lint typecheck example bench fuzz reliability clean

all: site

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	$(BIN)/python -m pip install --quiet --upgrade --target $(VENV)/mcp1 $(MCP1)
	touch $(STAMP)

setup: $(STAMP)

generate: $(STAMP)
	$(BIN)/errorbook generate

# Every published language is its own MkDocs build (its own search index), into
# site/build/<lang>/ (git-ignored); site/build/index.html points to the source language.
# `errorbook site build` runs `mkdocs build --strict` for each site/mkdocs.<lang>.yml, the
# languages side by side (separate processes), and fails if any build warns.
site: generate site-build

site-build: $(STAMP)
	$(BIN)/errorbook site build

# errorbook's own site text: extract it from the templates, merge it into each language.
# pybabel update dates every file it writes: a file whose text did not change is put back.
site-strings: $(STAMP)
	$(BIN)/pybabel extract -F templates/site/i18n/babel.cfg -k t -k tp -k plain -k label -k tn:1,2 -k tpn:1,2 --no-location \
		--no-wrap --sort-output --omit-header -o templates/site/i18n/site.pot .
	for po in templates/site/i18n/*.po; do \
		[ -e "$$po" ] || continue; lang=$$(basename "$$po" .po); cp -p "$$po" "$$po.before"; \
		$(BIN)/pybabel update --no-wrap --ignore-obsolete --no-fuzzy-matching -l $$lang \
			-i templates/site/i18n/site.pot -o "$$po" || { mv "$$po.before" "$$po"; exit 1; }; \
		if [ "$$(grep -v '^"POT-Creation-Date: ' "$$po")" = "$$(grep -v '^"POT-Creation-Date: ' "$$po.before")" ]; \
		then mv "$$po.before" "$$po"; else rm "$$po.before"; fi; \
	done

check: $(STAMP)
	$(BIN)/errorbook check

lint: $(STAMP)
	$(BIN)/ruff check generator tests scripts bench hatch_build.py templates/python
	$(BIN)/ruff format --check generator tests scripts bench hatch_build.py templates/python
	$(BIN)/ruff check --select E,F,W,B,RUF --ignore E501 surface_errors
	$(BIN)/ruff check examples/postgresql/convert.py
	$(BIN)/ruff format --check examples/postgresql/convert.py

typecheck: $(STAMP)
	$(BIN)/mypy
	$(BIN)/mypy --strict surface_errors

# The generated TypeScript module: tsc --strict, then node's test runner.
ts-test:
	cd ts && npm ci --silent --no-audit --no-fund && npm test --silent

# The second registry, examples/postgresql (PostgreSQL's SQLSTATE table): codes.yaml is what
# convert.py makes of errcodes.txt, errorbook validates it and finds its committed outputs
# fresh, and its English site builds strictly (into examples/postgresql/site/build/).
# tests/test_example_postgresql.py imports and uses its package.
EXAMPLE := examples/postgresql
example: $(STAMP)
	$(BIN)/python $(EXAMPLE)/convert.py --check
	cd $(EXAMPLE) && $(CURDIR)/$(BIN)/errorbook validate && $(CURDIR)/$(BIN)/errorbook check
	cd $(EXAMPLE) && $(CURDIR)/$(BIN)/errorbook site build

# The drift check runs first, on the files as committed: nothing regenerates them before it.
# The site is then built from those same committed pages.
test: $(STAMP)
	$(BIN)/errorbook check
	$(MAKE) --no-print-directory lint typecheck site-build ts-test example
	$(BIN)/python -m pytest -n auto

# Side by side with pybabel and GNU gettext on synthetic registries; writes the table the
# site's Performance page shows (site/pages/performance.md). Not part of `make test`.
bench: $(STAMP)
	$(BIN)/python bench/run.py

# Runs the robustness suites once and writes the site's Reliability page from the results.
reliability: $(STAMP)
	$(BIN)/python scripts/reliability.py

# The fuzzers of `make test`, for longer (seconds per target; default 300).
fuzz: $(STAMP)
	ERRORBOOK_FUZZ_SECONDS=$${ERRORBOOK_FUZZ_SECONDS:-300} $(BIN)/python -m pytest -q tests/robustness/test_fuzz.py

clean:
	rm -rf $(VENV) build dist site/build ts/node_modules ts/dist .pytest_cache .mypy_cache .ruff_cache \
		.hypothesis
