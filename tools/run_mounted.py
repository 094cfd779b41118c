"""make run: the working tree mounted on the board (mpremote's mount, at
/remote) and the arcade started from it, again after every soft reset.

    .venv/bin/python tools/run_mounted.py [--port PORT]

A launch is machine.soft_reset() (firmware/launch.py): the board starts a
fresh interpreter, and mpremote's mount goes with the old one (mpremote
mounts again only after a Ctrl-D typed at its own REPL). So this tool does
what `mpremote mount . exec "import main"` did, in a loop: mount, start
main.py from the mount; when the board soft-resets (the program ended with
no error and the board says "soft reboot"), mount again and start main.py
again, which finds the launch note in the RTC memory and starts the game (or
the menu) the last program chose. Ctrl-C here stops the app on the board
(as a Ctrl-C at its REPL does) and ends the tool; so does an error.
"""
import os
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if ROOT not in sys.path:
    sys.path.insert(0, ROOT)

# /remote and /remote/lib first on sys.path; the current folder back to / so
# saves and records land in the board's own /data
START = "import sys, os; sys.path[:0] = ['/remote', '/remote/lib']; os.chdir('/'); import main"
REBOOTED = b"raw REPL; CTRL-B to exit\r\n"   # (its ">" is left for the next exec)


def _out(data):
    sys.stdout.buffer.write(data.replace(b"\x04", b""))
    sys.stdout.buffer.flush()


def run(transport, root=ROOT, code=START, mount=True, resets=None):
    """Run code on the board (in its raw REPL), again after every soft reset;
    returns 0 when it ends without one (a safe boot), 1 on an error. resets:
    stop after that many (for tests); mount: False runs the board's own files."""
    done = 0
    while True:
        if mount:
            transport.mount_local(root)
        transport.exec_raw_no_follow(code)
        _, error = transport.follow(timeout=None, data_consumer=_out)
        if mount:   # the mount's go-between on the line, gone with the interpreter
            transport.mounted = False
            transport.serial = transport.serial.orig_serial
        if error:
            _out(error)
            return 1
        rebooted = transport.read_until(len(REBOOTED), REBOOTED, timeout=3)
        if not rebooted.endswith(REBOOTED):
            return 0              # main() returned: a safe boot, the REPL is free
        done += 1
        if resets is not None and done >= resets:
            return 0


def main(argv):
    from tools import deploy
    port = argv[argv.index("--port") + 1] if "--port" in argv else None
    try:
        board = deploy.connect(port, 10, "run")
    except deploy.DeployError as e:
        print("run:", e, file=sys.stderr)
        return 1
    try:
        return run(board.transport)
    except KeyboardInterrupt:
        board.transport.serial.write(b"\x03")     # stop the app, as Ctrl-C at its REPL
        return 0
    finally:
        board.transport.close()


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
