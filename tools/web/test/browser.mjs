// The browser arcade in a real browser: headless Chromium (Debian's `chromium`)
// driven by playwright-core. Run by tests/test_web.py, which builds the site,
// serves it, and asks the CPython emulator for the pictures the panel must show:
//
//   node tools/web/test/browser.mjs SPEC.json           every check, then one JSON line
//   node tools/web/test/browser.mjs --serve SPEC.json   Chromium kept open; each line read
//                                                       on stdin, {"check": name, "spec": {...}},
//                                                       runs one check (with those fields added
//                                                       to SPEC's), its result one line on stdout
//
// SPEC: {"url", "chromium", "expected": {name: "0101..." (8192 pixels)}, ...}.
// A result: {ok, ...figures or what went wrong}. Each check runs in a browser
// context of its own (empty storage, as a first visit), so the checks do not
// depend on each other or on their order. --serve is how the tests use it
// (tests/conftest.py's `chromium` fixture): Chromium starts once per test run.
import fs from "node:fs";
import readline from "node:readline";
import { chromium } from "playwright-core";

const serve = process.argv[2] === "--serve";
const given = JSON.parse(fs.readFileSync(process.argv[serve ? 3 : 2], "utf8"));
let spec = given;
const FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
  "--disable-background-networking", "--disable-component-update", "--disable-sync"];
// a phone held upright: the touch controls must be usable there
const PHONE = { viewport: { width: 390, height: 844 }, hasTouch: true, isMobile: true };

// The panel as the canvas shows it: 8192 "0"/"1", lit where the pixel has any light.
const picture = (page) => page.evaluate(() => {
  const d = document.getElementById("panel").getContext("2d").getImageData(0, 0, 128, 64).data;
  let s = "";
  for (let i = 0; i < 128 * 64; i++) s += d[4 * i] || d[4 * i + 1] || d[4 * i + 2] ? "1" : "0";
  return s;
});
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

// Wait until the panel shows `want` (or, with want null, until it stops changing).
async function waitForPicture(page, want, timeout = 20000) {
  const start = Date.now();
  let last = null, since = Date.now();
  while (Date.now() - start < timeout) {
    const now = await picture(page);
    if (want !== null && now === want) return { ok: true, ms: Date.now() - start, picture: now };
    if (now !== last) { last = now; since = Date.now(); }
    else if (want === null && Date.now() - since > 600) return { ok: true, picture: now };
    await sleep(30);
  }
  return { ok: false, picture: last };
}

// The menu is on the panel (whatever its items): its title bar is.
async function waitForMenu(page, timeout = 20000) {
  const title = spec.expected.menu.slice(0, 128 * 9);
  const start = Date.now();
  while ((await picture(page)).slice(0, 128 * 9) !== title) {
    if (Date.now() - start > timeout) throw new Error("no menu on the panel");
    await sleep(30);
  }
}

async function opened(context) {
  const page = await context.newPage();
  const errors = [];
  page.on("pageerror", (e) => errors.push(e.message));
  const started = Date.now();
  await page.goto(spec.url);
  await page.waitForFunction(() => window.arcade && window.arcade.frames > 0, null, { timeout: 30000 });
  return { page, errors, started };
}

async function key(page, name, ms = 100) {
  await page.keyboard.down(name);
  await sleep(ms);
  await page.keyboard.up(name);
  await sleep(150);
}

// A finger on an element: touchStart, held `ms`, touchEnd (Chromium makes the
// pointer events the page listens to). dx, dy: where on it, from its centre (-0.5..0.5).
async function touch(page, cdp, selector, ms = 120, dx = 0, dy = 0) {
  const box = await page.locator(selector).boundingBox();
  const point = { x: box.x + box.width * (0.5 + dx), y: box.y + box.height * (0.5 + dy) };
  await cdp.send("Input.dispatchTouchEvent", { type: "touchStart", touchPoints: [point] });
  await sleep(ms);
  await cdp.send("Input.dispatchTouchEvent", { type: "touchEnd", touchPoints: [] });
  await sleep(150);
}

// Frames per second over `ms` while `play` runs (the page's own count).
async function framesPerSecond(page, ms, play) {
  const before = await page.evaluate(() => arcade.frames);
  const t = Date.now();
  await play();
  const rest = ms - (Date.now() - t);
  if (rest > 0) await sleep(rest);
  return (await page.evaluate(() => arcade.frames) - before) * 1000 / (Date.now() - t);
}

