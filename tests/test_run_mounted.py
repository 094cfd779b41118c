"""make run across a launch (tools/run_mounted.py) against a board on a
pseudo-terminal (tools/boardsim): the firmware's machine.soft_reset() resets
the board, which keeps its RTC memory, and the tool starts the firmware
again, which goes on with the launch note. (mpremote's mount itself cannot
run on the emulated board: its remote filesystem needs a board that reads the
serial line while a program runs, which the WebAssembly port cannot; so the
firmware is deployed here, and the tool's remount is mpremote's mount_local.)"""
import os

from tests.test_deploy_board import ROOT, pytestmark, project, sim  # noqa: F401
from tools import deploy, run_mounted

# the firmware's start as main.py does it, then 60 frames (main() would loop for good)
START = ("import os\nos.chdir('/')\nimport machine\nprint('cause', machine.reset_cause())\n"
         "from firmware import app\na = app.start()\n"
         "for i in range(60):\n    a.step()\n"
         "print('screen', type(a.screen).__name__)\n")


def test_the_arcade_goes_on_across_the_soft_reset_of_a_launch(sim, capsys):
    assert deploy.main(["--timeout", "3", "--port", sim.port, "--no-reset"]) == 0
    with open(os.path.join(ROOT, "tools", "emu", "mp_node", "machine.py"), "rb") as f:
        sim.put("/lib/machine.py", f.read())          # the hardware stand-ins
    capsys.readouterr()
    board = deploy.connect(sim.port, 3)
    # the emulated board sends a program's output when it ends: wait for it
    board.transport.serial.timeout = 15
    try:
        code = run_mounted.run(board.transport, code=START, mount=False)
    finally:
        board.transport.close()
    printed = capsys.readouterr().out
    assert code == 0, printed
    # power-on: the splash, which ends in a soft reset; the menu's program
    # started again by the tool, after the board's reset (the RTC memory kept)
    assert "cause 1" in printed and "cause 5" in printed and "screen Menu" in printed, printed
    assert any("soft reboot" in e for e in sim.events())
