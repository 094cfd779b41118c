// Runs project code on real MicroPython (the WebAssembly port) under Node.
//
//   node tools/mprun/run.mjs --tests tests/rules [more files or dirs]
//       runs every test_* function of every tests/rules/test_*.py (paths from
//       the current folder; files outside the repo too: a game author's); prints one
//       line per test and "N passed, N failed"; exits 1 on a failure or no test.
//   node tools/mprun/run.mjs --script path/to/script.py [args...]
//       runs one script; sys.argv is [script, args...].
//   node tools/mprun/run.mjs --script file.py --loop step [args...]
//       runs the script, then calls its function step() again and again, each
//       call a separate top-level run, until it returns a false value. Between
//       calls a gc.collect() runs at top level: in this port a collection inside
//       a running call frees nothing (the WebAssembly stack cannot be scanned),
//       so heap figures must be taken between calls (gc.mem_alloc() after it).
//       A script whose first lines hold `# mprun: --loop NAME` gets --loop NAME
//       without asking (an explicit --loop wins).
//   --mpy DIR      load the firmware as compiled .mpy files from DIR (e.g. build/mpy,
//                  made by `make mpy`) instead of source, as the board runs it: heap
//                  figures then leave out the compiler's work and its interned names.
//   --heap BYTES   MicroPython heap size (default 8 MiB; the ESP32 has ~110 KB,
//                  measure with gc.mem_alloc() rather than by shrinking this).
//   --resets       a machine.soft_reset() (a launch: firmware/launch.py) starts a
//                  fresh interpreter, as the board does: the tree copied again, the
//                  files under /data and /games (the flash) and the RTC memory kept,
//                  machine.reset_cause() SOFT_RESET, and the script run again from
//                  its top (sys.argv the same, mprun_resets = how many so far).
//   --games DIR    a player's games: DIR's files and folders put in the board's /games
//                  before the first program (as make install-game would leave them;
//                  tools/bench/bench_heap.py --games stages them there).
//   --esp32-heap   put the MicroPython heap where the ESP32 has it (0x3FFxxxxx)
//                  rather than low in WebAssembly memory (~0x37000). The collector
//                  takes any word that looks like a pointer into the heap for one:
//                  at a low address, ordinary data (a picture's pixels, small
//                  numbers) does, and keeps dead blocks alive (tools/bench/
//                  bench_heap.py, whose heap figures are the board's, uses it).
//
// The project tree is copied into MicroPython's in-memory filesystem under /fw:
// firmware/, lib/, tests/, tools/bench/, tools/emu/mp_node/. sys.path starts with
// /fw, /fw/lib and /fw/tools/emu/mp_node, so `import firmware.games.npuzzle`
// works exactly as on the board.
import { loadMicroPython } from "@micropython/micropython-webassembly-pyscript";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const COPIED = ["firmware", "lib", "tests", "tools/bench", "tools/emu/mp_node"];
const SKIP_DIRS = new Set(["__pycache__", "node_modules", ".pytest_cache"]);

function usage(message) {
  if (message) console.error(`mprun: ${message}`);
  console.error("usage: run.mjs [--heap BYTES] (--tests PATH... | --script FILE [args...])");
  process.exit(2);
}

function parseArgs(argv) {
  const opts = { heap: 8 * 1024 * 1024, tests: [], script: null, loop: null, mpy: null, args: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    if (a === "--heap") opts.heap = parseInt(argv[++i], 10);
    else if (a === "--esp32-heap") opts.esp32Heap = true;
    else if (a === "--resets") opts.resets = true;
    else if (a === "--mpy") opts.mpy = argv[++i];
    else if (a === "--games") {
      opts.games = argv[++i];
      if (!opts.games || !fs.existsSync(opts.games) || !fs.statSync(opts.games).isDirectory())
        usage(`--games ${opts.games}: no such folder`);
    }
    else if (a === "--tests") {
      while (i + 1 < argv.length && !argv[i + 1].startsWith("--")) opts.tests.push(argv[++i]);
    } else if (a === "--loop") {
      opts.loop = argv[++i];
    } else if (a === "--script") {
      opts.script = argv[++i];
      if (argv[i + 1] === "--loop") { opts.loop = argv[i + 2]; i += 2; }
      opts.args = argv.slice(i + 1);
      break;
    } else usage(`unknown argument ${a}`);
  }
  if (!opts.script && opts.tests.length === 0) usage("nothing to run");
  if (opts.script && !opts.loop) opts.loop = declaredLoop(opts.script);
  return opts;
}

// A script may declare its loop function in its first lines, so a plain
// `--script` (as `make bench` runs it) behaves like `--script FILE --loop NAME`:
//   # mprun: --loop step
function declaredLoop(script) {
  let text;
  try { text = fs.readFileSync(path.resolve(script), "utf8"); } catch (e) { return null; }
  for (const line of text.split("\n").slice(0, 5)) {
    const m = /^#\s*mprun:\s*--loop\s+([A-Za-z_][A-Za-z0-9_]*)\s*$/.exec(line.trimEnd());
    if (m) return m[1];
  }
  return null;
}

