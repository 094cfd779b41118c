"""Play a friend: two emulated boards, each with its own App and flash, on one
emulated air (tools/emu/air.py), stepped frame by frame in turn on their
virtual clocks: pairing, a whole game, lost and repeated messages, reboots
on either side, a friend who never comes back, two pairs in one room."""
import random
import sys

import pytest

from firmware.boards import ml4m
from firmware.games.link_pairing import board_name
from firmware.games.reversi import BLACK, WHITE, square
from firmware.screens.reversi_shared import YOU_BLACK
from tests import saves
from tests.panel import shows, shows_tiny
from tools.emu import Board
from tools.emu.air import Air
from tools.emu.runner import Runner


class Side:
    """One player: a board in the room, its flash, its App."""

    def __init__(self, air, store_dir, metres=1.0, wiring=None, games=None):
        self.board = Board(wiring=wiring)
        self.games = games
        self.poll = None               # a UDP air's hook (tools/emu/air_udp.py)
        self.store_dir = store_dir
        self.air = air
        air.join(self.board, metres)
        self.power_on()

    def power_on(self):
        self.board.make_current()
        self.board.radio.reset()
        self.board.power_cycle()
        # the firmware on this board across its soft resets (tools/emu/runner.py)
        self.app = Runner(self.board, self.store_dir, ml4m, games_folder=self.games)

    @property
    def screen(self):
        return self.app.screen

    def step(self):
        self.board.make_current()
        if self.poll is not None:
            self.poll()
        self.app.step()


class Room:
    def __init__(self, tmp_path, n=2, wiring=None, games=None, **air):
        random.seed(1)
        self.air = Air(seed=2, **air)
        self.sides = [Side(self.air, tmp_path / ("flash%d" % i), metres=i + 1, wiring=wiring,
                           games=games) for i in range(n)]
        for side in self.sides:
            side.store_dir.mkdir(exist_ok=True)

    def frames(self, n=1, sides=None):
        for _ in range(n):
            for side in sides or self.sides:
                side.step()

    def tap(self, side, button):
        side.board.press(button)
        self.frames(3)
        side.board.release(button)
        self.frames(3)

    def nudge(self, side, direction):
        side.board.push(direction)
        self.frames(2)
        side.board.center()
        self.frames(3)

    def until(self, cond, most=3000, sides=None):
        for _ in range(most):
            if cond():
                return True
            self.frames(1, sides)
        return cond()

    def to_link_game(self, side, lobby=True):
        """From power-on: the menu, then "Play a friend": with no linked game
        to continue, the lobby's program (lobby=False: it refuses)."""
        assert self.until(lambda: type(side.screen).__name__ == "Menu", 200)
        menu = side.screen
        target = menu.labels.index("Play a friend")
        while menu.cursor != target:
            self.nudge(side, "down")
        self.tap(side, "A")
        assert type(side.screen).__name__ == "Lobby"
        assert (side.screen.lobby is not None) == lobby

    def pair(self, inviter, invitee):
        """inviter invites invitee from the lobby; both see the same code."""
        for side in (inviter, invitee):
            if type(side.screen).__name__ != "Lobby":
                self.to_link_game(side)
        name = invitee.screen.my_name         # (the lobby says it: YOU ARE ...)
        assert self.until(lambda: any(b[1] == name for b in inviter.screen.lobby.boards), 200)
        lobby = inviter.screen.lobby
        while lobby.boards[inviter.screen.lobby_i][1] != name:
            self.nudge(inviter, "down")
        self.tap(inviter, "A")
        assert self.until(lambda: invitee.screen.lobby is not None
                          and invitee.screen.lobby.invited_by is not None, 200)
        assert shows(invitee.board.panel, "invites you")
        self.tap(invitee, "A")
        # paired: each board starts the linked game in a program of its own
        assert self.until(lambda: linked(inviter) and linked(invitee), 200)
        self.frames(2)
        return inviter.screen.code

    def paired_game(self):
        """The two boards paired, the pairing code seen on both: the linked
        game on (the inviter, Black, first)."""
        a, b = self.sides
        self.pair(a, b)
        for side in (a, b):
            self.tap(side, "A")                   # the code seen: play
        return a, b

    def place(self, side, move):
        """Move side's cursor to the square and press A."""
        game = side.screen
        col, row = move % 10 - 1, move // 10 - 1
        while game.cx != col:
            self.nudge(side, "right" if game.cx < col else "left")
        while game.cy != row:
            self.nudge(side, "down" if game.cy < row else "up")
        self.tap(side, "A")


