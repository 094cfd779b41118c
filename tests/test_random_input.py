"""Seeded random play over every screen (tools/soak.py, a few thousand
inputs; make soak runs 100,000): nothing escapes the app, no crash screen,
no screen B cannot leave, no growth of live objects."""
import pytest

from tools import soak

# (Play a friend alone in the room: its lobby, a program of its own; the
# linked game needs a second board, tests/test_link_play.py)
EVERY_SCREEN = {"Menu", "Records", "SettingsScreen", "About", "firmware.screens.puzzle",
                "firmware.screens.g2048", "firmware.screens.reversi", "Lobby"}


@pytest.mark.long
def test_random_play_over_every_screen(store_dir):
    s = soak.soak(3000, 12, str(store_dir))   # a seed whose walk reaches every screen
    report = s.report(3000)
    assert EVERY_SCREEN <= s.seen, report
    assert not s.exceptions and not s.crashes and not s.stuck, report
    assert s.growth() <= 1.05, report


@pytest.mark.long
def test_the_soak_sees_a_crash_and_a_stuck_screen(store_dir, monkeypatch):
    # the check must be able to fail: About raises on its first frame, and
    # Records will not go back to the menu
    def boom(self, now_ms):
        raise ValueError("planted")

    def planted(runner):              # in every program the soak's resets start
        from firmware.screens import about, records
        monkeypatch.setattr(about.About, "update", boom)
        monkeypatch.setattr(records.Records, "update", lambda self, now_ms: None)
    s = soak.soak(1500, 11, str(store_dir), before_start=[planted])
    assert any("planted" in c for c in s.crashes)
    assert "Records" in s.stuck
