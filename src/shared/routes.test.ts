import { describe, expect, it } from "vitest";
import { CLIENT_ROUTES, isClientRoute } from "./routes.ts";

describe("isClientRoute", () => {
  it.each(CLIENT_ROUTES.map((route) => [route]))("knows %s", (route) => {
    expect(isClientRoute(route)).toBe(true);
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
