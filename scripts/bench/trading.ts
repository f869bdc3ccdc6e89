// The trading section of `npm run bench` (docs/performance.md, "Budgets"): reading and checking
// a price file of 20,000 bars, the most an upload may hold, as the server does it
// (src/server/features/exercises/bars-csv.ts), in this process after a warm-up.
import { performance } from "node:perf_hooks";
import { MAX_BARS, parseBars } from "../../src/server/features/exercises/bars-csv.ts";
import { budgetRow, decimal, table, type BudgetLine, type Section } from "./report.ts";

const PARSE_BUDGET_MS = 1_000;

/** MetaTrader 5's export of `count` one-minute EURUSD bars, as the terminal writes it. */
export function metaTraderFile(count: number): string {
  const lines = ["<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>\t<VOL>\t<SPREAD>"];
  const start = Date.UTC(2024, 0, 2);
  let close = 108_500;
  for (let bar = 0; bar < count; bar++) {
    const open = close;
    close = open + ((bar * 7919) % 41) - 20;
    const high = Math.max(open, close) + (bar % 9);
    const low = Math.min(open, close) - (bar % 7);
    const at = new Date(start + bar * 60_000).toISOString();
    const price = (points: number) => `${Math.floor(points / 100_000)}.${String(points % 100_000).padStart(5, "0")}`;
    lines.push(`${at.slice(0, 10).replaceAll("-", ".")}\t${at.slice(11, 19)}\t${price(open)}\t${price(high)}\t${price(low)}\t${price(close)}\t${100 + (bar % 50)}\t0\t${bar % 3}`);
  }
  return lines.join("\r\n");
}

export type ParseTiming = { bytes: number; runsMs: number[]; medianMs: number; maxMs: number };

export function measureBarsParse(runs: number): ParseTiming {
  const file = metaTraderFile(MAX_BARS);
  const parsed = parseBars(file);
  if (!parsed.ok || parsed.bars.length !== MAX_BARS) throw new Error(`the benchmark's file was refused: ${parsed.ok ? "short" : parsed.message}`);
  const runsMs = Array.from({ length: runs }, () => {
    const started = performance.now();
    parseBars(file);
    return performance.now() - started;
  });
  const sorted = [...runsMs].sort((a, b) => a - b);
  return { bytes: Buffer.byteLength(file), runsMs, medianMs: sorted[Math.floor(sorted.length / 2)] ?? 0, maxMs: sorted.at(-1) ?? 0 };
}

export function tradingSection(timing: ParseTiming): Section {
  const budgets: BudgetLine[] = [
    { budget: `Reading and checking a ${MAX_BARS.toLocaleString("en-US")}-bar file: under ${PARSE_BUDGET_MS} ms`, measured: `${decimal(timing.maxMs, 0)} ms (slowest of ${timing.runsMs.length})`, met: timing.maxMs < PARSE_BUDGET_MS },
  ];
  return {
    title: "Trading",
    markdown: [
      `MetaTrader 5's export of ${MAX_BARS.toLocaleString("en-US")} one-minute bars (${decimal(timing.bytes / 1_000_000, 2)} MB), read and checked by the upload's own function, in one process after a warm-up.`,
      "",
      table(["run", ">ms"], timing.runsMs.map((ms, index) => [index + 1, decimal(ms, 0)])),
      "",
      table(["budget", "measured", "met"], budgets.map(budgetRow)),
    ].join("\n"),
    budgets,
  };
}

// Alone: node --import tsx scripts/bench/trading.ts
if (import.meta.url === `file://${process.argv[1]}`) {
  const timing = measureBarsParse(5);
  console.log(tradingSection(timing).markdown);
}
