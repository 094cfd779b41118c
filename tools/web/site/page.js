// The page around the board: the panel on a canvas, keys, touch and gamepad,
// the speaker on WebAudio, the flash in localStorage, screenshots and GIFs.
// The board itself (MicroPython running the firmware) lives in worker.js.
import { GIFEncoder } from "./gifenc.js";

const W = 128, H = 64;
// ?board=N: another board in another tab, with a flash of its own; the tabs'
// radios reach each other (Play a friend) over a BroadcastChannel in worker.js
const BOARD = parseInt(new URLSearchParams(location.search).get("board") || "1", 10) || 1;
const FLASH_KEY = "ml4m-flash" + (BOARD > 1 ? "-" + BOARD : "");   // localStorage: {path under /data: base64}
const GAMES_KEY = "ml4m-games" + (BOARD > 1 ? "-" + BOARD : "");   // {path under /games: base64}, the loaded games
const $ = (id) => document.getElementById(id);
const canvas = $("panel");
const ctx = canvas.getContext("2d");
const image = ctx.createImageData(W, H);

// What tests and curious players can look at (and drive) from the console.
const arcade = window.arcade = {
  frames: 0, picture: new Uint8Array(W * H), heap: null, peak: 0, fps: 0, frameMs: 0, stopped: null,
  log: [], bootedAt: 0, firstPicture: null,
  send: (event) => send(event),
  runProgram: (source) => start({ type: "program", source }),
  restart: () => boot(),
};

// ---- the board ------------------------------------------------------------------------
let worker = null;
let spare = null;         // the next worker, MicroPython already loaded in it
let booted = null;        // the message the board was started with (a soft reset starts it again)
let handingOver = null;   // during a soft reset: the inputs waiting for the fresh worker
let note = "";            // said on the status line once the board shows its first picture
let keepingFlash = true;  // the saves go to localStorage (not while a replay plays)

function start(message, afterBoot = "", keep = true) {
  note = afterBoot;
  keepingFlash = keep;
  if (worker) worker.terminate();
  handingOver = null;
  arcade.frames = 0;
  arcade.peak = 0;
  arcade.stopped = null;
  arcade.firstPicture = null;
  arcade.bootedAt = performance.now();
  message.board = BOARD;
  booted = message;
  worker = spawn(message);
  status("starting MicroPython...");
}

function spawn(message) {
  const w = spare || new Worker("worker.js", { type: "module" });
  spare = new Worker("worker.js", { type: "module" });
  w.onmessage = (e) => received(e.data);
  w.postMessage(message);
  return w;
}

// machine.soft_reset() on the board: a fresh worker, as the board gets a fresh
// interpreter (worker.js says why not a second one in the same worker), with what
// the board keeps. The inputs the old worker got after the reset go on to the new
// one, in order, before any that come meanwhile: a key let go is never lost.
function softReset(m) {
  if (keepingFlash) saveFlash(m.kept.flash);   // what the last frame saved (a game left)
  const old = worker;
  handingOver = [];
  old.onmessage = (e) => {
    if (e.data.type !== "handed") return;
    old.terminate();
    worker = spawn(Object.assign({}, booted, { kept: m.kept, carried: m.carried }));
    const events = e.data.events.concat(handingOver);
    handingOver = null;
    for (const event of events) worker.postMessage({ type: "input", event });
  };
  old.postMessage({ type: "handover" });
}

function boot(afterBoot = "") {
  start({ type: "boot", flash: loadFlash(), games: loadGames(), seed: 0, replay: null }, afterBoot);
}

function received(m) {
  if (m.type === "frame") frame(m);
  else if (m.type === "flash") { if (keepingFlash) saveFlash(m.files); }
  else if (m.type === "replay") status(m.text);
  else if (m.type === "log") {
    arcade.log.push(m.text);
    if (arcade.log.length > 500) arcade.log.splice(0, 100);
    console.log("board:", m.text);
  }
  else if (m.type === "stopped") { arcade.stopped = m.reason; status(`stopped: ${m.reason}`); }
  else if (m.type === "reset") softReset(m);
}

