// A new version of the app reaches a learner who has the old one open (docs/product.md, "Offline";
// docs/decisions/020): the new service worker installs and waits, the page says "New version
// available." with Reload, and Reload hands the page to the new worker and loads it again.
// Chromium at 360 px, as a phone.
import { createServer, request, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test, type Page } from "@playwright/test";
import { E2E_BASE_URL } from "../playwright.config.ts";

test.use({ serviceWorkers: "allow", viewport: { width: 360, height: 740 } });

const NEW_VERSION = "New version available.";
/** What the released worker answers when asked which version it is; the first one does not answer. */
const RELEASE = "the next release";
const RELEASE_ANSWER = `self.addEventListener("message",(e)=>{if(e.data==="version")e.ports[0]?.postMessage(${JSON.stringify(RELEASE)})});`;

/**
 * The app as deployed, then deployed again: a pass-through to the test server whose
 * service-worker.js, once `release()` is called, is the same worker with a few more bytes (which
 * answer a "version" message with RELEASE). The browser fetches a worker's script itself, out of
 * Playwright's routing, so the release is made where the browser asks for it.
 */
async function deployment(): Promise<{ url: string; release(): void; server: Server }> {
  let released = false;
  const upstream = new URL(E2E_BASE_URL);
  const server = createServer((incoming, outgoing) => {
    const worker = released && incoming.url === "/service-worker.js";
    const headers = { ...incoming.headers, host: upstream.host, ...(worker ? { "accept-encoding": "identity" } : {}) };
    const forward = request(new URL(incoming.url ?? "/", upstream), { method: incoming.method, headers }, (answer) => {
      if (!worker) {
        outgoing.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(outgoing);
        return;
      }
      const chunks: Buffer[] = [];
      answer.on("data", (chunk: Buffer) => chunks.push(chunk));
      answer.on("end", () => {
        const body = Buffer.from(`${Buffer.concat(chunks).toString("utf8")}\n${RELEASE_ANSWER}\n`);
        // The changed script is another file: not the first one's validator, nor its length.
        const kept = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => name !== "etag" && name !== "content-length"));
        outgoing.writeHead(answer.statusCode ?? 502, { ...kept, "content-length": String(body.length) });
        outgoing.end(body);
      });
    });
    forward.on("error", () => outgoing.destroy());
    incoming.pipe(forward);
  });
  await new Promise<void>((listening) => server.listen(0, "127.0.0.1", listening));
  const { port } = server.address() as AddressInfo;
  return { url: `http://localhost:${port}`, release: () => (released = true), server };
}

/** The version of the worker in control of the page: RELEASE, or null for the first one (no answer). */
function versionInControl(page: Page): Promise<string | null> {
  return page.evaluate(
    () =>
      new Promise<string | null>((resolve) => {
        const worker = navigator.serviceWorker.controller;
        if (!worker) return resolve(null);
        const channel = new MessageChannel();
        channel.port1.onmessage = (event: MessageEvent<string>) => resolve(event.data);
        worker.postMessage("version", [channel.port2]);
        setTimeout(() => resolve(null), 1_000);
      }),
  );
}

test("a new version waits for the learner's Reload, which loads the page under it", async ({ browser }, testInfo) => {
  const app = await deployment();
  const context = await browser.newContext({ baseURL: app.url, serviceWorkers: "allow", viewport: { width: 360, height: 740 } });
  const page = await context.newPage();
  const home = page.getByRole("link", { name: "Trading Academy home" });
  const prompt = page.getByRole("status").filter({ hasText: NEW_VERSION });
  await page.goto("/");
  await expect(home).toBeVisible();
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 15_000 })
    .toBe("activated");
  // A first install takes the page at once: there is nothing to offer.
  await expect(prompt).toHaveCount(0);
  expect(await versionInControl(page)).toBeNull();

  app.release();
  // The learner opens the app again: the browser finds the new worker and installs it.
  await page.reload();
  await expect(prompt).toBeVisible({ timeout: 15_000 });
  await page.screenshot({ path: testInfo.outputPath("new-version-available.png") });
  // Until Reload, the page runs the version it started with.
  expect(await versionInControl(page)).toBeNull();
  await page.evaluate(() => Reflect.set(window, "openedBeforeReload", true));

  const reloaded = page.waitForEvent("load", { timeout: 15_000 });
  await prompt.getByRole("button", { name: "Reload" }).click();
  await reloaded;
  // The page was loaded again (what it held is gone), under the new worker, and the band is gone.
  expect(await page.evaluate(() => Reflect.get(window, "openedBeforeReload") ?? null)).toBeNull();
  await expect(home).toBeVisible();
  await expect.poll(() => versionInControl(page), { timeout: 10_000 }).toBe(RELEASE);
  await expect(prompt).toHaveCount(0);
  await context.close();
  await new Promise((closed) => app.server.close(closed));
});
