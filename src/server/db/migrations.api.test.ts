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
/**
 * The migrations applied before the learners arrive. Those up to 0015 were written before each
 * migration had a transaction of its own and are applied on every database in service; they
 * rewrite or backfill `users` under its exclusive lock (docs/operations.md, "Migrations").
 */
const BEFORE_LEARNERS = "0015_dashboard_figures_kept";
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

    const reader = await anotherConnection();
    const waits: number[] = [];
    let migrating = true;
    const reads = (async () => {
      while (migrating) {
        const id = `learner-${1 + Math.floor(Math.random() * LEARNERS)}`;
        const started = performance.now();
        const { rows } = await reader.query("select id, email, subscription_status from users where id = $1", [id]);
        waits.push(performance.now() - started);
        expect(rows).toHaveLength(1);
      }
    })();
    try {
      await migrateUnderLock(pool);
    } finally {
      migrating = false;
      await reads;
    }

    expect(await appliedTags()).toEqual(ALL.map((migration) => migration.tag));
    expect(waits.length).toBeGreaterThan(50);
    const longest = Math.max(...waits);
    console.info(`${waits.length} reads during the migrations; the longest waited ${Math.round(longest)} ms`);
    expect(longest).toBeLessThan(1_000);
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
