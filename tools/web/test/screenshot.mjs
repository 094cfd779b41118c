// The README's picture of the page: node tools/web/test/screenshot.mjs URL OUT.png
// (make web-serve first). A phone-sized window, 2048 after a few moves.
import { chromium } from "playwright-core";

const [url, out] = process.argv.slice(2);
const browser = await chromium.launch({ executablePath: process.env.ML4M_CHROMIUM || "/usr/bin/chromium",
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"] });
const page = await browser.newPage({ viewport: { width: 400, height: 760 }, deviceScaleFactor: 1 });
await page.goto(url);
await page.waitForFunction(() => window.arcade && arcade.firstPicture !== null);
await page.waitForTimeout(2500);                     // the splash, then the menu
for (const k of ["ArrowDown", "ArrowDown", "j", "ArrowLeft", "ArrowUp", "ArrowLeft", "ArrowUp"]) {
  await page.keyboard.down(k);
  await page.waitForTimeout(100);
  await page.keyboard.up(k);
  await page.waitForTimeout(700);
}
await page.waitForTimeout(1200);                     // a full second of readout
await page.screenshot({ path: out });
await browser.close();
