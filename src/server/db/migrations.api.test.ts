// An upgrade on a busy database (docs/operations.md, "Migrations"): each migration in its own
// transaction that gives up waiting for a lock, and a migration that cannot get its lock stops the
// instance with one line, the ones before it kept. The upgrade of 100,000 learners while they read
// is migrations-at-scale.scale.test.ts, a step of its own (docs/testing.md).
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { describe, expect, it } from "vitest";
import { ALL_MIGRATIONS, migrationsUpTo, useMigrationScratch } from "../testing/migration-scratch.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { migrateUnderLock } from "./client.ts";
import { LOCK_WAIT, MigrationLockError, NO_TRANSACTION_MARKER, readMigrations } from "./migrator.ts";

describe.skipIf(testDatabaseKind() !== "postgres")("migrations on PostgreSQL", () => {
  const scratch = useMigrationScratch();
  const pool = () => scratch.pool();
  const { anotherConnection, appliedTags } = scratch;

  it("takes a database in service whose email_search was a generated column on, values kept and kept up", async () => {
    await migrateUnderLock(pool(), migrationsUpTo("0004_admin_console"));
    // 0005 as it was before it was rewritten, recorded as applied.
    const [admin] = ALL_MIGRATIONS.filter((migration) => migration.tag === "0005_admin_search");
    await pool().query(`alter table users add column email_search text generated always as (lower(email)) stored`);
    await pool().query(`insert into drizzle.__drizzle_migrations (hash, created_at) values ('as-it-was', $1)`, [admin?.createdAt]);
    await pool().query(`insert into users (id, email, name) values ('ama', 'Ama.Mensah@Example.test', 'Ama')`);

    await migrateUnderLock(pool());

    const search = async () => (await pool().query(`select email_search from users where id = 'ama'`)).rows;
    expect(await search()).toEqual([{ email_search: "ama.mensah@example.test" }]);
    await pool().query(`update users set email = 'Ama.Owusu@Example.test' where id = 'ama'`);
    expect(await search()).toEqual([{ email_search: "ama.owusu@example.test" }]);
    const { rows: generated } = await pool().query(
      `select is_generated from information_schema.columns where table_name = 'users' and column_name = 'email_search'`,
    );
    expect(generated).toEqual([{ is_generated: "NEVER" }]);
  });

  it("stops at a migration whose lock another session holds, with one line naming both, the ones before it kept", { timeout: 30_000 }, async () => {
    await migrateUnderLock(pool(), migrationsUpTo("0013_owed_certificates"));
    const holder = await anotherConnection();
    await holder.query("begin");
    await holder.query("lock table users in access exclusive mode");

    const started = Date.now();
    const failure = await migrateUnderLock(pool()).catch((error: unknown) => error);
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
    expect(await appliedTags()).toEqual(migrationsUpTo("0014_quiz_answers_in_batches").map((migration) => migration.tag));
    // The old schema serves on: the migration's columns are not there.
    const { rows } = await pool().query(`select column_name from information_schema.columns where table_name = 'users' and column_name = 'funnel_paid'`);
    expect(rows).toEqual([]);

    await migrateUnderLock(pool());
    expect(await appliedTags()).toEqual(ALL_MIGRATIONS.map((migration) => migration.tag));
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

      await migrateUnderLock(pool(), readMigrations(folder));

      const { rows: indexes } = await pool().query(`select indexname from pg_indexes where tablename = 'notes' and indexname = 'notes_body_idx'`);
      expect(indexes).toHaveLength(1);
      const { rows: journal } = await pool().query<{ hash: string; created_at: string }>(
        `select hash, created_at from drizzle.__drizzle_migrations order by id`,
      );
      const drizzles = readMigrationFiles({ migrationsFolder: folder });
      expect(journal).toEqual(drizzles.map((migration) => ({ hash: migration.hash, created_at: String(migration.folderMillis) })));
    } finally {
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
