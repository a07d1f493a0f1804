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

test: lint typecheck browser-deps pytest

# Chromium for the browser tests (tests/web): Debian's package, never Playwright's own
# download. Idempotent; installs only when missing and running as root (CI), else says how.
browser-deps:
	@if command -v chromium >/dev/null 2>&1 || [ -x /usr/bin/chromium ]; then :; \
	elif [ "$$(id -u)" = 0 ]; then apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; \
	else echo "browser-deps: Chromium missing; install it with: sudo apt-get install chromium"; fi

# The reference engines (riichienv, jansou) are measured in the same run: installed here.
bench: $(STAMP)
	$(BIN)/pip install --quiet -e '.[dev,bench]'
	$(BIN)/python bench/selfplay.py --games 40

clean:
	rm -rf $(VENV) .venv-mjai .pytest_cache .mypy_cache .ruff_cache
