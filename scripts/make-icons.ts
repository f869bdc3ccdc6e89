// Draws the app's install icons (the web app manifest, vite.config.ts) from the brand mark of
// public/favicon.svg, with the Chromium the browser tests drive: run it after changing the mark,
// and commit the PNGs it writes to public/icons/. Android asks for 192 and 512 px, and a
// "maskable" 512 whose mark stays inside the middle 80% (the safe zone it crops to a shape);
// iOS takes a 180 px apple-touch-icon.
import { mkdir } from "node:fs/promises";
import { chromium } from "playwright-core";

const NAVY = "#0b1f3a";
const GOLD = "#f2b632";
const CHART = `<path d="M6 22l6-7 5 4 9-11" fill="none" stroke="${GOLD}" stroke-width="3" stroke-linecap="round" stroke-linejoin="round"/>`;

/** The rounded navy tile of the favicon, or for a maskable icon, a full square with the mark within its safe zone. */
function icon(size: number, maskable: boolean): string {
  const mark = maskable
    ? `<rect width="32" height="32" fill="${NAVY}"/><g transform="translate(6.4 6.4) scale(0.6)">${CHART}</g>`
    : `<rect width="32" height="32" rx="6" fill="${NAVY}"/>${CHART}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32" width="${size}" height="${size}">${mark}</svg>`;
}

const ICONS = [
  { file: "icon-192.png", size: 192, maskable: false },
  { file: "icon-512.png", size: 512, maskable: false },
  { file: "icon-maskable-512.png", size: 512, maskable: true },
  { file: "apple-touch-icon-180.png", size: 180, maskable: true },
];

await mkdir("public/icons", { recursive: true });
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
try {
  for (const { file, size, maskable } of ICONS) {
    const page = await browser.newPage({ viewport: { width: size, height: size } });
    await page.setContent(`<style>html,body{margin:0;background:transparent}svg{display:block}</style>${icon(size, maskable)}`);
    await page.locator("svg").screenshot({ path: `public/icons/${file}`, omitBackground: true });
    await page.close();
    console.log(`public/icons/${file}`);
  }
} finally {
  await browser.close();
}
