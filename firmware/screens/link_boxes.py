"""The boxes over a linked game's board (firmware.screens.link): the pairing
code, on show until the first move, and "Waiting for" a friend not heard for
~5 s, with its three choices. The screen holds this module while a box
shows and lets it go when the box closes (GameScreen.helper, let_go), so
the game does not hold this code while it is played. The box is drawn with
the display's own text and shapes (no firmware.ui.draw to load for it).

"CPU plays" goes on in Reversi's own program, against the CPU (a launch),
so the linked game's program never loads the CPU's search; the linked game
stays saved as it is, for the friend (Continue, or their board back)."""
from micropython import const

from firmware.games.reversi import BLACK
from firmware.hal.controls import A, B, UP, DOWN
from firmware.screens.base import BACK
from firmware.screens.reversi_shared import YOU_BLACK, YOU_WHITE
from firmware.ui import tinyfont

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.link import Game

WAIT_CHOICES = ("Keep waiting", "Save, leave", "CPU plays")


def keys(screen: "Game", now):
    """A frame's keys while a box shows: the screen to go to (BACK) or None."""
    controls = screen.hal.controls
    if not screen.waiting:                 # the pairing code: A plays, B leaves
        if controls.just_pressed(A):
            screen.code = ""
            screen.redraw()
        elif controls.just_pressed(B):
            return BACK
        return None
    if screen.replacing:                   # "Replace your Reversi game?": A yes, B no
        if controls.just_pressed(A):
            cpu_plays(screen)
        elif controls.just_pressed(B):
            screen.replacing = False
            screen.box_dirty = True
        return None
    if controls.repeat(UP) and screen.wait_i > 0:
        screen.wait_i -= 1
        screen.box_dirty = True
    elif controls.repeat(DOWN) and screen.wait_i < len(WAIT_CHOICES) - 1:
        screen.wait_i += 1
        screen.box_dirty = True
    if controls.just_pressed(B):
        return BACK                        # saved by suspend()
    if controls.just_pressed(A):
        choice = screen.wait_i
        if choice == 1:                    # save and leave
            return BACK
        if choice == 2:                    # the CPU plays the friend's side
            # Reversi's save (its GAME["save"]; its module is not loaded here)
            if screen.hal.store.load("reversi", {}).get("game"):
                # Reversi has a game left unfinished, which this one would replace: ask first
                screen.replacing = True
                screen.box_dirty = True
                return None
            cpu_plays(screen)
        screen.waiting = False
        screen.redraw()
    return None


def cpu_plays(screen: "Game"):
    """The game goes on in Reversi against the CPU, you keeping your colour
    (not counted in Records): the position becomes Reversi's game in
    progress (in place of one left unfinished there: keys() asks first) and Reversi's program
    starts with it (a launch: never returns). The linked game is saved as
    it is first: Continue, or the friend's board back, picks it up here."""
    screen.suspend()                       # saved, and the radio off
    screen.hal.store.save("reversi", {
        "v": 1, "game": screen.game.to_dict(), "rated": False,
        "mode": YOU_BLACK if screen.colour == BLACK else YOU_WHITE,
        "level": screen.settings["level"]})
    screen.app.launch("reversi")


def _centred(fb, text, y):
    fb.text(text, (128 - len(text) * 8) // 2, y, 1)


def draw(screen: "Game", fb):
    """The box on show, over the board."""
    fb.fill_rect(4, 6, 120, 52, 0)
    fb.rect(4, 6, 120, 52, 1)
    if not screen.waiting:
        _centred(fb, screen.peer_name, 10)
        fb.text("Code", 16, 24, 1)
        fb.text(screen.code, 64, 24, 1)
        tinyfont.text(fb, "YOU PLAY " + ("BLACK" if screen.colour == BLACK else "WHITE"), 16, 38)
        tinyfont.text(fb, "A PLAY  B LEAVE", 16, 48)
        return
    if screen.replacing:
        _centred(fb, "Replace your", 12)
        _centred(fb, "Reversi game?", 22)
        tinyfont.text(fb, "A YES  B NO", 36, 42)
        return
    _centred(fb, "Waiting for", 9)
    _centred(fb, screen.peer_name, 18)
    for i in range(len(WAIT_CHOICES)):
        y = 28 + i * 9
        selected = i == screen.wait_i
        fb.fill_rect(6, y, 116, 9, 1 if selected else 0)
        fb.text(WAIT_CHOICES[i], 16, y + 1, 0 if selected else 1)
