// A MicroPython board on a serial line, for testing the host tools without hardware.
//
// The serial line is this process's stdin (bytes from the host) and stdout (bytes
// from the board); tools/boardsim/__init__.py connects them to a pseudo-terminal.
// The board is the MicroPython WebAssembly port: its REPL (replInit/replProcessChar)
// speaks the friendly and the raw REPL that mpremote uses, and its in-memory
// filesystem stands in for the flash. Where the port does not act like a board,
// this script does what an ESP32 does:
//   - Ctrl-D at an empty REPL line (friendly or raw) is a soft reset: the board prints
//     "MPY: soft reboot", starts a fresh interpreter (the files stay: it is the flash),
//     runs /boot.py, and comes back in the same REPL mode; in the raw REPL that is just
//     "raw REPL; CTRL-B to exit\r\n>" (no banner), in the friendly REPL the banner.
//     main.py is not run (there is no hardware for it here); the reboot is logged.
//   - a missing file is OSError 2 (ENOENT), as on the ESP32, not this port's 44:
//     mpremote (mip, fs) tells "no such file" from other errors by that number.
//   - a raw-paste request (Ctrl-E 'A' Ctrl-A) is declined with "R\x00", as a board
//     built without raw-paste does (the WebAssembly port stalls on it), so mpremote
//     falls back to the plain raw REPL.
//
// Options:
//   --heap BYTES          MicroPython heap (default 131072: about an ESP32's)
//   --ctl-in FD --ctl-out FD   control channel, one JSON object a line (see `control`)
//
// The MicroPython package is found from $MICROPYTHON_WASM (its micropython.mjs or its
// folder), else in tools/node_modules or tools/mprun/node_modules.
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import readline from "node:readline";
import { fileURLToPath, pathToFileURL } from "node:url";

const HERE = path.dirname(fileURLToPath(import.meta.url));
const PACKAGE = "@micropython/micropython-webassembly-pyscript";
const NOT_FLASH = new Set(["/dev", "/proc", "/tmp", "/home"]); // emscripten's own folders

function findMicroPython() {
  const candidates = [];
  if (process.env.MICROPYTHON_WASM) {
    const p = process.env.MICROPYTHON_WASM;
    candidates.push(p.endsWith(".mjs") ? p : path.join(p, "micropython.mjs"));
  }
  for (const base of [path.join(HERE, ".."), path.join(HERE, "..", "mprun")]) {
    candidates.push(path.join(base, "node_modules", PACKAGE, "micropython.mjs"));
  }
  for (const c of candidates) if (fs.existsSync(c)) return c;
  throw new Error(`${PACKAGE} not found (run make deps, or set MICROPYTHON_WASM)`);
}

function parseArgs(argv) {
  const opts = { heap: 131072, ctlIn: null, ctlOut: null };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--heap") opts.heap = parseInt(argv[++i], 10);
    else if (a === "--ctl-in") opts.ctlIn = parseInt(argv[++i], 10);
    else if (a === "--ctl-out") opts.ctlOut = parseInt(argv[++i], 10);
    else throw new Error(`unknown option ${a}`);
  }
  return opts;
}

const opts = parseArgs(process.argv.slice(2));
const { loadMicroPython } = await import(pathToFileURL(findMicroPython()).href);

const state = {
  mp: null,
  mode: "friendly", // which REPL the host is talking to: "friendly" or "raw"
  paste: 0, // progress through a raw-paste request (Ctrl-E 'A' Ctrl-A)
  quota: null, // bytes of flash, or null for no limit
  fake: null, // {name, version, mpy, platform}: what sys.implementation reports
  mute: false, // a board that does not answer at all
  events: [],
};
let out = [];

function send() {
  if (out.length && !state.mute) process.stdout.write(Buffer.from(out));
  out = [];
}

// --- the flash: files survive a soft reset, so they move to each new interpreter ---

function walk(FS, dir, visit) {
  for (const name of FS.readdir(dir)) {
    if (name === "." || name === "..") continue;
    const p = dir === "/" ? "/" + name : dir + "/" + name;
    if (dir === "/" && NOT_FLASH.has(p)) continue;
    const st = FS.stat(p);
    if (FS.isDir(st.mode)) {
      visit(p, true, st);
      walk(FS, p, visit);
    } else {
      visit(p, false, st);
    }
  }
}