function send(event) {
  if (handingOver) handingOver.push(event);
  else if (worker) worker.postMessage({ type: "input", event });
}

// ---- one frame from the board ------------------------------------------------------------
let fpsCount = 0, fpsSince = performance.now(), busyMs = 0;

function frame(m) {
  arcade.frames += 1;
  arcade.heap = m.heap;
  arcade.peak = Math.max(arcade.peak, m.heap.peak);
  if (m.picture) {
    const pic = arcade.picture;
    for (let i = 0; i < W * H; i++) pic[i] = m.picture.charCodeAt(2 * i + 1) === 49 ? 1 : 0;  // "01"
    if (arcade.firstPicture === null && pic.some((p) => p)) {
      arcade.firstPicture = performance.now() - arcade.bootedAt;
      status(note);
    }
  }
  draw(m.contrast);
  for (const s of m.sounds) sound(s);
  gifFrame();
  fpsCount += 1;
  busyMs += m.ms;
  const now = performance.now();
  if (now - fpsSince >= 1000) {
    arcade.fps = fpsCount * 1000 / (now - fpsSince);
    arcade.frameMs = busyMs / fpsCount;     // the worker's time per frame
    fpsCount = 0;
    busyMs = 0;
    fpsSince = now;
    const h = m.heap;
    // make bench's terms (README, "How faithful the heap is"): "live" between frames,
    // against the board's cap; the busiest frame with its garbage ("upper")
    const kb = (bytes) => (bytes / 1024).toFixed(1);
    $("readout").textContent = `${arcade.fps.toFixed(0)} fps · heap between frames ${kb(h.live)} KB ` +
      `of the board's ${(h.cap / 1024).toFixed(0)} KB (${kb(h.cap - h.live)} KB free) · ` +
      `busiest frame ${kb(arcade.peak)} KB with its garbage`;
  }
}

// ---- the panel --------------------------------------------------------------------------
let lastContrast = 0x7f;

// Lit pixels as the OLED shows them: brighter with more contrast (as the
// emulator's PNG draws them), a little blue in the OLED look.
function draw(contrast = lastContrast) {
  lastContrast = contrast;
  const level = 60 + Math.floor(195 * contrast / 255);
  const oled = canvas.classList.contains("oled");
  const [r, g, b] = oled ? [Math.round(level * 0.75), Math.round(level * 0.92), level] : [level, level, level];
  const d = image.data, pic = arcade.picture;
  for (let i = 0; i < W * H; i++) {
    const on = pic[i];
    d[4 * i] = on ? r : 0; d[4 * i + 1] = on ? g : 0; d[4 * i + 2] = on ? b : 0; d[4 * i + 3] = 255;
  }
  ctx.putImageData(image, 0, 0);
}

function status(text) { $("status").textContent = text; }

// ---- controls: the same events as the simulator's replays ----------------------------------
const STICK_KEYS = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right",
  w: "up", s: "down", a: "left", d: "right" };     // tools/simulator/keys.py
const BUTTON_KEYS = { j: "A", k: "B", l: "C", u: "D", i: "E", o: "F",
  1: "A", 2: "B", 3: "C", 4: "D", 5: "E", 6: "F" };

// Every source (keys, touch, gamepad) holds its own set of directions and buttons;
// the board sees the union, so letting go on one does not undo another.
const sources = { keys: { dirs: new Set(), buttons: new Set() },
                  touch: { dirs: new Set(), buttons: new Set() },
                  pad: { dirs: new Set(), buttons: new Set() } };
let shownDirection = "center";
const shownButtons = new Set();

function direction(dirs) {
  const v = (dirs.has("up") ? "up" : "") + (dirs.has("down") ? "down" : "");
  const h = (dirs.has("left") ? "left" : "") + (dirs.has("right") ? "right" : "");
  const vert = v === "updown" ? "" : v, horiz = h === "leftright" ? "" : h;
  return vert + horiz || "center";
}

