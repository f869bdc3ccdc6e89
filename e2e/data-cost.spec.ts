// What a lesson costs in data on a phone (docs/performance.md, "Data"): before its video is played,
// a lesson transfers at most 150 KB on a first visit and at most 30 KB on a return visit, headers
// included, counted request by request as the browser received them. The figures are printed for
// docs/performance.md.
import { expect, test, type BrowserContext, type Page } from "@playwright/test";
import { newSignedInContext, uniqueEmail } from "./support/accounts.ts";
import { setPlanWithCli } from "./support/operator.ts";
import { playButton } from "./support/youtube.ts";

const FIRST_VISIT_BUDGET = 150_000;
const RETURN_VISIT_BUDGET = 30_000;

// As a learner's phone has it: with the app's service worker (docs/decisions/020).
test.use({ serviceWorkers: "allow" });

/**
 * Counts the bytes of every response that crossed the network, headers and (compressed) bodies:
 * the page's own requests and its service worker's (installing, keeping the app shell). A page's
 * request the worker answered is counted as the worker's own fetch, or not at all when the worker
 * answered it from its cache.
 */
function countBytes(context: BrowserContext): { total(): Promise<{ bytes: number; requests: number; lines: string[] }> } {
  const sizes: Promise<[string, number]>[] = [];
  context.on("requestfinished", (request) => {
    sizes.push(
      (async (): Promise<[string, number]> => {
        const response = await request.response();
        const byWorker = request.serviceWorker() !== null;
        if (response?.fromServiceWorker()) return [request.url(), -1];
        const size = await request.sizes();
        // The worker's own script reaches the browser without a body size: its length is used.
        const body = size.responseBodySize || Number((await response?.allHeaders())?.["content-length"] ?? 0);
        return [`${byWorker ? "(worker) " : ""}${request.url()}`, size.responseHeadersSize + body];
      })(),
    );
  });
  return {
    async total() {
      const all = (await Promise.all(sizes)).filter(([, bytes]) => bytes >= 0);
      const lines = all.map(([url, bytes]) => `${String(bytes).padStart(7)} ${url.startsWith("(worker) ") ? `(worker) ${new URL(url.slice(9)).pathname}` : new URL(url).pathname}`);
      return { bytes: all.reduce((sum, [, bytes]) => sum + bytes, 0), requests: all.length, lines };
    },
  };
}

/** How many times the page asked for `path`: a read the page's Link header preloads is asked for once. */
function timesAskedFor(visit: { lines: string[] }, path: string): number {
  return visit.lines.filter((line) => line.endsWith(` ${path}`)).length;
}

async function openLesson(page: Page, visit: "first" | "return") {
  const response = await page.goto("/program/beginner");
  // The page's own code and the track are named in the page's Link header, so the browser asks for
  // them with the page. On a return visit the service worker answers with the app shell it keeps,
  // and the app asks for them.
  if (visit === "first") {
    expect(response?.headers().link).toMatch(
      /^<\/assets\/track-page-[\w-]+\.js>; rel=modulepreload, <\/assets\/track-page-[\w-]+\.css>; rel=preload; as=style, <\/api\/programs\/beginner>; rel=preload; as=fetch; crossorigin$/,
    );
  }
  else expect(response?.fromServiceWorker()).toBe(true);
  const play = playButton(page, "Welcome to the markets");
  await expect(play).toBeVisible();
  // A phone takes the video's smaller thumbnail (320 by 180).
  await expect.poll(() => play.locator("img").evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/\/mqdefault\.jpg$/);
  await expect(page.getByText("0 of 3 videos watched")).toBeVisible();
  // The service worker registers once the page is idle: its download and the app shell it keeps
  // are part of the first visit.
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 15_000 })
    .toBe("activated");
  await page.waitForLoadState("networkidle");
}

test("a lesson before its video is played costs at most 150 KB the first time and 30 KB after", async ({ browser }, testInfo) => {
  const context = await newSignedInContext(browser, { email: uniqueEmail(testInfo) }, { viewport: { width: 360, height: 740 } });
  const first = await context.newPage();
  const firstBytes = countBytes(context);
  await openLesson(first, "first");
  const firstVisit = await firstBytes.total();
  await first.close();

  const back = await context.newPage();
  const returnBytes = countBytes(context);
  await openLesson(back, "return");
  const returnVisit = await returnBytes.total();
  await context.close();

  const report = [
    `first visit: ${firstVisit.bytes} bytes in ${firstVisit.requests} requests`,
    ...firstVisit.lines,
    `return visit: ${returnVisit.bytes} bytes in ${returnVisit.requests} requests`,
    ...returnVisit.lines,
  ].join("\n");
  console.log(report);
  await testInfo.attach("lesson data cost", { body: report, contentType: "text/plain" });
  expect(firstVisit.bytes, report).toBeLessThanOrEqual(FIRST_VISIT_BUDGET);
  // Preloaded code and reads, and the thumbnail fetched ahead, are each downloaded once, not again by the page.
  const downloads = (visit: { lines: string[] }, file: RegExp) =>
    visit.lines.filter((line) => file.test(line) && !line.trimStart().startsWith("0 ")).length;
  expect(downloads(firstVisit, /\/assets\/track-page-[\w-]+\.js$/), report).toBe(1);
  expect(downloads(firstVisit, /\/assets\/track-page-[\w-]+\.css$/), report).toBe(1);
  for (const visit of [firstVisit, returnVisit]) {
    expect(timesAskedFor(visit, "/api/programs/beginner"), report).toBe(1);
    // (A second ask the browser's cache answers costs nothing: downloaded once.)
    expect(visit.lines.filter((line) => line.endsWith("/mqdefault.jpg") && !line.trimStart().startsWith("0 ")).length, report).toBeLessThanOrEqual(1);
  }
  expect(returnVisit.bytes, report).toBeLessThanOrEqual(RETURN_VISIT_BUDGET);
});

