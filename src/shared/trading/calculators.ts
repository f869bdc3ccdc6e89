// The trading calculators' arithmetic (docs/trading.md, "Calculators"). Every figure is computed
// in decimal (big.js), never in binary floating point, and rounded once, at the end, by a named
// rule:
// - a position size is rounded DOWN to the smallest lot, 0.01, so the trade never risks more than
//   asked;
// - money is rounded half up to the cent;
// - pips are rounded half up to a tenth of a pip;
// - a ratio is rounded half up to two decimals, a percentage to one.
import Big from "big.js";
import { instrumentOf, type BalanceCurrency, type Instrument, type InstrumentSymbol } from "./instruments.ts";

export const SMALLEST_LOT = "0.01";

/** Dollars and, where the academy has a rate, cedis: both as decimal strings rounded to the cent. */
export type Money = { usd: string; ghs: string | null };

/** What one field was refused for, by field name. */
export type FieldErrors = Record<string, string>;
export type Calculated<T> = { ok: true; result: T } | { ok: false; errors: FieldErrors };

const CENTS = 2;
const TENTH_OF_A_PIP = 1;

export const CALCULATOR_MESSAGES = {
  notANumber: "Enter a number, such as 1000 or 1.2550.",
  balance: "Enter a balance above 0.",
  risk: "Enter a risk above 0% and at most 100%.",
  stopPips: "Enter a stop of more than 0 pips.",
  lots: "Enter a size above 0 lots.",
  leverage: "Enter a leverage of 1 or more: 100 means 1:100.",
  price: "Enter a price above 0.",
  stopAtEntry: "The stop must be away from the entry.",
  targetAtEntry: "The target must be away from the entry.",
  targetSide: "The target must be on the other side of the entry from the stop.",
  rateUnavailable: "Cedi amounts need the exchange rate, which is not available right now. Use a balance in USD.",
} as const;

/** A decimal typed by a person ("1,000", " 1.25 "), or null when it is not one. */
export function parseDecimal(text: string): Big | null {
  const cleaned = text.trim().replace(/,/g, "");
  if (!/^-?(\d+(\.\d*)?|\.\d+)$/.test(cleaned)) return null;
  return new Big(cleaned);
}

/**
 * Reads each field as a positive decimal (and, where `max` is given, at most that), collecting one
 * message per bad field instead of stopping at the first.
 */
function positives<K extends string>(fields: { [Name in K]?: { text: string; message: string; max?: Big } }): { values: Record<K, Big>; errors: FieldErrors } {
  const values = {} as Record<K, Big>;
  const errors: FieldErrors = {};
  for (const [name, field] of Object.entries(fields) as [K, { text: string; message: string; max?: Big } | undefined][]) {
    if (!field) continue;
    const value = parseDecimal(field.text);
    if (value === null) errors[name] = field.text.trim() === "" ? field.message : CALCULATOR_MESSAGES.notANumber;
    else if (value.lte(0) || (field.max && value.gt(field.max))) errors[name] = field.message;
    else values[name] = value;
  }
  return { values, errors };
}

export function money(usd: Big, ghsPerUsd: Big | null): Money {
  return { usd: usd.toFixed(CENTS, Big.roundHalfUp), ghs: ghsPerUsd ? usd.times(ghsPerUsd).toFixed(CENTS, Big.roundHalfUp) : null };
}

/** The dollar value of one pip on one standard lot; a dollar-based pair needs its price. */
export function pipValuePerLotUsd(instrument: Instrument, price: Big | undefined): Big {
  const inQuote = new Big(instrument.pipSize).times(instrument.contractSize);
  if (!instrument.usdBase) return inQuote;
  if (!price) throw new Error(`${instrument.symbol} needs its price`);
  return inQuote.div(price);
}

/** The price field, when the instrument needs it (`needed`): read back with `priceIn`. */
function priceField(needed: boolean, text: string | undefined) {
  return needed ? { price: { text: text ?? "", message: CALCULATOR_MESSAGES.price } } : {};
}

function priceIn(values: object): Big | undefined {
  return (values as { price?: Big }).price;
}

export type PositionSizeInput = {
  instrument: InstrumentSymbol;
  balance: string;
  currency: BalanceCurrency;
  riskPercent: string;
  stopPips: string;
  price?: string;
};

export type PositionSize = {
  /** What the learner is willing to lose: the balance times the risk. */
  riskAmount: Money;
  pipValuePerLot: Money;
  /** Lots, rounded down to 0.01; "0.00" when even the smallest lot risks too much. */
  lots: string;
  units: string;
  /** What the rounded size loses at the stop: at most `riskAmount`. */
  riskAtSize: Money;
  /** What the smallest lot would lose at this stop, for a size that rounds to nothing. */
  smallestLotRisk: Money;
};

