# boot.py runs first at every power-on and soft reset. Keep it empty of app
# code: if anything here failed, the board would stop before the REPL is usable.
import gc

gc.collect()
