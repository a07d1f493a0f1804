# The two quick-start commands: `make run` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
BIN     = $(VENV)/bin
STAMP   = $(VENV)/.installed

.PHONY: run test lint typecheck pytest bench clean browser-deps

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/jantaku serve

lint: $(STAMP)
	$(BIN)/ruff check server tests bench migrations
	$(BIN)/ruff format --check server tests bench migrations

typecheck: $(STAMP)
	$(BIN)/mypy

pytest: $(STAMP)
	$(BIN)/pytest $(PYTEST_ARGS)

test: lint typecheck pytest

bench: $(STAMP)
	$(BIN)/python bench/selfplay.py

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
