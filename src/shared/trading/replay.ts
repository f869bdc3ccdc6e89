// Scoring a replay trade (docs/trading.md, "Scoring a replay"): the learner chose a direction, a
// stop, a target and a risk at the decision bar; the bars after it decide what happened. The
// browser never computes this, and never has those bars before the trade is sent.
import Big from "big.js";
import { CALCULATOR_MESSAGES, money, parseDecimal, type FieldErrors, type Money } from "./calculators.ts";

export type Direction = "buy" | "sell";

/** What the learner sends: everything else is the server's. */
export type ReplayOrder = { direction: Direction; stop: string; target: string; riskPercent: string };

export type ReplayMarket = {
  /** The decision bar's close: the order fills there. */
  entry: string;
  pipSize: string;
  /** A pip's value on one lot, in dollars, at the entry (calculators.ts `pipValuePerLotUsd`). */
  pipValuePerLotUsd: Big;
  /** The practice balance, in dollars. */
  balanceUsd: Big;
  /** For cedi amounts; null shows dollars only. */
  ghsPerUsd: Big | null;
  /** The bars after the decision bar, oldest first. */
  later: readonly { time: Date; high: string; low: string; close: string }[];
};

export type ReplayOutcome = "target" | "stop" | "open";

export type ReplayResult = {
  outcome: ReplayOutcome;
  /** The stop and the target were both inside one bar: which came first is unknown, so the stop counts. */
  bothInOneBar: boolean;
  exitPrice: string;
  exitTime: Date;
  /** Bars from the decision to the exit, the exit's bar included. */
  barsHeld: number;
  entry: string;
  stopPips: string;
  /** The result in pips: negative for a loss. */
  pips: string;
  /** The result in units of risk: -1.00 at the stop. */
  r: string;
  /** Lots, rounded down to 0.01 so the stop loses at most the risk asked; 0.00 when even 0.01 lot is too much. */
  lots: string;
  riskAmount: Money;
  /** What that size made or lost. */
  profit: Money;
};

export const REPLAY_MESSAGES = {
  stopSide: (direction: Direction) => (direction === "buy" ? "A buy's stop-loss must be below the entry." : "A sell's stop-loss must be above the entry."),
  targetSide: (direction: Direction) => (direction === "buy" ? "A buy's take-profit must be above the entry." : "A sell's take-profit must be below the entry."),
  risk: CALCULATOR_MESSAGES.risk,
  price: CALCULATOR_MESSAGES.price,
  noBarsLeft: "The chart has no bars left after this one: a trade needs bars to play out.",
} as const;

export function scoreReplay(order: ReplayOrder, market: ReplayMarket): { ok: true; result: ReplayResult } | { ok: false; errors: FieldErrors } {
  const errors: FieldErrors = {};
  const entry = new Big(market.entry);
  const stop = parseDecimal(order.stop);
  const target = parseDecimal(order.target);
  const risk = parseDecimal(order.riskPercent);
  const sign = order.direction === "buy" ? 1 : -1;
  // A level on the right side is strictly beyond the entry: zero distance is the wrong side.
  const beyond = (level: Big, towards: 1 | -1) => level.minus(entry).times(towards).gt(0);
  if (!stop || stop.lte(0)) errors.stop = REPLAY_MESSAGES.price;
  else if (!beyond(stop, sign === 1 ? -1 : 1)) errors.stop = REPLAY_MESSAGES.stopSide(order.direction);
  if (!target || target.lte(0)) errors.target = REPLAY_MESSAGES.price;
  else if (!beyond(target, sign)) errors.target = REPLAY_MESSAGES.targetSide(order.direction);
  if (!risk || risk.lte(0) || risk.gt(100)) errors.riskPercent = REPLAY_MESSAGES.risk;
  if (market.later.length === 0) errors.order = REPLAY_MESSAGES.noBarsLeft;
  if (!stop || !target || !risk || Object.keys(errors).length > 0) return { ok: false, errors };

  let outcome: ReplayOutcome = "open";
  let bothInOneBar = false;
  let exitIndex = market.later.length - 1;
  for (const [index, bar] of market.later.entries()) {
    const [high, low] = [new Big(bar.high), new Big(bar.low)];
    const stopHit = sign === 1 ? low.lte(stop) : high.gte(stop);
    const targetHit = sign === 1 ? high.gte(target) : low.lte(target);
    if (!stopHit && !targetHit) continue;
    outcome = stopHit ? "stop" : "target";
    bothInOneBar = stopHit && targetHit;
    exitIndex = index;
    break;
  }
  const exitBar = market.later[exitIndex];
  if (!exitBar) throw new Error("no exit bar");
  // The stop and the target fill at their own price; a trade still open closes at the last close.
  const exit = outcome === "stop" ? stop : outcome === "target" ? target : new Big(exitBar.close);

  const stopDistance = entry.minus(stop).abs();
  const moved = exit.minus(entry).times(sign);
  const stopPips = stopDistance.div(market.pipSize);
  const riskUsd = market.balanceUsd.times(risk).div(100);
  const lots = riskUsd.div(stopPips.times(market.pipValuePerLotUsd)).round(2, Big.roundDown);
  const profitUsd = lots.times(moved.div(market.pipSize)).times(market.pipValuePerLotUsd);
  return {
    ok: true,
    result: {
      outcome,
      bothInOneBar,
      exitPrice: exit.toString(),
      exitTime: exitBar.time,
      barsHeld: exitIndex + 1,
      entry: entry.toString(),
      stopPips: stopPips.toFixed(1, Big.roundHalfUp),
      pips: moved.div(market.pipSize).toFixed(1, Big.roundHalfUp),
      r: moved.div(stopDistance).toFixed(2, Big.roundHalfUp),
      lots: lots.toFixed(2),
      riskAmount: money(riskUsd, market.ghsPerUsd),
      profit: money(profitUsd, market.ghsPerUsd),
    },
  };
}

