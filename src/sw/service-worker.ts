// The service worker (docs/decisions/020-offline-with-a-service-worker.md): Workbox's modules,
// bundled by vite-plugin-pwa, which writes the list of files to precache into
// `self.__WB_MANIFEST`. What is cached and what never is: docs/product.md, "Offline".
import { clientsClaim, registerQuotaErrorCallback, type WorkboxPlugin } from "workbox-core";
import { NavigationRoute, Route, Router } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";
import { ANSWER_FOR, API_READS_CACHE, APP_SHELL_CACHE, FORGET_PERSONAL, isCachedApiRead, SHELL_ASSETS_CACHE, SKIP_WAITING } from "../shared/offline.ts";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null } | string> };

// The scripts every page starts with, as vite-plugin-pwa lists them (with the web app manifest,
// which the browser fetches itself). Their names change with every version of the app, so a new
// version is a new worker, which waits for the learner's Reload (lib/service-worker.ts in the app).
const ENTRY_SCRIPTS = self.__WB_MANIFEST.map((entry) => `/${typeof entry === "string" ? entry : entry.url}`).filter((url) => url.startsWith("/assets/"));

const router = new Router();

// Every page of the app is index.html (the server adds the page's reads to its Link header): the
// network first, and offline the last one seen, kept under one name. The app then decides between
// the last data it saw and the offline page. The server's own addresses are not the app's pages.
const APP_SHELL = "/index.html";
const shell = new NetworkFirst({
  cacheName: APP_SHELL_CACHE,
  networkTimeoutSeconds: 4,
  plugins: [{ cacheKeyWillBeUsed: async () => APP_SHELL }],
});
router.registerRoute(new NavigationRoute(shell, { denylist: [/^\/api\//, /^\/dev\//] }));

/**
 * A first install keeps the page that is open as the app shell, taken from the browser's cache
 * (it was downloaded a moment ago): a first visit then opens offline too, for no more bytes.
 */
async function keepOpenPageAsShell(): Promise<void> {
  const cache = await caches.open(APP_SHELL_CACHE);
  if (await cache.match(APP_SHELL)) return;
  const [page] = await self.clients.matchAll({ type: "window", includeUncontrolled: true });
  if (!page) return;
  const response = await fetch(page.url, { cache: "force-cache", credentials: "same-origin" });
  if (response.ok && response.headers.get("content-type")?.startsWith("text/html")) await cache.put(APP_SHELL, response);
}
/** The entry scripts, from the browser's cache where the page has just put them (hashed names). */
async function keepEntryScripts(): Promise<void> {
  await (await caches.open(SHELL_ASSETS_CACHE)).addAll(ENTRY_SCRIPTS);
}

self.addEventListener("install", (event) => event.waitUntil(Promise.all([keepOpenPageAsShell().catch(() => undefined), keepEntryScripts()])));

/**
 * The most built files kept: a release has about 70 (the admin's code among them, which learners
 * never fetch), so a learner who opened every page keeps them all across a release
 * (docs/decisions/020).
 */
const SHELL_ASSETS_MAX_ENTRIES = 150;

/**
 * Every release renames the files that changed, so the cache is trimmed after each file kept: a
 * cache lists its entries in the order they were put, and beyond SHELL_ASSETS_MAX_ENTRIES the
 * first put go. A file used again while among the first half is put again, at the end: what goes
 * is what has not been used for longest, older releases' files. (Workbox's ExpirationPlugin does
 * this with IndexedDB, whose code adds 1,962 bytes, compressed, to this script, which a first
 * visit downloads: the lesson's first visit would go over its 150 KB, docs/performance.md, "Data".)
 */
const trimShellAssets: WorkboxPlugin = {
  cacheDidUpdate: async ({ cacheName }) => {
    const cache = await caches.open(cacheName);
    const files = await cache.keys();
    await Promise.all(files.slice(0, Math.max(0, files.length - SHELL_ASSETS_MAX_ENTRIES)).map((file) => cache.delete(file)));
  },
  cachedResponseWillBeUsed: async ({ cacheName, request, cachedResponse, event }) => {
    if (cachedResponse) {
      const kept = cachedResponse.clone();
      const putAgain = async () => {
        const cache = await caches.open(cacheName);
        const files = await cache.keys();
        const at = files.findIndex((file) => file.url === request.url);
        if (at !== -1 && at < files.length / 2) await cache.put(request, kept);
      };
      event.waitUntil(putAgain());
    }
    return cachedResponse;
  },
};
// The browser's storage full: these files are the first to go (fetched again when needed).
registerQuotaErrorCallback(async () => {
  await caches.delete(SHELL_ASSETS_CACHE);
});

// Built files have hashed names and never change: the pages' lazy code is kept once fetched.
router.registerRoute(
  new Route(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/assets/"),
  new CacheFirst({
    cacheName: SHELL_ASSETS_CACHE,
    plugins: [trimShellAssets],
  }),
  "GET",
  ),
);

/** The session's read: its last answer says who this device's learner is. */
const ME = "/api/me";

/**
 * Deletes every kept answer the server named as another user's than `user` (null: anyone's): the
 * answers of no session are the public ones (docs/product.md, "Offline").
 */
async function forgetAllBut(user: string | null): Promise<void> {
  const cache = await caches.open(API_READS_CACHE);
  for (const request of await cache.keys()) {
    const owner = (await cache.match(request))?.headers.get(ANSWER_FOR);
    if (owner && owner !== user) await cache.delete(request);
  }
}

/**
 * One user's answers are never another's. The session's answer says who is signed in: every other
 * user's answers go before the page has it (none at all after a sign-out elsewhere), and a 401
 * says there is no session. A kept answer is shown only to the user the last session's answer
 * named, so that one left behind is never served to the next person on the device.
 */
const keptForTheirUser: WorkboxPlugin = {
  fetchDidSucceed: async ({ request, response }) => {
    if (response.status === 401 || (response.ok && new URL(request.url).pathname === ME)) {
      await forgetAllBut(response.headers.get(ANSWER_FOR)).catch(() => undefined);
    }
    return response;
  },
  cachedResponseWillBeUsed: async ({ cacheName, cachedResponse }) => {
    const owner = cachedResponse?.headers.get(ANSWER_FOR);
    return owner && owner !== (await (await caches.open(cacheName)).match(ME))?.headers.get(ANSWER_FOR) ? null : cachedResponse;
  },
};

// The reads a learner reopens offline: the network first, the last answer seen when there is none
// within 4 seconds. Never sign-in, payments or admin (isCachedApiRead); sign-out deletes this
// cache (session.ts).
router.registerRoute(
  new Route(
  ({ url, sameOrigin }) => sameOrigin && isCachedApiRead(url.pathname),
  new NetworkFirst({ cacheName: API_READS_CACHE, networkTimeoutSeconds: 4, plugins: [keptForTheirUser] }),
  "GET",
  ),
);

router.addFetchListener();
// The built files a page loaded before this worker controlled it (a first visit) come in a
// CACHE_URLS message (lib/service-worker.ts in the app) and go through the routes above, from the
// browser's cache.
router.addCacheListener();

self.addEventListener("message", (event) => {
  const data: unknown = event.data;
  const type = typeof data === "object" && data !== null ? Reflect.get(data, "type") : null;
  if (type === SKIP_WAITING) void self.skipWaiting();
  // The app had a 401: there is no session (lib/service-worker.ts in the app).
  if (type === FORGET_PERSONAL) event.waitUntil(forgetAllBut(null));
});

// A first install controls the open page at once; an update waits for the learner's Reload.
clientsClaim();