function update() {
  const dirs = new Set(), buttons = new Set();
  for (const s of Object.values(sources)) {
    s.dirs.forEach((d) => dirs.add(d));
    s.buttons.forEach((b) => buttons.add(b));
  }
  const dir = direction(dirs);
  if (dir !== shownDirection) {
    shownDirection = dir;
    send(dir === "center" ? "center" : `push ${dir}`);
  }
  for (const b of "ABCDEF") {
    if (buttons.has(b) && !shownButtons.has(b)) { shownButtons.add(b); send(`press ${b}`); }
    else if (!buttons.has(b) && shownButtons.has(b)) { shownButtons.delete(b); send(`release ${b}`); }
    document.querySelector(`[data-button="${b}"]`).classList.toggle("down", buttons.has(b));
  }
}

function keyName(e) { return e.key.length === 1 ? e.key.toLowerCase() : e.key; }

addEventListener("keydown", (e) => {
  if (e.ctrlKey || e.metaKey || e.altKey) return;
  const k = keyName(e);
  if (k in STICK_KEYS) sources.keys.dirs.add(STICK_KEYS[k]);
  else if (k in BUTTON_KEYS) sources.keys.buttons.add(BUTTON_KEYS[k]);
  else if (k === "p" && !e.repeat) { $("png").click(); return; }   // the simulator's PNG key
  else return;
  e.preventDefault();
  startSound();
  update();
});
addEventListener("keyup", (e) => {
  const k = keyName(e);
  if (k in STICK_KEYS) sources.keys.dirs.delete(STICK_KEYS[k]);
  else if (k in BUTTON_KEYS) sources.keys.buttons.delete(BUTTON_KEYS[k]);
  else return;
  update();
});
addEventListener("blur", () => {               // keys let go while the page had no focus
  sources.keys.dirs.clear(); sources.keys.buttons.clear(); update();
});

// Touch (and mouse): buttons press while a pointer is on them.
for (const el of document.querySelectorAll("[data-button]")) {
  const name = el.dataset.button;
  const down = (e) => { e.preventDefault(); el.setPointerCapture(e.pointerId); startSound();
                        sources.touch.buttons.add(name); update(); };
  const up = () => { sources.touch.buttons.delete(name); update(); };
  el.addEventListener("pointerdown", down);
  el.addEventListener("pointerup", up);
  el.addEventListener("pointercancel", up);
  el.addEventListener("contextmenu", (e) => e.preventDefault());
}

// The stick: the pointer's angle from the centre picks one of eight directions,
// beyond a small dead zone in the middle.
const stick = $("stick"), knob = $("knob");
function stickAt(e) {
  const r = stick.getBoundingClientRect();
  const x = (e.clientX - r.left) / r.width - 0.5, y = (e.clientY - r.top) / r.height - 0.5;
  const dirs = sources.touch.dirs;
  dirs.clear();
  if (Math.hypot(x, y) > 0.12) {
    const sector = Math.round(Math.atan2(y, x) / (Math.PI / 4));   // 0 = right, 2 = down
    const names = { 0: ["right"], 1: ["right", "down"], 2: ["down"], 3: ["left", "down"],
      4: ["left"], "-4": ["left"], "-3": ["left", "up"], "-2": ["up"], "-1": ["right", "up"] };
    names[sector].forEach((d) => dirs.add(d));
  }
  const k = Math.min(1, 0.3 / Math.max(Math.hypot(x, y), 0.001));
  knob.style.left = `${30 + x * k * 100}%`; knob.style.top = `${30 + y * k * 100}%`;
  update();
}
stick.addEventListener("pointerdown", (e) => { e.preventDefault(); stick.setPointerCapture(e.pointerId);
                                               startSound(); stickAt(e); });
stick.addEventListener("pointermove", (e) => { if (stick.hasPointerCapture(e.pointerId)) stickAt(e); });
const stickUp = () => { sources.touch.dirs.clear(); knob.style.left = knob.style.top = "30%"; update(); };
stick.addEventListener("pointerup", stickUp);
stick.addEventListener("pointercancel", stickUp);

