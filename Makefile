# Two commands: `make run` and `make test`. Each bootstraps .venv from PyPI on first use.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

.PHONY: run test bench package clean lint system-deps reliability soak screenshots train-deps

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev,package]"
	@touch $(STAMP)

run: $(STAMP)
	$(PY) -m app.main --source resources/samples

test: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

# Golden screenshots of the window (tests/test_gui_screenshots.py compares against them): regenerate, look, commit.
screenshots: $(STAMP)
	QT_QPA_PLATFORM=offscreen $(PY) -m app.screenshots --out docs/screenshots

# The whole reliability battery (issue 15), slow cases included: run before each release.
reliability: $(STAMP)
	HANGTAG_RELIABILITY=1 QT_QPA_PLATFORM=offscreen $(PY) -m pytest tests/reliability

# A bounded soak with reading (issue 15): the headless station over the looping samples for SOAK_MINUTES, niced,
# RSS every 25 frames into build/soak.csv and build/soak.png, then its drift per 1 000 frames and the 100 000-frame
# extrapolation (labelled as one). `timeout` ends it even if a frame hangs (the record is then made from the CSV,
# written as it goes, and make still fails).
SOAK_MINUTES ?= 30
soak: $(STAMP)
	timeout $$(( $(SOAK_MINUTES) * 60 + 300 )) nice -n 10 $(PY) -m tests.reliability.soak --frames 100000 \
	  --minutes $(SOAK_MINUTES) --every 25 --warmup 300 --csv build/soak.csv --png build/soak.png \
	  || { rc=$$?; $(PY) -m tests.reliability.soak --from-csv build/soak.csv --warmup 300 --png build/soak.png; exit $$rc; }

# PyTorch for Adapt's fine-tune tests (the 'train' extra), as a CPU build: 2.13.0+cpu is the build this machine
# kind keeps on disk (190 MB); elsewhere pip may fetch a CUDA build, so a failure only makes those tests skip.
train-deps: $(STAMP)
	@$(PY) -c "import torch" 2>/dev/null || $(PY) -m pip install --quiet "torch==2.13.0" \
	  || echo "PyTorch not installed: Adapt's fine-tune tests will skip"

lint: $(STAMP)
	$(VENV)/bin/lint-imports

bench: $(STAMP)
	$(VENV)/bin/hangtag-inspect bench --source resources/samples --frames 200

package: $(STAMP)
	$(PY) packaging/build.py

clean:
	rm -rf build dist .pytest_cache

# System packages the tests' real peers need (listed in .ci/apt-packages.txt); needs root and apt.
system-deps:
	@pkgs="$$(sed -e 's/#.*//' .ci/apt-packages.txt | xargs)"; \
	if [ -z "$$pkgs" ]; then exit 0; fi; \
	missing="$$(for p in $$pkgs; do dpkg -s $$p >/dev/null 2>&1 || echo $$p; done | xargs)"; \
	if [ -z "$$missing" ]; then exit 0; fi; \
	if [ "$$(id -u)" != 0 ] || ! command -v apt-get >/dev/null; then \
	  echo "system packages missing: $$missing (tests that need them will skip)"; exit 0; fi; \
	apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing
