import { Suspense, useEffect } from "react";
import { Outlet, useLocation } from "react-router";
import { useRouteHead } from "../lib/page-title.ts";
import { Footer } from "./footer.tsx";
import { Header } from "./header.tsx";

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

export function Layout() {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <ScrollToTop />
      <RouteHead />
      <Header />
      <main id="main" tabIndex={-1}>
        <Suspense fallback={<p className="container page-loading">Loading...</p>}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </>
  );
}
