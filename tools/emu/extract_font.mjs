// Extract MicroPython's built-in 8x8 framebuf font by asking real MicroPython to draw it.
//
// The font is not copied into the repository: this script loads MicroPython (WebAssembly, the npm
// package pinned by tools/package-lock.json), draws every byte value 0..255 with FrameBuffer.text() into an
// 8x8 MONO_VLSB buffer and writes the 256 glyphs (8 column bytes each, LSB = top row) to
// tools/emu/mp/font8x8.bin, which the pure-Python framebuf stand-in reads.
// text() walks the UTF-8 bytes of its string, so a table indexed by byte value is exactly what it uses.
//
// Usage: node tools/emu/extract_font.mjs [output.bin]
// Env:   MICROPYTHON_WASM=/path/to/micropython.mjs (or its package directory) to use another copy.
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, "..", "..");
const PKG = "@micropython/micropython-webassembly-pyscript";
const GLYPHS = 256;

function findMicroPython() {
  const candidates = process.env.MICROPYTHON_WASM ? [process.env.MICROPYTHON_WASM] : [
    path.join(repo, "tools", "node_modules", ...PKG.split("/")),
    path.join(repo, "tools", "mprun", "node_modules", ...PKG.split("/")),
  ];
  for (let candidate of candidates) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isDirectory()) {
      candidate = path.join(candidate, "micropython.mjs");
    }
    if (fs.existsSync(candidate)) return candidate;
  }
  console.error(`extract_font: MicroPython WebAssembly not found at ${candidates.join(" or ")} ` +
    `(run 'make deps', or set MICROPYTHON_WASM to ${PKG}'s micropython.mjs)`);
  process.exit(2);
}

const out = path.resolve(process.argv[2] || path.join(here, "mp", "font8x8.bin"));
const { loadMicroPython } = await import(pathToFileURL(findMicroPython()).href);
const lines = [];
const mp = await loadMicroPython({
  stdout: (line) => lines.push(line),
  stderr: (line) => process.stderr.write(line + "\n"),
});

// One glyph per line, as hex. A glyph's 8 bytes in an 8x8 MONO_VLSB buffer are its 8 columns.
mp.runPython(`
import framebuf
buf = bytearray(8)
fb = framebuf.FrameBuffer(buf, 8, 8, framebuf.MONO_VLSB)
for code in range(${GLYPHS}):
    fb.fill(0)
    fb.text(bytes((code,)), 0, 0, 1)
    print("".join("%02x" % b for b in buf))
`);

if (lines.length !== GLYPHS || !lines.every((l) => /^[0-9a-f]{16}$/.test(l))) {
  console.error(`extract_font: unexpected output from MicroPython (${lines.length} lines)`);
  process.exit(1);
}
const table = Buffer.from(lines.join(""), "hex");
if (table.subarray(65 * 8, 66 * 8).every((b) => b === 0)) {
  console.error("extract_font: glyph 'A' is empty; refusing to write a blank font");
  process.exit(1);
}
fs.mkdirSync(path.dirname(out), { recursive: true });
const tmp = out + ".tmp";
fs.writeFileSync(tmp, table);
fs.renameSync(tmp, out);  // never leave a half-written font that the next run trusts
console.log(`extract_font: wrote ${table.length} bytes (${GLYPHS} glyphs) to ${path.relative(process.cwd(), out)}`);
