// Seeds the demo catalogue once. A marker in `config` records that it ran, so a restart never
// brings back a program, module or quiz an administrator changed or deleted.
import type { Db } from "./client.ts";
import { ILLUSTRATIVE_SET, illustrativeBars } from "../../shared/trading/illustrative-bars.ts";
import { config, modules, priceBars, priceDataSets, programs, quizzes } from "./schema.ts";
import { SEED_PROGRAMS } from "./seed-content.ts";

const SEED_MARKER = "seed";
const SEED_VERSION = 1;

export type SeedResult = { seeded: boolean };

export async function seedDatabase(db: Db): Promise<SeedResult> {
  return db.transaction(async (tx) => {
    // Take the marker row first: two processes seeding at once insert it once.
    const marker = await tx
      .insert(config)
      .values({ key: SEED_MARKER, value: { version: SEED_VERSION } })
      .onConflictDoNothing()
      .returning({ key: config.key });
    if (marker.length === 0) return { seeded: false };

    await tx
      .insert(config)
      .values({ key: "subscription", value: { locked: false } })
      .onConflictDoNothing();

    // The price data the demo's exercises replay: made up, and marked so (docs/trading.md, "Price data").
    const bars = illustrativeBars();
    const [first, last] = [bars[0], bars.at(-1)];
    if (!first || !last) throw new Error("the illustrative set has no bars");
    const [set] = await tx
      .insert(priceDataSets)
      .values({ ...ILLUSTRATIVE_SET, source: "generated", illustrative: true, barCount: bars.length, firstBarAt: first.time, lastBarAt: last.time })
      .returning({ id: priceDataSets.id });
    if (!set) throw new Error("the illustrative set was not written");
    await tx.insert(priceBars).values(bars.map((bar, position) => ({ dataSetId: set.id, position, ...bar })));

    for (const program of SEED_PROGRAMS) {
      const inserted = await tx
        .insert(programs)
        .values({
          id: program.id,
          level: program.id,
          title: program.title,
          duration: program.duration,
          priceUsdCents: program.priceUsdCents,
          description: program.description,
          order: program.order,
        })
        .onConflictDoNothing()
        .returning({ id: programs.id });
      if (inserted.length === 0) continue; // an administrator made this program already

      await tx.insert(modules).values(
        program.modules.map((module, position) => ({ ...module, exerciseDataSetId: module.exercise ? set.id : null, programId: program.id, position })),
      );
      await tx.insert(quizzes).values({ programId: program.id, ...program.quiz });
    }

    return { seeded: true };
  });
}