// Copy a host directory into the MicroPython filesystem (recursively).
function copyTree(mp, hostDir, fwDir) {
  if (!fs.existsSync(hostDir)) return;
  mkdirs(mp, fwDir);
  for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
    const host = path.join(hostDir, entry.name);
    const target = `${fwDir}/${entry.name}`;
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) copyTree(mp, host, target);
    } else if (entry.isFile() || (entry.isSymbolicLink() && fs.statSync(host).isFile())) {
      // (a worktree's lib/ssd1306.py is a symlink to the shared install)
      mp.FS.writeFile(target, fs.readFileSync(host));
    }
  }
}

// Non-Python files of a tree (pictures and the like) beside its compiled modules.
function copyData(mp, hostDir, fwDir) {
  for (const entry of fs.readdirSync(hostDir, { withFileTypes: true })) {
    const host = path.join(hostDir, entry.name);
    if (entry.isDirectory()) {
      if (!SKIP_DIRS.has(entry.name)) { mkdirs(mp, `${fwDir}/${entry.name}`); copyData(mp, host, `${fwDir}/${entry.name}`); }
    } else if (entry.isFile() && !entry.name.endsWith(".py")) {
      mp.FS.writeFile(`${fwDir}/${entry.name}`, fs.readFileSync(host));
    }
  }
}

function mkdirs(mp, fwDir) {
  let sofar = "";
  for (const part of fwDir.split("/").filter(Boolean)) {
    sofar += "/" + part;
    try { mp.FS.mkdir(sofar); } catch (e) { /* exists */ }
  }
}

// Expand test arguments into test_*.py files under /fw: the repo's by their
// repo-relative path; a folder outside the repo (a game author's own tests) is
// copied to /fw/_outside/N first, so its tests import each other as at home.
function testFiles(mp, paths) {
  const files = [];
  const outside = new Map();
  const place = (abs) => {
    const rel = path.relative(repo, abs);
    if (!rel.startsWith("..") && !path.isAbsolute(rel)) return rel;
    const dir = path.dirname(abs);
    if (!outside.has(dir)) {
      outside.set(dir, `_outside/${outside.size}`);
      copyTree(mp, dir, `/fw/${outside.get(dir)}`);
    }
    return `${outside.get(dir)}/${path.basename(abs)}`;
  };
  for (const p of paths) {
    const abs = path.resolve(process.cwd(), p);
    if (!fs.existsSync(abs)) usage(`no such test path: ${p}`);
    if (fs.statSync(abs).isDirectory()) {
      for (const name of fs.readdirSync(abs).sort()) {
        if (/^test_.*\.py$/.test(name)) files.push(place(path.join(abs, name)));
      }
    } else files.push(place(abs));
  }
  return files.map((f) => f.split(path.sep).join("/"));
}

// The harness is MicroPython code: it imports each test module and calls its
// test_* functions in name order (MicroPython's dicts keep no insertion order).
const HARNESS = `
import sys, gc, time
def _run_tests(files):
    passed = failed = 0
    for f in files:
        d, name = f.rsplit('/', 1)
        sys.path.insert(0, '/fw/' + d)
        mod = __import__(name[:-3])
        sys.path.pop(0)
        for t in sorted(k for k in dir(mod) if k.startswith('test_')):
            fn = getattr(mod, t)
            if not callable(fn):
                continue
            gc.collect()
            start = time.ticks_ms()
            try:
                fn()
            except Exception as e:
                failed += 1
                print('FAIL', f + '::' + t)
                sys.print_exception(e)
            else:
                passed += 1
                print('ok  ', f + '::' + t, '(%d ms)' % time.ticks_diff(time.ticks_ms(), start))
    return passed, failed
`;

// loadMicroPython() makes the WebAssembly module, stores it as globalThis.Module,
// then has MicroPython malloc() its heap: a block reserved at that moment puts
// the heap after it. Memory is only reserved (never written), so it costs little.
const ESP32_HEAP_START = 0x3ffb0000;     // the ESP32's data RAM, where its heap lives

function heapAtEsp32Address() {
  let module;
  Object.defineProperty(globalThis, "Module", {
    configurable: true,
    get() { return module; },
    set(m) {
      module = m;
      const next = m._malloc(16);
      m._malloc(ESP32_HEAP_START - next);
    },
  });
}

