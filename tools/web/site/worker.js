// The board: MicroPython (WebAssembly) running the firmware, in a Worker.
//
// Why a Worker and not the page's own frame callback: a frame of the firmware
// can take long -- the Reversi CPU thinks for up to a couple of seconds inside
// one frame, as it does on the board -- and in a Worker that never freezes the
// page: the controls, the sound and the buttons stay alive, and the picture
// just waits for the next frame, as the board's panel does.
//
// One frame = one call of page_board.frame() (inputs in, picture and sounds
// out), then a top-level gc.collect() and page_board.settle() (heap figures,
// the cap). Frames are paced by a timer at the firmware's own frame rate.
//
// Messages from the page:
//   {type: "boot", flash: {path: base64}, games: {path: base64}, seed, replay: [[ms, event]...] | null}
//   {type: "program", source}      a test program instead of the firmware
//   {type: "input", event}         "press A", "release A", "push left", "center"
// Messages to the page:
//   {type: "frame", picture?, contrast, sounds, heap, ms}  after every frame
//   {type: "flash", files}         the saves changed ({path: base64} under /data)
//   {type: "log", text}            what the firmware prints (the REPL's output)
//   {type: "stopped", reason}      the firmware or the program ended
import { loadMicroPython } from "./micropython/micropython.js";

const FLASH_ROOT = "/data";          // firmware/app.py's STORE_ROOT, from /
const GAMES_ROOT = "/games";         // a player's games (firmware/gamelist.py), from /
const HARDWARE = "/hw";              // the page's machine module and panel model

let mp = null;
let py = null;                       // page_board's functions
let pending = [];                    // input events for the next frame
let replay = null;                   // [[ms, event]...] still to come
let bootedAt = 0;
let timer = null;
let flashSeen = "";

const post = (message) => postMessage(message);

onmessage = (e) => {
  const m = e.data;
  if (m.type === "input") pending.push(m.event);
  else if (m.type === "boot" || m.type === "program") start(m).catch((err) => {
    post({ type: "stopped", reason: String(err && err.message || err) });
  });
};

async function start(m) {
  if (timer !== null) clearTimeout(timer);
  const bundle = await (await fetch("firmware.json")).json();
  mp = await loadMicroPython({
    heapsize: 512 * 1024,            // the first heap area; the cap is checked in settle()
    pystack: 16 * 1024,
    linebuffer: true,
    stdout: (line) => post({ type: "log", text: line }),
    stderr: (line) => post({ type: "log", text: line }),
  });
  for (const [path, data] of Object.entries(bundle.files)) writeFile(path, decode(data));
  for (const [path, data] of Object.entries(m.flash || {})) writeFile(`${FLASH_ROOT}/${path}`, decode(data));
  for (const [path, data] of Object.entries(m.games || {})) writeFile(`${GAMES_ROOT}/${path}`, decode(data));
  flashSeen = flashListing();
  mp.runPython(`import sys\nsys.path[:0] = ['${HARDWARE}']\nimport page_board`);
  const board = mp.pyimport("page_board");
  py = { frame: board.frame, settle: board.settle };
  mp.runPython("import gc\ngc.collect()");
  board.baseline();
  pending = [];
  replay = m.replay ? m.replay.slice() : null;
  bootedAt = performance.now();
  try {
    if (m.type === "program") board.run_program(m.source);
    else board.power_on(m.seed || 0);
  } catch (err) {
    post({ type: "stopped", reason: pythonError(err) });
    return;
  }
  tick();
}

function tick() {
  const started = performance.now();
  if (replay) {
    const now = started - bootedAt;
    while (replay.length && replay[0][0] <= now) {
      const event = replay.shift()[1];
      if (event !== "end") pending.push(event);
    }
  }
  let report, heap;
  try {
    report = JSON.parse(py.frame(pending.join("\n")));
    pending = [];
    mp.runPython("gc.collect()");
    heap = JSON.parse(py.settle());
  } catch (err) {
    post({ type: "stopped", reason: pythonError(err) });
    return;
  }
  report.type = "frame";
  report.heap = heap;
  report.ms = performance.now() - started;
  post(report);
  const listing = flashListing();
  if (listing !== flashSeen) {
    flashSeen = listing;
    post({ type: "flash", files: readFlash() });
  }
  if (!heap.running) {
    post({ type: "stopped", reason: heap.failed || "done" });
    return;
  }
  const frameMs = 1000 / report.fps;
  timer = setTimeout(tick, Math.max(0, frameMs - (performance.now() - started)));
}

function pythonError(err) {
  return err && err.name === "PythonError" ? `${err.type}: ${err.message}` : String(err);
}

// ---- the flash: MicroPython's in-memory filesystem ---------------------------------
function mkdirs(dir) {
  let sofar = "";
  for (const part of dir.split("/").filter(Boolean)) {
    sofar += "/" + part;
    if (!mp.FS.analyzePath(sofar).exists) mp.FS.mkdir(sofar);
  }
}

function writeFile(path, bytes) {
  mkdirs(path.slice(0, path.lastIndexOf("/")));
  mp.FS.writeFile(path, bytes);
}

function walk(dir, visit) {
  if (!mp.FS.analyzePath(dir).exists) return;
  for (const name of mp.FS.readdir(dir)) {
    if (name === "." || name === "..") continue;
    const path = `${dir}/${name}`;
    const st = mp.FS.stat(path);
    if (mp.FS.isDir(st.mode)) walk(path, visit);
    else visit(path, st);
  }
}

// Sizes and change times: cheap enough to look at after every frame.
function flashListing() {
  const parts = [];
  walk(FLASH_ROOT, (path, st) => parts.push(`${path}:${st.size}:${st.mtime.getTime()}`));
  return parts.join("|");
}

function readFlash() {
  const files = {};
  walk(FLASH_ROOT, (path) => { files[path.slice(FLASH_ROOT.length + 1)] = encode(mp.FS.readFile(path)); });
  return files;
}

function decode(base64) {
  const text = atob(base64);
  const bytes = new Uint8Array(text.length);
  for (let i = 0; i < text.length; i++) bytes[i] = text.charCodeAt(i);
  return bytes;
}

function encode(bytes) {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}