const EXERCISE_FIRST_VISIT_BUDGET = 250_000;
const EXERCISE_RETURN_VISIT_BUDGET = 40_000;

/**
 * The slow phone docs/performance.md measures on, when E2E_THROTTLE is set (400 kbit/s down and up,
 * 400 ms of latency): the bytes are the same either way, the time to the chart is not.
 */
async function throttled(page: Page) {
  if (!process.env.E2E_THROTTLE) return;
  const session = await page.context().newCDPSession(page);
  await session.send("Network.emulateNetworkConditions", { offline: false, latency: 400, downloadThroughput: 50_000, uploadThroughput: 50_000 });
}

test("a chart exercise costs at most 250 KB the first time, the chart library and the bars included, and 40 KB after", async ({ browser }, testInfo) => {
  const email = uniqueEmail(testInfo);
  const context = await newSignedInContext(browser, { email }, { viewport: { width: 360, height: 740 } });
  await setPlanWithCli(email, "intermediate");
  const track = await context.request.get("/api/programs/intermediate");
  const replay = (await track.json()).modules.find((module: { exercise?: string }) => module.exercise === "replay");
  const path = `/program/intermediate/${replay.id}`;

  const open = async (page: Page) => {
    await throttled(page);
    const started = Date.now();
    await page.goto(path);
    await expect(page.getByRole("img", { name: /EURUSD H1 candlestick chart, 121 bars/ })).toBeVisible({ timeout: 60_000 });
    // The chart drawn: the library's canvas is on the page.
    await expect(page.locator(".price-chart canvas").first()).toBeVisible();
    const shownMs = Date.now() - started;
    await expect
      .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 30_000 })
      .toBe("activated");
    await page.waitForLoadState("networkidle");
    return shownMs;
  };
  const first = await context.newPage();
  const firstBytes = countBytes(context);
  const firstShownMs = await open(first);
  const firstVisit = await firstBytes.total();
  await first.close();
  const back = await context.newPage();
  const returnBytes = countBytes(context);
  const returnShownMs = await open(back);
  const returnVisit = await returnBytes.total();
  await context.close();

  const report = [
    `first visit: ${firstVisit.bytes} bytes in ${firstVisit.requests} requests, the chart shown after ${firstShownMs} ms`,
    ...firstVisit.lines,
    `return visit: ${returnVisit.bytes} bytes in ${returnVisit.requests} requests, the chart shown after ${returnShownMs} ms`,
    ...returnVisit.lines,
  ].join("\n");
  console.log(report);
  await testInfo.attach("exercise data cost", { body: report, contentType: "text/plain" });
  // The chart library is fetched once, and only for the exercise.
  expect(firstVisit.lines.filter((line) => /\/assets\/price-chart-[\w-]+\.js$/.test(line)).length, report).toBe(1);
  expect(firstVisit.bytes, report).toBeLessThanOrEqual(EXERCISE_FIRST_VISIT_BUDGET);
  expect(returnVisit.bytes, report).toBeLessThanOrEqual(EXERCISE_RETURN_VISIT_BUDGET);
});

test("the data saver on /account, on when the browser asks to save data, shows the smallest thumbnail and fetches nothing ahead", async ({ browser }, testInfo) => {
  const context = await newSignedInContext(browser, { email: uniqueEmail(testInfo) }, { viewport: { width: 360, height: 740 } });
  // Chrome on Android with its data saver on.
  await context.addInitScript(() => Object.defineProperty(navigator, "connection", { value: { saveData: true }, configurable: true }));
  const page = await context.newPage();
  await page.goto("/account");
  const setting = page.getByRole("main").getByRole("region", { name: "Data saver" });
  const toggle = setting.getByRole("checkbox", { name: "Save data on this device" });
  await expect(toggle).toBeChecked();
  await setting.scrollIntoViewIfNeeded();
  await page.screenshot({ path: testInfo.outputPath("data-saver-setting.png") });
  // The learner's choice holds on this device, whatever the browser says.
  await toggle.uncheck();
  await page.reload();
  await expect(toggle).not.toBeChecked();
  await toggle.check();

  const bytes = countBytes(context);
  await page.goto("/program/beginner");
  const play = playButton(page, "Welcome to the markets");
  await expect(play).toBeVisible();
  await expect.poll(() => play.locator("img").evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/\/default\.jpg$/);
  await page.waitForLoadState("networkidle");
  const visit = await bytes.total();
  const report = [`with the data saver: ${visit.bytes} bytes in ${visit.requests} requests`, ...visit.lines].join("\n");
  console.log(report);
  await testInfo.attach("lesson data cost, data saver", { body: report, contentType: "text/plain" });
  // The 120 by 90 picture, once; never the larger ones, not even ahead of the page.
  expect(visit.lines.filter((line) => /\/(mq|hq)default\.jpg$/.test(line)), report).toEqual([]);
  expect(timesAskedFor(visit, "/dev/fakes/youtube/vi/bQy71i4MtSQ/default.jpg"), report).toBe(1);
  await context.close();
});
