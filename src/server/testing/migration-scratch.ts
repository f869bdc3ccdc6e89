// An empty PostgreSQL database for each test of the migrations themselves, with the helpers they
// share: the migrations up to a tag, a second connection, and what the database says it applied.
import pg from "pg";
import { afterEach, beforeEach } from "vitest";
import { readMigrations, type Migration } from "../db/migrator.ts";
import { migrationsFolder } from "../paths.ts";
import { createPostgresDatabase } from "./test-database.ts";

export const ALL_MIGRATIONS = readMigrations(migrationsFolder);

export function migrationsUpTo(tag: string): Migration[] {
  const index = ALL_MIGRATIONS.findIndex((migration) => migration.tag === tag);
  if (index < 0) throw new Error(`no migration ${tag}`);
  return ALL_MIGRATIONS.slice(0, index + 1);
}

/** Registers an empty database around each test of the file; call it inside the `describe`. */
export function useMigrationScratch() {
  let scratch: { url: string; drop(): Promise<void> };
  let pool: pg.Pool;
  const others: pg.Client[] = [];

  beforeEach(async () => {
    const adminUrl = process.env.TEST_DATABASE_URL;
    if (!adminUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
    scratch = await createPostgresDatabase(adminUrl);
    pool = new pg.Pool({ connectionString: scratch.url });
  });
  afterEach(async () => {
    for (const client of others.splice(0)) await client.end();
    await pool.end();
    await scratch.drop();
  });

  return {
    pool: () => pool,
    async anotherConnection(): Promise<pg.Client> {
      const client = new pg.Client({ connectionString: scratch.url });
      await client.connect();
      others.push(client);
      return client;
    },
    async appliedTags(): Promise<string[]> {
      const { rows } = await pool.query<{ created_at: string }>(`select created_at from drizzle.__drizzle_migrations order by created_at`);
      return rows.map((row) => ALL_MIGRATIONS.find((migration) => migration.createdAt === Number(row.created_at))?.tag ?? row.created_at);
    },
  };
}