def linked(side):
    """side shows the linked game (not the menu, not the lobby)."""
    return getattr(side.screen, "session", None) is not None


def name(side):
    """The board's name, as the other board lists it."""
    return board_name(side.board.radio.mac)


def saved(side):
    return saves.read(side.store_dir / "link.json")


def position(side):
    return bytes(side.screen.game.board), side.screen.game.turn


def play_a_move(room, sides, rng):
    """The side whose turn it is plays a random legal move with the stick and A
    (a pass notice: A passes). False when the game is over."""
    for side in sides:
        game = side.screen
        if game.state != 0:
            return False
        if game.game.turn == game.colour and not game.flip_n:
            if game.game.must_pass():
                room.tap(side, "A")
            else:
                moves = game.game.legal_moves()
                room.place(side, moves[rng.randrange(len(moves))])
            return True
    room.frames(1)
    return True


def test_pairing_shows_the_same_code_on_both_and_the_inviter_plays_black(tmp_path):
    room = Room(tmp_path)
    a, b = room.sides
    code = room.pair(a, b)
    assert len(code) == 4 and code == b.screen.code
    for side in (a, b):
        assert shows(side.board.panel, code)
    assert a.screen.colour == BLACK and b.screen.colour == WHITE
    assert shows(a.board.panel, name(b)) and shows(b.board.panel, name(a))


def test_a_whole_game_both_boards_agree_and_count_the_result(tmp_path):
    room = Room(tmp_path)
    a, b = room.paired_game()
    rng = random.Random(4)
    for _ in range(3000):
        if not play_a_move(room, (a, b), rng):
            break
    assert room.until(lambda: a.screen.state == 1 and b.screen.state == 1, 300)
    assert position(a) == position(b)
    room.frames(30)
    results = sorted(tuple(side.app.records.get("Friends").items()) for side in (a, b))
    assert results in ([(("lost", 1),), (("won", 1),)], [(("drawn", 1),), (("drawn", 1),)])
    for side in (a, b):                          # the count, said the player's way round
        assert side.screen.end_lines[2].startswith("YOU ")
    assert a.screen.session.number == b.screen.session.number > 50


def test_only_the_player_to_move_places_a_disc(tmp_path):
    room = Room(tmp_path)
    a, b = room.paired_game()
    before = position(b)
    room.place(b, square(2, 3))                   # c4: Black's move, tried by White
    assert position(b) == before and b.screen.message == "FRIEND'S TURN"
    room.place(a, square(2, 3))
    assert room.until(lambda: b.screen.game.turn == WHITE, 100)
    assert position(a) == position(b)
    assert saved(b)["link"]["number"] == 1 and saved(a)["link"]["number"] == 1
    room.tap(a, "C")                              # undo: not in a shared game
    assert position(a) == position(b) and a.screen.message == "NO UNDO: LINKED"


def test_a_lost_acknowledgement_and_a_duplicated_move(tmp_path):
    room = Room(tmp_path, duplicate=1.0)          # every message heard twice
    a, b = room.paired_game()
    room.air.loss = 1.0                           # nothing gets through...
    room.place(a, square(2, 3))
    room.frames(20)
    assert b.screen.game.turn == BLACK and a.screen.session.pending
    room.air.loss = 0.0                           # ...then it does (sent again)
    assert room.until(lambda: not a.screen.session.pending, 100)
    assert position(a) == position(b) and b.screen.session.number == 1
    room.place(b, b.screen.game.legal_moves()[0])
    assert room.until(lambda: a.screen.session.number == 2 and not b.screen.session.pending, 100)
    assert position(a) == position(b)