function flashFiles(FS) {
  const entries = [];
  walk(FS, "/", (p, isDir) => entries.push({ path: p, dir: isDir, data: isDir ? null : FS.readFile(p) }));
  return entries;
}

function flashUsed(FS) {
  let used = 0;
  walk(FS, "/", (_p, isDir, st) => { if (!isDir) used += st.size; });
  return used;
}

function mkdirs(FS, dir) {
  let cur = "";
  for (const part of dir.split("/").filter(Boolean)) {
    cur += "/" + part;
    if (!FS.analyzePath(cur).exists) FS.mkdir(cur);
  }
}

// A write that would take the flash past the quota fails with ENOSPC, as littlefs does.
function guardQuota(FS) {
  const write = FS.write;
  FS.write = (stream, buffer, offset, length, position, canOwn) => {
    if (state.quota !== null && stream.node && FS.isFile(stream.node.mode)) {
      const at = typeof position === "number" ? position : stream.position;
      const size = stream.node.usedBytes || 0;
      const growth = Math.max(0, at + length - size);
      // 28 is ENOSPC as the ESP32 reports it ("OSError: [Errno 28] ENOSPC"); the
      // WebAssembly port passes the number through unchanged (its own ENOSPC is 51).
      if (growth > 0 && flashUsed(FS) + growth > state.quota) throw new FS.ErrnoError(28);
    }
    return write(stream, buffer, offset, length, position, canOwn);
  };
}

function fakeCode(fake) {
  // sys.modules is consulted before the built-in modules, so `import sys` in the
  // host's code gets this stand-in; everything but what is faked comes from sys.
  const v = fake.version.map((n) => String(n)).join(", ");
  return [
    "import sys",
    "class _Impl:",
    `    name = ${JSON.stringify(fake.name)}`,
    `    version = (${v}, '')`,
    fake.mpy === null ? "" : `    _mpy = ${fake.mpy}`,
    "class _Sys:",
    "    real = sys",
    "    implementation = _Impl()",
    `    platform = ${JSON.stringify(fake.platform || "esp32")}`,
    "    def __getattr__(self, name):",
    "        return getattr(_Sys.real, name)",
    "sys.modules['sys'] = _Sys()",
    "del sys, _Impl, _Sys",
  ].join("\n");
}

// The ESP32's errno for "no such file" (2) where this port says 44: os's file
// functions and open() are wrapped in stand-ins that renumber it, the way fakeCode
// stands in for sys (sys.modules before the built-in module; builtins.open replaced).
const ESP32_ENOENT = [
  "import builtins, os as _os, sys",
  "def _esp32(fn):",
  "    def call(*args):",
  "        try:",
  "            return fn(*args)",
  "        except OSError as e:",
  "            if e.errno == 44:",
  "                raise OSError(2)",
  "            raise",
  "    return call",
  "class _Os:",
  "    def __getattr__(self, name):",
  "        return getattr(_os, name)",
  "for _name in ('stat', 'listdir', 'ilistdir', 'remove', 'rmdir', 'mkdir', 'rename', 'chdir', 'statvfs'):",
  "    setattr(_Os, _name, staticmethod(_esp32(getattr(_os, _name))))",
  "sys.modules['os'] = _Os()",
  "builtins.open = _esp32(open)",
  "del builtins, sys, _Os, _esp32, _name",
].join("\n");

async function boot(files) {
  const mp = await loadMicroPython({
    heapsize: opts.heap,
    linebuffer: false,
    stdout: (bytes) => { for (const b of bytes) out.push(b); },
  });
  const FS = mp.FS;
  for (const e of files) {
    if (e.dir) mkdirs(FS, e.path);
    else { mkdirs(FS, path.posix.dirname(e.path)); FS.writeFile(e.path, e.data); }
  }
  guardQuota(FS);
  state.mp = mp;
  mp.runPython(ESP32_ENOENT);
  if (state.fake) mp.runPython(fakeCode(state.fake));
  if (FS.analyzePath("/boot.py").exists) {
    try {
      mp.runPython("exec(open('/boot.py').read(), {'__name__': '__main__'})");
    } catch (e) {
      for (const b of Buffer.from(`boot.py: ${e.message}\r\n`)) out.push(b);
    }
  }
}

