// The seeded programs' lessons, as a test names them: by track and place in the program.
import { asc, eq } from "drizzle-orm";
import { TRACKS, type Track } from "../../shared/plans.ts";
import { modules } from "../db/schema.ts";
import type { TestApp } from "./test-app.ts";

/** Reads the module ids of every track, in order; the answer names one by track and 0-based index. */
export async function seededModuleIds(t: TestApp): Promise<(track: Track, index: number) => string> {
  const ids = {} as Record<Track, string[]>;
  for (const track of TRACKS) {
    const rows = await t.database.db
      .select({ id: modules.id })
      .from(modules)
      .where(eq(modules.programId, track))
      .orderBy(asc(modules.position));
    ids[track] = rows.map((row) => row.id);
  }
  return (track, index) => {
    const id = ids[track][index];
    if (!id) throw new Error(`${track} has no module ${index}`);
    return id;
  };
}

/**
 * Answers that pass the demo's seeded exercises (seed-content.ts), worked from the illustrative
 * set: a mark inside the support zone, and a buy at bar 380's close (1.09416) with its stop under
 * every later low (the lowest is 1.08849) and its target reached at bar 516.
 */
export const PASSING_SEEDED_ANSWERS = {
  level: { kind: "level", price: "1.0800" },
  replay: { kind: "replay", direction: "buy", stop: "1.0880", target: "1.0990", riskPercent: "1" },
} as const;

/** Does a seeded lesson as a learner would: marks it watched, or passes it when it is an exercise. */
export async function completeLesson(t: TestApp, cookie: string, track: string, module: { id: string; exercise?: "replay" | "level" }) {
  const base = `/api/programs/${track}/modules/${module.id}`;
  if (!module.exercise) return t.app.inject({ method: "POST", url: `${base}/watched`, headers: { cookie }, payload: {} });
  const exercise = await t.app.inject({ method: "GET", url: `${base}/exercise`, headers: { cookie } });
  const attempt = exercise.json<{ attempt: number }>().attempt;
  return t.app.inject({ method: "POST", url: `${base}/exercise/submissions`, headers: { cookie }, payload: { ...PASSING_SEEDED_ANSWERS[module.exercise], attempt } });
}
