import { describe, expect, it } from "vitest";
import { groupThousands, onFirstUse } from "./formatters.ts";

describe("groupThousands", () => {
  it("groups as en-US does", () => {
    for (const n of [0, 7, 200, 1000, 2000, 12345, 999999, 1000000, 123456789]) {
      expect(groupThousands(n)).toBe(n.toLocaleString("en-US"));
    }
  });
});

describe("onFirstUse", () => {
  it("makes the formatter once, on the first call", () => {
    let made = 0;
    const formatter = onFirstUse(() => {
      made++;
      return new Intl.NumberFormat("en-US");
    });
    expect(made).toBe(0);
    expect(formatter().format(1500)).toBe("1,500");
    expect(formatter()).toBe(formatter());
    expect(made).toBe(1);
  });
});