// A gamepad, looked at once per animation frame: left stick or d-pad, and the
// four face buttons plus the two shoulder buttons for A-F (standard mapping).
const PAD_BUTTONS = { 0: "A", 1: "B", 2: "C", 3: "D", 4: "E", 5: "F" };
function pollGamepad() {
  const pads = navigator.getGamepads ? navigator.getGamepads() : [];
  const dirs = new Set(), buttons = new Set();
  for (const pad of pads) {
    if (!pad) continue;
    const [x, y] = [pad.axes[0] || 0, pad.axes[1] || 0];
    const pressed = (i) => pad.buttons[i] && pad.buttons[i].pressed;
    if (y < -0.5 || pressed(12)) dirs.add("up");
    if (y > 0.5 || pressed(13)) dirs.add("down");
    if (x < -0.5 || pressed(14)) dirs.add("left");
    if (x > 0.5 || pressed(15)) dirs.add("right");
    for (const [i, b] of Object.entries(PAD_BUTTONS)) if (pressed(+i)) buttons.add(b);
  }
  const same = (a, b) => a.size === b.size && [...a].every((v) => b.has(v));
  if (!same(dirs, sources.pad.dirs) || !same(buttons, sources.pad.buttons)) {
    sources.pad = { dirs, buttons };
    update();
  }
  requestAnimationFrame(pollGamepad);
}
requestAnimationFrame(pollGamepad);

// ---- sound: the speaker pin's PWM tone and DAC clicks ---------------------------------------
// The PWM is a square wave (its loudness goes as sin(pi * duty), as
// firmware/hal/sound.py explains); a DAC write is a step of the cone, which a
// high-pass filter turns into the click the speaker makes.
let audio = null, tone = null, toneGain = null, dacLevel = null, muted = true, timeOffset = null;

function startSound() {
  if (audio) return;
  audio = new AudioContext();
  const master = audio.createGain();
  master.gain.value = 0.25;
  master.connect(audio.destination);
  tone = audio.createOscillator();
  tone.type = "square";
  toneGain = audio.createGain();
  toneGain.gain.value = 0;
  tone.connect(toneGain).connect(master);
  tone.start();
  dacLevel = audio.createConstantSource();
  dacLevel.offset.value = 0;
  const highpass = audio.createBiquadFilter();
  highpass.type = "highpass";
  highpass.frequency.value = 300;
  dacLevel.connect(highpass).connect(master);
  dacLevel.start();
  setMuted(false);
}

function setMuted(on) {
  muted = on;
  $("mute").textContent = on ? "Sound: off" : "Sound: on";
  $("mute").classList.toggle("on", !on);
  if (audio) (on ? audio.suspend() : audio.resume());
}

function sound([ms, kind, a, b]) {
  if (!audio || muted) return;
  // board ms -> audio time, a little ahead so a frame's sounds keep their spacing
  const now = audio.currentTime;
  if (timeOffset === null || Math.abs(ms / 1000 + timeOffset - now - 0.05) > 0.25) timeOffset = now + 0.05 - ms / 1000;
  const at = Math.max(now, ms / 1000 + timeOffset);
  if (kind === "pwm") {
    const on = a > 0 && b > 0;
    if (on) tone.frequency.setValueAtTime(a, at);
    toneGain.gain.setValueAtTime(on ? Math.sin(Math.PI * Math.min(b, 32768) / 65536) * 0.5 : 0, at);
  } else if (kind === "dac") {
    dacLevel.offset.setValueAtTime(a / 255, at);
  }
}

$("mute").onclick = () => { if (!audio) startSound(); else setMuted(!muted); };

// ---- the flash: saves across reloads -------------------------------------------------------
function loadFlash() {
  try { return JSON.parse(localStorage.getItem(FLASH_KEY) || "{}"); } catch (e) { return {}; }
}

