// Opens the database: PostgreSQL when DATABASE_URL is set, otherwise embedded PGlite.
import { PGlite, types, type PGliteOptions, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { pg_trgm } from "@electric-sql/pglite/contrib/pg_trgm";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { drizzle as drizzlePg } from "drizzle-orm/node-postgres";
import { setTimeout as sleep } from "node:timers/promises";
import pg from "pg";
import type { Env } from "../env.ts";
import { migrationsFolder } from "../paths.ts";
import type { FastifyBaseLogger } from "fastify";
import { MIGRATION_LOCK } from "./advisory-locks.ts";
import { createAnnouncer } from "./announcer.ts";
import { listenToChannel, type ChannelHandlers, type ChannelListener } from "./listener.ts";
import { applyMigrations, readMigrations, type Migration, type MigrationConnection } from "./migrator.ts";
import { keepDataDirPrivate, lockDataDir } from "./pglite-lock.ts";
import * as schema from "./schema.ts";

export type Schema = typeof schema;
export type Db = PgDatabase<PgQueryResultHKT, Schema>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

export type Database = {
  db: Db;
  kind: "postgres" | "pglite";
  /** What was opened, for messages (the password never printed). */
  location: Env["database"];
  /**
   * The embedded database's data folder as a gzipped tar, taken between two queries (PGlite's
   * dumpDataDir): a backup (docs/operations.md, "Backups"). Null on PostgreSQL: pg_dump does that.
   */
  dumpDataDir: (() => Promise<Blob>) | null;
  migrate(): Promise<void>;
  close(): Promise<void>;
  /** The PostgreSQL pool's connections now, for /metrics; null on PGlite, which has no pool. */
  poolUse(): PoolUse | null;
  /**
   * Who is told of an idle PostgreSQL connection lost (the app's outage watch); until one is set, a
   * line on standard error. PGlite has no connections to lose.
   */
  onIdleConnectionLost(listener: (error: Error) => void): void;
  /**
   * Hears what is announced on `channel` (NOTIFY) for as long as the app runs: on PostgreSQL over a
   * connection of its own (listener.ts); on PGlite from the one client, which delivers a change's
   * notice before the statement or commit that made it has returned.
   */
  listen(channel: string, handlers: ChannelHandlers, log: FastifyBaseLogger): ChannelListener;
  /**
   * Tells whoever listens on `channel` of a change already committed: on PostgreSQL a notice sent
   * after it (announcer.ts); on PGlite, directly.
   */
  announce(channel: string, payload: string): Promise<void>;
};

export type PoolUse = { total: number; idle: number; waiting: number };

export async function openDatabase(config: Env["database"]): Promise<Database> {
  if (config.kind === "postgres") {
    // A connection that cannot be made within 5 s fails the request instead of hanging it. A
    // connection once opened is kept, not closed after 10 s idle: a new one costs its set-up and a
    // first preparation of each statement and database function it runs, which the request that
    // opened it waits for (docs/performance.md, "Connections kept open").
    const pool = new pg.Pool({ connectionString: config.url, max: 10, connectionTimeoutMillis: 5_000, idleTimeoutMillis: 0 });
    // PostgreSQL closing an idle connection (a restart, a failover) must not end the process: the
    // pool drops that connection and opens a new one for the next query.
    let idleConnectionLost = (error: Error) => {
      process.stderr.write(`${JSON.stringify({ level: 40, msg: "idle database connection lost", err: error.message })}\n`);
    };
    pool.on("error", (error) => idleConnectionLost(error));
    const db = drizzlePg({ client: pool, schema });
    return {
      db,
      kind: "postgres",
      location: config,
      dumpDataDir: null,
      migrate: () => migrateUnderLock(pool),
      close: () => pool.end(),
      poolUse: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      onIdleConnectionLost: (listener) => {
        idleConnectionLost = listener;
      },
      listen: (channel, handlers, log) => listenToChannel({ connectionString: config.url, channel, ...handlers, log }),
      announce: createAnnouncer(pool),
    };
  }

  const unlock = config.dataDir ? lockDataDir(config.dataDir) : () => {};
  try {
    const client = createPglite(config.dataDir ? { dataDir: config.dataDir } : {});
    await client.waitReady;
    if (config.dataDir) keepDataDirPrivate(config.dataDir);
    return wrapPglite(client, unlock, config);
  } catch (error) {
    unlock();
    throw error;
  }
}

/**
 * Instances started together on an empty database would each create the same types and tables
 * (and one would crash on a duplicate): the migrator runs under a session advisory lock on a
 * connection of its own, so one migrates and the others, waiting, then find nothing left to do
 * (docs/operations.md, "Several instances"). Each migration is a transaction of its own
 * (docs/operations.md, "Migrations").
 */
export async function migrateUnderLock(pool: pg.Pool, migrations: Migration[] = readMigrations(migrationsFolder)): Promise<void> {
  const client = await pool.connect();
  let failure: Error | undefined;
  try {
    await takeMigrationLock(client);
    try {
      await applyMigrations(postgresMigrationConnection(client), migrations);
    } finally {
      await client.query("select pg_advisory_unlock($1, $2)", [MIGRATION_LOCK.classId, MIGRATION_LOCK.id]);
    }
  } catch (error) {
    failure = error instanceof Error ? error : new Error(String(error));
    throw error;
  } finally {
    // After a failure the connection is closed rather than reused: that also ends the lock.
    client.release(failure);
  }
}

/** How often an instance waiting for another's migrations asks for the lock again. */
const MIGRATION_LOCK_POLL_MS = 250;

/**
 * Takes the migration lock, asking again every 250 ms rather than waiting in `pg_advisory_lock`:
 * a session blocked in a statement keeps its snapshot open, and a concurrent index build in the
 * migrating instance waits for every such snapshot to end, which would be a deadlock.
 */
async function takeMigrationLock(client: pg.PoolClient): Promise<void> {
  for (;;) {
    const { rows } = await client.query<{ locked: boolean }>("select pg_try_advisory_lock($1, $2) as locked", [
      MIGRATION_LOCK.classId,
      MIGRATION_LOCK.id,
    ]);
    if (rows[0]?.locked) return;
    await sleep(MIGRATION_LOCK_POLL_MS);
  }
}

function postgresMigrationConnection(client: pg.PoolClient): MigrationConnection {
  const connection: MigrationConnection = {
    exec: async (text) => {
      await client.query(text);
    },
    query: async <Row extends Record<string, unknown>>(text: string, params: unknown[]) => (await client.query<Row>(text, params)).rows,
    async transaction(work) {
      await client.query("begin");
      try {
        await work(connection);
        await client.query("commit");
      } catch (error) {
        await client.query("rollback");
        throw error;
      }
    },
  };
  return connection;
}

function pgliteMigrationConnection(client: PGlite | Transaction): MigrationConnection {
  return {
    exec: async (text) => {
      await client.exec(text);
    },
    query: async <Row extends Record<string, unknown>>(text: string, params: unknown[]) => (await client.query<Row>(text, params)).rows,
    async transaction(work) {
      if (!("transaction" in client)) throw new Error("PGlite does not nest transactions");
      await client.transaction((tx) => work(pgliteMigrationConnection(tx)));
    },
  };
}

/** The embedded database is single-process: no other migrator can run beside this one. */
export function migratePglite(client: PGlite, migrations: Migration[] = readMigrations(migrationsFolder)): Promise<void> {
  return applyMigrations(pgliteMigrationConnection(client), migrations);
}

/** An embedded database with the extensions the migrations use (pg_trgm: the admin's email search). */
export function createPglite(options: Omit<PGliteOptions, "extensions">): PGlite {
  return new PGlite({ ...options, extensions: { pg_trgm } });
}

/**
 * The types Drizzle reads as text and converts itself (dates, timestamps, intervals, numeric and
 * their arrays): it hands PGlite these parsers with every query.
 */
const DRIZZLE_TEXT_TYPES = new Set([
  types.TIMESTAMP,
  types.TIMESTAMPTZ,
  types.INTERVAL,
  types.DATE,
  1231, // numeric[]
  1115, // timestamp[]
  1185, // timestamptz[]
  1187, // interval[]
  1182, // date[]
]);

/**
 * PGlite merges a query's own parsers into its map of some 300 types on every query, which took
 * longer than a simple query itself (docs/performance.md, "Where the time goes"). The client keeps
 * Drizzle's text parsers once instead, and the queries Drizzle sends through this view go without
 * theirs; a query with any other parser keeps it.
 */
function withDrizzleParsers<T extends PGlite | Transaction>(client: T): T {
  return new Proxy(client, {
    get(target, key) {
      if (key === "query") {
        return (text: string, params?: unknown[], options?: QueryOptions) => {
          const parsers = options?.parsers;
          const onlyText = parsers && Object.keys(parsers).every((oid) => DRIZZLE_TEXT_TYPES.has(Number(oid)));
          return target.query(text, params, onlyText ? { ...options, parsers: undefined } : options);
        };
      }
      if (key === "transaction" && "transaction" in target) {
        return (run: (tx: Transaction) => Promise<unknown>) => target.transaction((tx) => run(withDrizzleParsers(tx)));
      }
      const value: unknown = Reflect.get(target, key, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

export function wrapPglite(
  client: PGlite,
  onClose: () => void,
  location: Env["database"] = { kind: "pglite", dataDir: null },
): Database {
  for (const oid of DRIZZLE_TEXT_TYPES) client.parsers[oid] = (value: string) => value;
  const db = drizzlePglite({ client: withDrizzleParsers(client), schema });
  // Whoever listens on this database is in this process (no other can open its data folder:
  // pglite-lock.ts), so an announcement is handed to them directly, without a statement.
  const listening = new Map<string, Set<(payload: string) => void>>();
  return {
    db,
    kind: "pglite",
    location,
    dumpDataDir: () => client.dumpDataDir("gzip"),
    migrate: () => migratePglite(client),
    close: async () => {
      await client.close();
      onClose();
    },
    poolUse: () => null,
    onIdleConnectionLost: () => {},
    listen: (channel, handlers) => listenOnPglite(client, channel, handlers, listening),
    announce: async (channel, payload) => {
      for (const heard of listening.get(channel) ?? []) heard(payload);
    },
  };
}

function listenOnPglite(
  client: PGlite,
  channel: string,
  handlers: ChannelHandlers,
  listening: Map<string, Set<(payload: string) => void>>,
): ChannelListener {
  const heard = (payload: string) => handlers.onNotification(payload);
  const stop = client.listen(channel, heard).then((unlisten) => {
    let onChannel = listening.get(channel);
    if (!onChannel) listening.set(channel, (onChannel = new Set()));
    onChannel.add(heard);
    handlers.onListening();
    return unlisten;
  });
  return {
    async close() {
      listening.get(channel)?.delete(heard);
      if (client.closed) return;
      await (await stop)();
    },
  };
}

/** The database did not answer within the start-up allowance; the message names where and why. */
export class DatabaseUnreachableError extends Error {}

const START_WAIT_MS = 30_000;

/** The driver's own words (Drizzle wraps them in "Failed query: ..."). */
function innermostMessage(error: unknown): string {
  let current = error;
  while (current instanceof Error && current.cause instanceof Error) current = current.cause;
  if (!(current instanceof Error)) return String(error);
  // Connecting to "localhost" fails as an AggregateError with no message of its own, only a code.
  const code = "code" in current && typeof current.code === "string" ? current.code : null;
  return current.message || code || current.name;
}

/** Where the database is, for messages: host and port, never the password. */
function describeLocation(config: Env["database"]): string {
  if (config.kind === "pglite") return `the embedded database${config.dataDir ? ` in ${config.dataDir}` : ""}`;
  const url = new URL(config.url);
  return `PostgreSQL at ${url.host}${url.pathname}`;
}

/**
 * At start, PostgreSQL may still be booting (a fresh compose stack, a failover): ask until it
 * answers, with back-off, one log line per failure, for up to 30 s (docs/operations.md).
 */
export async function waitForDatabase(
  database: Database,
  log: { warn(message: string): void },
  options: { timeoutMs?: number } = {},
): Promise<void> {
  const deadline = Date.now() + (options.timeoutMs ?? START_WAIT_MS);
  for (let delayMs = 500; ; delayMs = Math.min(delayMs * 2, 5_000)) {
    try {
      await database.db.execute(sql`select 1`);
      return;
    } catch (error) {
      const reason = innermostMessage(error);
      const left = deadline - Date.now();
      if (left <= 0) {
        throw new DatabaseUnreachableError(
          `${describeLocation(database.location)} is not reachable (${reason}); gave up after ${Math.round((options.timeoutMs ?? START_WAIT_MS) / 1000)} s.`,
        );
      }
      const wait = Math.min(delayMs, left);
      log.warn(`${describeLocation(database.location)} is not reachable (${reason}); retrying in ${(wait / 1000).toFixed(1)} s`);
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }
}
