import { describe, expect, it } from "vitest";
import { illustrativeBars } from "./illustrative-bars.ts";

describe("the demo catalogue's illustrative bars", () => {
  const bars = illustrativeBars();

  it("are the same 600 hourly bars every time", () => {
    expect(bars).toHaveLength(600);
    expect(illustrativeBars()).toEqual(bars);
    expect(bars[0]).toEqual({ time: new Date("2024-01-08T00:00:00Z"), open: "1.08500", high: "1.08550", low: "1.08325", close: "1.08385" });
    expect(bars.every((bar, index) => bar.time.getTime() === Date.UTC(2024, 0, 8) + index * 3_600_000)).toBe(true);
  });

  it("are bars a file could hold: five decimals, each high and low around its open and close, each open the close before", () => {
    for (const [index, bar] of bars.entries()) {
      for (const value of [bar.open, bar.high, bar.low, bar.close]) expect(value).toMatch(/^1\.\d{5}$/);
      const [open, high, low, close] = [bar.open, bar.high, bar.low, bar.close].map(Number) as [number, number, number, number];
      expect(high).toBeGreaterThanOrEqual(Math.max(open, close));
      expect(low).toBeLessThanOrEqual(Math.min(open, close));
      if (index > 0) expect(bar.open).toBe(bars[index - 1]?.close);
    }
  });

  it("close inside a range of 1.0800 to 1.0900 for the first 260 hours, then break out and trend above it", () => {
    const closes = bars.map((bar) => Number(bar.close));
    const range = closes.slice(0, 260);
    expect(Math.min(...range)).toBeGreaterThanOrEqual(1.08);
    expect(Math.max(...range)).toBeLessThanOrEqual(1.09);
    expect(Math.min(...range)).toBeLessThan(1.0815);
    expect(Math.max(...range)).toBeGreaterThan(1.0885);
    expect(closes.at(-1)).toBeGreaterThan(1.095);
  });
});
