// How a chart exercise writes its prices, times and results (docs/trading.md, "Exercises"). The
// server computes every figure; these only write what it sent, and read what the learner typed
// to draw it on the chart.
import type { ChartBar } from "../../../shared/contracts/exercises.ts";

/**
 * The digits a price is written with: one more than the pip's (a pipette), so 0.0001 gives 5, 0.01
 * gives 3 and 0.1 (gold) gives 2.
 */
export function pricePrecision(pipSize: string): number {
  const decimals = (pipSize.trim().split(".")[1] ?? "").replace(/0+$/, "");
  return decimals.length + 1;
}

/** A price as typed ("1.0850", "1,085.5"), to draw on the chart; null when it is not one. */
export function typedPrice(text: string): number | null {
  const price = Number(text.trim().replaceAll(",", ""));
  return text.trim() !== "" && Number.isFinite(price) && price > 0 ? price : null;
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
const twoDigits = (n: number) => String(n).padStart(2, "0");

/** A bar's time, as the data says it (UTC): "8 Jan 2024 13:00 UTC". */
export function barTime(unixSeconds: number): string {
  const date = new Date(unixSeconds * 1000);
  return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()} ${twoDigits(date.getUTCHours())}:${twoDigits(date.getUTCMinutes())} UTC`;
}

/** A time the server wrote (ISO 8601), as a bar's time; as written when it is not one. */
export function writtenTime(text: string): string {
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? text : barTime(ms / 1000);
}

/** What the chart is, for a screen reader: "EURUSD H1 candlestick chart, 121 bars to 8 Jan 2024 13:00 UTC; last close 1.08512". */
export function chartSummary(instrument: string, timeframe: string, bars: readonly ChartBar[], precision: number): string {
  const last = bars.at(-1);
  const chart = `${instrument} ${timeframe} candlestick chart`;
  if (!last) return `${chart}, no bars`;
  return `${chart}, ${bars.length} ${bars.length === 1 ? "bar" : "bars"} to ${barTime(last.t)}; last close ${last.c.toFixed(precision)}`;
}

/** A result with its sign, a minus sign for a loss: "+1.50 R", "−12.0 pips". */
export function signed(value: string, unit: string): string {
  const text = value.startsWith("-") ? `−${value.slice(1)}` : Number(value) === 0 ? value : `+${value}`;
  return `${text} ${unit}`;
}
