# kingclub — the two commands a new user needs: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml | cksum | cut -d' ' -f1)
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: install run test test-postgres lint format bench demo clean e2e-deps

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/pip install --quiet -e ".[dev]"
	rm -f $(VENV)/.installed-*
	touch $(STAMP)

## install: create .venv if missing and install kingclub with the dev extras (and, when npm is
## on the machine, axe-core from the npm registry for the accessibility browser test)
install: $(STAMP) e2e-deps

AXE := node_modules/axe-core/axe.min.js
$(AXE): package.json package-lock.json
	npm ci --no-audit --no-fund --loglevel=error
	touch $(AXE)

## e2e-deps: axe-core (pinned in package-lock.json) into node_modules/; skipped without npm
e2e-deps:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(AXE); \
	else echo "npm not found: the accessibility browser test will be skipped"; fi

## run: install, migrate, load the demo club into an empty database, serve on 127.0.0.1:8000
run: install
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py createcachetable
	$(BIN)/python manage.py seed_demo --if-empty
	$(BIN)/python manage.py runserver $(HOST):$(PORT)

## test: install and run the whole test suite (SQLite; browser tests need Chromium) in random
## order, on one worker per core (WORKERS=1 for one process; the longest modules first, see
## tests/conftest.py), with the ten slowest tests; docs/testing.md says how to run a part and
## replay an order
WORKERS ?= auto
PYTEST_PARALLEL = $(if $(filter 0 1,$(WORKERS)),,-n $(WORKERS) --dist loadscope --no-loadscope-reorder)
test: install
	$(BIN)/python -m pytest $(PYTEST_PARALLEL) --durations=10

## test-postgres: the suite against PostgreSQL (DATABASE_URL, default the local server); the
## browser tests run on SQLite only (they test the pages, which `make test` already drives)
test-postgres: install
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} $(BIN)/python -m pytest \
		--ignore=tests/e2e $(PYTEST_PARALLEL) --durations=10

## lint: ruff, then the import contracts of pyproject.toml (layers, no import circle; see
## docs/architecture.md)
lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-logo

format: install
	$(BIN)/ruff format .
	$(BIN)/ruff check --fix .

## bench: benchmarks (see docs/benchmarks.md)
bench: install
	$(BIN)/python -m benchmarks.run
	$(BIN)/python -m benchmarks.trust --doc docs/benchmarks.md

clean:
	rm -rf $(VENV) staticfiles .pytest_cache
