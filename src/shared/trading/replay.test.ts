// Each expected figure was worked by hand; the working is beside it.
import Big from "big.js";
import { describe, expect, it } from "vitest";
import { REPLAY_MESSAGES, scoreReplay, type ReplayMarket } from "./replay.ts";

const at = (hour: number) => new Date(Date.UTC(2024, 2, 1, hour));
const bars = (...rows: [high: string, low: string, close: string][]) => rows.map(([high, low, close], i) => ({ time: at(i + 1), high, low, close }));

/** EURUSD filled at 1.1000; a pip on a lot is 10 USD; a 1,000 USD balance; 12.5 cedis to the dollar. */
const eurusd = (later: ReplayMarket["later"]): ReplayMarket => ({
  entry: "1.1000",
  pipSize: "0.0001",
  pipValuePerLotUsd: new Big(10),
  balanceUsd: new Big(1000),
  ghsPerUsd: new Big("12.5"),
  later,
});
const buy = { direction: "buy" as const, stop: "1.0980", target: "1.1040", riskPercent: "1" };

describe("scoring a replay", () => {
  it("a buy whose target comes first: +40 pips, 2.00 R; 0.05 lots make 20 USD", () => {
    // Risk 1% of 1,000 = 10 USD over a 20-pip stop at 10 USD a pip a lot: 0.05 lots. 0.05 x 40 x 10 = 20.
    expect(scoreReplay(buy, eurusd(bars(["1.1010", "1.0990", "1.1005"], ["1.1045", "1.1000", "1.1040"])))).toEqual({
      ok: true,
      result: {
        outcome: "target",
        bothInOneBar: false,
        exitPrice: "1.104",
        exitTime: at(2),
        barsHeld: 2,
        entry: "1.1",
        stopPips: "20.0",
        pips: "40.0",
        r: "2.00",
        lots: "0.05",
        riskAmount: { usd: "10.00", ghs: "125.00" },
        profit: { usd: "20.00", ghs: "250.00" },
      },
    });
  });

  it("a buy whose stop comes first loses the risk: -20 pips, -1.00 R, -10 USD", () => {
    expect(scoreReplay(buy, eurusd(bars(["1.1010", "1.0979", "1.0985"], ["1.1045", "1.1000", "1.1040"])))).toMatchObject({
      ok: true,
      result: { outcome: "stop", bothInOneBar: false, barsHeld: 1, pips: "-20.0", r: "-1.00", profit: { usd: "-10.00", ghs: "-125.00" } },
    });
  });

  it("a bar that reaches both counts the stop, and says so", () => {
    expect(scoreReplay(buy, eurusd(bars(["1.1050", "1.0970", "1.1000"])))).toMatchObject({
      ok: true,
      result: { outcome: "stop", bothInOneBar: true, r: "-1.00" },
    });
  });

  it("a trade neither level closes ends at the last close: +12 pips, 0.60 R, 6 USD", () => {
    expect(scoreReplay(buy, eurusd(bars(["1.1010", "1.0990", "1.1005"], ["1.1015", "1.0995", "1.1012"])))).toMatchObject({
      ok: true,
      result: { outcome: "open", exitPrice: "1.1012", barsHeld: 2, pips: "12.0", r: "0.60", profit: { usd: "6.00" } },
    });
  });

  it("a touch is a hit: a low at exactly the stop stops the trade", () => {
    expect(scoreReplay(buy, eurusd(bars(["1.1010", "1.0980", "1.1000"])))).toMatchObject({ ok: true, result: { outcome: "stop" } });
  });

  it("a sell on USDJPY in yen pips: 30 risked, 60 won, 2.00 R; 0.05 lots make 20 USD", () => {
    // A yen pip on a lot at 150.00 is 0.01 x 100,000 / 150 = 6.667 USD; 10 USD / (30 x 6.667) = 0.05 lots; 0.05 x 60 x 6.667 = 20.
    const market: ReplayMarket = {
      entry: "150.00",
      pipSize: "0.01",
      pipValuePerLotUsd: new Big("0.01").times(100_000).div(150),
      balanceUsd: new Big(1000),
      ghsPerUsd: null,
      later: bars(["150.10", "149.80", "149.90"], ["149.95", "149.35", "149.50"]),
    };
    expect(scoreReplay({ direction: "sell", stop: "150.30", target: "149.40", riskPercent: "1" }, market)).toMatchObject({
      ok: true,
      result: { outcome: "target", stopPips: "30.0", pips: "60.0", r: "2.00", lots: "0.05", profit: { usd: "20.00", ghs: null } },
    });
  });

  it("a buy on gold, in pips of 0.10: 50 risked, 150 won, 3.00 R; 0.04 lots make 60 USD", () => {
    // 1% of 2,000 = 20 USD; a gold pip on a lot (100 oz) is 10 USD; 20 / (50 x 10) = 0.04; 0.04 x 150 x 10 = 60.
    const market: ReplayMarket = {
      entry: "2350.00",
      pipSize: "0.1",
      pipValuePerLotUsd: new Big(10),
      balanceUsd: new Big(2000),
      ghsPerUsd: null,
      later: bars(["2352.00", "2347.10", "2351.00"], ["2366.00", "2350.50", "2364.00"]),
    };
    expect(scoreReplay({ direction: "buy", stop: "2345.00", target: "2365.00", riskPercent: "1" }, market)).toMatchObject({
      ok: true,
      result: { outcome: "target", stopPips: "50.0", pips: "150.0", r: "3.00", lots: "0.04", profit: { usd: "60.00" } },
    });
  });

  it("refuses a stop or target on the wrong side, at zero distance, and a risk out of range, field by field", () => {
    const later = eurusd(bars(["1.1010", "1.0990", "1.1005"]));
    expect(scoreReplay({ direction: "buy", stop: "1.1010", target: "1.1000", riskPercent: "0" }, later)).toEqual({
      ok: false,
      errors: { stop: REPLAY_MESSAGES.stopSide("buy"), target: REPLAY_MESSAGES.targetSide("buy"), riskPercent: REPLAY_MESSAGES.risk },
    });
    expect(scoreReplay({ direction: "sell", stop: "1.1000", target: "1.0950", riskPercent: "101" }, later)).toEqual({
      ok: false,
      errors: { stop: REPLAY_MESSAGES.stopSide("sell"), riskPercent: REPLAY_MESSAGES.risk },
    });
  });

  it("refuses a trade when the bars have run out", () => {
    expect(scoreReplay(buy, eurusd([]))).toEqual({ ok: false, errors: { order: REPLAY_MESSAGES.noBarsLeft } });
  });
});
