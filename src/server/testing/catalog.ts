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
