import { describe, expect, it } from "vitest";
import { isClientRoute, ROUTE_ACCESS, ROUTES, routesFor } from "./routes.ts";

describe("the route table", () => {
  it("names each page once, by id and by path", () => {
    expect(new Set(ROUTES.map(({ id }) => id)).size).toBe(ROUTES.length);
    expect(new Set(ROUTES.map(({ path }) => path)).size).toBe(ROUTES.length);
  });

  // docs/product.md, "Routes and guards": a page that changes hands changes who can open it.
  it("guards the pages the product rules guard, and only those", () => {
    expect(routesFor("user").map(({ path }) => path)).toEqual([
      "/program",
      "/program/:track",
      "/subscription",
      "/subscription/receipts/:reference",
    ]);
    expect(routesFor("admin").map(({ path }) => path)).toEqual(["/admin"]);
  });

  it("gives every page exactly one access", () => {
    expect(ROUTE_ACCESS.flatMap(routesFor)).toHaveLength(ROUTES.length);
  });
});

describe("isClientRoute", () => {
  it.each(ROUTES.map(({ path }) => [path]))("knows %s", (route) => {
    expect(isClientRoute(route)).toBe(true);
  });

  it("knows a page with a parameter by any value of it", () => {
    expect(isClientRoute("/program/beginner")).toBe(true);
    expect(isClientRoute("/program/beginner/")).toBe(true);
    expect(isClientRoute("/program/beginner/extra")).toBe(false);
  });

  it.each([["/"], ["/about"], ["/contact"], ["/terms"], ["/privacy"], ["/chat"]])(
    "knows the public page %s",
    (pathname) => {
      expect(isClientRoute(pathname)).toBe(true);
    },
  );

  it("accepts a trailing slash", () => {
    expect(isClientRoute("/about/")).toBe(true);
    expect(isClientRoute("/contact/")).toBe(true);
  });

  it.each([
    ["/nope"],
    ["/aboutus"],
    ["/about/team"],
    ["/xabout"],
    ["/api/programs"],
    ["/api"],
    ["/assets/index.js"],
    ["about"],
    [""],
  ])("does not know %j", (pathname) => {
    expect(isClientRoute(pathname)).toBe(false);
  });
});