// A fresh MicroPython with the project tree copied in (and, after a soft
// reset, what the board keeps: the flash's files and the RTC memory).
async function freshInterpreter(opts, kept) {
  const mp = await loadMicroPython({
    heapsize: opts.heap,
    pystack: 8192,
    linebuffer: false,
    stdout: (s) => process.stdout.write(s),
    stderr: (s) => process.stderr.write(s),
  });
  for (const dir of COPIED) {
    if (dir === "firmware" && opts.mpy) {
      const compiled = path.resolve(opts.mpy, "firmware");
      if (!fs.existsSync(compiled)) usage(`no compiled firmware in ${opts.mpy} (run make mpy)`);
      copyTree(mp, compiled, "/fw/firmware");
      copyData(mp, path.join(repo, dir), "/fw/firmware");
    } else copyTree(mp, path.join(repo, dir), `/fw/${dir}`);
  }
  mp.runPython("import sys\nsys.path[:0] = ['/fw', '/fw/lib', '/fw/tools/emu/mp_node']");
  // this port's files raise Emscripten's error numbers: the board's from here on
  mp.runPython("import port_errno\nport_errno.install()");
  if (kept) {
    for (const [file, bytes] of kept.files) { mkdirs(mp, path.posix.dirname(file)); mp.FS.writeFile(file, bytes); }
    mp.globals.set("_rtc_kept", kept.rtc);
    mp.globals.set("mprun_resets", kept.resets);
    mp.runPython("import machine\nmachine._cause[0] = machine.SOFT_RESET\n" +
      "machine._rtc_memory[0] = bytes(_rtc_kept, 'latin-1')\ndel _rtc_kept");
  } else {
    if (opts.games) copyTree(mp, path.resolve(opts.games), "/games");   // kept over resets as the flash is
    mp.globals.set("mprun_resets", 0);
  }
  return mp;
}

// What the board keeps over a soft reset, from the interpreter that ends.
function keptOver(mp, resets) {
  const files = [];
  const walk = (dir) => {
    let names;
    try { names = mp.FS.readdir(dir); } catch (e) { return; }
    for (const name of names) {
      if (name === "." || name === "..") continue;
      const full = `${dir}/${name}`;
      if (mp.FS.isDir(mp.FS.stat(full).mode)) walk(full);
      else files.push([full, mp.FS.readFile(full)]);
    }
  };
  walk("/data");
  walk("/games");
  mp.runPython("import machine\n_rtc_out = str(machine._rtc_memory[0], 'latin-1')");
  return { files, rtc: mp.globals.get("_rtc_out"), resets };
}

function softReset(e) {
  return /SystemExit: machine\.soft_reset\(\)/.test(String(e.message || e));
}

async function runScript(opts, mp) {
  const abs = path.resolve(opts.script);
  if (!fs.existsSync(abs)) usage(`no such script: ${opts.script}`);
  mkdirs(mp, "/fw/_run");
  mp.FS.writeFile("/fw/_run/__main__.py", fs.readFileSync(abs));
  mp.globals.set("_argv", JSON.stringify([opts.script, ...opts.args]));
  mp.runPython("import json\nsys.argv[:] = json.loads(_argv)\n_script = {'__name__': '__main__', 'mprun_resets': mprun_resets}\n" +
    "exec(open('/fw/_run/__main__.py').read(), _script)");
  if (opts.loop) {
    mp.globals.set("_loop_name", opts.loop);
    mp.runPython("import gc\n_loop = _script[_loop_name]");
    for (;;) {
      mp.runPython("_again = bool(_loop())");
      if (!mp.globals.get("_again")) break;
      mp.runPython("gc.collect()");
    }
  }
}

async function main() {
  const opts = parseArgs(process.argv.slice(2));
  if (opts.esp32Heap) heapAtEsp32Address();
  let mp = await freshInterpreter(opts, null);

  if (opts.script) {
    let resets = 0;
    for (;;) {
      try {
        await runScript(opts, mp);
        return;
      } catch (e) {
        if (opts.resets && softReset(e)) {
          resets += 1;
          const kept = keptOver(mp, resets);
          if (opts.esp32Heap) heapAtEsp32Address();
          mp = await freshInterpreter(opts, kept);
          continue;
        }
        process.stderr.write(String(e.message || e) + "\n");
        process.exit(1);
      }
    }
  }

  const files = testFiles(mp, opts.tests);
  mp.runPython(HARNESS);
  mp.globals.set("_files", JSON.stringify(files));
  let passed = 0, failed = 0;
  try {
    mp.runPython("import json\n_result = _run_tests(json.loads(_files))\n_passed, _failed = _result");
    passed = Number(mp.globals.get("_passed"));
    failed = Number(mp.globals.get("_failed"));
  } catch (e) {
    // An import error or a crash of the harness itself: count it as a failure.
    process.stderr.write(String(e.message || e) + "\n");
    failed += 1;
  }
  console.log(`micropython: ${passed} passed, ${failed} failed`);
  process.exit(failed > 0 || passed === 0 ? 1 : 0);
}

main();
