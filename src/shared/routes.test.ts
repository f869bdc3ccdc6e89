import { describe, expect, it } from "vitest";
import {
  documentTitle,
  NOT_FOUND_TITLE,
  routeAt,
  ROUTE_ACCESS,
  ROUTES,
  routesFor,
} from "./routes.ts";

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
      "/program/:track/:lesson",
      "/subscription",
      "/subscription/receipts/:reference",
      "/account",
      "/mentorship",
      "/journal",
    ]);
    expect(routesFor("admin").map(({ path }) => path)).toEqual(["/admin", "/admin/users/:id"]);
  });

  it("gives every page exactly one access", () => {
    expect(ROUTE_ACCESS.flatMap(routesFor)).toHaveLength(ROUTES.length);
  });
});

// docs/product.md, "Page titles": tabs, history, bookmarks and screen readers tell pages apart.
describe("page titles and descriptions", () => {
  it("gives every page, and the not-found page, a title of its own", () => {
    const titles = [...ROUTES.map(({ title }) => documentTitle(title)), documentTitle(NOT_FOUND_TITLE)];
    expect(new Set(titles).size).toBe(titles.length);
    expect(titles).toContain("Programs · Trading Academy");
  });

  it("describes every public page, each in its own words", () => {
    const descriptions = routesFor("public").map((route) => ("description" in route ? route.description : ""));
    expect(descriptions.every((description) => description.length >= 30 && description.length <= 160)).toBe(true);
    expect(new Set(descriptions).size).toBe(descriptions.length);
  });

  it("finds the route of an address, parameters and a trailing slash included", () => {
    expect(routeAt("/program/beginner")?.id).toBe("track");
    expect(routeAt("/about/")?.id).toBe("about");
    expect(routeAt("/nope")).toBeUndefined();
  });
});

describe("routeAt, for the pages the server answers", () => {
  it.each(ROUTES.map(({ path }) => [path]))("knows %s", (route) => {
    expect(routeAt(route)).toBeDefined();
  });

  it("knows a page with a parameter by any value of it", () => {
    expect(routeAt("/program/beginner")).toBeDefined();
    expect(routeAt("/program/beginner/")).toBeDefined();
    expect(routeAt("/program/beginner/0b5e7a0e-7d1c-4f57-9a43-4c0f0d7e8a11")).toBeDefined();
    expect(routeAt("/program/beginner/lesson/extra")).toBeUndefined();
  });

  it.each([["/"], ["/about"], ["/contact"], ["/terms"], ["/privacy"], ["/chat"]])(
    "knows the public page %s",
    (pathname) => {
      expect(routeAt(pathname)).toBeDefined();
    },
  );

  it("accepts a trailing slash", () => {
    expect(routeAt("/about/")).toBeDefined();
    expect(routeAt("/contact/")).toBeDefined();
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
    expect(routeAt(pathname)).toBeUndefined();
  });
});
