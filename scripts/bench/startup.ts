// Start-up: from spawning `node dist/node/dev/main.js` to the first healthy
// GET /api/health, on a database that is already migrated and seeded.
import { startApp, type Database } from "./processes.ts";

export type StartupResult = { runsMs: number[]; medianMs: number; minMs: number; maxMs: number };

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? (sorted[middle] ?? Number.NaN) : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** Starts and stops the app `runs` times in a row on `database`. */
export async function measureStartup(database: Database, runs: number): Promise<StartupResult> {
  const runsMs: number[] = [];
  for (let run = 0; run < runs; run++) {
    const app = await startApp(database);
    runsMs.push(app.readyMs);
    await app.stop();
  }
  return { runsMs, medianMs: median(runsMs), minMs: Math.min(...runsMs), maxMs: Math.max(...runsMs) };
}
