// @vitest-environment jsdom
import { isValidElement, type ComponentType } from "react";
import type { RouteObject } from "react-router";
import { describe, expect, it } from "vitest";
import { ROUTES, type RouteAccess } from "../shared/routes.ts";
import { RequireAdmin, RequireUser } from "./session/guards.tsx";
import { APP_ROUTES, PAGES } from "./router.tsx";

/** docs/product.md, "Routes and guards": the guards each access stands behind, outermost first. */
const EXPECTED_GUARDS: Record<RouteAccess, ComponentType[]> = {
  public: [],
  user: [RequireUser],
  admin: [RequireAdmin],
};
const GUARDS: unknown[] = [RequireUser, RequireAdmin];

type Mounted = { path: string; guards: unknown[]; page: unknown };

/** Every page route of the tree, with the guards (layout routes) it sits behind. */
function mountedPages(routes: RouteObject[], guards: unknown[] = []): Mounted[] {
  return routes.flatMap((route) => {
    const type = isValidElement(route.element) ? route.element.type : undefined;
    const inside = GUARDS.includes(type) ? [...guards, type] : guards;
    const here = route.path === undefined ? [] : [{ path: route.path, guards, page: type }];
    return [...here, ...mountedPages(route.children ?? [], inside)];
  });
}

describe("the router, built from the route table", () => {
  const mounted = mountedPages(APP_ROUTES);

  it("mounts every page of the table once, and no other except the not-found page", () => {
    expect(mounted.map(({ path }) => path).sort()).toEqual([...ROUTES.map(({ path }) => path), "*"].sort());
  });

  it.each(ROUTES.map((route) => [route.path, route.access, route]))("puts %s behind the guards for %s", (_path, _access, route) => {
    expect(mounted.find(({ path }) => path === route.path)?.guards).toEqual(EXPECTED_GUARDS[route.access]);
  });

  it("leaves the not-found page unguarded", () => {
    expect(mounted.find(({ path }) => path === "*")?.guards).toEqual([]);
  });

  it.each(ROUTES.map((route) => [route.id, route]))("shows the %s page with the component the table names", async (id, route) => {
    const load = PAGES[id].load;
    if ("withTheApp" in route.page) {
      expect(load).toBeUndefined();
      return;
    }
    expect(load).toBeDefined();
    const component = await load?.();
    expect(component, `${route.page.module} exports ${route.page.component}`).toBeTypeOf("function");
    expect((component as { name?: string } | undefined)?.name).toBe(route.page.component);
  });

  it("shows a different page on each route", () => {
    const pages = mounted.map(({ page }) => page);
    expect(pages.every((page) => page !== undefined)).toBe(true);
    expect(new Set(pages).size).toBe(pages.length);
  });
});
