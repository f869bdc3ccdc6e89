import { QueryClientProvider } from "@tanstack/react-query";
import { startTransition, StrictMode } from "react";
import { createRoot } from "react-dom/client";
import { BrowserRouter } from "react-router";
import { meQuery } from "./session/session.ts";
import { siteConfigQuery } from "./lib/site-config.ts";
import { createQueryClient } from "./lib/query-client.ts";
import { prefetchProgramPage } from "./features/learning/learning-api.ts";
import { AppRoutes, preloadPage } from "./router.tsx";
import { registerServiceWorker } from "./lib/service-worker.ts";
import { keepInstallOffer } from "./lib/install-prompt.ts";
import { FallbackBoundary } from "./ui/fallback-boundary.tsx";
import { Toasts } from "./ui/toast.tsx";
import "./styles.css";

const root = document.getElementById("root");
if (!root) throw new Error("The page has no #root element");

const queryClient = createQueryClient();
// What the first screen needs is asked for before React renders: the page's code, the two reads
// every page shows (the session, for the header and the guards; the site's settings, for the
// footer), which index.html has already started, and a program's or a lesson's own reads.
preloadPage(window.location.pathname);
void queryClient.prefetchQuery(meQuery);
void queryClient.prefetchQuery(siteConfigQuery);
prefetchProgramPage(queryClient, window.location.pathname);

loadLocaleDataWhileWaiting();

// index.html's header is already on screen, so the first render need not block: as a transition,
// React renders it in short slices and the page stays responsive while the app starts.
startTransition(() => {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <BrowserRouter>
          <AppRoutes />
        </BrowserRouter>
        <FallbackBoundary fallback={null}>
          <Toasts />
        </FallbackBoundary>
      </QueryClientProvider>
    </StrictMode>,
  );
});

// Installable, and useful offline (docs/decisions/020-offline-with-a-service-worker.md).
registerServiceWorker();
keepInstallOffer();

/**
 * The first Intl formatter a page makes loads the locale's data: some 70 ms of a slow phone's main
 * thread for numbers, 15 ms more for dates. Made while the page waits for its reads, one at a time,
 * that time is not added to the render that shows them (docs/performance.md, "Start-up in the browser").
 */
function loadLocaleDataWhileWaiting(): void {
  const steps = [
    () => new Intl.NumberFormat("en-US").format(0),
    () => new Intl.DateTimeFormat("en-GB", { day: "numeric", month: "long", year: "numeric" }).format(0),
  ];
  const next = () => {
    steps.shift()?.();
    if (steps.length > 0) whenIdle(next);
  };
  whenIdle(next);
}

function whenIdle(run: () => void): void {
  if ("requestIdleCallback" in window) requestIdleCallback(run, { timeout: 1_000 });
  else setTimeout(run, 0);
}
