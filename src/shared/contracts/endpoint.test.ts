import * as z from "zod/mini";
import { describe, expect, it } from "vitest";
import { addressOf, endpoint } from "./endpoint.ts";

const receipt = endpoint({
  method: "GET",
  path: "/api/payments/:reference/lines/:line",
  params: z.object({ reference: z.string(), line: z.string() }),
  response: z.object({}),
});

describe("addressOf", () => {
  it("puts each parameter in its place, encoded", () => {
    expect(addressOf(receipt, { reference: "LTF-A/1", line: "2" })).toBe("/api/payments/LTF-A%2F1/lines/2");
  });

  it("adds the query's defined values, in the order given", () => {
    expect(addressOf(endpoint({ method: "GET", path: "/api/admin/users", response: z.object({}) }), undefined, { page: 2, search: "a&b", waitlistPending: undefined, mine: true })).toBe(
      "/api/admin/users?page=2&search=a%26b&mine=true",
    );
  });

  it("refuses a call without one of its path's parameters", () => {
    expect(() => addressOf(receipt, { reference: "LTF-A-1" })).toThrow('GET /api/payments/:reference/lines/:line needs its "line"');
  });
});
