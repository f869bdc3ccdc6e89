// Waiting for the app's own requests to be answered, in place of Playwright's "network idle": that
// waits for every request of every frame, so an embed of another site that cannot load offline
// (the player's YouTube frame) could hold a test for its whole timeout. A wait that runs out names
// the requests still in flight.
import { expect, type Page, type Request } from "@playwright/test";
import { E2E_BASE_URL } from "../../playwright.config.ts";

const APP_ORIGIN = new URL(E2E_BASE_URL).origin;

type Tracker = { inFlight: Set<Request>; lastActivity: number };
const trackers = new WeakMap<Page, Tracker>();

/** Starts following the page's requests to the app; call it before the page navigates. */
export function watchAppRequests(page: Page): void {
  if (trackers.has(page)) return;
  const tracker: Tracker = { inFlight: new Set(), lastActivity: Date.now() };
  const settled = (request: Request) => {
    tracker.inFlight.delete(request);
    tracker.lastActivity = Date.now();
  };
  page.on("request", (request) => {
    if (new URL(request.url()).origin !== APP_ORIGIN) return;
    tracker.inFlight.add(request);
    tracker.lastActivity = Date.now();
  });
  page.on("requestfinished", settled);
  page.on("requestfailed", settled);
  trackers.set(page, tracker);
}

/** Waits until no request of the page to the app has started or been in flight for `quietMs`. */
export async function appRequestsSettled(page: Page, quietMs = 500): Promise<void> {
  const tracker = trackers.get(page);
  if (!tracker) throw new Error("watchAppRequests(page) was not called before the page navigated");
  await expect
    .poll(
      () => {
        if (tracker.inFlight.size > 0) return [...tracker.inFlight].map((request) => `${request.method()} ${request.url()}`);
        return Date.now() - tracker.lastActivity >= quietMs ? [] : ["(quiet for less than the wait)"];
      },
      { message: "the page's requests to the app still in flight", intervals: [50], timeout: 15_000 },
    )
    .toEqual([]);
}