function saveFlash(files) {
  try { localStorage.setItem(FLASH_KEY, JSON.stringify(files)); }
  catch (e) { status("saves not kept: the browser refused the storage (" + e.name + ")"); }
}

function download(name, blob) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.click();
  setTimeout(() => URL.revokeObjectURL(a.href), 1000);
}

$("export").onclick = () => download("ml4m-saves.json",
  new Blob([JSON.stringify({ ml4m_flash: 1, files: loadFlash() }, null, 1)], { type: "application/json" }));
$("import").onchange = async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  try {
    const data = JSON.parse(await file.text());
    if (!data || data.ml4m_flash !== 1 || typeof data.files !== "object") throw new Error("not an ML4M saves file");
    for (const v of Object.values(data.files)) if (typeof v !== "string") throw new Error("not an ML4M saves file");
    saveFlash(data.files);
    const n = Object.keys(data.files).length;
    boot(`imported ${n} file${n === 1 ? "" : "s"} from ${file.name}: the board started again with them`);
  } catch (err) {
    status(`import: ${file.name}: ${err.message} (nothing changed)`);
  }
};
$("reset").onclick = () => {
  if (!confirm("Erase every save, record and loaded game in this browser?")) return;
  localStorage.removeItem(FLASH_KEY);
  localStorage.removeItem(GAMES_KEY);
  boot("flash erased: every save, record and loaded game in this browser is gone");
};
$("restart").onclick = () => boot();

// ---- a player's games: /games, as on the board (README, "Share your game") ---------------
// A game is one file name.py, or a package folder name/ with an __init__.py, zipped.
// Loading one restarts the board, whose menu then reads the new game, as a board
// does at the boot after `make install-game`.
function loadGames() {
  try { return JSON.parse(localStorage.getItem(GAMES_KEY) || "{}"); } catch (e) { return {}; }
}

const MODULE_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

// {path under /games: bytes} of a game file or a zipped package, or an Error saying why not.
async function gameFiles(name, bytes) {
  if (name.endsWith(".py")) {
    if (!MODULE_NAME.test(name.slice(0, -3)))
      throw new Error("a game's file name must be letters, digits and _ (it is imported by that name)");
    return { [name]: bytes };
  }
  if (!name.endsWith(".zip")) throw new Error("a game is a .py file or a zipped package folder");
  const files = await unzip(bytes);
  const tops = new Set(Object.keys(files).map((p) => p.split("/")[0]));
  const [top] = tops;
  if (tops.size !== 1 || !files[`${top}/__init__.py`])
    throw new Error("the zip must hold one folder with an __init__.py (a package game)");
  if (!MODULE_NAME.test(top)) throw new Error(`the folder name ${top} must be letters, digits and _`);
  return files;
}

// The files of a zip (stored or deflated entries), read from its central directory.
async function unzip(bytes) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let end = bytes.length - 22;
  while (end >= 0 && view.getUint32(end, true) !== 0x06054b50) end--;
  if (end < 0) throw new Error("not a zip file");
  const count = view.getUint16(end + 10, true);
  let at = view.getUint32(end + 16, true);
  const files = {};
  for (let i = 0; i < count; i++) {
    if (view.getUint32(at, true) !== 0x02014b50) throw new Error("a damaged zip file");
    const method = view.getUint16(at + 10, true), size = view.getUint32(at + 20, true);
    const nameLength = view.getUint16(at + 28, true), extra = view.getUint16(at + 30, true);
    const comment = view.getUint16(at + 32, true), local = view.getUint32(at + 42, true);
    const name = new TextDecoder().decode(bytes.subarray(at + 46, at + 46 + nameLength));
    at += 46 + nameLength + extra + comment;
    if (name.endsWith("/") || name.startsWith("__MACOSX/")) continue;
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    const packed = bytes.subarray(start, start + size);
    if (method === 0) files[name] = packed;
    else if (method === 8) {
      const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
      files[name] = new Uint8Array(await new Response(stream).arrayBuffer());
    } else throw new Error(`${name}: packed in a way this page cannot read (method ${method})`);
  }
  return files;
}

