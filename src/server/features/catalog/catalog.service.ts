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
