import { Suspense, useEffect } from "react";
import { Outlet, useLocation } from "react-router";
import { useRouteHead } from "../lib/page-title.ts";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";
import { NewVersionPrompt, OfflineBoundary, OfflineNotice, OfflinePage, useOfflineWithoutData } from "./offline.tsx";

function ScrollToTop() {
  const { pathname } = useLocation();
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return null;
}

/** The page's title and description from the route table; ahead of the page, which may refine them. */
function RouteHead() {
  useRouteHead();
  return null;
}

/** The page, or offline with nothing kept of it, the offline page (docs/product.md, "Offline"). */
function Page() {
  const { pathname } = useLocation();
  const offlineWithoutData = useOfflineWithoutData(pathname);
  if (offlineWithoutData) return <OfflinePage />;
  return (
    <OfflineBoundary pathname={pathname}>
      <Suspense fallback={<p className="container page-loading">Loading...</p>}>
        <Outlet />
      </Suspense>
    </OfflineBoundary>
  );
}

export function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ScrollToTop />
      <RouteHead />
      <Header />
      <NewVersionPrompt />
      <OfflineNotice />
      <main id="main" tabIndex={-1}>
        <Page />
      </main>
      <Footer />
    </>
  );
}