export function positionSize(input: PositionSizeInput, ghsPerUsd: Big | null): Calculated<PositionSize> {
  const instrument = instrumentOf(input.instrument);
  const { values, errors } = positives({
    balance: { text: input.balance, message: CALCULATOR_MESSAGES.balance },
    riskPercent: { text: input.riskPercent, message: CALCULATOR_MESSAGES.risk, max: new Big(100) },
    stopPips: { text: input.stopPips, message: CALCULATOR_MESSAGES.stopPips },
    ...priceField(instrument.usdBase, input.price),
  });
  if (input.currency === "GHS" && !ghsPerUsd) errors.balance = CALCULATOR_MESSAGES.rateUnavailable;
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const balanceUsd = input.currency === "USD" ? values.balance : values.balance.div(ghsPerUsd ?? 1);
  const riskUsd = balanceUsd.times(values.riskPercent).div(100);
  const pipValue = pipValuePerLotUsd(instrument, priceIn(values));
  const lossPerLot = pipValue.times(values.stopPips);
  const lots = riskUsd.div(lossPerLot).round(CENTS, Big.roundDown);
  return {
    ok: true,
    result: {
      riskAmount: money(riskUsd, ghsPerUsd),
      pipValuePerLot: money(pipValue, ghsPerUsd),
      lots: lots.toFixed(CENTS),
      units: lots.times(instrument.contractSize).toFixed(0),
      riskAtSize: money(lossPerLot.times(lots), ghsPerUsd),
      smallestLotRisk: money(lossPerLot.times(SMALLEST_LOT), ghsPerUsd),
    },
  };
}

export type PipValueInput = { instrument: InstrumentSymbol; lots: string; price?: string };
export type PipValue = { perPip: Money; perLot: Money };

export function pipValue(input: PipValueInput, ghsPerUsd: Big | null): Calculated<PipValue> {
  const instrument = instrumentOf(input.instrument);
  const { values, errors } = positives({
    lots: { text: input.lots, message: CALCULATOR_MESSAGES.lots },
    ...priceField(instrument.usdBase, input.price),
  });
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const perLot = pipValuePerLotUsd(instrument, priceIn(values));
  return { ok: true, result: { perPip: money(perLot.times(values.lots), ghsPerUsd), perLot: money(perLot, ghsPerUsd) } };
}

export type RiskRewardInput = { instrument: InstrumentSymbol; entry: string; stop: string; target: string };
export type RiskReward = {
  direction: "buy" | "sell";
  riskPips: string;
  rewardPips: string;
  /** Reward over risk: 2.00 means the target pays twice what the stop costs. */
  ratio: string;
  /** The share of trades that must win for this ratio to break even, in percent. */
  breakEvenWinRate: string;
};

export function riskReward(input: RiskRewardInput): Calculated<RiskReward> {
  const instrument = instrumentOf(input.instrument);
  const { values, errors } = positives({
    entry: { text: input.entry, message: CALCULATOR_MESSAGES.price },
    stop: { text: input.stop, message: CALCULATOR_MESSAGES.price },
    target: { text: input.target, message: CALCULATOR_MESSAGES.price },
  });
  if (values.entry && values.stop && values.stop.eq(values.entry)) errors.stop = CALCULATOR_MESSAGES.stopAtEntry;
  if (values.entry && values.target && values.target.eq(values.entry)) errors.target = CALCULATOR_MESSAGES.targetAtEntry;
  if (Object.keys(errors).length > 0) return { ok: false, errors };

  const direction = values.stop.lt(values.entry) ? "buy" : "sell";
  const risk = values.entry.minus(values.stop).abs();
  const reward = values.target.minus(values.entry).abs();
  const targetBeyondEntry = direction === "buy" ? values.target.gt(values.entry) : values.target.lt(values.entry);
  if (!targetBeyondEntry) return { ok: false, errors: { target: CALCULATOR_MESSAGES.targetSide } };
  const ratio = reward.div(risk);
  return {
    ok: true,
    result: {
      direction,
      riskPips: risk.div(instrument.pipSize).toFixed(TENTH_OF_A_PIP, Big.roundHalfUp),
      rewardPips: reward.div(instrument.pipSize).toFixed(TENTH_OF_A_PIP, Big.roundHalfUp),
      ratio: ratio.toFixed(2, Big.roundHalfUp),
      breakEvenWinRate: new Big(100).div(ratio.plus(1)).toFixed(1, Big.roundHalfUp),
    },
  };
}

export type MarginInput = { instrument: InstrumentSymbol; lots: string; leverage: string; price?: string };
export type Margin = { notional: Money; margin: Money };

export function margin(input: MarginInput, ghsPerUsd: Big | null): Calculated<Margin> {
  const instrument = instrumentOf(input.instrument);
  const { values, errors } = positives({
    lots: { text: input.lots, message: CALCULATOR_MESSAGES.lots },
    leverage: { text: input.leverage, message: CALCULATOR_MESSAGES.leverage },
    // The notional of a pair quoted in dollars is its price times the units; of a dollar-based
    // pair, the units themselves.
    ...priceField(!instrument.usdBase, input.price),
  });
  if (values.leverage && values.leverage.lt(1)) errors.leverage = CALCULATOR_MESSAGES.leverage;
  if (Object.keys(errors).length > 0) return { ok: false, errors };
  const units = values.lots.times(instrument.contractSize);
  const price = priceIn(values);
  const notional = price ? units.times(price) : units;
  return { ok: true, result: { notional: money(notional, ghsPerUsd), margin: money(notional.div(values.leverage), ghsPerUsd) } };
}
