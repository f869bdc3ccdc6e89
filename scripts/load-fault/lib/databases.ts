// Scratch databases for the runs: PostgreSQL databases created and dropped on the local server,
// and read access to a run's database (PostgreSQL live, PGlite only once the app has stopped:
// PGlite is single-process).
import { execFileSync } from "node:child_process";
import pg from "pg";
import { createPglite } from "../../../src/server/db/client.ts";

/** The PostgreSQL server the runs use (its `postgres` database is used to create and drop). */
export const PG_SERVER_URL = (process.env.LOAD_FAULT_PG_URL ?? "postgres://root@127.0.0.1:5432").replace(/\/+$/, "");

export function databaseUrl(name: string): string {
  return `${PG_SERVER_URL}/${name}`;
}

async function withPgClient<T>(url: string, task: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 5_000 });
  await client.connect();
  try {
    return await task(client);
  } finally {
    await client.end();
  }
}

const SAFE_NAME = /^ta_load[a-z0-9_]*$/;

/** Drops `name` if it exists (a previous run's leftover), then creates it empty. */
export async function createScratchDatabase(name: string): Promise<string> {
  if (!SAFE_NAME.test(name)) throw new Error(`refusing to touch database "${name}": scratch names start with ta_load`);
  await withPgClient(databaseUrl("postgres"), async (client) => {
    await client.query(`drop database if exists ${name} with (force)`);
    await client.query(`create database ${name}`);
  });
  return databaseUrl(name);
}

export async function dropScratchDatabase(name: string): Promise<void> {
  if (!SAFE_NAME.test(name)) throw new Error(`refusing to touch database "${name}": scratch names start with ta_load`);
  await withPgClient(databaseUrl("postgres"), (client) => client.query(`drop database if exists ${name} with (force)`));
}

export type Row = Record<string, unknown>;
export type Query = (text: string, params?: unknown[]) => Promise<Row[]>;

/** Where a run's data lives: a PostgreSQL database, or a PGlite folder. */
export type DatabaseTarget = { kind: "postgres"; url: string } | { kind: "pglite"; dataDir: string };

/** Opens the run's database for reading; for PGlite the app must not be running. */
export async function withDatabase<T>(target: DatabaseTarget, task: (query: Query) => Promise<T>): Promise<T> {
  if (target.kind === "postgres") {
    return withPgClient(target.url, (client) =>
      task(async (text, params) => (await client.query<Row>(text, params)).rows),
    );
  }
  const db = createPglite({ dataDir: target.dataDir });
  await db.waitReady;
  try {
    return await task(async (text, params) => (await db.query<Row>(text, params)).rows);
  } finally {
    await db.close();
  }
}

/** The commands that stop and start the cluster serving PG_SERVER_URL (from pg_lsclusters). */
export function clusterCommands(): { stop: string[]; start: string[]; describe: string } {
  const stop = process.env.LOAD_FAULT_PG_STOP;
  const start = process.env.LOAD_FAULT_PG_START;
  if (stop && start) return { stop: ["sh", "-c", stop], start: ["sh", "-c", start], describe: `${stop} / ${start}` };
  const port = new URL(PG_SERVER_URL).port || "5432";
  const listing = execFileSync("pg_lsclusters", ["--no-header"], { encoding: "utf8" });
  for (const line of listing.split("\n")) {
    const [version, cluster, clusterPort] = line.trim().split(/\s+/);
    if (version && cluster && clusterPort === port) {
      return {
        stop: ["pg_ctlcluster", version, cluster, "stop", "-m", "fast"],
        start: ["pg_ctlcluster", version, cluster, "start"],
        describe: `pg_ctlcluster ${version} ${cluster} stop -m fast / start`,
      };
    }
  }
  throw new Error(`no PostgreSQL cluster on port ${port} in pg_lsclusters`);
}

/** Sessions of other people on the PostgreSQL server: client backends on databases other than `ours`. */
export async function otherSessions(ours: string): Promise<{ database: string | null; count: number }[]> {
  return withPgClient(databaseUrl("postgres"), async (client) => {
    const { rows } = await client.query<{ database: string | null; count: number }>(
      `select datname as database, count(*)::int as count from pg_stat_activity
        where backend_type = 'client backend' and pid <> pg_backend_pid() and datname is distinct from $1
        group by datname order by datname`,
      [ours],
    );
    return rows;
  });
}