async function softReset() {
  const files = flashFiles(state.mp.FS);
  // What the REPL printed on the way out stays ("OK\r\n" in the raw REPL, as on a board),
  // then the reboot line and whatever boot.py prints.
  for (const b of Buffer.from("MPY: soft reboot\r\n")) out.push(b);
  await boot(files);
  state.events.push(`soft reboot (${state.mode} REPL)`);
  const shown = out;
  out = [];
  state.mp.replInit(); // prints the banner and ">>> "
  if (state.mode === "raw") {
    state.mp.replProcessChar(0x01);
    out = Array.from(Buffer.from("raw REPL; CTRL-B to exit\r\n>")); // no banner
  }
  out = shown.concat(out);
}

// --- the serial line ---

async function receive(byte) {
  if (state.mute) return;
  if (state.mode === "raw") {
    if (state.paste === 0 && byte === 0x05) { state.paste = 1; return; }
    if (state.paste === 1 && byte === 0x41) { state.paste = 2; return; }
    if (state.paste === 2 && byte === 0x01) {
      state.paste = 0;
      out.push(0x52, 0x00); // "R\x00": raw-paste is not supported, use the raw REPL
      return;
    }
    if (state.paste) {
      const held = state.paste === 1 ? [0x05] : [0x05, 0x41];
      state.paste = 0;
      for (const b of held) await feed(b);
    }
  }
  await feed(byte);
}

async function feed(byte) {
  if (byte === 0x01 && state.mode === "friendly") state.mode = "raw";
  else if (byte === 0x02 && state.mode === "raw") state.mode = "friendly";
  const ret = state.mp.replProcessChar(byte);
  if (ret !== 0) await softReset(); // PYEXEC_FORCED_EXIT: Ctrl-D on an empty line
}

// --- control channel: the test's view of the board ---

async function control(req) {
  const FS = state.mp.FS;
  switch (req.op) {
    case "files": {
      const files = {};
      const dirs = [];
      for (const e of flashFiles(FS)) {
        if (e.dir) dirs.push(e.path);
        else files[e.path] = Buffer.from(e.data).toString("base64");
      }
      return { files, dirs };
    }
    case "put":
      mkdirs(FS, path.posix.dirname(req.path));
      FS.writeFile(req.path, Buffer.from(req.data, "base64"));
      return {};
    case "quota":
      state.quota = req.bytes;
      return { used: flashUsed(FS) };
    case "fake":
      state.fake = req.impl; // now, and again after every soft reset
      if (state.fake) state.mp.runPython(fakeCode(state.fake));
      return {};
    case "mute":
      state.mute = !!req.on;
      return {};
    case "events":
      return { events: state.events };
    default:
      throw new Error(`unknown op ${req.op}`);
  }
}

await boot([]);
state.mp.replInit();
send();

// Bytes are handled strictly in order, each chunk after the last one is done.
let queue = Promise.resolve();
process.stdin.on("data", (chunk) => {
  queue = queue.then(async () => {
    for (const b of chunk) await receive(b);
    send();
  }).catch((e) => { console.error(`boardsim: ${e.stack || e}`); process.exit(1); });
});
process.stdin.on("end", () => queue.then(() => process.exit(0)));

if (opts.ctlIn !== null) {
  // A socket, not fs.createReadStream: a blocking read of a pipe in libuv's thread pool
  // would keep process.exit() from returning.
  const input = new net.Socket({ fd: opts.ctlIn, readable: true, writable: false });
  const rl = readline.createInterface({ input });
  rl.on("line", (line) => {
    queue = queue.then(async () => {
      let reply;
      try { reply = { ok: true, ...(await control(JSON.parse(line))) }; }
      catch (e) { reply = { ok: false, error: String(e.message || e) }; }
      fs.writeSync(opts.ctlOut, JSON.stringify(reply) + "\n");
    });
  });
}
