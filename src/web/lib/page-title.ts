// The title and description of each page (docs/product.md, "Page titles"): the route table's, set
// by the layout on every route change, and a page's own once its data has loaded.
import { useEffect } from "react";
import { useLocation } from "react-router";
import { documentTitle, NOT_FOUND_TITLE, routeAt, SITE_DESCRIPTION } from "../../shared/routes.ts";

function setDescription(content: string) {
  let meta = document.head.querySelector<HTMLMetaElement>('meta[name="description"]');
  if (!meta) {
    meta = document.createElement("meta");
    meta.name = "description";
    document.head.append(meta);
  }
  meta.content = content;
}

/**
 * The route table's title and description for the page at the current address. The layout calls
 * it in a component ahead of its pages: React runs the effects of earlier siblings first, so a
 * page's own title (`usePageTitle`) is set after it and wins.
 */
export function useRouteHead() {
  const { pathname } = useLocation();
  useEffect(() => {
    const route = routeAt(pathname);
    document.title = documentTitle(route?.title ?? NOT_FOUND_TITLE);
    setDescription(route && "description" in route ? route.description : SITE_DESCRIPTION);
  }, [pathname]);
}

/**
 * A page's own title, more precise than its route's ("Beginner Program" rather than "Program"):
 * undefined while its data loads, which keeps the route's title.
 */
export function usePageTitle(title: string | undefined) {
  const { pathname } = useLocation();
  useEffect(() => {
    if (title) document.title = documentTitle(title);
  }, [title, pathname]);
}
