// How an exercise writes prices, times and results (docs/trading.md, "Exercises").
import { describe, expect, it } from "vitest";
import { cedis, dollars, grouped } from "../../ui/money.tsx";
import { barTime, chartSummary, pricePrecision, signed, typedPrice } from "./exercise-format.ts";

describe("exercise formatting", () => {
  it("writes prices with one digit more than the pip", () => {
    expect(pricePrecision("0.0001")).toBe(5);
    expect(pricePrecision("0.01")).toBe(3);
    expect(pricePrecision("0.1")).toBe(2);
    expect(pricePrecision("0.10")).toBe(2);
    expect(pricePrecision("1")).toBe(1);
  });

  it("reads a typed price to draw it, and nothing that is not one", () => {
    expect(typedPrice("1.0850")).toBe(1.085);
    expect(typedPrice(" 2,345.5 ")).toBe(2345.5);
    expect(typedPrice("")).toBeNull();
    expect(typedPrice("abc")).toBeNull();
    expect(typedPrice("0")).toBeNull();
    expect(typedPrice("-1.2")).toBeNull();
  });

  it("writes a bar's time in UTC, and the chart's summary for screen readers", () => {
    const t = Date.UTC(2024, 0, 8, 13, 0) / 1000;
    expect(barTime(t)).toBe("8 Jan 2024 13:00 UTC");
    const bars = [{ t: t - 3600, o: 1, h: 1, l: 1, c: 1.085 }, { t, o: 1.085, h: 1.086, l: 1.084, c: 1.08512 }];
    expect(chartSummary("EURUSD", "H1", bars, 5)).toBe("EURUSD H1 candlestick chart, 2 bars to 8 Jan 2024 13:00 UTC; last close 1.08512");
  });

  it("writes results and money with their sign", () => {
    expect(signed("1.50", "R")).toBe("+1.50 R");
    expect(signed("-1.00", "R")).toBe("−1.00 R");
    expect(signed("0.00", "R")).toBe("0.00 R");
    expect(grouped("1000")).toBe("1,000");
    expect(dollars("-1250.50")).toBe("−$1,250.50");
    expect(cedis("150.00")).toBe("GH₵ 150.00");
  });
});
