"""The link's words over a linked game's Reversi screen (firmware.screens.link):
the boxes over the board, the pairing code, on show until the first move,
and "Waiting for" a friend not heard for ~5 s, with its three choices; and
the link's fields on Reversi's panel (YOU/PAL, the friend's name, whose
move it is). The screen holds this module while a box shows, from when the
friend goes quiet (quiet()), and lets it go when the box closes
(GameScreen.helper, let_go), and borrows it for a moment when a field of
the panel changes (a move, a message, the help line), so the game does not
hold this code while it is played. The box is
drawn with the display's own text and shapes (no firmware.ui.draw to load
for it).

"CPU plays" goes on in Reversi's own program, against the CPU (a launch),
so the linked game's program never loads the CPU's search; the linked game
stays saved as it is, for the friend (Continue, or their board back)."""
from micropython import const

from firmware.games.reversi import BLACK, WHITE
from firmware.hal.controls import A, B, UP, DOWN
from firmware.screens.base import BACK, STATUS_LINE, HELP_LINE, ALL_FIELDS
from firmware.screens.reversi_shared import YOU_BLACK, YOU_WHITE, PLAY, OVER, COUNTS, MODE
from firmware.ui import tinyfont

_TYPE_CHECKING = const(False)   # "Game" for make check alone: no code on the board
if _TYPE_CHECKING:
    from firmware.screens.link import Game

_WAIT_CHOICES = const(("Keep waiting", "Save, leave", "CPU plays"))
_PANEL_X = const(66)
_BOARD = const("firmware.screens.reversi_draw")   # the board under the box


def quiet(screen: "Game", now):
    """The friend went quiet: "Waiting for" opens (in a game still played);
    or was heard again: it closes, and the status line says so."""
    session = screen.session
    screen.waiting = session.quiet and screen.state == PLAY
    screen.wait_i = 0
    screen.replacing = False
    screen.redraw()
    if not session.quiet:
        screen.say("FRIEND IS BACK", now)


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
    elif controls.repeat(DOWN) and screen.wait_i < len(_WAIT_CHOICES) - 1:
        screen.wait_i += 1
        screen.box_dirty = True
    if controls.just_pressed(B):
        return BACK                        # saved by suspend()
    if controls.just_pressed(A):
        choice = screen.wait_i
        if choice == 1:                    # save and leave
            return BACK
        if choice == 2:                    # the CPU plays the friend's side
            # Reversi's save (its GAME["save"]; its module is one board's, not loaded here)
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
    """The box on show, over the board: repainted only when something
    changed. The board's drawing code is let go meanwhile, as under
    Reversi's overlays (closing the box repaints everything)."""
    if screen.dirty or screen.box_dirty:
        if screen.dirty:
            screen.helper(_BOARD).draw(screen, fb)   # the board and Reversi's panel,
            panel(screen, fb, ALL_FIELDS)            # with the link's words on it
        screen.box_dirty = False
        _box(screen, fb)
    screen.let_go(_BOARD)


def _box(screen: "Game", fb):
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
    for i in range(len(_WAIT_CHOICES)):
        y = 28 + i * 9
        selected = i == screen.wait_i
        fb.fill_rect(6, y, 116, 9, 1 if selected else 0)
        fb.text(_WAIT_CHOICES[i], 16, y + 1, 0 if selected else 1)


def panel(screen: "Game", fb, fields):
    """The link's words on Reversi's panel, in the fields that changed (bits
    of screen.panel, as Reversi's panel drew them): who plays which colour,
    the friend's name, whose move it is, the keys."""
    x = _PANEL_X
    if fields & COUNTS:
        for colour, y in ((BLACK, 1), (WHITE, 11)):
            tag = "YOU" if colour == screen.colour else "PAL"
            fb.fill_rect(x + 49, y + 1, 13, 5, 0)
            tinyfont.text(fb, tag, x + 49, y + 1)
    if fields & MODE:
        fb.fill_rect(x, 21, 128 - x, 6, 0)
        tinyfont.text(fb, "LINK " + screen.peer_name, x, 21)
    if fields & STATUS_LINE and screen.state == PLAY and not screen.message:
        session = screen.session
        if session is not None and session.quiet:
            detail = "NOT HEARD"
        elif screen.game.turn == screen.colour:
            detail = "YOUR MOVE"
        else:
            detail = "FRIEND'S MOVE"
        fb.fill_rect(x, 46, 128 - x, 11, 0)
        tinyfont.text(fb, detail, x, 49)
    if fields & HELP_LINE:                 # no game menu here
        fb.fill_rect(x, 57, 128 - x, 7, 0)
        tinyfont.text(fb, "A NEW  B LEAVE" if screen.state == OVER else "A PLACE  B LEAVE",
                      x, 58)
