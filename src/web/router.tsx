// The browser's table of contents: the pages of the route table (src/shared/routes.ts), each shown
// by the component the table names and behind the guard its access asks for. Pages other than the
// home page load on demand (React.lazy), so the first visit downloads only what it shows; the
// layout's Suspense shows "Loading..." the first time a page's code is fetched.
//
// Declarative routes (useRoutes, what <Routes> runs) rather than a data router: no page uses
// loaders or actions, and the declarative router is about 16 KB (gzipped) lighter on every first
// visit.
import { lazy, type ComponentType, type ReactElement } from "react";
import { matchPath, useRoutes, type RouteObject } from "react-router";
import { ROUTE_ACCESS, ROUTES, routesFor, type AppRoute, type RouteAccess, type RouteId } from "../shared/routes.ts";
import { RequireAdmin, RequireUser } from "./session/guards.tsx";
import { HomePage } from "./features/site/home-page.tsx";
import { Layout } from "./shell/layout.tsx";
import { NotFoundPage } from "./features/site/not-found-page.tsx";

/** What shows a page, and for a page loaded on demand, how to fetch its code (`load`, also early). */
type Page = { element: ReactElement; load?: () => Promise<ComponentType> };

/** The pages that come with the app's first script (`withTheApp` in the route table), by component. */
const WITH_THE_APP: Record<string, ComponentType> = { HomePage };

/**
 * Every other page's code, each file loaded on demand (a chunk of its own in the build). The two
 * pages imported above stay out: a file both imported and loaded on demand would be neither.
 */
const ON_DEMAND = import.meta.glob<Record<string, unknown>>(["./features/**/*-page.tsx", "!./features/site/home-page.tsx", "!./features/site/not-found-page.tsx"]);

function pageFor({ id, page }: AppRoute): Page {
  if ("withTheApp" in page) {
    const Component = WITH_THE_APP[page.component];
    if (!Component) throw new Error(`The route table's ${id} page comes with the app, but the router does not import ${page.component}`);
    return { element: <Component /> };
  }
  const load = ON_DEMAND[`./${page.module}`];
  if (!load) throw new Error(`The route table's ${id} page is in ${page.module}, which is not a page file`);
  const loadComponent = async () => {
    const component = (await load())[page.component];
    if (typeof component !== "function") throw new Error(`${page.module} does not export the ${id} page's ${page.component}`);
    return component as ComponentType;
  };
  const Component = lazy(async () => ({ default: await loadComponent() }));
  return { element: <Component />, load: loadComponent };
}

/** One page for every route of the table, from the code the table names. */
export const PAGES = Object.fromEntries(ROUTES.map((route) => [route.id, pageFor(route)])) as Record<RouteId, Page>;

/**
 * The layout route each access puts around its pages (docs/product.md, "Routes and guards"):
 * public pages sit in the layout itself. One guard element per access, so moving between two
 * guarded pages keeps the guard mounted.
 */
const GUARDS: Record<RouteAccess, ReactElement | null> = {
  public: null,
  user: <RequireUser />,
  admin: <RequireAdmin />,
};

function pagesWith(access: RouteAccess): RouteObject[] {
  const pages = routesFor(access).map(({ id, path }) => ({ path, element: PAGES[id].element }));
  const guard = GUARDS[access];
  return guard ? [{ element: guard, children: pages }] : pages;
}

/** Every page inside the layout, behind the guard its access asks for; any other path is not found. */
export const APP_ROUTES: RouteObject[] = [
  { element: <Layout />, children: [...ROUTE_ACCESS.flatMap(pagesWith), { path: "*", element: <NotFoundPage /> }] },
];

export function AppRoutes() {
  return useRoutes(APP_ROUTES);
}

/**
 * Starts fetching the code of the page at `pathname`, so that it downloads while the session is
 * read rather than after (the guards wait for the session before they render a page).
 */
export function preloadPage(pathname: string): void {
  const route = ROUTES.find(({ path }) => matchPath(path, pathname));
  // A failed download is the page's to report when it renders (React.lazy asks again).
  if (route) PAGES[route.id].load?.().catch(() => undefined);
}