@pytest.mark.parametrize("who", ["sender", "receiver"])
def test_a_power_cut_in_the_middle_of_a_move(tmp_path, who):
    room = Room(tmp_path)
    a, b = room.paired_game()
    room.air.loss = 1.0
    room.place(a, square(2, 3))                   # Black's move, not heard yet
    cut = a if who == "sender" else b
    cut.power_on()                                # the power comes back on
    room.air.loss = 0.0
    room.until(lambda: type(cut.screen).__name__ == "Menu", 200)
    room.frames(2)                                # (the menu's program: its first frame)
    assert shows(cut.board.panel, "Continue")
    menu = cut.screen
    while menu.labels[menu.cursor] != "Continue":
        room.nudge(cut, "up")
    room.tap(cut, "A")
    assert type(cut.screen).__name__ == "Game" and cut.screen.session is not None
    assert room.until(lambda: a.screen.session.number == b.screen.session.number == 1
                      and not a.screen.session.pending, 300)
    assert position(a) == position(b)
    room.place(b, b.screen.game.legal_moves()[0])
    assert room.until(lambda: a.screen.session.number == 2, 100)
    assert position(a) == position(b)


def test_a_friend_who_never_comes_back(tmp_path):
    room = Room(tmp_path)
    a, b = room.paired_game()
    room.place(a, square(2, 3))
    room.frames(10)
    room.air.leave(b.board)                       # carried away
    room.frames(6 * 30, sides=[a])
    assert a.screen.waiting and shows(a.board.panel, "Waiting for")
    assert shows(a.board.panel, name(b))
    # "CPU plays": the game goes on in Reversi's own program, against the
    # CPU (White's moves), the radio off; the linked game is kept as it was
    linked_position = position(a)
    for _ in range(2):
        room.nudge(a, "down")
    room.tap(a, "A")
    assert type(a.screen).__module__ == "firmware.screens.reversi"
    assert position(a) == linked_position and not a.board.radio.wlan_on
    assert a.screen.mode == YOU_BLACK and not a.screen.rated
    a.screen.node_budget = 200
    assert room.until(lambda: a.screen.game.turn == BLACK, 200, sides=[a])
    assert a.screen.game.ply == 2
    assert saved(a)["link"]["number"] == 1 and saved(a)["game"]["moves"] == ["c4"]
    # B leaves; Continue brings back the game against the CPU (Reversi's
    # game in progress), and Play a friend the linked one, as it was
    room.tap(a, "B")
    assert type(a.screen).__name__ == "Menu" and shows(a.board.panel, "Continue")
    assert saves.read(a.store_dir / "reversi.json")["game"]["moves"][:1] == ["c4"]
    menu = a.screen
    while menu.labels[menu.cursor] != "Play a friend":
        room.nudge(a, "down")
    room.tap(a, "A")
    assert type(a.screen).__module__ == "firmware.screens.link"
    assert a.screen.session.number == 1 and position(a) == linked_position


def test_cpu_plays_asks_before_it_replaces_a_reversi_game_left_unfinished(tmp_path):
    room = Room(tmp_path)
    a, b = room.paired_game()
    room.place(a, square(2, 3))
    room.frames(10)
    mine = {"v": 1, "game": {"moves": ["d3", "c3"]}, "mode": YOU_BLACK, "level": 2, "rated": True}
    a.screen.hal.store.save("reversi", mine)      # a one-board game left unfinished
    room.air.leave(b.board)
    room.frames(6 * 30, sides=[a])
    for _ in range(2):
        room.nudge(a, "down")
    room.tap(a, "A")                               # CPU plays: it asks first
    assert type(a.screen).__module__ == "firmware.screens.link"
    assert shows(a.board.panel, "Replace your") and shows(a.board.panel, "Reversi game?")
    room.tap(a, "B")                               # no: the Waiting box again, Reversi's game kept
    assert a.screen.waiting and shows(a.board.panel, "Waiting for")
    assert saves.read(a.store_dir / "reversi.json") == mine
    room.tap(a, "A")                               # CPU plays (still chosen), and yes
    room.tap(a, "A")
    assert type(a.screen).__module__ == "firmware.screens.reversi"
    assert saves.read(a.store_dir / "reversi.json")["game"]["moves"][:1] == ["c4"]


