// What a lesson costs in data on a phone (docs/performance.md, "Data"): before its video is played,
// a lesson transfers at most 150 KB on a first visit and at most 30 KB on a return visit, headers
// included, counted request by request as the browser received them. The figures are printed for
// docs/performance.md.
import { expect, test, type Page } from "@playwright/test";
import { newSignedInContext, uniqueEmail } from "./support/accounts.ts";
import { playButton } from "./support/youtube.ts";

const FIRST_VISIT_BUDGET = 150 * 1024;
const RETURN_VISIT_BUDGET = 30 * 1024;

/** Counts the bytes of every response the page receives, headers and (compressed) bodies. */
function countBytes(page: Page): { total(): Promise<{ bytes: number; requests: number; lines: string[] }> } {
  const sizes: Promise<[string, number]>[] = [];
  page.on("requestfinished", (request) => {
    sizes.push(request.sizes().then((size) => [request.url(), size.responseHeadersSize + size.responseBodySize]));
  });
  return {
    async total() {
      const all = await Promise.all(sizes);
      const lines = all.map(([url, bytes]) => `${String(bytes).padStart(7)} ${new URL(url).pathname}`);
      return { bytes: all.reduce((sum, [, bytes]) => sum + bytes, 0), requests: all.length, lines };
    },
  };
}

/** How many times the page asked for `path`: a read the page's Link header preloads is asked for once. */
function timesAskedFor(visit: { lines: string[] }, path: string): number {
  return visit.lines.filter((line) => line.endsWith(` ${path}`)).length;
}

async function openLesson(page: Page) {
  const response = await page.goto("/program/beginner");
  // The track is named in the page's Link header, so the browser asks for it with the page.
  expect(response?.headers().link).toBe("</api/programs/beginner>; rel=preload; as=fetch; crossorigin");
  const play = playButton(page, "Welcome to the markets");
  await expect(play).toBeVisible();
  // A phone takes the video's smaller thumbnail (320 by 180).
  await expect.poll(() => play.locator("img").evaluate((image: HTMLImageElement) => image.currentSrc)).toMatch(/\/mqdefault\.jpg$/);
  await expect(page.getByText("0 of 3 videos watched")).toBeVisible();
  await page.waitForLoadState("networkidle");
}

test("a lesson before its video is played costs at most 150 KB the first time and 30 KB after", async ({ browser }, testInfo) => {
  const context = await newSignedInContext(browser, { email: uniqueEmail(testInfo) }, { viewport: { width: 360, height: 740 } });
  const first = await context.newPage();
  const firstBytes = countBytes(first);
  await openLesson(first);
  const firstVisit = await firstBytes.total();
  await first.close();

  const back = await context.newPage();
  const returnBytes = countBytes(back);
  await openLesson(back);
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
  // Preloaded reads and the thumbnail fetched ahead are each asked for once, not again by the page.
  for (const visit of [firstVisit, returnVisit]) {
    expect(timesAskedFor(visit, "/api/programs/beginner"), report).toBe(1);
    expect(visit.lines.filter((line) => line.endsWith("/mqdefault.jpg")).length, report).toBeLessThanOrEqual(1);
  }
  expect(returnVisit.bytes, report).toBeLessThanOrEqual(RETURN_VISIT_BUDGET);
});