// The checks by name, each run by run() below.
const checks = {};
function check(name, fn) {
  checks[name] = fn;
}

// launch() starts Chromium on a fresh, temporary --user-data-dir of its own
// (and refuses one passed in args); `desktop` is a new context for each check.
const browser = await chromium.launch({ executablePath: spec.chromium, args: FLAGS });
let desktop = null;

async function run(name) {
  if (!checks[name]) return { ok: false, error: "no check named " + JSON.stringify(name) };
  desktop = await browser.newContext({ viewport: { width: 1000, height: 800 } });
  try { return await checks[name](); }
  catch (e) { return { ok: false, error: String(e.stack || e) }; }
  finally { await desktop.close(); }
}

{
  check("menu", async () => {
    const { page, errors, started } = await opened(desktop);
    const menu = await waitForPicture(page, spec.expected.menu);
    const toMenu = Date.now() - started;
    const firstPicture = await page.evaluate(() => Math.round(arcade.firstPicture));
    await key(page, "ArrowDown");
    await key(page, "s");                      // W A S D work like the arrows
    const down = await waitForPicture(page, spec.expected.menu_down2, 5000);
    await page.close();
    return { ok: menu.ok && down.ok && errors.length === 0, menu: menu.ok, down: down.ok, to_menu_ms: toMenu,
             to_first_picture_ms: firstPicture,
             errors, got: down.ok ? undefined : down.picture };
  });

  check("keys_and_save", async () => {
    const { page, errors } = await opened(desktop);
    // a soft reset (a launch, a return) ends its worker: the next program runs in a
    // fresh one (worker.js says why), beside which the page keeps one spare
    let ended = 0;
    const watch = (w) => w.on("close", () => { ended += 1; });
    page.workers().forEach(watch);
    page.on("worker", watch);
    await waitForPicture(page, spec.expected.menu);
    await key(page, "ArrowDown"); await key(page, "ArrowDown");
    await key(page, "j");                      // A: open 2048
    const start = await waitForPicture(page, null);
    let changed = 0, last = start.picture;
    const fps = await framesPerSecond(page, 3000, async () => {
      for (const k of ["ArrowLeft", "ArrowUp", "ArrowRight", "ArrowDown", "ArrowLeft", "ArrowUp"]) {
        await key(page, k);
        const now = (await waitForPicture(page, null)).picture;
        if (now !== last) changed += 1;
        last = now;
      }
    });
    const inGame = last;
    const frameMs = await page.evaluate(() => arcade.frameMs);
    await key(page, "k");                      // B: back to the menu, the game saved
    await waitForPicture(page, null);
    const saved = await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem("ml4m-flash") || "{}")));
    const workers = { ended, running: page.workers().length };   // 2048 opened and left: 2 resets
    await page.reload();
    await page.waitForFunction(() => window.arcade && window.arcade.frames > 0);
    await waitForMenu(page);
    await key(page, "j");                      // A on the first item: Continue
    const resumed = await waitForPicture(page, inGame, 8000);
    if (process.env.ML4M_WEB_DEBUG) for (const p of [inGame, resumed.picture])
      console.error(p.match(/.{128}/g).join("\n").replace(/0/g, ".").replace(/1/g, "#") + "\n");
    const stopped = await page.evaluate(() => arcade.stopped);   // the board stopped (a trap)
    await page.close();
    return { ok: changed >= 4 && resumed.ok && saved.length > 0 && errors.length === 0 && stopped === null
               && workers.ended >= 2 && workers.running === 2,
             moves_that_changed_the_panel: changed, saved, resumed_same_board: resumed.ok, fps_playing: fps,
             worker_ms_per_frame: frameMs, workers, stopped, errors };
  });

  check("touch", async () => {
    const phone = await browser.newContext(PHONE);
    const { page, errors } = await opened(phone);
    const cdp = await phone.newCDPSession(page);
    await waitForPicture(page, spec.expected.menu);
    await touch(page, cdp, "#stick", 120, 0, 0.4);     // the stick, pushed down
    await touch(page, cdp, "#stick", 120, 0, 0.4);
    const down = await waitForPicture(page, spec.expected.menu_down2, 5000);
    await touch(page, cdp, '[data-button="A"]');
    const game = await waitForPicture(page, null);
    let changed = 0, last = game.picture;
    for (const [dx, dy] of [[-0.4, 0], [0, -0.4], [0.4, 0], [0, 0.4]]) {
      await touch(page, cdp, "#stick", 120, dx, dy);
      const now = (await waitForPicture(page, null)).picture;
      if (now !== last) changed += 1;
      last = now;
    }
    // the controls fit a phone held upright: nothing to scroll sideways, all on screen
    const fits = await page.evaluate(() => {
      const r = (s) => document.querySelector(s).getBoundingClientRect();
      return document.documentElement.scrollWidth <= innerWidth && r("#buttons").bottom <= innerHeight
        && r("#stick").bottom <= innerHeight;
    });
    await phone.close();
    return { ok: down.ok && changed >= 3 && fits && errors.length === 0, menu_moved: down.ok,
             moves_that_changed_the_panel: changed, fits_portrait_phone: fits, errors };
  });

  check("heap_cap", async () => {
    const { page, errors } = await opened(desktop);
    await page.evaluate((source) => arcade.runProgram(source), spec.heap_program);
    await page.waitForFunction(() => arcade.stopped !== null, null, { timeout: 30000 });
    const result = await page.evaluate(() => ({ stopped: arcade.stopped, heap: arcade.heap, log: arcade.log.slice(-3) }));
    await page.close();
    const held = Math.max(0, ...result.log.map((l) => +(/held (\d+)/.exec(l) || [0, 0])[1]));
    return { ok: /^MemoryError/.test(result.stopped) && result.heap.live > result.heap.cap
               && held - 8192 <= result.heap.cap && errors.length === 0,   // the step before fitted
             stopped: result.stopped, cap: result.heap.cap, live_at_failure: result.heap.live,
             held_before_failure: held, errors };
  });
  check("cpu_search", async () => {
    // Reversi's hardest CPU plays both sides, one move a frame: each frame is one
    // long search inside one call. The page must stay alive meanwhile (its
    // animation frames keep coming, a touched button lights at once).
    const { page, errors } = await opened(desktop);
    await page.evaluate(() => {
      window.gaps = { last: performance.now(), max: 0 };
      const watch = () => { const now = performance.now(); gaps.max = Math.max(gaps.max, now - gaps.last);
                            gaps.last = now; requestAnimationFrame(watch); };
      requestAnimationFrame(watch);
    });
    await page.evaluate((source) => arcade.runProgram(source), spec.search_program);
    await page.waitForFunction(() => arcade.log.some((l) => l.startsWith("move")), null, { timeout: 30000 });
    await page.evaluate(() => { gaps.max = 0; gaps.last = performance.now(); });
    await page.mouse.move(0, 0);
    const button = page.locator('[data-button="A"]');
    const box = await button.boundingBox();
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    const t = Date.now();
    await page.mouse.down();
    await page.waitForFunction(() => document.querySelector('[data-button="A"]').classList.contains("down"));
    const buttonMs = Date.now() - t;
    await page.mouse.up();
    await page.waitForFunction(() => arcade.stopped !== null, null, { timeout: 60000 });
    const r = await page.evaluate(() => ({ log: arcade.log.filter((l) => l.startsWith("move")), gap: gaps.max,
                                           peak: arcade.peak, stopped: arcade.stopped, heap: arcade.heap }));
    await page.close();
    const searchMs = r.log.map((l) => +/ms (\d+)/.exec(l)[1]);
    return { ok: r.stopped === "done" && Math.max(...searchMs) > 500 && r.gap < 250 && buttonMs < 250
               && errors.length === 0,
             longest_search_ms: Math.max(...searchMs), longest_page_pause_ms: Math.round(r.gap),
             button_lit_after_ms: buttonMs, in_frame_heap_peak: r.peak, live_after: r.heap.live,
             moves: r.log, stopped: r.stopped, errors };
  });
  check("sharing", async () => {
    // the Screenshot button saves a PNG of the panel, Record GIF a GIF of it
    const { page, errors } = await opened(desktop);
    await waitForPicture(page, spec.expected.menu);
    const saved = async (click) => {
      const [download] = await Promise.all([page.waitForEvent("download"), click()]);
      return fs.readFileSync(await download.path());
    };
    const png = await saved(() => page.click("#png"));
    await page.click("#gif");
    await key(page, "ArrowDown"); await key(page, "ArrowDown");
    const gif = await saved(() => page.click("#gif"));
    await page.close();
    const pngSize = [png.readUInt32BE(16), png.readUInt32BE(20)];
    const gifSize = [gif.readUInt16LE(6), gif.readUInt16LE(8)];
    const gifFrames = gif.reduce((n, b, i) => n + (b === 0x21 && gif[i + 1] === 0xf9 ? 1 : 0), 0);
    return { ok: png.subarray(1, 4).toString() === "PNG" && pngSize.join() === "512,256"
               && gif.subarray(0, 6).toString() === "GIF89a" && gifSize.join() === "256,128" && gifFrames >= 3
               && errors.length === 0,
             png_size: pngSize, gif_size: gifSize, gif_frames: gifFrames, gif_bytes: gif.length, errors };
  });

  check("replay", async () => {
    const { page, errors } = await opened(desktop);
    await page.setInputFiles("#replay", spec.replay);
    const end = await waitForPicture(page, spec.expected.replay_end, 20000);
    await page.close();
    return { ok: end.ok && errors.length === 0, ended_on_the_emulators_picture: end.ok, errors,
             got: end.ok ? undefined : end.picture };
  });

  check("load_game", async () => {
    // "Load game" puts a .py (or a zipped package folder) into the page's /games:
    // the menu shows it at once and after a reload; a file that cannot be a game
    // is refused with the reason, and nothing changes
    const own = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const { page, errors } = await opened(own);
    await waitForPicture(page, spec.expected.menu);
    await page.setInputFiles("#loadgame", spec.game_file);
    const listed = await waitForPicture(page, spec.expected.menu_with_game);
    const said = await page.textContent("#status");
    await page.reload();
    await page.waitForFunction(() => window.arcade && window.arcade.frames > 0);
    const kept = await waitForPicture(page, spec.expected.menu_with_game);
    // the page reads the file asynchronously: the refusal shows a moment later
    // (on a busy machine, after this line would otherwise have read the old text)
    const before = await page.textContent("#status");
    await page.setInputFiles("#loadgame", spec.bad_game_file);
    await page.waitForFunction((old) => document.querySelector("#status").textContent !== old,
                               before, { timeout: 10000 }).catch(() => {});
    const refused = await page.textContent("#status");
    await page.setInputFiles("#loadgame", spec.game_zip);      // the same game as a package
    // (the menu looks the same with dot.py or the package: wait until the page has
    // stored the package, read asynchronously, before looking at the picture)
    await page.waitForFunction(() => "dot/__init__.py" in JSON.parse(
      localStorage.getItem("ml4m-games") || "{}"), null, { timeout: 10000 }).catch(() => {});
    const zipped = await waitForPicture(page, spec.expected.menu_with_game);
    const games = await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem("ml4m-games"))));
    await own.close();
    return { ok: listed.ok && kept.ok && zipped.ok && /dot\.py is in the menu/.test(said)
               && /letters, digits and _/.test(refused) && games.join() === "dot/__init__.py"
               && errors.length === 0,
             listed: listed.ok, kept_after_reload: kept.ok, package_listed: zipped.ok, said, refused, games,
             errors };
  });

  check("game_link", async () => {
    // ?game=URL opens the arcade with that game loaded; a link that fails says so
    // and the arcade starts without it
    const own = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const page = await own.newPage();
    const errors = [];
    page.on("pageerror", (e) => errors.push(e.message));
    await page.goto(spec.url + "?game=" + encodeURIComponent(spec.game_url));
    await page.waitForFunction(() => window.arcade && window.arcade.frames > 0, null, { timeout: 30000 });
    const listed = await waitForPicture(page, spec.expected.menu_with_game);
    const said = await page.textContent("#status");
    const other = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const missing = await other.newPage();
    await missing.goto(spec.url + "?game=" + encodeURIComponent(spec.game_url.replace("dot.py", "gone.py")));
    await missing.waitForFunction(() => window.arcade && window.arcade.frames > 0, null, { timeout: 30000 });
    const plain = await waitForPicture(missing, spec.expected.menu);
    const told = await missing.textContent("#status");
    await own.close();
    await other.close();
    return { ok: listed.ok && /dot\.py from 127\.0\.0\.1:\d+ is in the menu/.test(said) && plain.ok
               && /game link: .*gone\.py: HTTP 404 \(the arcade started without it\)/.test(told) && errors.length === 0,
             listed: listed.ok, said, missing_link_menu: plain.ok, told, errors };
  });

  check("first_visit", async () => {
    // A fresh profile: nothing in the flash yet. Opening every game and the
    // Records, then a reload, must find no file damaged: no note over the menu
    // (it comes as the emulator's, at once), nothing set aside, no crash.log.
    const fresh = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const { page, errors } = await opened(fresh);
    const firstMenu = await waitForPicture(page, spec.expected.menu, 6000);
    for (let entry = 0; entry < 5; entry++) {      // 15-Puzzle, 8-Puzzle, 2048, Reversi, Records
      await waitForMenu(page);
      for (let i = 0; i < entry; i++) await key(page, "ArrowDown");
      await key(page, "j");
      await sleep(1500);
      await key(page, "k");
    }
    await page.reload();
    await page.waitForFunction(() => window.arcade && window.arcade.frames > 0);
    const afterReload = await waitForPicture(page, spec.expected.menu, 6000);
    const files = await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem("ml4m-flash") || "{}")));
    const crashLog = await page.evaluate(() => {
      const f = JSON.parse(localStorage.getItem("ml4m-flash") || "{}")["crash.log"];
      return f ? atob(f) : null;
    });
    await fresh.close();
    const setAside = files.filter((f) => f.endsWith(".bad"));
    return { ok: firstMenu.ok && afterReload.ok && setAside.length === 0 && crashLog === null
               && errors.length === 0,
             menu_without_a_note: firstMenu.ok, after_reload_without_a_note: afterReload.ok,
             files, set_aside: setAside, crash_log: crashLog, errors };
  });

  check("every_replay", async () => {
    // The simulator's replays (tools/screenshots/*.replay, a recorded 2048 with
    // its random tiles) play in the page to the emulator's last picture: the
    // same seed deals the same game. A file the page cannot play gets a
    // one-line message and the board goes on; the browser's saves stay as they were.
    const { page, errors } = await opened(desktop);
    await waitForPicture(page, spec.expected.menu);
    const savesBefore = await page.evaluate(() => localStorage.getItem("ml4m-flash"));
    const played = {}, got = {};
    const finished = () => page.waitForFunction(
      () => document.getElementById("status").textContent === "replay finished", null, { timeout: 30000 });
    for (const r of spec.replays) {
      await page.setInputFiles("#replay", r.path);
      await page.waitForFunction(() => arcade.frames < 5, null, { timeout: 10000 }).catch(() => null);  // restarted
      if (r.exact) {
        const end = await waitForPicture(page, r.expected, 30000);
        played[r.name] = end.ok;
        if (!end.ok) got[r.name] = end.picture.match(/.{128}/g).join("\n").replace(/0/g, ".").replace(/1/g, "#");
      } else {                     // the CPU's reply on the page's clock: played to its end
        played[r.name] = await finished().then(() => true, () => false);
      }
    }
    await finished().catch(() => null);    // (its line would come after the next one)
    const framesBefore = await page.evaluate(() => arcade.frames);
    await page.setInputFiles("#replay", spec.bad_replay);
    await sleep(1000);
    const bad = await page.evaluate(() => ({ status: document.getElementById("status").textContent,
                                             frames: arcade.frames, stopped: arcade.stopped }));
    const savesAfter = await page.evaluate(() => localStorage.getItem("ml4m-flash"));
    await page.close();
    const allPlayed = Object.values(played).every((ok) => ok);
    const oneLine = /^replay: \S+: line \d+: unknown event/.test(bad.status) && !bad.status.includes("\n")
      && !bad.status.includes("/");
    return { ok: allPlayed && oneLine && bad.frames > framesBefore + 10 && bad.stopped === null
               && savesAfter === savesBefore && errors.length === 0,
             ended_on_the_emulators_picture: played, bad_file_status: bad.status,
             board_kept_running: bad.frames > framesBefore + 10 && bad.stopped === null,
             saves_untouched: savesAfter === savesBefore, errors, got };
  });

  check("heap_terms", async () => {
    // The readout speaks make bench's terms against the board's cap, and
    // gc.mem_free() (About's "Free RAM") is the board's: the cap less what is held.
    const { page, errors } = await opened(desktop);
    await waitForPicture(page, spec.expected.menu);
    await sleep(1200);                          // the readout is written once a second
    const readout = await page.evaluate(() => document.getElementById("readout").textContent);
    await page.evaluate(() => arcade.runProgram(
      "import gc\ndef step():\n    print('free', gc.mem_free(), 'held', gc.mem_alloc())\n    return False\n"));
    await page.waitForFunction(() => arcade.stopped !== null, null, { timeout: 30000 });
    const line = await page.evaluate(() => arcade.log.filter((l) => l.startsWith("free")).pop() || "");
    const cap = await page.evaluate(() => arcade.heap.cap);
    await page.close();
    const free = +(/free (\d+)/.exec(line) || [0, -1])[1];
    return { ok: /heap between frames [\d.]+ KB of the board's 110 KB \([\d.]+ KB free\) · busiest frame [\d.]+ KB with its garbage/.test(readout)
               && free > 0 && free < cap && errors.length === 0,
             readout, mem_free_line: line, cap, errors };
  });

  check("import_saves", async () => {
    // Import saves restarts the board with the file's saves and says so in a line.
    const fresh = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const { page, errors } = await opened(fresh);
    await waitForPicture(page, spec.expected.menu);
    await page.setInputFiles("#import", spec.saves_file);
    await page.waitForFunction(() => /^imported/.test(document.getElementById("status").textContent),
                               null, { timeout: 20000 }).catch(() => null);
    const said = await page.evaluate(() => document.getElementById("status").textContent);
    const kept = await page.evaluate(() => Object.keys(JSON.parse(localStorage.getItem("ml4m-flash") || "{}")));
    await fresh.close();
    return { ok: /^imported 1 file from saves\.json/.test(said) && kept.includes("session.json")
               && errors.length === 0, status: said, files: kept, errors };
  });

  check("friend", async () => {
    // two tabs, ?board=1 and ?board=2, each with its own flash, play a friend
    // over the page's radio (a BroadcastChannel): the second lists the first,
    // invites it, the first accepts; both show the same pairing code; a move
    // on one board appears on the other
    const room = await browser.newContext({ viewport: { width: 1000, height: 800 } });
    const tabs = [];
    const errors = [];
    for (const n of [1, 2]) {
      const page = await room.newPage();
      page.on("pageerror", (e) => errors.push(e.message));
      await page.goto(spec.url + "?board=" + n);
      await page.waitForFunction(() => window.arcade && window.arcade.frames > 0, null, { timeout: 30000 });
      await waitForMenu(page);
      for (let i = 0; i < 4; i++) await key(page, "ArrowDown");   // Play a friend
      await key(page, "j");
      tabs.push(page);
    }
    await sleep(2500);                               // each hears the other's HELLO
    const row = (pic, y, x0, x1) => pic.slice(y * 128 + x0, y * 128 + x1);
    const field = (pic, x0, x1, y0, y1) => {
      let s = "";
      for (let y = y0; y < y1; y++) s += row(pic, y, x0, x1);
      return s;
    };
    const listed = field(await picture(tabs[1]), 0, 100, 18, 27).includes("1");
    await key(tabs[1], "j");                         // board 2 invites the board it hears
    await sleep(1500);
    await key(tabs[0], "j");                         // board 1 accepts
    await sleep(1500);
    const codes = [];
    for (const page of tabs) codes.push(field(await picture(page), 64, 100, 24, 32));
    const sameCode = codes[0] === codes[1] && codes[0].includes("1");
    for (const page of tabs) await key(page, "j");   // the code seen: play
    await sleep(800);
    await key(tabs[1], "j");                         // the inviter (Black) plays d3, the cursor's square
    await sleep(2000);
    const cells = [];
    for (const page of tabs) cells.push(field(await picture(page), 25, 32, 17, 24));
    const moved = cells[0] === cells[1] && cells[0].includes("1");
    await room.close();
    return { ok: listed && sameCode && moved && errors.length === 0, listed, same_code: sameCode,
             move_on_both: moved, errors };
  });
}

try {
  if (serve) {
    for await (const line of readline.createInterface({ input: process.stdin })) {
      if (!line.trim()) continue;
      const request = JSON.parse(line);
      spec = { ...given, ...(request.spec || {}) };
      console.log(JSON.stringify(await run(request.check)));
    }
  } else {
    const results = {};
    for (const name of Object.keys(checks)) results[name] = await run(name);
    console.log(JSON.stringify(results));
  }
} finally {
  await browser.close();
}
