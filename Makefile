# Two set-up commands: `make run` and `make test`. Everything installs into .venv
# from pinned versions (constraints.txt).
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
# `make run PORT=9000 HOST=0.0.0.0` serves elsewhere than the default.
HOST ?= 127.0.0.1
PORT ?= 8000
# `make test TEST_WORKERS=0` runs the suite in one process (pytest-xdist's workers otherwise).
TEST_WORKERS ?= auto
STAMP := $(VENV)/.installed-$(shell cat pyproject.toml constraints.txt | cksum | cut -d' ' -f1)

.PHONY: run test lint fmt install bench browser clean catalog-table catalog-sync catalog-build

$(STAMP): pyproject.toml constraints.txt
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -c constraints.txt -e '.[server,dev]'
	rm -f $(VENV)/.installed-*; touch $@

install: $(STAMP)

run: install
	$(BIN)/skillgate serve --host $(HOST) --port $(PORT)

lint: install
	$(BIN)/ruff format --check src tests bench
	$(BIN)/ruff check src tests bench
	$(BIN)/mypy

fmt: install
	$(BIN)/ruff format src tests bench
	$(BIN)/ruff check --fix src tests bench

test: install lint
	$(BIN)/python -m skillgate.catalog
	bash tests/browser_setup.sh
	bash tests/clients_setup.sh
	$(BIN)/pytest -q -n $(TEST_WORKERS) --dist loadgroup $(PYTEST_ARGS)


bench: install
	bash bench/setup.sh
	$(BIN)/python bench/run.py

catalog-table: install
	@$(BIN)/skillgate catalog table

# Download the pinned official descriptions again (npm, PyPI) and recompile
# src/skillgate/catalog/compiled/ (never part of `make test`).
catalog-sync: install
	$(BIN)/skillgate catalog sync

# Recompile from the stored sources in catalog-sources/ (no network).
catalog-build: install
	$(BIN)/skillgate catalog build

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
	rm -rf tests/clients/node_modules tests/clients/generated tests/clients/build tests/clients/.cache
