"""The end of a 2048 game (firmware.screens.g2048): the "You Win" and "Game
Over" banners. Borrowed when a game ends (GameScreen.borrow): the banner
keeps the code it needs, and that goes with the banner, so none of it is held
during play."""
from micropython import const

from firmware.ui import WIDTH, draw
from firmware.ui.banner import Banner, big_text

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.g2048 import Game


class GameOverBanner(Banner):
    """"Game Over" on two lines (one line would be wider than the panel)."""

    def draw(self, fb):
        fb.fill(0)
        x = 32
        if self.elapsed < 800:
            x = WIDTH - 96 * self.elapsed // 800
        big_text(fb, "Game", x, 0)
        big_text(fb, "Over", x, 17)
        y = 36
        for line in self.details:
            draw.centred(fb, line, y)
            y += 10


def win_banner(screen: "Game", now):
    """2048 made: the score, and the choice to keep going."""
    lines = ("score %d" % screen.game.score, "Keep going?", "A:yes B:menu")
    return Banner(screen.hal.display, "You Win", lines, now)


def game_over_banner(screen: "Game", now):
    """No move left: the score, and the best score or a new record."""
    first = "New record!" if screen.new_record else "best %d" % screen.best
    lines = ("score %d" % screen.game.score, first, "A:new B:menu")
    return GameOverBanner(screen.hal.display, "Game Over", lines, now)
