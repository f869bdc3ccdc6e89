// Which requests count against a per-address limit (docs/product.md, "When a request counts against
// a limit"): all but those a browser says another site made.
import { describe, expect, it } from "vitest";
import { fromAnotherSite, fromTheSite } from "./same-origin.ts";

const SITE = "https://academy.example";

describe("a request another site made", () => {
  it.each([
    [{ "sec-fetch-site": "cross-site" }],
    // A sibling (another subdomain) is another site.
    [{ "sec-fetch-site": "same-site" }],
    [{ origin: "https://evil.test" }],
    [{ origin: "https://blog.academy.example" }],
    [{ origin: "null" }],
    [{ origin: "http://academy.example", "sec-fetch-site": "cross-site" }],
  ])("%o is one: it counts against no per-address limit", (headers) => {
    expect(fromAnotherSite(headers, SITE)).toBe(true);
  });

  it.each([
    [{ "sec-fetch-site": "same-origin" }],
    [{ origin: SITE }],
    // Typed, a bookmark, a link in a mail program.
    [{ "sec-fetch-site": "none" }],
    // No browser at all: a script, a server.
    [{}],
  ])("%o is not: it counts", (headers) => {
    expect(fromAnotherSite(headers, SITE)).toBe(false);
  });

  it("a request that passes the same-origin check always counts, whatever else it says", () => {
    // Otherwise a script could pass the check and escape every per-address limit of a POST.
    const headers = { origin: "https://evil.test", "sec-fetch-site": "same-origin" };
    expect(fromTheSite(headers, SITE)).toBe(true);
    expect(fromAnotherSite(headers, SITE)).toBe(false);
  });
});
