"""`make deps`' failure modes: one clear line, nothing half-installed that a later run trusts."""
import hashlib
import io
import os
import sys
import tarfile

import pytest

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tools", "deps"))
import install  # noqa: E402


def sdist(source=b"# a driver\n"):
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode="w:gz") as tar:
        info = tarfile.TarInfo("micropython-ssd1306-0.3/ssd1306.py")
        info.size = len(source)
        tar.addfile(info, io.BytesIO(source))
    return buf.getvalue()


@pytest.fixture
def driver_env(tmp_path, monkeypatch):
    """A fake package index serving one archive; the driver goes to tmp_path."""
    archive = sdist()
    served = {"archive": archive}
    monkeypatch.setattr(install, "DRIVER", str(tmp_path / "lib" / "ssd1306.py"))
    monkeypatch.setattr(install, "index_url", lambda: "https://index.invalid/simple")

    def fetch(url):
        if url.endswith("/micropython-ssd1306/"):
            return b'<a href="../../files/micropython-ssd1306-0.3.tar.gz#sha256=x">x</a>'
        return served["archive"]
    monkeypatch.setattr(install, "fetch", fetch)
    return tmp_path, served


def test_the_driver_is_extracted_when_the_hashes_match(driver_env, monkeypatch):
    tmp_path, served = driver_env
    monkeypatch.setattr(install, "DRIVER_ARCHIVE_SHA256", hashlib.sha256(served["archive"]).hexdigest())
    monkeypatch.setattr(install, "DRIVER_FILE_SHA256", hashlib.sha256(b"# a driver\n").hexdigest())
    install.display_driver()
    assert (tmp_path / "lib" / "ssd1306.py").read_bytes() == b"# a driver\n"


def test_a_hash_mismatch_stops_with_one_line_and_writes_nothing(driver_env, monkeypatch):
    tmp_path, served = driver_env
    served["archive"] = sdist(b"# tampered\n")
    with pytest.raises(install.SetupError) as err:
        install.display_driver()
    message = str(err.value)
    assert "sha256" in message and "refusing" in message and "\n" not in message
    assert not (tmp_path / "lib" / "ssd1306.py").exists()
    assert not (tmp_path / "lib" / "ssd1306.py.part").exists()


def test_missing_node_is_named(monkeypatch):
    real_which = install.shutil.which
    monkeypatch.setattr(install.shutil, "which", lambda name: None if name == "node" else real_which(name))
    with pytest.raises(install.SetupError) as err:
        install.check_prerequisites()
    assert "Node.js" in str(err.value) and "install" in str(err.value)


def test_an_old_python_is_named(monkeypatch):
    monkeypatch.setattr(install.sys, "version_info", (3, 8, 0))
    with pytest.raises(install.SetupError) as err:
        install.check_prerequisites()
    assert "Python 3.10+" in str(err.value)


def test_no_route_to_the_registry_is_one_clear_line(monkeypatch):
    def refuse(url, timeout=None):
        raise OSError("Name or service not known")
    monkeypatch.setattr(install.urllib.request, "urlopen", refuse)
    with pytest.raises(install.SetupError) as err:
        install.fetch("https://index.invalid/simple/micropython-ssd1306/")
    assert "network" in str(err.value)


def test_a_step_without_its_stamp_is_redone_from_scratch(tmp_path, monkeypatch):
    # A venv whose stamp is missing (an interrupted install) is not trusted.
    venv = tmp_path / "venv"
    (venv / "bin").mkdir(parents=True)
    (venv / "bin" / "python").write_text("")
    (venv / "half-installed").write_text("")
    monkeypatch.setattr(install, "VENV", str(venv))
    monkeypatch.setattr(install, "VENV_PY", str(venv / "bin" / "python"))
    commands = []

    def run(cmd, what, hint, cwd=None):
        commands.append(cmd)
        raise install.SetupError(what + " failed: " + hint)
    monkeypatch.setattr(install, "run", run)
    with pytest.raises(install.SetupError):
        install.python_tools()
    assert not (venv / "half-installed").exists()     # removed before rebuilding
    assert "-m" in commands[0] and "venv" in commands[0]


def test_pygame_for_the_window_mode_installs_once_and_only_when_asked(tmp_path, monkeypatch):
    monkeypatch.setattr(install, "VENV", str(tmp_path))
    calls = []
    monkeypatch.setattr(install, "run", lambda cmd, what, hint, cwd=None: calls.append(cmd))
    install.window_tools()
    assert len(calls) == 1 and calls[0][-1].endswith("requirements-window.txt")
    install.window_tools()                     # stamped: nothing to do the second time
    assert len(calls) == 1
    # a failed install leaves no stamp, so the next run tries again
    (tmp_path / ".ml4m-window-installed").unlink()

    def fail(cmd, what, hint, cwd=None):
        raise install.SetupError("%s failed: %s" % (what, hint))
    monkeypatch.setattr(install, "run", fail)
    with pytest.raises(install.SetupError, match="make sim"):
        install.window_tools()
    assert not (tmp_path / ".ml4m-window-installed").exists()
    # plain `make deps` never asks for it
    for step in ("check_prerequisites", "python_tools", "node_tools", "display_driver", "font"):
        monkeypatch.setattr(install, step, lambda: None)
    monkeypatch.setattr(install, "window_tools", lambda: calls.append("window"))
    assert install.main([]) == 0 and "window" not in calls
    assert install.main(["--window"]) == 0 and calls[-1] == "window"
