"""What every screen is: the app loop calls update() and draw() once a frame.

A screen reads the controls and its rules in update(now_ms) and returns:
  None         to stay,
  BACK         to go back to the menu,
  a Screen     to switch to it (the app calls suspend() on this one first).
draw(display) paints what changed onto display.fb; the app flushes afterwards,
and the display sends only the bytes that differ, so redrawing a whole screen is
correct, just slower on the board. suspend() saves a game in progress; it runs
before leaving and before the panel goes to sleep.
"""

BACK = "back"


class Screen:
    def __init__(self, app, **options):
        self.app = app
        self.hal = app.hal
        self.options = options

    def update(self, now_ms):
        return None

    def draw(self, display):
        pass

    def suspend(self):
        pass

    def redraw(self):
        """Paint everything again on the next draw() (something covered the screen)."""
        self.dirty = True
