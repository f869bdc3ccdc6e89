// Each expected figure below was worked by hand; the working is in the test's name or beside it.
import Big from "big.js";
import { describe, expect, it } from "vitest";
import { CALCULATOR_MESSAGES, margin, pipValue, positionSize, riskReward } from "./calculators.ts";

const RATE = new Big("12.5"); // cedis to the dollar

describe("position size", () => {
  it("sizes the worked example: 1,000 USD, 1%, a 20-pip stop on EURUSD is 0.05 lots (5,000 units)", () => {
    // Risk 1% of 1,000 = 10 USD. A pip on one lot of EURUSD is 0.0001 x 100,000 = 10 USD, so a
    // 20-pip stop loses 200 USD a lot, and 10 / 200 = 0.05 lots.
    expect(positionSize({ instrument: "EURUSD", balance: "1000", currency: "USD", riskPercent: "1", stopPips: "20" }, RATE)).toEqual({
      ok: true,
      result: {
        riskAmount: { usd: "10.00", ghs: "125.00" },
        pipValuePerLot: { usd: "10.00", ghs: "125.00" },
        lots: "0.05",
        units: "5000",
        riskAtSize: { usd: "10.00", ghs: "125.00" },
        smallestLotRisk: { usd: "2.00", ghs: "25.00" },
      },
    });
  });

  it("sizes a balance in cedis at the academy's rate: 10,000 GHS at 12.5 is 800 USD, 1% is 8 USD, 0.04 lots", () => {
    const sized = positionSize({ instrument: "EURUSD", balance: "10,000", currency: "GHS", riskPercent: "1", stopPips: "20" }, RATE);
    expect(sized).toMatchObject({ ok: true, result: { riskAmount: { usd: "8.00", ghs: "100.00" }, lots: "0.04", units: "4000" } });
  });

  it("rounds the size down, never risking more than asked: 15 USD / 200 USD a lot = 0.075, so 0.07 lots risking 14 USD", () => {
    const sized = positionSize({ instrument: "EURUSD", balance: "1000", currency: "USD", riskPercent: "1.5", stopPips: "20" }, null);
    expect(sized).toMatchObject({ ok: true, result: { riskAmount: { usd: "15.00", ghs: null }, lots: "0.07", riskAtSize: { usd: "14.00", ghs: null } } });
  });

  it("counts a yen pip in dollars at the price: USDJPY at 150, a pip on a lot is 0.01 x 100,000 / 150 = 6.67 USD", () => {
    // Risk 2% of 5,000 = 100 USD; a 25-pip stop loses 25 x 6.666... = 166.67 a lot; 100 / 166.67 = 0.60.
    const sized = positionSize({ instrument: "USDJPY", balance: "5000", currency: "USD", riskPercent: "2", stopPips: "25", price: "150.00" }, null);
    expect(sized).toMatchObject({
      ok: true,
      result: { pipValuePerLot: { usd: "6.67" }, lots: "0.60", units: "60000", riskAtSize: { usd: "100.00" } },
    });
  });

  it("sizes gold by the ounce: a pip is 0.10 on 100 oz, 10 USD a lot; 20 USD over a 50-pip stop is 0.04 lots, 4 oz", () => {
    const sized = positionSize({ instrument: "XAUUSD", balance: "2000", currency: "USD", riskPercent: "1", stopPips: "50" }, null);
    expect(sized).toMatchObject({ ok: true, result: { pipValuePerLot: { usd: "10.00" }, lots: "0.04", units: "4" } });
  });

  it("says what the smallest lot would risk when the size rounds to nothing: 1 USD against 5 USD for 0.01 lot", () => {
    const sized = positionSize({ instrument: "EURUSD", balance: "100", currency: "USD", riskPercent: "1", stopPips: "50" }, null);
    expect(sized).toMatchObject({ ok: true, result: { lots: "0.00", units: "0", smallestLotRisk: { usd: "5.00" } } });
  });

  it("marks every field that makes no sense, and computes nothing", () => {
    expect(positionSize({ instrument: "USDJPY", balance: "-5", currency: "USD", riskPercent: "150", stopPips: "0", price: "" }, RATE)).toEqual({
      ok: false,
      errors: {
        balance: CALCULATOR_MESSAGES.balance,
        riskPercent: CALCULATOR_MESSAGES.risk,
        stopPips: CALCULATOR_MESSAGES.stopPips,
        price: CALCULATOR_MESSAGES.price,
      },
    });
    expect(positionSize({ instrument: "EURUSD", balance: "1e3", currency: "USD", riskPercent: "1", stopPips: "20" }, RATE)).toEqual({
      ok: false,
      errors: { balance: CALCULATOR_MESSAGES.notANumber },
    });
  });

  it("needs the rate for a balance in cedis, and says so at the balance", () => {
    expect(positionSize({ instrument: "EURUSD", balance: "1000", currency: "GHS", riskPercent: "1", stopPips: "20" }, null)).toEqual({
      ok: false,
      errors: { balance: CALCULATOR_MESSAGES.rateUnavailable },
    });
  });

  it("allows a risk of exactly 100%", () => {
    expect(positionSize({ instrument: "EURUSD", balance: "200", currency: "USD", riskPercent: "100", stopPips: "10" }, null)).toMatchObject({
      ok: true,
      result: { lots: "2.00" },
    });
  });
});

