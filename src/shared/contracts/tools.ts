// The trading calculators at /tools (docs/trading.md, "Calculators"). The server computes every
// figure; the page sends what the learner typed, as typed, and shows the answer. A field that
// makes no sense is answered 200 with `ok: false` and a message per field: the question was well
// formed, its numbers were not. A query that is not one (an unknown instrument) is a 400.
import * as z from "zod/mini";
import { BALANCE_CURRENCIES, INSTRUMENT_SYMBOLS } from "../trading/instruments.ts";
import { endpoint } from "./endpoint.ts";

/**
 * A number as the learner typed it, or nothing yet: read, and refused field by field with the
 * field's own message, by the calculators.
 */
const typed = z._default(z.string().check(z.maxLength(40, "A number is at most 40 characters.")), "");
const instrument = z.enum(INSTRUMENT_SYMBOLS, { error: `Choose an instrument: ${INSTRUMENT_SYMBOLS.join(", ")}.` });
const currency = z.enum(BALANCE_CURRENCIES, { error: `Choose a currency: ${BALANCE_CURRENCIES.join(" or ")}.` });

const money = z.object({ usd: z.string(), ghs: z.nullable(z.string()) });

/** The rate the cedi amounts were counted at, or null when the academy has none right now. */
const rate = z.nullable(z.object({ ghsPerUsd: z.number(), fetchedAt: z.string() }));

function answer<S extends z.ZodMiniType>(result: S) {
  return z.discriminatedUnion("ok", [
    z.object({ ok: z.literal(true), result, rate }),
    z.object({ ok: z.literal(false), errors: z.record(z.string(), z.string()) }),
  ]);
}

export const positionSizeQuerySchema = z.object({
  instrument,
  balance: typed,
  currency,
  riskPercent: typed,
  stopPips: typed,
  price: typed,
});

export const pipValueQuerySchema = z.object({ instrument, lots: typed, price: typed });
export const riskRewardQuerySchema = z.object({ instrument, entry: typed, stop: typed, target: typed });
export const marginQuerySchema = z.object({ instrument, lots: typed, leverage: typed, price: typed });

export const TOOLS_ENDPOINTS = {
  positionSize: endpoint({
    method: "GET",
    path: "/api/tools/position-size",
    query: positionSizeQuerySchema,
    response: answer(
      z.object({ riskAmount: money, pipValuePerLot: money, lots: z.string(), units: z.string(), riskAtSize: money, smallestLotRisk: money }),
    ),
  }),
  pipValue: endpoint({
    method: "GET",
    path: "/api/tools/pip-value",
    query: pipValueQuerySchema,
    response: answer(z.object({ perPip: money, perLot: money })),
  }),
  riskReward: endpoint({
    method: "GET",
    path: "/api/tools/risk-reward",
    query: riskRewardQuerySchema,
    response: answer(
      z.object({ direction: z.enum(["buy", "sell"]), riskPips: z.string(), rewardPips: z.string(), ratio: z.string(), breakEvenWinRate: z.string() }),
    ),
  }),
  margin: endpoint({
    method: "GET",
    path: "/api/tools/margin",
    query: marginQuerySchema,
    response: answer(z.object({ notional: money, margin: money })),
  }),
};
