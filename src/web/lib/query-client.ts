import { QueryClient } from "@tanstack/react-query";
import { ApiRequestError } from "./api.ts";

export function createQueryClient() {
  return new QueryClient({
    defaultOptions: {
      queries: {
        staleTime: 60_000,
        // Asked even when the browser says it is offline: the service worker may have the last
        // answer (docs/product.md, "Offline"); without one, the page says it is offline at once.
        networkMode: "always",
        // A 4xx will not change on retry; a network blip might, but not while offline.
        retry: (failureCount, error) =>
          failureCount < 2 && navigator.onLine && !(error instanceof ApiRequestError && error.status >= 400 && error.status < 500),
      },
      // A change made offline fails at once and says so, rather than waiting unseen in memory
      // (Mark as Watched, docs/product.md "Offline").
      mutations: { networkMode: "always" },
    },
  });
}
