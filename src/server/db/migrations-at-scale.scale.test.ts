// An upgrade at scale (docs/operations.md, "Migrations"): every migration applied to 100,000
// learners while another connection reads them, none of the reads waiting 1 s or more. Its own
// step in CI, beside the others (docs/testing.md): it takes some 40 s of PostgreSQL's time.
import { describe, expect, it } from "vitest";
import { ALL_MIGRATIONS, migrationsUpTo, useMigrationScratch } from "../testing/migration-scratch.ts";
import { migrateUnderLock } from "./client.ts";

const LEARNERS = 100_000;
/** The learners arrive on the first schema; every later migration is applied while they read. */
const BEFORE_LEARNERS = "0000_init";

describe("migrations at scale on PostgreSQL", () => {
  const scratch = useMigrationScratch();
  const pool = () => scratch.pool();
  const { anotherConnection, appliedTags } = scratch;

  it("applies every later migration to 100,000 learners while their reads go on, none waiting over 1 s", { timeout: 120_000 }, async () => {
    await migrateUnderLock(pool(), migrationsUpTo(BEFORE_LEARNERS));
    await pool().query(
      `insert into users (id, email, name, created_at)
       select 'learner-' || n, 'learner-' || n || '@example.test', 'Learner ' || n, now() - n * interval '1 minute'
       from generate_series(1, ${LEARNERS}) as n`,
    );
    // One of them started Beginner: 0008 dates the start, 0026 sets the funnel's flag.
    await pool().query(`insert into programs (id, title, duration) values ('beginner', 'Beginner', '4 weeks')`);
    await pool().query(`insert into user_progress (user_id, program_id, data) values ('learner-7', 'beginner', '{"lesson-1": true}')`);

    const reader = await anotherConnection();
    // Each read is put down to the migration running when it started, to name the one at fault.
    const slowest = new Map<string, number>();
    let running: string | null = ALL_MIGRATIONS[migrationsUpTo(BEFORE_LEARNERS).length]?.tag ?? null;
    const reads = (async () => {
      while (running !== null) {
        const during = running;
        const id = `learner-${1 + Math.floor(Math.random() * LEARNERS)}`;
        const started = performance.now();
        const { rows } = await reader.query("select id, email, created_at from users where id = $1", [id]);
        slowest.set(during, Math.max(slowest.get(during) ?? 0, performance.now() - started));
        expect(rows).toHaveLength(1);
      }
    })();
    try {
      for (const migration of ALL_MIGRATIONS.slice(migrationsUpTo(BEFORE_LEARNERS).length)) {
        running = migration.tag;
        await migrateUnderLock(pool(), migrationsUpTo(migration.tag));
      }
    } finally {
      running = null;
      await reads;
    }

    expect(await appliedTags()).toEqual(ALL_MIGRATIONS.map((migration) => migration.tag));
    const { rows: filled } = await pool().query<{ unsearchable: number; started: string[] }>(
      `select count(*) filter (where email_search is distinct from lower(email))::int as unsearchable,
              coalesce(array_agg(id) filter (where funnel_started_beginner), '{}') as started
       from users`,
    );
    expect(filled).toEqual([{ unsearchable: 0, started: ["learner-7"] }]);
    const waits = [...slowest].map(([tag, ms]) => `${tag} ${Math.round(ms)} ms`);
    console.info(`the longest read during each migration: ${waits.join(", ")}`);
    expect(slowest.size).toBeGreaterThan(10);
    expect([...slowest].filter(([, ms]) => ms >= 1_000).map(([tag]) => tag)).toEqual([]);
  });
});
