import { describe, expect, it } from "vitest";
import { academyInputValue, academyTimeToInstant, formatAcademyTime } from "./academy-time.ts";

describe("Accra time", () => {
  it("reads a date-time input as a time in Accra (GMT all year)", () => {
    expect(academyTimeToInstant("2026-03-14T15:00")?.toISOString()).toBe("2026-03-14T15:00:00.000Z");
    expect(academyTimeToInstant("2026-07-01T09:30")?.toISOString()).toBe("2026-07-01T09:30:00.000Z");
  });

  it("refuses what is not a time that exists", () => {
    for (const value of ["", "2026-02-30T10:00", "2026-03-14T24:00", "2026-03-14 15:00", "tomorrow"]) {
      expect(academyTimeToInstant(value)).toBeNull();
    }
  });

  it("writes an instant the way the learner's email and page read it", () => {
    expect(formatAcademyTime(new Date("2026-03-14T15:00:00Z"))).toBe("Saturday 14 March 2026 at 15:00 (Accra time)");
  });

  it("gives an input's value on Accra's clock", () => {
    expect(academyInputValue(new Date("2026-03-14T15:05:42Z"))).toBe("2026-03-14T15:05");
  });
});
