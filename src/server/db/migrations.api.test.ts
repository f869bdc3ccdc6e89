// An upgrade on a busy database (docs/operations.md, "Migrations"): each migration in its own
// transaction that gives up waiting for a lock, so the other instances' reads never wait long, and
// a migration that cannot get its lock stops the instance with one line, the ones before it kept.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import pg from "pg";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { migrationsFolder } from "../paths.ts";
import { createEmptyPostgresDatabase, testDatabaseKind } from "../testing/test-database.ts";
import { migrateUnderLock } from "./client.ts";
import { LOCK_WAIT, MigrationLockError, NO_TRANSACTION_MARKER, readMigrations, type Migration } from "./migrator.ts";

const LEARNERS = 100_000;
/** The learners arrive on the first schema; every later migration is applied while they read. */
const BEFORE_LEARNERS = "0000_init";
const ALL = readMigrations(migrationsFolder);

function upTo(tag: string): Migration[] {
  const index = ALL.findIndex((migration) => migration.tag === tag);
  if (index < 0) throw new Error(`no migration ${tag}`);
  return ALL.slice(0, index + 1);
}

describe.skipIf(testDatabaseKind() !== "postgres")("migrations on PostgreSQL", () => {
  let scratch: { url: string; drop(): Promise<void> };
  let pool: pg.Pool;
  const others: pg.Client[] = [];

  beforeEach(async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
    scratch = await createEmptyPostgresDatabase(adminUrl);
    pool = new pg.Pool({ connectionString: scratch.url });
  });
  afterEach(async () => {
    for (const client of others.splice(0)) await client.end();
    await pool.end();
    await scratch.drop();
  });

  async function anotherConnection(): Promise<pg.Client> {
    const client = new pg.Client({ connectionString: scratch.url });
    await client.connect();
    others.push(client);
    return client;
  }

  async function appliedTags(): Promise<string[]> {
    const { rows } = await pool.query<{ created_at: string }>(`select created_at from drizzle.__drizzle_migrations order by created_at`);
    return rows.map((row) => ALL.find((migration) => migration.createdAt === Number(row.created_at))?.tag ?? row.created_at);
  }

  it("applies every later migration to 100,000 learners while their reads go on, none waiting over 1 s", { timeout: 120_000 }, async () => {
    await migrateUnderLock(pool, upTo(BEFORE_LEARNERS));
    await pool.query(
      `insert into users (id, email, name, created_at)
       select 'learner-' || n, 'learner-' || n || '@example.test', 'Learner ' || n, now() - n * interval '1 minute'
       from generate_series(1, ${LEARNERS}) as n`,
    );
    // One of them started Beginner: 0008 dates the start, 0026 sets the funnel's flag.
    await pool.query(`insert into programs (id, title, duration) values ('beginner', 'Beginner', '4 weeks')`);
    await pool.query(`insert into user_progress (user_id, program_id, data) values ('learner-7', 'beginner', '{"lesson-1": true}')`);

    const reader = await anotherConnection();
    // Each read is put down to the migration running when it started, to name the one at fault.
    const slowest = new Map<string, number>();
    let running: string | null = ALL[upTo(BEFORE_LEARNERS).length]?.tag ?? null;
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
      for (const migration of ALL.slice(upTo(BEFORE_LEARNERS).length)) {
        running = migration.tag;
        await migrateUnderLock(pool, upTo(migration.tag));
      }
    } finally {
      running = null;
      await reads;
    }

    expect(await appliedTags()).toEqual(ALL.map((migration) => migration.tag));
    const { rows: filled } = await pool.query<{ unsearchable: number; started: string[] }>(
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

  it("takes a database in service whose email_search was a generated column on, values kept and kept up", async () => {
    await migrateUnderLock(pool, upTo("0004_admin_console"));
    // 0005 as it was before it was rewritten, recorded as applied.
    const [admin] = ALL.filter((migration) => migration.tag === "0005_admin_search");
    await pool.query(`alter table users add column email_search text generated always as (lower(email)) stored`);
    await pool.query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('as-it-was', $1)`, [admin?.createdAt]);
    await pool.query(`insert into users (id, email, name) values ('ama', 'Ama.Mensah@Example.test', 'Ama')`);

    await migrateUnderLock(pool);

    const search = async () => (await pool.query(`select email_search from users where id = 'ama'`)).rows;
    expect(await search()).toEqual([{ email_search: "ama.mensah@example.test" }]);
    await pool.query(`update users set email = 'Ama.Owusu@Example.test' where id = 'ama'`);
    expect(await search()).toEqual([{ email_search: "ama.owusu@example.test" }]);
    const { rows: generated } = await pool.query(
      `select is_generated from information_schema.columns where table_name = 'users' and column_name = 'email_search'`,
    );
    expect(generated).toEqual([{ is_generated: "NEVER" }]);
  });

  it("stops at a migration whose lock another session holds, with one line naming both, the ones before it kept", { timeout: 30_000 }, async () => {
    await migrateUnderLock(pool, upTo("0013_owed_certificates"));
    const holder = await anotherConnection();
    await holder.query("begin");
    await holder.query("lock table users in access exclusive mode");

    const started = Date.now();
    const failure = await migrateUnderLock(pool).catch((error: unknown) => error);
    const tookMs = Date.now() - started;
    await holder.query("rollback");

    expect(failure).toBeInstanceOf(MigrationLockError);
    const message = failure instanceof Error ? failure.message : "";
    expect(message).not.toContain("\n");
    expect(message).toMatch(/^Migration 0015_dashboard_figures_kept stopped: it waited over 2 s for a lock on "users"/);
    expect(message).toContain("3 times");
    expect(message).toContain("nothing of it was applied");
    // Three waits of 2 s and the pauses between them.
    expect(tookMs).toBeGreaterThanOrEqual(LOCK_WAIT.attempts * LOCK_WAIT.lockTimeoutMs);
    expect(await appliedTags()).toEqual(upTo("0014_quiz_answers_in_batches").map((migration) => migration.tag));
    // The old schema serves on: the migration's columns are not there.
    const { rows } = await pool.query(`select column_name from information_schema.columns where table_name = 'users' and column_name = 'funnel_paid'`);
    expect(rows).toEqual([]);

    await migrateUnderLock(pool);
    expect(await appliedTags()).toEqual(ALL.map((migration) => migration.tag));
  });

  it("records what it applied as Drizzle's migrator does, and runs a no-transaction migration statement by statement", async () => {
    const folder = mkdtempSync(join(tmpdir(), "migrations-"));
    try {
      mkdirSync(join(folder, "meta"));
      writeFileSync(join(folder, "0000_table.sql"), `CREATE TABLE "notes" ("id" integer PRIMARY KEY, "body" text NOT NULL);`);
      writeFileSync(
        join(folder, "0001_index.sql"),
        `${NO_TRANSACTION_MARKER}\n-- Built without blocking writes.\nDROP INDEX CONCURRENTLY IF EXISTS "notes_body_idx";--> statement-breakpoint\nCREATE INDEX CONCURRENTLY "notes_body_idx" ON "notes" ("body");`,
      );
      const entries = [
        { idx: 0, version: "7", when: 1_800_000_000_000, tag: "0000_table", breakpoints: true },
        { idx: 1, version: "7", when: 1_800_000_000_001, tag: "0001_index", breakpoints: true },
      ];
      writeFileSync(join(folder, "meta", "_journal.json"), JSON.stringify({ version: "7", dialect: "postgresql", entries }));

      await migrateUnderLock(pool, readMigrations(folder));

      const { rows: indexes } = await pool.query(`select indexname from pg_indexes where tablename = 'notes' and indexname = 'notes_body_idx'`);
      expect(indexes).toHaveLength(1);
      const { rows: journal } = await pool.query<{ hash: string; created_at: string }>(
        `select hash, created_at from drizzle.__drizzle_migrations order by id`,
      );
      const drizzles = readMigrationFiles({ migrationsFolder: folder });
      expect(journal).toEqual(drizzles.map((migration) => ({ hash: migration.hash, created_at: String(migration.folderMillis) })));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
