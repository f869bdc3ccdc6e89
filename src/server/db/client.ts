// Opens the database: PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite.
import { PGlite, type PGliteOptions } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { migrate as migratePg } from "drizzle-orm/node-postgres/migrator";
import pg from "pg";
import type { Env } from "../env.ts";
import { migrationsFolder } from "../paths.ts";
import { lockDataDir } from "./pglite-lock.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type Database = {
  db: Db;
  kind: "postgres" | "pglite";
  migrate(): Promise<void>;
  close(): Promise<void>;
};

export async function openDatabase(config: Env["database"]): Promise<Database> {
  if (config.kind === "postgres") {
    // A connection that cannot be made within 5 s fails the request instead of hanging it.
    const pool = new pg.Pool({ connectionString: config.url, max: 10, connectionTimeoutMillis: 5_000 });
    // PostgreSQL closing an idle connection (a restart, a failover) must not end the process: the
    // pool drops that connection and opens a new one for the next query.
    pool.on("error", (error) => {
      process.stderr.write(`${JSON.stringify({ level: 40, msg: "idle database connection lost", err: error.message })}\n`);
    });
    const db = drizzlePg({ client: pool, schema });
    return {
      db,
      kind: "postgres",
      migrate: () => migratePg(db, { migrationsFolder }),
      close: () => pool.end(),
    };
  }

  const unlock = config.dataDir ? lockDataDir(config.dataDir) : () => {};
  try {
    const client = createPglite(config.dataDir ? { dataDir: config.dataDir } : {});
    await client.waitReady;
    return wrapPglite(client, unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

/** An embedded database with the extensions the migrations use (pg_trgm: the admin's email search). */
export function createPglite(options: Omit<PGliteOptions, "extensions">): PGlite {
  return new PGlite({ ...options, extensions: { pg_trgm } });
}

export function wrapPglite(client: PGlite, onClose: () => void): Database {
  const db = drizzlePglite({ client, schema });
  return {
    db,
    kind: "pglite",
    migrate: () => migratePglite(db, { migrationsFolder }),
    close: async () => {
      await client.close();
      onClose();
    },
  };
}
