"""What a program holds between frames (README, "Why the code looks like
this"): no records (app.records reads data/records.json where they are used
and lets them go) and, of the launch note, only what a restart after a
MemoryError needs."""
import gc
import json
import sys

from tests import saves
from tests.panel import shows
from tests.test_app import boot, choose, frames, nudge, tap, to_menu, wait
from tests.test_reversi_screen import (FULL_BUT_H8, YOU_BLACK, cursor_to, open_game,
                                       saved_game)
from tests.test_link_play import Room
from firmware.games.reversi import BLACK
from firmware.screens import reversi_shared as shared


def _records_held(arcade):
    """The Records objects (firmware/records.py) alive on this app's store:
    none between frames, whoever might hold one (the app, its screen...)."""
    gc.collect()
    store = arcade.hal.store
    return [o for o in gc.get_objects()
            if type(o).__name__ == "Records" and getattr(o, "store", None) is store]


def _write(store_dir, name, value):
    """A file as an older firmware (or another program) left it: plain JSON."""
    (store_dir / (name + ".json")).write_text(json.dumps(value))


def test_the_menu_and_a_game_hold_no_records_and_no_whole_note(board, store_dir):
    _write(store_dir, "records", {"2048": {"best score": 500, "best tile": 64}})
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    frames(arcade, 2)
    assert arcade.note == {}                          # the menu restarts as the menu
    assert not _records_held(arcade) and "firmware.records" not in sys.modules
    choose(board, arcade, "2048")
    assert type(arcade.screen).__name__ == "Game"
    assert arcade.screen.best == 500                  # read at the start, and let go
    frames(arcade, 2)
    # the game's start, for a restart after a MemoryError; not the settings'
    # note, the toast, the menu's cursor, the stick's reach...
    assert set(arcade.note) == {"start"}
    assert arcade.note["start"]["module"] == "firmware.screens.g2048"
    assert not _records_held(arcade) and "firmware.records" not in sys.modules
    assert not any(type(v).__name__ == "Records" for v in vars(arcade.app).values())


def test_a_linked_game_keeps_only_its_start_of_the_lobbys_note(tmp_path):
    room = Room(tmp_path)
    a, b = room.sides
    room.pair(a, b)
    for side in room.sides:
        # the lobby's note had the notes, the menu's cursor, the stick's
        # calibration...: the game keeps what starts it again, pairing and all
        assert set(side.app.note) == {"start"}
        assert side.app.note["start"]["options"]["paired"]["code"] == a.screen.code
        assert not _records_held(side.app)


def test_a_games_end_reads_the_records_file_then_and_keeps_no_records(board, store_dir):
    saved_game(store_dir, YOU_BLACK, start=FULL_BUT_H8, turn=BLACK, level=0)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    cursor_to(board, arcade, 7, 7)
    # written after the game started: the end adds to what the file says now
    _write(store_dir, "records", {"Reversi easy": {"won": 5}, "2048": {"best score": 900}})
    tap(board, arcade, "A")
    assert game.state == shared.OVER
    assert saves.read(store_dir / "records.json") == {"Reversi easy": {"won": 6},
                                                      "2048": {"best score": 900}}
    frames(arcade, 2)
    assert not _records_held(arcade) and "firmware.records" not in sys.modules


def test_records_damaged_while_a_game_runs_are_set_aside_at_its_end(board, store_dir):
    saved_game(store_dir, YOU_BLACK, start=FULL_BUT_H8, turn=BLACK, level=0)
    arcade = open_game(board, store_dir)
    game = arcade.screen
    cursor_to(board, arcade, 7, 7)
    (store_dir / "records.json").write_text('{"Reversi easy": {"won": "many"}}')
    tap(board, arcade, "A")
    assert game.state == shared.OVER
    assert (store_dir / "records.bad").read_text() == '{"Reversi easy": {"won": "many"}}'
    assert saves.read(store_dir / "records.json") == {"Reversi easy": {"won": 1}}
    frames(arcade, 2)
    assert shows(board.panel, "Records reset")         # said, as at power-on
    assert "records" in (store_dir / "crash.log").read_text()       # and why, in the log
    assert not _records_held(arcade)


def test_damaged_records_are_said_and_set_aside_at_power_on(board, store_dir):
    (store_dir / "records.json").write_text('{"2048": {"best score": -3}}')
    arcade = boot(board, store_dir)
    assert (store_dir / "records.bad").exists() and not (store_dir / "records.json").exists()
    frames(arcade, 2)
    assert shows(board.panel, "Records reset") and shows(board.panel, "file damaged")
    assert not _records_held(arcade)
    to_menu(board, arcade)
    choose(board, arcade, "Records")
    assert shows(board.panel, "No records yet.")


def test_a_failed_reset_in_settings_keeps_the_records(board, store_dir, monkeypatch):
    _write(store_dir, "records", {"2048": {"best score": 1234}})
    arcade = boot(board, store_dir)
    to_menu(board, arcade)
    choose(board, arcade, "Settings")
    while arcade.screen.rows[arcade.screen.cursor][1] != "Reset records":
        nudge(board, arcade, "down")
    monkeypatch.setattr(arcade.hal.store, "save", lambda name, value: False)
    tap(board, arcade, "A")
    tap(board, arcade, "A")                            # yes: but the flash says no
    assert shows(board.panel, "Not saved!")
    monkeypatch.undo()
    assert arcade.records.get("2048") == {"best score": 1234}
    assert saves.read(store_dir / "records.json") == {"2048": {"best score": 1234}}
    wait(arcade, 100)
    assert not _records_held(arcade)
