"""The ML4M simulator: the real firmware on the emulated board (tools/emu), shown in a
terminal (or written to PNG files when headless). Entry point: tools/sim.py.

Modules:
  render   -- the panel's pixels as terminal text (half blocks or braille) and the layout
  keys     -- terminal bytes -> key names, and the key map of the ML4M's controls
  controls -- key presses (a terminal sends no releases) -> timed board inputs
  replay   -- the JSON-lines file of timed inputs (--record / --replay)
  terminal -- raw mode, alternate screen, and putting the terminal back
  session  -- running boot.py + main.py with a periodic hook on the virtual clock
  cli      -- the command line
"""
