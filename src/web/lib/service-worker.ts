// The app's side of the service worker (docs/decisions/020-offline-with-a-service-worker.md):
// registering it once the page has loaded, telling the learner when a new version waits
// ("New version available: Reload"), and forgetting a signed-in learner's cached reads.
import { useSyncExternalStore } from "react";
import { API_READS_CACHE, FORGET_PERSONAL, isCachedApiRead, KEPT_ANSWERS_PREFIX, SKIP_WAITING } from "../../shared/offline.ts";

const WORKER_URL = "/service-worker.js";

let waiting: ServiceWorker | null = null;
const listeners = new Set<() => void>();

function setWaiting(worker: ServiceWorker | null) {
  waiting = worker;
  for (const listener of listeners) listener();
}

/** A new version of the app installed and waiting for the learner's Reload, or null. */
export function useWaitingVersion(): ServiceWorker | null {
  return useSyncExternalStore(
    (changed) => {
      listeners.add(changed);
      return () => listeners.delete(changed);
    },
    () => waiting,
  );
}

/** Reload: the waiting version takes over, and the page reloads once it controls it. */
export function takeNewVersion(): void {
  if (!waiting) return;
  navigator.serviceWorker.addEventListener("controllerchange", () => window.location.reload(), { once: true });
  waiting.postMessage({ type: SKIP_WAITING });
}

/** An update waits once installed while an older worker still controls the page. */
function watchForUpdates(registration: ServiceWorkerRegistration) {
  if (registration.waiting && navigator.serviceWorker.controller) setWaiting(registration.waiting);
  registration.addEventListener("updatefound", () => {
    const installing = registration.installing;
    installing?.addEventListener("statechange", () => {
      if (installing.state === "installed" && navigator.serviceWorker.controller) setWaiting(installing);
    });
  });
}

/**
 * The reads of a first visit, answered before any worker controlled the page: kept here until one
 * does, then put in its cache, so that the page opens offline without asking for them twice.
 */
const readsBeforeWorker = new Map<string, Response>();

/** Whether a request made now reaches the network without a worker (keepForOffline keeps its answer). */
export function withoutWorker(): boolean {
  return "serviceWorker" in navigator && !navigator.serviceWorker.controller;
}

/**
 * apiRequest hands each answer it receives. A read asked for without a worker is kept here, or put
 * in the worker's cache at once when one has taken over meanwhile (its answer never went through
 * it). A 401 says there is no session: the worker deletes every user's answers it kept
 * (docs/product.md, "Offline").
 */
export function keepForOffline(path: string, response: Response, askedWithoutWorker: boolean, method = "GET"): void {
  if (!("serviceWorker" in navigator)) return;
  const { controller } = navigator.serviceWorker;
  if (response.status === 401) {
    readsBeforeWorker.clear();
    controller?.postMessage({ type: FORGET_PERSONAL });
  }
  if (!askedWithoutWorker || method !== "GET" || !isCachedApiRead(path) || !response.ok) return;
  const url = new URL(path, window.location.origin).href;
  const copy = response.clone();
  if (!controller) readsBeforeWorker.set(url, copy);
  else if ("caches" in window) void caches.open(API_READS_CACHE).then((cache) => cache.put(url, copy)).catch(() => undefined);
}

/**
 * Once the new worker controls the page of a first visit: its built files (from the browser's
 * cache) go through the worker's routes in a CACHE_URLS message, and the reads received go into its
 * cache of reads.
 */
async function keepWhatThisPageLoaded(): Promise<void> {
  const files = performance
    .getEntriesByType("resource")
    .map((entry) => entry.name)
    .filter((name) => name.startsWith(`${window.location.origin}/assets/`));
  navigator.serviceWorker.controller?.postMessage({ type: "CACHE_URLS", payload: { urlsToCache: files } });
  const reads = [...readsBeforeWorker];
  readsBeforeWorker.clear();
  if (reads.length === 0 || !("caches" in window)) return;
  const cache = await caches.open(API_READS_CACHE);
  await Promise.all(reads.map(([url, response]) => cache.put(url, response)));
}

/**
 * Registers the worker after the page has loaded and gone idle, so that it never competes with
 * the first paint (docs/performance.md, "Data"). Checks for a new version when the learner comes
 * back to the tab.
 */
export function registerServiceWorker(): void {
  if (!("serviceWorker" in navigator) || import.meta.env.DEV) return;
  const firstVisit = !navigator.serviceWorker.controller;
  if (firstVisit) {
    navigator.serviceWorker.addEventListener("controllerchange", () => void keepWhatThisPageLoaded().catch(() => undefined), { once: true });
  }
  const register = () => {
    navigator.serviceWorker
      .register(WORKER_URL, { scope: "/" })
      .then((registration) => {
        watchForUpdates(registration);
        document.addEventListener("visibilitychange", () => {
          if (document.visibilityState === "visible") void registration.update().catch(() => undefined);
        });
      })
      .catch(() => undefined);
  };
  const whenIdle = () => ("requestIdleCallback" in window ? requestIdleCallback(register, { timeout: 5_000 }) : setTimeout(register, 1_000));
  if (document.readyState === "complete") whenIdle();
  else window.addEventListener("load", whenIdle, { once: true });
}

/**
 * Sign-out (and sign-in): the last account's reads kept for offline are deleted, and so are the
 * exercise answers made offline and not sent yet, so that nothing of theirs is shown to whoever
 * uses the device next (docs/product.md, "Offline").
 */
export async function forgetSignedInReads(): Promise<void> {
  readsBeforeWorker.clear();
  forgetKeptAnswers();
  if (!("caches" in window)) return;
  await caches.delete(API_READS_CACHE).catch(() => false);
}

function forgetKeptAnswers(): void {
  try {
    const keys = Array.from({ length: localStorage.length }, (_, index) => localStorage.key(index));
    for (const key of keys) if (key?.startsWith(KEPT_ANSWERS_PREFIX)) localStorage.removeItem(key);
  } catch {
    // Storage the browser refuses (private browsing) kept nothing.
  }
}
