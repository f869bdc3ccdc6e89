import { asc, count, eq } from "drizzle-orm";
import type { ProgramSummary } from "../../../shared/contracts/catalog.ts";
import type { Db } from "../../db/client.ts";
import { modules, programs } from "../../db/schema.ts";

/** Programs sorted by display order, with what anyone may see: no video ids, no quiz. */
export async function listPrograms(db: Db): Promise<ProgramSummary[]> {
  const rows = await db
    .select({
      id: programs.id,
      title: programs.title,
      duration: programs.duration,
      priceUsdCents: programs.priceUsdCents,
      description: programs.description,
      order: programs.order,
      moduleCount: count(modules.id),
    })
    .from(programs)
    .leftJoin(modules, eq(modules.programId, programs.id))
    .groupBy(programs.id)
    .orderBy(asc(programs.order), asc(programs.title));

  return rows.map(({ priceUsdCents, ...program }) => ({
    ...program,
    priceUsd: priceUsdCents === null ? null : priceUsdCents / 100,
  }));
}

/**
 * The program list every visitor reads, kept in memory. An admin change on this server clears it
 * at once; another server (several on one PostgreSQL) sees the change within `ttlMs`.
 */
export function createProgramsCache(db: Db, ttlMs = 10_000) {
  let generation = 0;
  let cached: { generation: number; expires: number; programs: Promise<ProgramSummary[]> } | null = null;
  return {
    list(now = Date.now()): Promise<ProgramSummary[]> {
      if (cached && cached.generation === generation && cached.expires > now) return cached.programs;
      const entry = { generation, expires: now + ttlMs, programs: listPrograms(db) };
      cached = entry;
      // A failed read is not kept: the next request asks the database again.
      entry.programs.catch(() => {
        if (cached === entry) cached = null;
      });
      return entry.programs;
    },
    /** A program, module or price changed: the next read goes to the database. */
    invalidate() {
      generation++;
      cached = null;
    },
  };
}
export type ProgramsCache = ReturnType<typeof createProgramsCache>;
