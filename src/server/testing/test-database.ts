// A fresh, migrated database for one test file: in-memory PGlite, or (TEST_DB=postgres) a new
// PostgreSQL database created from TEST_DATABASE_URL and dropped afterwards.
import { randomBytes } from "node:crypto";
import { readFile } from "node:fs/promises";
import pg from "pg";
import { inject } from "vitest";
import { createPglite, openDatabase, wrapPglite, type Database } from "../db/client.ts";

export type TestDatabaseKind = "pglite" | "postgres";

export function testDatabaseKind(): TestDatabaseKind {
  return process.env.TEST_DB === "postgres" ? "postgres" : "pglite";
}

/** Runs `fn` with a client connected as the test server's administrator (to create, alter and drop databases), closed after. */
export async function withAdminClient<T>(adminUrl: string, fn: (client: pg.Client) => Promise<T>) {
  const client = new pg.Client({ connectionString: adminUrl });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

export async function createTestDatabase(): Promise<Database> {
  if (testDatabaseKind() === "pglite") {
    // A copy of the database the global setup migrated once.
    const template = await readFile(inject("pgliteTemplatePath"));
    const client = createPglite({ loadDataDir: new Blob([template]) });
    await client.waitReady;
    return wrapPglite(client, () => {});
  }

  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) throw new Error("TEST_DB=postgres needs TEST_DATABASE_URL");
  // A copy of the database the global setup migrated once (postgres-template.setup.ts).
  const scratch = await createPostgresDatabase(adminUrl, inject("postgresTemplateName"));
  const database = await openDatabase({ kind: "postgres", url: scratch.url });
  return {
    ...database,
    async close() {
      await database.close();
      await scratch.drop();
    },
  };
}

/**
 * The PostgreSQL server of the tests that need one whatever the API projects run on (several
 * instances on one database): TEST_DATABASE_URL, or null when it is unset. CI sets it; there, a
 * missing one is an error, never a silent skip.
 */
export function postgresForProcessTests(): string | null {
  const url = process.env.TEST_DATABASE_URL ?? null;
  if (!url && process.env.CI === "true") throw new Error("CI must set TEST_DATABASE_URL: the process tests need PostgreSQL");
  return url;
}

/**
 * A new database on `adminUrl`'s server, empty or a copy of `template`; `drop` removes it once its
 * connections have closed.
 */
export async function createPostgresDatabase(
  adminUrl: string,
  template?: string,
): Promise<{ name: string; url: string; drop(): Promise<void> }> {
  const name = `ta_test_${randomBytes(6).toString("hex")}`;
  await withAdminClient(adminUrl, (client) => client.query(template ? `create database ${name} template ${template}` : `create database ${name}`));
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    name,
    url: url.toString(),
    drop: () =>
      withAdminClient(adminUrl, async (client) => {
        // pool.end() resolves before its connections have closed. Dropping "with (force)" while
        // one is still open terminates it, and the pool reports that as an unhandled error.
        for (let attempt = 0; attempt < 100; attempt++) {
          const { rows } = await client.query<{ open: number }>(
            "select count(*)::int as open from pg_stat_activity where datname = $1",
            [name],
          );
          if (rows[0]?.open === 0) break;
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await client.query(`drop database if exists ${name} with (force)`);
      }),
  };
}
