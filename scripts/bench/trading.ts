// The trading section of `npm run bench` (docs/performance.md, "Budgets"): reading and checking
// a price file of 20,000 bars, the most an upload may hold, as the server does it
// (src/server/features/exercises/bars-csv.ts), in this process after a warm-up.
import { performance } from "node:perf_hooks";
import { MAX_BARS, parseBars } from "../../src/server/features/exercises/bars-csv.ts";
import { measureReplayScoring, percentile, type ReplayTiming } from "./replay.ts";
import { budgetRow, decimal, table, type BudgetLine, type Section } from "./report.ts";

const PARSE_BUDGET_MS = 1_000;
const SCORING_P99_BUDGET_MS = 50;

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

/** The section: the file's parse, and the replays scored under a burst on PostgreSQL (or why not). */
export function tradingSection(timing: ParseTiming, replay: ReplayTiming | string): Section {
  const budgets: BudgetLine[] = [
    { budget: `Reading and checking a ${MAX_BARS.toLocaleString("en-US")}-bar file: under ${PARSE_BUDGET_MS} ms`, measured: `${decimal(timing.maxMs, 0)} ms (slowest of ${timing.runsMs.length})`, met: timing.maxMs < PARSE_BUDGET_MS },
  ];
  const scoring: string[] = [];
  if (typeof replay === "string") {
    scoring.push(`Scoring replays under a burst: not measured (${replay}).`);
  } else {
    const { score, hello, learners, rounds } = replay;
    const [p99, helloP99] = [percentile(score.samplesMs, 0.99), percentile(hello.samplesMs, 0.99)];
    budgets.push({
      budget: `Scoring a replay, ${learners} learners at once on PostgreSQL: p99 under ${SCORING_P99_BUDGET_MS} ms`,
      measured: `${decimal(p99, 1)} ms (the hello-world's ${decimal(helloP99, 1)} ms)`,
      met: p99 < SCORING_P99_BUDGET_MS,
    });
    const row = (label: string, burst: ReplayTiming["score"]) => [
      label,
      decimal(percentile(burst.samplesMs, 0.5), 1),
      decimal(percentile(burst.samplesMs, 0.99), 1),
      decimal(Math.max(...burst.samplesMs), 1),
      decimal(burst.cpuMsPerRequest, 3),
    ];
    scoring.push(
      `${rounds} times, ${learners} learners open the demo's replay exercise and then all send their trade at the same moment, each over a connection already open, to the built app on PostgreSQL (${(rounds * learners).toLocaleString("en-US")} trades scored, after a round not counted); beside it, ${learners} requests at once to a bare Fastify hello-world, the same way.`,
      "",
      table(["", "p50 ms", "p99 ms", "max ms", "server CPU ms/request"], [row("scoring a replay", score), row("hello-world", hello)]),
    );
  }
  return {
    title: "Trading",
    markdown: [
      `MetaTrader 5's export of ${MAX_BARS.toLocaleString("en-US")} one-minute bars (${decimal(timing.bytes / 1_000_000, 2)} MB), read and checked by the upload's own function, in one process after a warm-up.`,
      "",
      table(["run", ">ms"], timing.runsMs.map((ms, index) => [index + 1, decimal(ms, 0)])),
      "",
      ...scoring,
      "",
      table(["budget", "measured", "met"], budgets.map(budgetRow)),
    ].join("\n"),
    budgets,
  };
}

// Alone (after npm run build): node --import tsx scripts/bench/trading.ts [postgres-url]
if (import.meta.url === `file://${process.argv[1]}`) {
  const timing = measureBarsParse(5);
  const adminUrl = process.argv[2] ?? process.env.BENCH_POSTGRES_URL ?? "postgres://root@127.0.0.1:5432/test";
  const replay = await measureReplayScoring(adminUrl).catch((error: unknown) => (error instanceof Error ? error.message : String(error)));
  console.log(tradingSection(timing, replay).markdown);
}
