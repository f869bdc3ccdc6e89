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