def test_waiting_then_save_and_leave_turns_the_radio_off(tmp_path):
    room = Room(tmp_path)
    a, b = room.sides
    room.pair(a, b)
    room.tap(a, "A")
    room.air.leave(b.board)
    room.frames(6 * 30, sides=[a])
    assert a.screen.waiting
    room.nudge(a, "down")
    room.tap(a, "A")                               # save and leave
    assert type(a.screen).__name__ == "Menu" and not a.board.radio.wlan_on
    assert saved(a)["link"]["session"] == b.screen.session.session


def test_a_friend_heard_again_closes_the_waiting_box(tmp_path):
    room = Room(tmp_path)
    a, b = room.paired_game()
    room.air.loss = 1.0                            # nothing gets through for a while
    room.frames(6 * 30)
    assert a.screen.waiting and shows(a.board.panel, "Waiting for")
    # under the box, the panel's keys are the linked game's (B LEAVE), not Reversi's (B MENU)
    assert shows_tiny(a.board.panel, "A PLACE") and not shows_tiny(a.board.panel, "MENU")
    room.air.loss = 0.0
    assert room.until(lambda: not a.screen.waiting, 100)
    room.frames(1)
    assert a.screen.message == "FRIEND IS BACK" and not shows(a.board.panel, "Waiting for")
    room.place(a, square(2, 3))                    # and the game goes on
    assert room.until(lambda: b.screen.session.number == 1 and not a.screen.session.pending, 100)
    assert position(a) == position(b)


def test_two_pairs_in_one_room(tmp_path):
    room = Room(tmp_path, n=4)
    a, b, c, d = room.sides
    room.pair(a, b)
    room.pair(c, d)
    assert a.screen.session.session != c.screen.session.session
    for side in room.sides:
        room.tap(side, "A")
    room.place(a, square(2, 3))
    room.place(c, square(3, 2))
    room.frames(20)
    assert position(a) == position(b) and position(c) == position(d)
    assert position(a) != position(c)


def test_a_board_with_its_stick_on_adc2_refuses_with_the_reason(tmp_path, monkeypatch):
    from tools.emu.board import ML4M
    monkeypatch.setattr(ml4m, "JOY_X_PIN", 4)      # the board file puts the stick on ADC2
    room = Room(tmp_path, n=1, wiring=dict(ML4M, joystick_x=4))
    (a,) = room.sides
    assert room.until(lambda: type(a.screen).__name__ == "Menu", 200)
    room.to_link_game(a, lobby=False)
    assert shows(a.board.panel, "Stick on GPIO4:") and shows(a.board.panel, "ADC2, no radio")
    assert not a.board.radio.wlan_on
    room.tap(a, "B")
    assert type(a.screen).__name__ == "Menu"


def test_a_linked_game_saved_on_a_board_that_cannot_link_now_goes_to_the_lobby_s_reason(
        tmp_path, monkeypatch):
    room = Room(tmp_path)
    a, b = room.paired_game()
    room.place(a, square(2, 3))
    assert room.until(lambda: not a.screen.session.pending, 100)
    monkeypatch.setattr(ml4m, "RADIO", False)     # the board file changed: no radio now
    a.power_on()
    room.to_link_game(a, lobby=False)             # the linked game's program refuses
    assert shows(a.board.panel, "No radio on") and shows(a.board.panel, "this board")
    assert not a.board.radio.wlan_on
    assert saved(a)["link"]["number"] == 1        # the linked game kept, for later


