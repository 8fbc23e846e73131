# Two commands: `make run` and `make test`. Each bootstraps .venv from PyPI on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench package clean lint

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,package]"
	@touch $(STAMP)

run: $(STAMP)
	$(PY) -m app.main --source resources/samples

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

lint: $(STAMP)
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	$(VENV)/bin/hangtag-inspect bench --source resources/samples --frames 200

package: $(STAMP)
	$(PY) packaging/build.py

clean:
	rm -rf build dist .pytest_cache
