"""Linked Reversi over a lossy air, game after game (make soak runs it):
two emulated boards, each with its own App and flash, pair and play random
legal moves to the end over an air that loses 20% of the messages, hears
10% twice and lets 20% overtake others. Every game must end on both boards
with the same position. Seeded: a failing game is the same game again.

    .venv/bin/python tools/soak_link.py --games 20
"""
import argparse
import os
import sys
import tempfile
import pathlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

import tools.emu  # noqa: E402

tools.emu.install()

from tests.test_link_play import Room, play_a_game  # noqa: E402


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--games", type=int, default=20)
    p.add_argument("--loss", type=float, default=0.2)
    args = p.parse_args(argv)
    failed = []
    lost = sent = 0
    for game in range(args.games):
        with tempfile.TemporaryDirectory() as tmp:
            room = Room(pathlib.Path(tmp), loss=args.loss, duplicate=0.1, reorder=0.2)
            room.air.rng.seed(100 + game)
            ok = play_a_game(room, 1000 + game)
            lost += room.air.lost
            sent += room.air.sent
            if not ok:
                failed.append(game)
        print("game %d: %s" % (game + 1, "both agree" if ok else "FAILED"), flush=True)
    print("soak_link: %d games, %d failed%s; %d of %d messages lost (%.0f%%)" % (
        args.games, len(failed), " (games %s)" % failed if failed else "", lost, sent,
        100.0 * lost / max(1, sent)))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
