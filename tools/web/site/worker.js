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
// A launch is machine.soft_reset() (firmware/launch.py): the frame ends with
// SystemExit, the worker hands what the board keeps -- the flash (/data), the
// RTC memory and the panel (page_board.keep() / after_reset()) -- to the page,
// and the page starts a fresh worker with it: boot.py and main.py run again.
// A fresh worker, not a second MicroPython in this one: the instances of this
// port share the worker's globals (its table of Python objects JavaScript
// holds), so when the JavaScript collector drops the old instance's objects,
// their finalizers free the new instance's objects of the same numbers --
// page_board's frame() among them -- and the next frame traps ("memory access
// out of bounds"): 2048 continued after a page reload stopped half drawn.
//
// Messages from the page:
//   {type: "boot", flash: {path under /data: base64}, games: {path under /games: base64},
//    files: {board path: base64}?, seed, replay: [[ms, event]...] | null,
//    kept?, carried?}  (after a soft reset: what the "reset" message below handed over)
//    (events as tools/simulator/replay.py's, "tap" already split; "choose LABEL"
//    steps the stick down until the list on the panel highlights LABEL, then A,
//    as the simulator's ReplayFeeder does)
//   {type: "program", source}      a test program instead of the firmware
//   {type: "input", event}         "press A", "release A", "push left", "center"
//   {type: "handover"}             after "reset": the inputs that came since, for the next worker
// Messages to the page:
//   {type: "frame", picture?, contrast, sounds, heap, ms}  after every frame
//   {type: "flash", files}         the saves changed ({path: base64} under /data)
//   {type: "log", text}            what the firmware prints (the REPL's output)
//   {type: "replay", text}         the replay has ended, or could not go on (why)
//   {type: "stopped", reason}      the firmware or the program ended
//   {type: "reset", kept, carried} machine.soft_reset(): start a fresh worker with these
//                                  (kept: the board's flash, RTC memory and panel; carried:
//                                  the replay under way and the seed's count of resets)
//   {type: "handed", events}       the answer to "handover"; this worker is done
import { loadMicroPython } from "./micropython/micropython.js";

const FLASH_ROOT = "/data";          // firmware/app.py's _STORE_ROOT, from /
const GAMES_ROOT = "/games";         // a player's games (firmware/gamelist.py), from /
const HARDWARE = "/hw";              // the page's machine module and panel model

let mp = null;
let py = null;                       // page_board's functions
let pending = [];                    // input events for the next frame
let replay = null;                   // [[ms, event]...] still to come
let delay = 0;                       // ms the "choose" steps took: the events after wait
let choosing = null;                 // {label, since, steps, next}: a "choose" under way
let later = [];                      // [[ms, event]]: a push's centre, A's release
const CHOOSE_STEP_MS = 300, CHOOSE_STEPS = 40;   // tools/simulator/session.py's
let bootedAt = 0;
let flashSeen = "";

const post = (message) => postMessage(message);
// The air between the tabs of this browser: each radio message as hex
// (page_board.py's frame() hands them out; they come back as "radio <hex>").
const air = new BroadcastChannel("ml4m-air");
// (heard once the board runs: a board being reset hears nothing)
air.onmessage = (e) => { if (py !== null && typeof e.data === "string") pending.push("radio " + e.data); };

onmessage = (e) => {
  const m = e.data;
  if (m.type === "input") pending.push(m.event);
  else if (m.type === "handover") post({ type: "handed", events: pending });
  else if (m.type === "boot" || m.type === "program") start(m).catch((err) => {
    post({ type: "stopped", reason: String(err && err.message || err) });
  });
};

let resets = 0;                      // soft resets since power-on: each program's seed differs

// MicroPython and the firmware's files, loaded as soon as the worker starts: the
// page keeps a spare worker ready, so a soft reset does not wait for them.
const ready = prepare();
ready.catch(() => {});               // (said by start(), if this worker is ever used)

async function prepare() {
  const bundle = await (await fetch("firmware.json")).json();
  mp = await loadMicroPython({
    heapsize: 512 * 1024,            // the first heap area; the cap is checked in settle()
    pystack: 16 * 1024,
    linebuffer: true,
    stdout: (line) => post({ type: "log", text: line }),
    stderr: (line) => post({ type: "log", text: line }),
  });
  for (const [path, data] of Object.entries(bundle.files)) writeFile(path, decode(data));
}

