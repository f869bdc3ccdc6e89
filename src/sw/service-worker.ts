// The service worker (docs/decisions/020-offline-with-a-service-worker.md): Workbox's modules,
// bundled by vite-plugin-pwa, which writes the list of files to precache into
// `self.__WB_MANIFEST`. What is cached and what never is: docs/product.md, "Offline".
import { clientsClaim } from "workbox-core";
import { ExpirationPlugin } from "workbox-expiration";
import { cleanupOutdatedCaches, createHandlerBoundToURL, precacheAndRoute } from "workbox-precaching";
import { NavigationRoute, Route, Router } from "workbox-routing";
import { CacheFirst, NetworkFirst } from "workbox-strategies";
import { API_READS_CACHE, isCachedApiRead, SHELL_ASSETS_CACHE, SKIP_WAITING } from "../shared/offline.ts";

declare const self: ServiceWorkerGlobalScope & { __WB_MANIFEST: Array<{ url: string; revision: string | null } | string> };

// The app shell: index.html and the scripts every page starts with.
precacheAndRoute(self.__WB_MANIFEST);
cleanupOutdatedCaches();

const router = new Router();

// Every page of the app is index.html; the app itself decides between the last data it saw and
// the offline page. The server's own addresses (/api, /dev) are not the app's pages.
router.registerRoute(new NavigationRoute(createHandlerBoundToURL("index.html"), { denylist: [/^\/api\//, /^\/dev\//] }));

// Built files have hashed names and never change: the pages' lazy code is kept once fetched.
router.registerRoute(
  new Route(
  ({ url, sameOrigin }) => sameOrigin && url.pathname.startsWith("/assets/"),
  new CacheFirst({ cacheName: SHELL_ASSETS_CACHE, plugins: [new ExpirationPlugin({ maxEntries: 120, purgeOnQuotaError: true })] }),
  "GET",
  ),
);

// The reads a learner reopens offline: the network first, the last answer seen when there is none
// within 4 seconds. Never sign-in, payments or admin (isCachedApiRead); sign-out deletes this
// cache (session.ts).
router.registerRoute(
  new Route(
  ({ url, sameOrigin }) => sameOrigin && isCachedApiRead(url.pathname),
  new NetworkFirst({
    cacheName: API_READS_CACHE,
    networkTimeoutSeconds: 4,
    plugins: [new ExpirationPlugin({ maxEntries: 200, purgeOnQuotaError: true })],
  }),
  "GET",
  ),
);

router.addFetchListener();
// The files a page loaded before this worker controlled it (a first visit) come in a CACHE_URLS
// message (service-worker.ts in the app) and go through the routes above.
router.addCacheListener();

self.addEventListener("message", (event) => {
  const data: unknown = event.data;
  if (typeof data === "object" && data !== null && Reflect.get(data, "type") === SKIP_WAITING) void self.skipWaiting();
});

// A first install controls the open page at once; an update waits for the learner's Reload.
clientsClaim();
