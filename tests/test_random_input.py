"""Seeded random play over every screen (tools/soak.py, a thousand inputs;
make soak runs 100,000 on CPython and on MicroPython): nothing escapes the
app, no crash screen, no screen B cannot leave, no growth of live objects,
the pause menu reached in every game; and the plan itself
(tools/bench/soak_plan.py) holds every kind of input it promises."""
import os

import pytest

from tools import soak
from tools.bench import soak_plan

# (Play a friend alone in the room: its lobby, a program of its own; the
# linked game needs a second board, tests/test_link_play.py)
EVERY_SCREEN = {"Menu", "Records", "SettingsScreen", "About", "Pause", "firmware.screens.puzzle",
                "firmware.screens.g2048", "firmware.screens.reversi", "Lobby", "dot"}


def play(store_dir, inputs, seed, before_start=()):
    """The soak on a flash in store_dir, with the README's example game in /games."""
    return soak.soak(inputs, seed, str(store_dir / "data"), before_start=before_start,
                     games_folder=soak.with_example_game(str(store_dir)))


def steps_of(seed, n):
    return [step for steps in soak_plan.inputs(seed, n) for step in steps]


def test_the_plan_holds_every_kind_of_input():
    plan = list(soak_plan.inputs(3, 6000))
    assert plan == list(soak_plan.inputs(3, 6000))         # seeded: the same on both interpreters
    assert sum(steps[0][0] not in ("checkpoint", "visit") for steps in plan) == 6000
    steps = [step for steps in plan for step in steps]
    raw = [step[1:] for step in steps if step[0] == "raw"]
    rest, top = soak_plan.REST, soak_plan.ADC_MAX
    assert any(x < 0 or y < 0 for x, y in raw) and any(x > top or y > top for x, y in raw)   # beyond the ends
    assert any(0 in (x, y) for x, y in raw) and any(top in (x, y) for x, y in raw)            # at them
    assert any(abs(x - rest) > 800 and abs(y - rest) > 800 for x, y in raw)                   # diagonals
    assert any(0 < abs(x - rest) < 480 and 0 < abs(y - rest) < 480 for x, y in raw)           # drift
    idles = {step[1] for step in steps if step[0] == "idle"}
    assert idles == {"dim", "saver"}
    visits = [step[1] for step in steps if step[0] == "visit"]
    assert visits == list(range(len(visits))) and len(visits) >= 30   # every game in turn


def test_the_plan_holds_the_mute_chord_for_a_second_and_other_chords():
    # E and F both down for at least a second (30 frames): the mute chord
    held = []
    down = set()
    frames = 0
    pairs = set()
    for step in steps_of(5, 3000):
        if step[0] == "press":
            down.add(step[1])
            if len(down) == 2:
                pairs.add(tuple(sorted(down)))
        elif step[0] == "release":
            if down == {"E", "F"}:
                held.append(frames)
            down.discard(step[1])
        elif step[0] == "frames" and down == {"E", "F"}:
            frames += step[1]
        if down != {"E", "F"}:
            frames = 0
    assert any(f >= 30 for f in held) and any(f < 30 for f in held)   # a mute, and one let go early
    assert len(pairs - {("E", "F")}) >= 5


@pytest.mark.long
def test_random_play_over_every_screen_and_every_pause_menu(store_dir):
    s = play(store_dir, 1000, 2)   # a seed whose walk reaches every screen, a dim and the saver
    report = s.report(1000)
    assert EVERY_SCREEN <= s.seen, report
    assert not s.bad(), report
    assert not s.missing_pauses(), report
    assert s.dims and s.savers and s.mutes, report


def test_a_game_whose_pause_menu_was_never_reached_fails_the_soak(store_dir):
    s = play(store_dir, 60, 1)     # no visit yet (the first is after 150 inputs)
    assert s.missing_pauses()
    assert any(text.startswith("no pause menu in ") for text in s.bad())


@pytest.mark.long
def test_the_soak_sees_a_crash_and_a_stuck_screen(store_dir, monkeypatch):
    # the check must be able to fail: the puzzles raise on their first frame,
    # and 2048 will not go back to the menu. Both are games, which the soak
    # opens in turn (the first two visits, after 150 and 300 inputs), so no
    # seed's random walk has to find them.
    def boom(self, now_ms):
        raise ValueError("planted")

    def planted(runner):              # in every program the soak's resets start
        from firmware.screens import puzzle, g2048
        monkeypatch.setattr(puzzle.Game, "update", boom)
        monkeypatch.setattr(g2048.Game, "update", lambda self, now_ms: None)
    s = play(store_dir, 1000, 11, before_start=[planted])
    assert any("planted" in c for c in s.crashes)
    assert "Game" in s.stuck
    assert s.bad()


def test_the_plan_goes_on_from_a_place_as_if_drawn_from_the_start():
    # soak_mp.py carries the place of the item it was playing over a soft
    # reset and starts the plan again there; the items must be the same
    whole = list(soak_plan.inputs(5, 700))
    places = []
    place = []
    for _ in soak_plan.inputs(5, 700, place):
        places.append(list(place))
    assert len(places) == len(whole)
    assert {p[1] for p in places} == {0, 1, 2}      # checkpoints, visits and inputs among them
    for item in (0, 1, 149, 150, 151, 152, 450, 451, 452, len(whole) - 1):
        again = list(soak_plan.inputs(5, 700, list(places[item])))
        assert again == whole[item:], item