function installGame(name, files) {
  const games = loadGames();
  const stem = name.replace(/\.(py|zip)$/, "");
  for (const path of Object.keys(games))       // the game's other form goes: a file or a folder
    if (path === `${stem}.py` || path.startsWith(`${stem}/`)) delete games[path];
  for (const [path, bytes] of Object.entries(files)) games[path] = encode(bytes);
  try { localStorage.setItem(GAMES_KEY, JSON.stringify(games)); }
  catch (e) { throw new Error("the browser refused the storage (" + e.name + ")"); }
}

function encode(bytes) {
  let text = "";
  for (const b of bytes) text += String.fromCharCode(b);
  return btoa(text);
}

async function loadGame(name, bytes, from) {
  try {
    installGame(name, await gameFiles(name, bytes));
  } catch (err) {
    status(`load game: ${name}: ${err.message} (nothing changed)`);
    return false;
  }
  boot(`${name}${from} is in the menu (its saves stay in this browser)`);
  return true;
}

$("loadgame").onchange = async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (file) await loadGame(file.name, new Uint8Array(await file.arrayBuffer()), "");
};

// ?game=URL: the arcade opens with that game loaded (same origin, or a host that
// allows it with CORS), so a student shares a game by sharing a link.
async function gameFromLink(url) {
  let response;
  try {
    response = await fetch(url);
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
  } catch (err) {
    boot(`game link: ${url}: ${err.message} (the arcade started without it)`);
    return;
  }
  const name = new URL(url, location.href).pathname.split("/").pop();
  if (!(await loadGame(name, new Uint8Array(await response.arrayBuffer()), ` from ${new URL(url, location.href).host}`)))
    boot();
}

// ---- replays: tools/simulator/replay.py's files --------------------------------------------
// Inputs land on frame boundaries of the page's real clock, not on the
// emulator's 5 ms virtual ticks, so a replay plays the same moves but timing-
// dependent details (a blink, a CPU with a time budget) can differ. The seed is
// the replay's: the firmware's random is MicroPython's in both (the simulator's
// too: tools/emu/mp_random.py), so the same seed deals the same game.
const BUTTONS = ["A", "B", "C", "D", "E", "F"];
const DIRECTIONS = ["left", "right", "up", "down", "upleft", "upright", "downleft", "downright"];

// One line of a replay: [[ms, event]...], or an Error saying what is wrong with it.
function replayEvents(t, event) {
  const words = event.split(" ");
  const [verb, what] = words;
  if (verb === "tap" && (words.length === 2 || words.length === 3)) {   // press, let go after ms
    const ms = words.length === 3 ? +words[2] : 80;
    if (BUTTONS.includes(what)) return [[t, `press ${what}`], [t + ms, `release ${what}`]];
    if (DIRECTIONS.includes(what)) return [[t, `push ${what}`], [t + ms, "center"]];
  }
  if ((verb === "press" || verb === "release") && words.length === 2 && BUTTONS.includes(what)) return [[t, event]];
  if (verb === "push" && words.length === 2 && DIRECTIONS.includes(what)) return [[t, event]];
  if ((verb === "center" || verb === "end") && words.length === 1) return [[t, event]];
  if (verb === "choose" && words.length >= 2) return [[t, event]];
  throw new Error(`unknown event "${event}"`);
}

