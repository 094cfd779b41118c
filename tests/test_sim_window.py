"""The simulator's window mode (tools/sim.py --window) with pygame's dummy video
and audio drivers: real key presses and releases become stick and button
events (two arrows a diagonal), the panel is drawn scaled, the speaker's tone
is played, and closing the window stops the firmware."""
import os

import pytest

pygame = pytest.importorskip("pygame", reason="make sim-window (and make test) install pygame")

from tools.simulator.session import ROOT, Session, seed_randomness  # noqa: E402
from tools.simulator import window as window_mode  # noqa: E402


@pytest.fixture
def dummy_sdl(monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "dummy")
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    yield
    pygame.quit()


class Script:
    """A tick hook ahead of the window's: posts key events at virtual times."""

    def __init__(self, steps):
        self.steps = sorted(steps, key=lambda s: s[0])

    def __call__(self, now):
        while self.steps and self.steps[0][0] <= now:
            _, what, arg = self.steps.pop(0)
            if what == "quit":
                pygame.event.post(pygame.event.Event(pygame.QUIT))
            else:
                kind = pygame.KEYDOWN if what == "down" else pygame.KEYUP
                pygame.event.post(pygame.event.Event(kind, key=pygame.key.key_code(arg)))


def run_firmware(tmp_path, monkeypatch, steps):
    import tools.emu
    tools.emu.install()
    board = tools.emu.Board(seed=1)
    seed_randomness(1)
    session = Session(board)
    applied = []
    apply = session.apply
    monkeypatch.setattr(session, "apply", lambda event: (applied.append(event), apply(event)))
    ui = window_mode.WindowFrontEnd(session, pygame, realtime=False, shots_dir=str(tmp_path))
    script = Script(steps)
    session.hooks.extend([script, ui])
    monkeypatch.chdir(tmp_path)            # the firmware saves in its current folder
    reason = session.run([os.path.join(ROOT, "boot.py"), os.path.join(ROOT, "main.py")], 20000)
    return session, ui, applied, reason


def test_keys_become_the_stick_and_buttons_and_the_window_closes(tmp_path, monkeypatch, dummy_sdl):
    steps = [
        (2000, "down", "down"), (2100, "up", "down"),          # the menu cursor to 8-Puzzle
        (2400, "down", "j"), (2500, "up", "j"),                # A opens it
        (3500, "down", "up"), (3520, "down", "left"),          # a diagonal: up, then up-left
        (3600, "up", "up"), (3700, "up", "left"),              # back to left, then centre
        (3800, "down", "2"), (3820, "down", "k"),              # two keys of button B...
        (3900, "up", "2"), (4000, "up", "k"),                  # ...one press, one release
        (5000, "quit", None),
    ]
    session, ui, applied, reason = run_firmware(tmp_path, monkeypatch, steps)
    assert reason == "quit"
    assert applied == ["push down", "center", "press A", "release A",
                       "push up", "push upleft", "push left", "center",
                       "press B", "release B"]
    # the window shows the board's panel, scaled (drawn at most 30 times a
    # second of wall time: this run took less, so draw the last frame now)
    assert ui.redraws >= 1
    ui.draw(force=True)
    panel = session.board.panel.pixels()
    x, y = next((x, y) for y in range(64) for x in range(128) if panel[y][x])
    inside = (window_mode.BORDER + x * ui.scale + 1, window_mode.BORDER + y * ui.scale + 1)
    assert ui.screen.get_at(inside)[0] > 60
    dark = next((x, y) for y in range(64) for x in range(128) if not panel[y][x])
    assert ui.screen.get_at((window_mode.BORDER + dark[0] * ui.scale + 1,
                             window_mode.BORDER + dark[1] * ui.scale + 1))[:3] == (0, 0, 0)