async function start(m) {
  const kept = m.kept || null;       // after a soft reset
  await ready;
  const flash = kept ? kept.flash : (m.flash || {});
  for (const [path, data] of Object.entries(flash)) writeFile(`${FLASH_ROOT}/${path}`, decode(data));
  for (const [path, data] of Object.entries(m.games || {})) writeFile(`${GAMES_ROOT}/${path}`, decode(data));
  for (const [path, data] of Object.entries(m.files || {})) writeFile(path, decode(data));
  flashSeen = flashListing();
  mp.runPython(`import sys\nsys.path[:0] = ['${HARDWARE}']\nimport page_board`);
  const board = mp.pyimport("page_board");
  py = { frame: board.frame, settle: board.settle, highlighted: board.highlighted, keep: board.keep };
  board.set_board(m.board || 1);
  if (kept) board.after_reset(kept.board);
  mp.runPython("import gc\ngc.collect()");
  board.baseline();
  if (m.carried) {                   // a replay goes on over a soft reset
    ({ resets, replay, delay, choosing, later } = m.carried);
    bootedAt = m.carried.poweredOn - performance.timeOrigin;
  } else {
    replay = m.replay ? m.replay.slice() : null;
    bootedAt = performance.now();
  }
  try {
    if (m.type === "program") board.run_program(m.source);
    else board.power_on((m.seed || 0) + resets);
  } catch (err) {
    post({ type: "stopped", reason: pythonError(err) });
    return;
  }
  tick();
}

function tick() {
  const started = performance.now();
  if (replay) replayInputs(started - bootedAt);
  let report, heap;
  try {
    report = JSON.parse(py.frame(pending.join("\n")));
    pending = [];
  } catch (err) {
    if (err && err.type === "SystemExit" && /soft_reset/.test(err.message)) {
      softReset();
      return;
    }
    post({ type: "stopped", reason: pythonError(err) });
    return;
  }
  try {
    mp.runPython("gc.collect()");
    heap = JSON.parse(py.settle());
  } catch (err) {
    post({ type: "stopped", reason: pythonError(err) });
    return;
  }
  if (report.radio) {
    for (const message of report.radio) air.postMessage(message);
    delete report.radio;
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
  setTimeout(tick, Math.max(0, frameMs - (performance.now() - started)));
}

// machine.soft_reset(): the page starts a fresh worker with the flash, the RTC
// memory and the panel (and the replay's place); this one only answers "handover"
function softReset() {
  pending = [];
  post({ type: "reset", kept: { flash: readFlash(), board: py.keep() },
         carried: { resets: resets + 1, replay, delay, choosing, later,
                    poweredOn: performance.timeOrigin + bootedAt } });
}

// The replay's inputs whose time has come (now: ms since power-on).
function replayInputs(now) {
  for (const [at, event] of later) if (at <= now) pending.push(event);
  later = later.filter(([at]) => at > now);
  if (choosing) return choose(now);
  while (replay.length && replay[0][0] + delay <= now) {
    const event = replay.shift()[1];
    if (event === "end") {
      replay = [];
      post({ type: "replay", text: "replay finished" });
    } else if (event.startsWith("choose ")) {
      choosing = { label: event.slice("choose ".length), since: now, steps: 0, next: now };
      return choose(now);
    } else pending.push(event);
  }
}

function choose(now) {
  const c = choosing;
  if (now < c.next || later.length) return;
  const found = py.highlighted(c.label);
  mp.runPython("gc.collect()");      // its copy of the panel is the page's, not the firmware's frame
  if (found) {
    pending.push("press A");
    later.push([now + 100, "release A"]);
    delay += now - c.since;
    choosing = null;
  } else if (c.steps >= CHOOSE_STEPS) {
    choosing = null;
    replay = [];
    post({ type: "replay", text: `replay stopped: no entry "${c.label}" on the panel (the board goes on)` });
  } else {
    pending.push("push down");
    later.push([now + 100, "center"]);
    c.steps += 1;
    c.next = now + CHOOSE_STEP_MS;
  }
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