def choose(room, side, label):
    """From the menu: the entry label, A."""
    assert room.until(lambda: type(side.screen).__name__ == "Menu", 200)
    menu = side.screen
    while menu.labels[menu.cursor] != label:
        room.nudge(side, "down")
    room.tap(side, "A")


def test_the_linked_game_declares_reversi_s_hints_and_level_and_a_mode_of_its_own():
    from firmware.screens import link, reversi
    from firmware.screens.reversi_shared import TWO_PLAYERS
    declared = {s[0]: s for s in link.GAME["settings"]}
    assert list(declared) == ["hints", "level", "mode"]
    for name in ("hints", "level"):                   # Reversi's, less where an older firmware kept them
        assert declared[name] == [s for s in reversi.GAME["settings"] if s[0] == name][0][:4]
    assert declared["mode"] == ("mode", None, ((TWO_PLAYERS, "linked"),), TWO_PLAYERS)


def test_reversi_s_mode_link_set_in_settings_opens_play_a_friend(tmp_path):
    from firmware import gamelist
    from firmware.screens.reversi_shared import LINK
    room = Room(tmp_path, n=1)
    (a,) = room.sides
    assert room.until(lambda: type(a.screen).__name__ == "Menu", 200)
    reversi = [g for g in gamelist.games(a.app) if g["id"] == "reversi"][0]
    modes = [s for s in reversi["settings"] if s[0] == "mode"][0][2]
    assert [LINK, "link"] in [list(m) for m in modes]     # a value of Reversi's Mode row
    assert gamelist.set_setting(a.app, "reversi", "mode", LINK)   # as Settings sets it
    choose(room, a, "Reversi")
    assert type(a.screen).__name__ == "Lobby" and a.screen.lobby is not None
    assert a.board.radio.wlan_on and shows(a.board.panel, "Play a friend")
    room.tap(a, "B")                                      # back: the menu, the radio off
    assert type(a.screen).__name__ == "Menu" and not a.board.radio.wlan_on


def test_reversi_s_mode_link_in_the_pause_menu_opens_play_a_friend(tmp_path):
    room = Room(tmp_path, n=1)
    (a,) = room.sides
    choose(room, a, "Reversi")
    game = a.screen
    room.place(a, game.game.legal_moves()[0])             # a game in progress
    room.frames(30)                                       # (the CPU's reply)
    played = game.game.ply
    room.tap(a, "E")
    labels = [row[1] for row in a.screen.rows]
    while labels[a.screen.cursor] != "Mode":
        room.nudge(a, "down")
    while not shows(a.board.panel, "CPU demo"):           # the value before "link"
        room.nudge(a, "right")
    mode = game.mode                                      # (each value is used at once)
    room.nudge(a, "right")                                # "link": Play a friend, now
    assert type(a.screen).__name__ == "Lobby"
    room.tap(a, "B")
    # the one-board game was kept, in its own mode: Continue brings it back
    choose(room, a, "Continue")
    assert type(a.screen).__name__ == "Game" and a.screen.game.ply == played
    assert a.screen.mode == mode


def play_a_game(room, seed, most=6000):
    """Pair the room's two boards and play a game of random moves to its end;
    True when both boards ended it and agree on the position."""
    a, b = room.paired_game()
    rng = random.Random(seed)
    for _ in range(most):
        if not play_a_move(room, (a, b), rng):
            break
    room.until(lambda: a.screen.state == 1 and b.screen.state == 1, 600)
    return a.screen.state == b.screen.state == 1 and position(a) == position(b)


def test_a_lossy_air_the_game_finishes_and_both_boards_agree(tmp_path):
    # a longer run of this: make soak (tools/soak_link.py)
    room = Room(tmp_path, loss=0.2, duplicate=0.1, reorder=0.2)
    assert play_a_game(room, 7)
    assert room.air.lost > 0