function parseReplay(text) {
  let header = {}, events = [], number = 0;
  for (const line of text.split("\n")) {
    number += 1;
    const s = line.trim();
    if (!s || s.startsWith("#")) continue;
    let item;
    try { item = JSON.parse(s); } catch (e) { throw new Error(`line ${number}: not JSON`); }
    if (item === null || typeof item !== "object") throw new Error(`line ${number}: not an object`);
    if ("ml4m_replay" in item) {
      if (item.ml4m_replay !== 1) throw new Error(`replay format ${item.ml4m_replay}, this page reads 1`);
      header = item;
      continue;
    }
    if (typeof item.t_ms !== "number" || typeof item.event !== "string") throw new Error(`line ${number}: no t_ms and event`);
    try { events.push(...replayEvents(item.t_ms, item.event)); }
    catch (e) { throw new Error(`line ${number}: ${e.message}`); }
  }
  if (header.main && header.main !== "main.py") throw new Error(`it runs ${header.main}; the page runs the firmware's main.py`);
  events.sort((a, b) => a[0] - b[0]);
  // the flash the session started with: paths from the board's root ("data/2048.json")
  const files = {};
  for (const [path, content] of Object.entries(header.store || {})) {
    files["/" + path] = typeof content === "string" ? btoa(unescape(encodeURIComponent(content))) : content.base64;
  }
  return { seed: header.seed || 0, events, files };
}

$("replay").onchange = async (e) => {
  const file = e.target.files[0];
  e.target.value = "";
  if (!file) return;
  let r;
  try {
    r = parseReplay(await file.text());
  } catch (err) {                    // the board is left running as it was
    status(`replay: ${file.name}: ${err.message} (not played)`);
    return;
  }
  start({ type: "boot", flash: {}, games: {}, files: r.files, seed: r.seed, replay: r.events },
        `playing ${file.name} (seed ${r.seed}; the saves in this browser are not touched)`, false);
};

// ---- sharing: PNG and GIF --------------------------------------------------------------------
$("oled").onclick = () => { canvas.classList.toggle("oled"); $("oled").classList.toggle("on"); draw(); };

$("png").onclick = () => {
  const big = document.createElement("canvas");
  big.width = W * 4; big.height = H * 4;
  const c = big.getContext("2d");
  c.imageSmoothingEnabled = false;
  c.drawImage(canvas, 0, 0, big.width, big.height);
  big.toBlob((blob) => download("ml4m.png", blob), "image/png");
};

// A GIF of the panel, one GIF frame per board frame that changed the picture,
// 2x scaled, two colours; at most 60 s.
let gif = null;
const GIF_SCALE = 2, GIF_MAX_MS = 60000;

function gifFrame() {
  if (!gif) return;
  const now = performance.now();
  if (now - gif.started > GIF_MAX_MS) return stopGif();
  const key = arcade.picture.join("");
  if (key === gif.last) return;
  if (gif.pending) writeGifFrame(gif, now);
  gif.last = key;
  gif.pendingAt = now;
  const index = new Uint8Array(W * H * GIF_SCALE * GIF_SCALE);
  for (let y = 0; y < H * GIF_SCALE; y++)
    for (let x = 0; x < W * GIF_SCALE; x++)
      index[y * W * GIF_SCALE + x] = arcade.picture[(y / GIF_SCALE | 0) * W + (x / GIF_SCALE | 0)];
  gif.pending = index;
}

// The frame waiting in g.pending shows until `now`; the first frame carries the palette.
function writeGifFrame(g, now) {
  const options = { delay: Math.round(now - g.pendingAt) };
  if (g.frames++ === 0) options.palette = g.palette;
  g.encoder.writeFrame(g.pending, W * GIF_SCALE, H * GIF_SCALE, options);
}

function stopGif() {
  const g = gif;
  gif = null;
  $("gif").textContent = "Record GIF";
  $("gif").classList.remove("on");
  if (!g.pending) return;
  writeGifFrame(g, Math.max(performance.now(), g.pendingAt + 20));
  g.encoder.finish();
  download("ml4m.gif", new Blob([g.encoder.bytes()], { type: "image/gif" }));
}

$("gif").onclick = () => {
  if (gif) return stopGif();
  gif = { encoder: GIFEncoder(), palette: [[0, 0, 0], [220, 235, 255]], started: performance.now(),
          last: null, pending: null, pendingAt: 0, frames: 0 };
  $("gif").textContent = "Stop and save GIF";
  $("gif").classList.add("on");
  gifFrame();
};

const link = new URLSearchParams(location.search).get("game");
if (link) gameFromLink(link); else boot();
