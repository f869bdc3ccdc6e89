// The service worker as a test waits for it (docs/product.md, "Offline"): in control of the page,
// and holding what the page has loaded, before the network is cut.
import { expect, type Page } from "@playwright/test";
import { API_READS_CACHE, isCachedApiRead, SHELL_ASSETS_CACHE } from "../../src/shared/offline.ts";

/** The page's worker is installed, active and in control of the page. */
export async function workerInControl(page: Page) {
  await expect
    .poll(() => page.evaluate(() => navigator.serviceWorker.controller?.state ?? null), { timeout: 15_000 })
    .toBe("activated");
}

/** The paths of the reads the worker has kept. */
export function keptReads(page: Page): Promise<string[]> {
  return page.evaluate(async (reads) => (await (await caches.open(reads)).keys()).map((request) => new URL(request.url).pathname), API_READS_CACHE);
}

/**
 * Waits until every built file and every kept read (isCachedApiRead) the page has loaded so far is
 * in the worker's caches: the worker keeps a first visit's files and reads after the page has them,
 * so "network idle" alone would cut the network while one is still on its way into a cache, and
 * the page would then rightly be one never opened.
 */
export async function everythingLoadedIsKept(page: Page) {
  await expect
    .poll(
      async () => {
        const { loaded, kept } = await page.evaluate(
          async ([assets, reads]) => {
            const paths = (requests: readonly Request[]) => requests.map((request) => new URL(request.url).pathname);
            return {
              loaded: performance
                .getEntriesByType("resource")
                .map((entry) => new URL(entry.name))
                .filter((url) => url.origin === location.origin)
                .map((url) => url.pathname),
              kept: [...paths(await (await caches.open(assets)).keys()), ...paths(await (await caches.open(reads)).keys())],
            };
          },
          [SHELL_ASSETS_CACHE, API_READS_CACHE] as const,
        );
        return loaded.filter((path) => (path.startsWith("/assets/") || isCachedApiRead(path)) && !kept.includes(path));
      },
      { message: "what the page loaded, not yet in the worker's caches", timeout: 10_000 },
    )
    .toEqual([]);
}