def test_the_readme_s_two_board_example(tmp_path):
    import os
    import re
    import sys
    readme = open(os.path.join(os.path.dirname(os.path.dirname(__file__)), "README.md")).read()
    code = re.search(r"```python\n(.*?)```", readme.split("<!-- example-link -->", 1)[1],
                     re.S).group(1)
    games = tmp_path / "games"
    games.mkdir()
    (games / "buzz.py").write_text(code)
    sys.modules.pop("buzz", None)
    room = Room(tmp_path, games=str(games))
    a, b = room.sides
    for side in (a, b):
        assert room.until(lambda: type(side.screen).__name__ == "Menu", 200)
        menu = side.screen
        while menu.labels[menu.cursor] != "Buzz":
            room.nudge(side, "down")
        room.tap(side, "A")
        assert side.board.radio.wlan_on
    room.frames(40)
    assert shows(a.board.panel, "Boards heard: 1")
    room.tap(a, "A")                                # invite
    assert room.until(lambda: shows(b.board.panel, "A: play"), 60)
    assert shows(b.board.panel, a.screen.lobby.name.decode())
    room.tap(b, "A")                                # accept
    assert room.until(lambda: shows(a.board.panel, b.screen.lobby.name.decode()), 60)
    room.tap(a, "A")
    room.tap(a, "A")
    assert room.until(lambda: b.screen.buzzes == 2, 60) and shows(b.board.panel, "Buzzed: 2")
    room.tap(b, "B")
    assert not b.board.radio.wlan_on                # suspend() turned it off


def test_two_simulators_over_localhost_udp(tmp_path):
    """make sim LINK=1 twice: each board's radio on a UDP port of its own."""
    from tools.emu.air_udp import UdpAir
    room = Room(tmp_path)
    airs = []
    try:
        for side in room.sides:
            room.air.leave(side.board)
            air = UdpAir(ports=range(47400, 47402))   # not the simulators' own ports
            air.join(side.board)
            side.poll = air.poll
            airs.append(air)
        a, b = room.sides
        code = room.pair(a, b)
        assert code == b.screen.code
        for side in (a, b):
            room.tap(side, "A")
        room.place(a, square(2, 3))
        assert room.until(lambda: b.screen.session.number == 1
                          and not a.screen.session.pending, 100)
        assert position(a) == position(b)
    finally:
        for air in airs:
            air.close()


def test_a_linked_game_s_program_holds_none_of_one_board_s_code(tmp_path):
    """Play a friend is Reversi's play on the board (reversi_shared.Play),
    not the one-board screen: its program never loads the CPU's move, undo,
    surrender, the modes or one board's GAME (firmware.screens.reversi), not
    even for the pairing code's box, a pass notice or the pause menu."""
    room = Room(tmp_path)
    a, b = room.sides
    room.pair(a, b)
    one_board = ("firmware.screens.reversi", "firmware.screens.reversi_cpu",
                 "firmware.games.reversi_ai")
    assert not [m for m in one_board if m in sys.modules]
    for side in (a, b):
        room.tap(side, "A")                       # the code seen: play
    room.place(a, square(2, 3))
    assert room.until(lambda: b.screen.game.turn == WHITE, 100)
    room.tap(a, "C")                              # (no undo here: said so)
    room.tap(b, "E")                              # the pause menu, and back
    room.tap(b, "B")
    assert linked(a) and linked(b)
    assert not [m for m in one_board if m in sys.modules]


def test_the_pause_menu_s_keys_are_the_linked_game_s(tmp_path):
    """Keys in the pause menu over a linked game: its own keys (B leaves; no
    undo, which one-board Reversi's help line offers)."""
    from tests.panel import shows_tiny
    room = Room(tmp_path)
    a, b = room.sides
    room.pair(a, b)
    room.tap(b, "A")                              # the code seen: play
    room.tap(b, "E")
    pause = b.screen
    while pause.rows[pause.cursor][1] != "Keys":
        room.nudge(b, "down")
    room.tap(b, "A")
    assert shows_tiny(b.board.panel, "A PLACE  B LEAVE")
    assert not shows_tiny(b.board.panel, "C UNDO  E PAUSE")