describe("pip value", () => {
  it.each([
    ["EURUSD, 0.5 lots: 0.0001 x 50,000", { instrument: "EURUSD", lots: "0.5" }, "5.00"],
    ["USDJPY, 1 lot at 150: 0.01 x 100,000 / 150", { instrument: "USDJPY", lots: "1", price: "150" }, "6.67"],
    ["XAUUSD, 0.1 lots: 0.1 x 10 oz", { instrument: "XAUUSD", lots: "0.1" }, "1.00"],
  ] as const)("%s", (_working, input, usd) => {
    expect(pipValue(input, null)).toMatchObject({ ok: true, result: { perPip: { usd } } });
  });

  it("asks for the price of a dollar-based pair", () => {
    expect(pipValue({ instrument: "USDCHF", lots: "1" }, null)).toEqual({ ok: false, errors: { price: CALCULATOR_MESSAGES.price } });
  });
});

describe("risk to reward", () => {
  it("reads a buy from a stop below the entry: 20 pips risked for 50, 2.50 R, breaking even at 28.6% wins", () => {
    // 1 / (1 + 2.5) = 28.57%.
    expect(riskReward({ instrument: "EURUSD", entry: "1.1000", stop: "1.0980", target: "1.1050" })).toEqual({
      ok: true,
      result: { direction: "buy", riskPips: "20.0", rewardPips: "50.0", ratio: "2.50", breakEvenWinRate: "28.6" },
    });
  });

  it("reads a sell from a stop above the entry, in yen pips: 30 risked for 90 is 3.00 R", () => {
    expect(riskReward({ instrument: "USDJPY", entry: "150.00", stop: "150.30", target: "149.10" })).toEqual({
      ok: true,
      result: { direction: "sell", riskPips: "30.0", rewardPips: "90.0", ratio: "3.00", breakEvenWinRate: "25.0" },
    });
  });

  it("refuses a target on the stop's side, and a stop or target at the entry", () => {
    expect(riskReward({ instrument: "EURUSD", entry: "1.1000", stop: "1.0980", target: "1.0990" })).toEqual({
      ok: false,
      errors: { target: CALCULATOR_MESSAGES.targetSide },
    });
    expect(riskReward({ instrument: "EURUSD", entry: "1.1000", stop: "1.1000", target: "1.1000" })).toEqual({
      ok: false,
      errors: { stop: CALCULATOR_MESSAGES.stopAtEntry, target: CALCULATOR_MESSAGES.targetAtEntry },
    });
  });
});

describe("margin", () => {
  it.each([
    ["EURUSD, 1 lot at 1.1000, 1:100: 110,000 / 100", { instrument: "EURUSD", lots: "1", leverage: "100", price: "1.1000" }, "110000.00", "1100.00"],
    ["USDJPY, 0.5 lots, 1:50: 50,000 USD / 50", { instrument: "USDJPY", lots: "0.5", leverage: "50" }, "50000.00", "1000.00"],
    ["XAUUSD, 0.1 lots at 2,350.50, 1:100: 10 oz x 2,350.50 / 100", { instrument: "XAUUSD", lots: "0.1", leverage: "100", price: "2350.50" }, "23505.00", "235.05"],
  ] as const)("%s", (_working, input, notional, held) => {
    expect(margin(input, RATE)).toMatchObject({ ok: true, result: { notional: { usd: notional }, margin: { usd: held } } });
  });

  it("refuses a leverage below 1:1", () => {
    expect(margin({ instrument: "USDJPY", lots: "1", leverage: "0.5" }, null)).toEqual({ ok: false, errors: { leverage: CALCULATOR_MESSAGES.leverage } });
  });
});
