// The calculators at /tools over HTTP (docs/trading.md, "Calculators"): open to everyone, computed
// on the server, cedi amounts at the academy's own rate, and every bad field marked.
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { addressOf } from "../../../shared/contracts/endpoint.ts";
import { TOOLS_ENDPOINTS } from "../../../shared/contracts/tools.ts";
import { CALCULATOR_MESSAGES } from "../../../shared/trading/calculators.ts";
import { config } from "../../db/schema.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

/** Nothing listens on port 1: the rate is only ever the one the test keeps. */
const RATE_SERVICE_DOWN = "http://127.0.0.1:1/v6/latest/USD";

describe("the trading calculators", () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await createTestApp({ env: { EXCHANGE_RATE_URL: RATE_SERVICE_DOWN } });
  });
  afterAll(() => t.close());

  async function keepRate(ghsPerUsd: number | null) {
    await t.database.db.delete(config).where(inArray(config.key, ["exchange_rate", "exchange_rate_failure"]));
    const now = new Date().toISOString();
    // A failure just now: the app keeps what it has rather than asking the service again.
    await t.database.db.insert(config).values([
      ...(ghsPerUsd === null ? [] : [{ key: "exchange_rate", value: { ghsPerUsd, fetchedAt: now } }]),
      { key: "exchange_rate_failure", value: { at: now } },
    ]);
  }

  beforeEach(() => keepRate(12.5));

  const get = (declared: (typeof TOOLS_ENDPOINTS)[keyof typeof TOOLS_ENDPOINTS], query: Record<string, string>) =>
    t.app.inject({ method: "GET", url: addressOf(declared, undefined, query) });

  it("sizes the worked example for anyone, signed in or not: 1,000 USD, 1%, 20 pips on EURUSD is 0.05 lots", async () => {
    const response = await get(TOOLS_ENDPOINTS.positionSize, { instrument: "EURUSD", balance: "1000", currency: "USD", riskPercent: "1", stopPips: "20" });
    expect(response.statusCode, response.body).toBe(200);
    expect(response.json()).toMatchObject({
      ok: true,
      result: { lots: "0.05", units: "5000", riskAmount: { usd: "10.00", ghs: "125.00" }, riskAtSize: { usd: "10.00", ghs: "125.00" } },
      rate: { ghsPerUsd: 12.5 },
    });
  });

  it("marks each field that makes no sense, by name, and computes nothing", async () => {
    const response = await get(TOOLS_ENDPOINTS.positionSize, { instrument: "EURUSD", balance: "-1000", currency: "USD", riskPercent: "101", stopPips: "0" });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      ok: false,
      errors: { balance: CALCULATOR_MESSAGES.balance, riskPercent: CALCULATOR_MESSAGES.risk, stopPips: CALCULATOR_MESSAGES.stopPips },
    });
  });

  it("answers 400 in words to an instrument or currency it does not know", async () => {
    for (const [field, wrong] of [
      ["instrument", "EURXYZ"],
      ["currency", "EUR"],
    ] as const) {
      const response = await get(TOOLS_ENDPOINTS.positionSize, { instrument: "EURUSD", balance: "1000", currency: "USD", riskPercent: "1", stopPips: "20", [field]: wrong });
      expect(response.statusCode).toBe(400);
      expect(response.json<{ error: { message: string } }>().error.message).toContain(`Choose ${field === "instrument" ? "an" : "a"} ${field}:`);
    }
  });

  it("takes a field not given yet as an empty one, and marks it", async () => {
    const response = await get(TOOLS_ENDPOINTS.positionSize, { instrument: "EURUSD", currency: "USD", riskPercent: "1", stopPips: "20" });
    expect(response.json()).toEqual({ ok: false, errors: { balance: CALCULATOR_MESSAGES.balance } });
  });

  it("without a rate, still sizes a dollar balance, without cedis, and says a cedi balance needs the rate", async () => {
    await keepRate(null);
    const inDollars = await get(TOOLS_ENDPOINTS.positionSize, { instrument: "EURUSD", balance: "1000", currency: "USD", riskPercent: "1", stopPips: "20" });
    expect(inDollars.json()).toMatchObject({ ok: true, result: { lots: "0.05", riskAmount: { usd: "10.00", ghs: null } }, rate: null });
    const inCedis = await get(TOOLS_ENDPOINTS.positionSize, { instrument: "EURUSD", balance: "12500", currency: "GHS", riskPercent: "1", stopPips: "20" });
    expect(inCedis.json()).toEqual({ ok: false, errors: { balance: CALCULATOR_MESSAGES.rateUnavailable } });
  });

  it("sizes a cedi balance at the academy's rate: 12,500 GHS at 12.5 is 1,000 USD", async () => {
    const response = await get(TOOLS_ENDPOINTS.positionSize, { instrument: "EURUSD", balance: "12,500", currency: "GHS", riskPercent: "1", stopPips: "20" });
    expect(response.json()).toMatchObject({ ok: true, result: { lots: "0.05", riskAmount: { usd: "10.00", ghs: "125.00" } } });
  });

  it("answers the pip value, risk to reward and margin calculators", async () => {
    expect((await get(TOOLS_ENDPOINTS.pipValue, { instrument: "USDJPY", lots: "1", price: "150" })).json()).toMatchObject({
      ok: true,
      result: { perPip: { usd: "6.67", ghs: "83.33" } },
    });
    expect((await get(TOOLS_ENDPOINTS.riskReward, { instrument: "EURUSD", entry: "1.1000", stop: "1.0980", target: "1.1050" })).json()).toEqual({
      ok: true,
      result: { direction: "buy", riskPips: "20.0", rewardPips: "50.0", ratio: "2.50", breakEvenWinRate: "28.6" },
      rate: null,
    });
    expect((await get(TOOLS_ENDPOINTS.margin, { instrument: "EURUSD", lots: "1", leverage: "100", price: "1.1000" })).json()).toMatchObject({
      ok: true,
      result: { margin: { usd: "1100.00", ghs: "13750.00" } },
    });
  });
});