def test_the_speaker_plays_the_pwm_tone_and_stops(dummy_sdl):
    class Monitor:
        tone = None
        clicks = 0

    pygame.display.init()
    speaker = window_mode._Speaker(pygame)
    if not speaker.ok:
        pytest.skip("no audio device, not even SDL's dummy one: " + speaker.error)
    monitor = Monitor()
    monitor.tone = (880, 32768)
    speaker.follow(monitor)
    assert speaker._channel is not None and speaker._channel.get_busy()
    quiet = speaker._square(880, 8192)
    loud = speaker._square(880, 32768)
    assert max(memoryview(quiet.get_raw()).cast("h")) < max(memoryview(loud.get_raw()).cast("h"))
    monitor.tone = None
    speaker.follow(monitor)
    assert speaker._channel is None
    monitor.clicks = 3                     # a DAC click while no tone plays
    speaker.follow(monitor)
    assert speaker._clicks == 3
    speaker.silence()


def test_the_cli_opens_the_window_mode(tmp_path, monkeypatch, dummy_sdl):
    # the whole command line: --window, a replay to drive it, q from the script
    from tools.simulator import cli
    replay = tmp_path / "r.replay"
    replay.write_text('{"ml4m_replay": 1, "seed": 1, "main": "main.py"}\n'
                      '{"t_ms": 1800, "event": "tap A"}\n')
    quit_at = [3000]

    real = window_mode.WindowFrontEnd.__call__

    def tick(self, now):
        if now >= quit_at[0]:
            pygame.event.post(pygame.event.Event(pygame.KEYDOWN, key=pygame.K_q))
        real(self, now)

    monkeypatch.setattr(window_mode.WindowFrontEnd, "__call__", tick)
    monkeypatch.setattr(window_mode.WindowFrontEnd, "__init__",
                        _no_pacing(window_mode.WindowFrontEnd.__init__))
    assert cli.main(["--window", "--replay", str(replay), "--png", str(tmp_path / "end.png")]) == 0
    assert (tmp_path / "end.png").read_bytes().startswith(b"\x89PNG")


def _no_pacing(init):
    def wrapped(self, *args, **kwargs):
        kwargs["realtime"] = False
        init(self, *args, **kwargs)
    return wrapped


# ---- no display, no sound card ---------------------------------------------------------
def test_no_display_is_said_in_one_line_and_exits_non_zero():
    """Without a display SDL falls back to its offscreen driver by itself: the
    window would never show. The simulator says so and stops; the noise SDL
    and ALSA write to stderr on the way is hidden."""
    import subprocess
    import sys
    env = {k: v for k, v in os.environ.items()
           if k not in ("DISPLAY", "WAYLAND_DISPLAY", "SDL_VIDEODRIVER")}
    result = subprocess.run([sys.executable, os.path.join(ROOT, "tools", "sim.py"), "--window",
                             "--fresh", "--seconds", "1"],
                            env=env, capture_output=True, text=True, timeout=60)
    assert result.returncode == 1
    assert result.stderr == "sim: no display: play in the terminal with make sim\n"


def test_a_driver_nobody_asked_for_is_no_display(tmp_path, monkeypatch):
    monkeypatch.setenv("SDL_VIDEODRIVER", "offscreen")    # what SDL falls back to
    monkeypatch.setenv("SDL_AUDIODRIVER", "dummy")
    import tools.emu
    tools.emu.install()
    session = Session(tools.emu.Board(seed=1))
    try:
        with pytest.raises(window_mode.NoDisplay, match="make sim"):
            window_mode.WindowFrontEnd(session, pygame, realtime=False, environ={})
        ui = window_mode.WindowFrontEnd(session, pygame, realtime=False)   # asked for: fine
        ui.close()
    finally:
        pygame.quit()


def test_alsa_noise_at_the_mixers_start_is_hidden(capfd, monkeypatch, dummy_sdl):
    def noisy_init(**kwargs):
        os.write(2, b"ALSA lib confmisc.c:855:(parse_card) cannot find card '0'\n")
        raise pygame.error("ALSA: Couldn't open audio device")

    monkeypatch.setattr(pygame.mixer, "init", noisy_init)
    speaker = window_mode._Speaker(pygame)
    assert not speaker.ok and "ALSA" in speaker.error     # said in words on the status line
    assert capfd.readouterr().err == ""
