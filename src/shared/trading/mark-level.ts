// Scoring a marked level (docs/trading.md, "Exercises"): the learner taps a price; the answer is a
// level or a zone (a level is a zone whose edges meet). The distance is how far the price is from
// the zone, 0 inside it, in pips rounded half up to a tenth; it passes within the tolerance.
import Big from "big.js";
import { parseDecimal, type FieldErrors } from "./calculators.ts";

export type LevelAnswer = { low: string; high: string; tolerancePips: string; pipSize: string };
export type LevelResult = { distancePips: string; passed: boolean };

export const LEVEL_MESSAGES = { price: "Tap the chart or enter a price above 0." } as const;

export function scoreLevel(priceText: string, answer: LevelAnswer): { ok: true; result: LevelResult } | { ok: false; errors: FieldErrors } {
  const price = parseDecimal(priceText);
  if (!price || price.lte(0)) return { ok: false, errors: { price: LEVEL_MESSAGES.price } };
  const [low, high] = [new Big(answer.low), new Big(answer.high)];
  const off = price.lt(low) ? low.minus(price) : price.gt(high) ? price.minus(high) : new Big(0);
  const distance = off.div(answer.pipSize).round(1, Big.roundHalfUp);
  return { ok: true, result: { distancePips: distance.toFixed(1), passed: distance.lte(answer.tolerancePips) } };
}
