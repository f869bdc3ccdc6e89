// Admin at scale, on PostgreSQL: scripts/seed-scale.ts adds the users (and about three payments
// each), scripts/time-admin-users.ts times the users pages, the dashboard and the CSV export over
// HTTP. Both run as child processes, as an operator runs them; their tables are read back from what
// they print.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { envWithoutAppSettings } from "../../src/server/testing/child-process-env.ts";
import { projectRoot } from "./processes.ts";
import { decimal, integer, table, verdict, type Section } from "./report.ts";

export type ScriptRun = { code: number | null; output: string; seconds: number };

/** Runs `node [nodeArgs] --import tsx scripts/<script> [args]` with DATABASE_URL, echoing its lines. */
export function runScript(
  script: string,
  args: string[],
  databaseUrl: string,
  log: (line: string) => void,
  nodeArgs: string[] = [],
): Promise<ScriptRun> {
  const started = performance.now();
  const child = spawn(process.execPath, [...nodeArgs, "--import", "tsx", join(projectRoot, "scripts", script), ...args], {
    cwd: projectRoot,
    env: envWithoutAppSettings({ DATABASE_URL: databaseUrl }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  let partial = "";
  const collect = (chunk: Buffer) => {
    const text = chunk.toString("utf8");
    output += text;
    const lines = (partial + text).split("\n");
    partial = lines.pop() ?? "";
    for (const line of lines) log(`  ${script}: ${line}`);
  };
  child.stdout.on("data", collect);
  child.stderr.on("data", collect);
  return new Promise((resolve, reject) => {
    child.once("error", reject);
    child.once("close", (code) => {
      if (partial) log(`  ${script}: ${partial}`);
      resolve({ code, output, seconds: (performance.now() - started) / 1000 });
    });
  });
}

export type UsersPageCase = { label: string; matches: number; medianMs: number; p95Ms: number; maxMs: number };
export type CsvExport = { users: number; megabytes: number; seconds: number; rssBeforeMb: number; rssPeakMb: number; rssRiseMb: number };
export type AdminTimings = {
  userCount: number | null;
  cases: UsersPageCase[];
  /** The dashboard's cases; `matches` is how many registered in the funnel's period. */
  dashboard: UsersPageCase[];
  csv: CsvExport | null;
  raw: string;
};

/** docs/performance.md, "Admin at scale": every dashboard answer, at 100,000 users and 300,000 payments. */
export const DASHBOARD_BUDGET_MS = 200;

/** Reads the tables and the CSV line that scripts/time-admin-users.ts prints. */
export function parseAdminTimings(output: string): AdminTimings {
  const cases: UsersPageCase[] = [];
  const dashboard: UsersPageCase[] = [];
  let rows = cases;
  for (const line of output.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    // | label | matches | median | p95 | max |  -> ["", label, matches, median, p95, max, ""]
    if (cells.length !== 7 || !line.trim().startsWith("|")) continue;
    const [, label = "", matches, medianMs, p95Ms, maxMs] = cells;
    // Each table's header names what it times; its rows follow it.
    if (label.startsWith("dashboard")) rows = dashboard;
    else if (label.startsWith("users page")) rows = cases;
    const numbers = [matches, medianMs, p95Ms, maxMs].map(Number);
    if (numbers.some((n) => Number.isNaN(n))) continue;
    rows.push({
      label,
      matches: numbers[0] ?? 0,
      medianMs: numbers[1] ?? 0,
      p95Ms: numbers[2] ?? 0,
      maxMs: numbers[3] ?? 0,
    });
  }
  const csvMatch =
    /(\d+) users, ([\d.]+) MB in ([\d.]+) s; process memory (\d+) MB before, (\d+) MB at the peak \(\+(-?\d+) MB\)/.exec(output);
  const csv = csvMatch
    ? {
        users: Number(csvMatch[1]),
        megabytes: Number(csvMatch[2]),
        seconds: Number(csvMatch[3]),
        rssBeforeMb: Number(csvMatch[4]),
        rssPeakMb: Number(csvMatch[5]),
        rssRiseMb: Number(csvMatch[6]),
      }
    : null;
  const countMatch = /Users in the database: (\d+)/.exec(output);
  return { userCount: countMatch ? Number(countMatch[1]) : null, cases, dashboard, csv, raw: output };
}

/**
 * The dashboard's part of the report: its table and its budget line (every answer under 200 ms at
 * the p95), from the timings of the admin section's run; a section of its own in the report.
 */
export function dashboardSection(timings: AdminTimings | null, error: string | null, userCount: number): Section {
  const title = `Admin dashboard (PostgreSQL, ${integer(userCount)} users)`;
  const budget = `every dashboard answer < ${DASHBOARD_BUDGET_MS} ms on PostgreSQL (p95)`;
  if (!timings || timings.dashboard.length === 0) {
    return { title, markdown: `Not measured: ${error ?? "no dashboard table in the script's output"}`, budgets: [{ budget, measured: "not measured", met: null }] };
  }
  const slowest = [...timings.dashboard].sort((a, b) => b.p95Ms - a.p95Ms)[0];
  const markdown = [
    "Timed with `scripts/time-admin-users.ts` on the database `scripts/seed-scale.ts` filled (about three payments per user); " +
      "each case 30 runs after 3 warm-up runs, over HTTP with an administrator's session. Every section of the dashboard " +
      "is in each answer; the cases differ in the funnel's period.",
    table(
      ["dashboard (GET /api/admin/dashboard)", ">registered in the period", ">median ms", ">p95 ms", ">max ms", `budget < ${DASHBOARD_BUDGET_MS} ms (p95)`],
      timings.dashboard.map((c) => [c.label, integer(c.matches), decimal(c.medianMs), decimal(c.p95Ms), decimal(c.maxMs), verdict(c.p95Ms < DASHBOARD_BUDGET_MS)]),
    ),
  ].join("\n\n");
  const met = slowest !== undefined && slowest.p95Ms < DASHBOARD_BUDGET_MS;
  return {
    title,
    markdown,
    budgets: [{ budget, measured: slowest ? `slowest p95 ${decimal(slowest.p95Ms)} ms (${slowest.label})` : "n/a", met }],
  };
}
