// Admin at scale, on PostgreSQL: scripts/seed-scale.ts adds the users, scripts/time-admin-users.ts
// times the users pages and the CSV export over HTTP. Both run as child processes, as an operator
// runs them; their tables are read back from what they print.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { performance } from "node:perf_hooks";
import { envWithoutAppSettings } from "../../src/server/testing/child-process-env.ts";
import { projectRoot } from "./processes.ts";

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
export type AdminTimings = { userCount: number | null; cases: UsersPageCase[]; csv: CsvExport | null; raw: string };

/** Reads the table and the CSV line that scripts/time-admin-users.ts prints. */
export function parseAdminTimings(output: string): AdminTimings {
  const cases: UsersPageCase[] = [];
  for (const line of output.split("\n")) {
    const cells = line.split("|").map((cell) => cell.trim());
    // | label | matches | median | p95 | max |  -> ["", label, matches, median, p95, max, ""]
    if (cells.length !== 7 || !line.trim().startsWith("|")) continue;
    const [, label = "", matches, medianMs, p95Ms, maxMs] = cells;
    const numbers = [matches, medianMs, p95Ms, maxMs].map(Number);
    if (numbers.some((n) => Number.isNaN(n))) continue;
    cases.push({
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
  return { userCount: countMatch ? Number(countMatch[1]) : null, cases, csv, raw: output };
}
