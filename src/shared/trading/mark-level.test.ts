// Worked by hand: EURUSD's pip is 0.0001; the zone 1.0800 to 1.0810, 5 pips of tolerance.
import { describe, expect, it } from "vitest";
import { scoreLevel } from "./mark-level.ts";

const zone = { low: "1.0800", high: "1.0810", tolerancePips: "5", pipSize: "0.0001" };

describe("scoreLevel", () => {
  it("is 0 pips away inside the zone, and passes", () => {
    expect(scoreLevel("1.08050", zone)).toEqual({ ok: true, result: { distancePips: "0.0", passed: true } });
  });

  it("measures below the lower edge and above the upper one", () => {
    // 1.0800 - 1.07955 = 0.00045: 4.5 pips, within 5.
    expect(scoreLevel("1.07955", zone)).toEqual({ ok: true, result: { distancePips: "4.5", passed: true } });
    // 1.08163 - 1.0810 = 0.00063: 6.3 pips, beyond 5.
    expect(scoreLevel("1.08163", zone)).toEqual({ ok: true, result: { distancePips: "6.3", passed: false } });
  });

  it("passes at the tolerance itself, after rounding half up to a tenth of a pip", () => {
    // 0.000495 is 4.95 pips, rounded half up to 5.0: at the tolerance, which passes.
    expect(scoreLevel("1.080595", { ...zone, high: "1.0801" })).toEqual({ ok: true, result: { distancePips: "5.0", passed: true } });
    expect(scoreLevel("1.08151", zone)).toEqual({ ok: true, result: { distancePips: "5.1", passed: false } });
  });

  it("counts a single level, and gold's and the yen's pips", () => {
    expect(scoreLevel("2350.6", { low: "2351", high: "2351", tolerancePips: "5", pipSize: "0.1" })).toEqual({ ok: true, result: { distancePips: "4.0", passed: true } });
    expect(scoreLevel("151.20", { low: "151.00", high: "151.00", tolerancePips: "10", pipSize: "0.01" })).toEqual({ ok: true, result: { distancePips: "20.0", passed: false } });
  });

  it("refuses a price that is not one, at its field", () => {
    expect(scoreLevel("abc", zone)).toEqual({ ok: false, errors: { price: "Tap the chart or enter a price above 0." } });
    expect(scoreLevel("0", zone)).toEqual({ ok: false, errors: { price: "Tap the chart or enter a price above 0." } });
  });
});
