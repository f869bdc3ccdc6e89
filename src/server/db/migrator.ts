// Applies the migrations in drizzle/, each in a transaction of its own that gives up waiting for a
// lock after a while, so that an upgrade never keeps the other instances' reads waiting for long
// (docs/operations.md, "Migrations"). It records what it applied in Drizzle's own journal table,
// as Drizzle's migrator did before it, so databases migrated by either go on alike.
import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";

export type Migration = {
  /** The file's name without ".sql", as drizzle/meta/_journal.json names it. */
  tag: string;
  /** The journal's `when`: stored as `created_at`, and compared with it to know what is pending. */
  createdAt: number;
  /** sha256 of the whole file, as Drizzle stores it. */
  hash: string;
  statements: string[];
  /** False for a file whose first line is NO_TRANSACTION_MARKER. */
  inTransaction: boolean;
};

/** The first line of a migration whose statements cannot run in a transaction (CREATE INDEX CONCURRENTLY). */
export const NO_TRANSACTION_MARKER = "-- no-transaction";

const STATEMENT_BREAKPOINT = "--> statement-breakpoint";

/** Reads the migrations the journal lists, in its order. */
export function readMigrations(folder: string): Migration[] {
  const journal = JSON.parse(readFileSync(join(folder, "meta", "_journal.json"), "utf8")) as {
    entries: { tag: string; when: number }[];
  };
  return journal.entries.map((entry) => {
    const text = readFileSync(join(folder, `${entry.tag}.sql`), "utf8");
    return {
      tag: entry.tag,
      createdAt: entry.when,
      hash: createHash("sha256").update(text).digest("hex"),
      statements: text.split(STATEMENT_BREAKPOINT).filter((statement) => statement.trim() !== ""),
      inTransaction: text.split("\n", 1)[0]?.trim() !== NO_TRANSACTION_MARKER,
    };
  });
}

/** What the migrator needs of a connection: PostgreSQL's or PGlite's. */
export type MigrationConnection = {
  /** Runs SQL text (several statements allowed) without parameters. */
  exec(text: string): Promise<void>;
  query<Row extends Record<string, unknown>>(text: string, params: unknown[]): Promise<Row[]>;
  /** Runs `work` in one transaction on this connection, committed when it resolves. */
  transaction(work: (connection: MigrationConnection) => Promise<void>): Promise<void>;
};

export type LockWaitPolicy = {
  /** How long one statement may wait for a lock before the migration is rolled back. */
  lockTimeoutMs: number;
  /** How many times a migration is tried before the migrator gives up. */
  attempts: number;
  /** The pause before the second attempt, doubled before each later one. */
  firstPauseMs: number;
};

/** docs/operations.md, "Migrations": 2 s per lock, three attempts, about 7.5 s in all. */
export const LOCK_WAIT: LockWaitPolicy = { lockTimeoutMs: 2_000, attempts: 3, firstPauseMs: 500 };

/**
 * A migration could not get a lock within the policy's attempts. Nothing of it was applied; the
 * migrations before it were. The message is one line, for the operator.
 */
export class MigrationLockError extends Error {}

const LOCK_NOT_AVAILABLE = "55P03";

/** Creates Drizzle's journal table as Drizzle does. */
async function ensureJournal(connection: MigrationConnection): Promise<void> {
  await connection.exec(`CREATE SCHEMA IF NOT EXISTS "drizzle"`);
  await connection.exec(
    `CREATE TABLE IF NOT EXISTS "drizzle"."__drizzle_migrations" (id SERIAL PRIMARY KEY, hash text NOT NULL, created_at bigint)`,
  );
}

/** Drizzle's rule: a migration is pending when it is newer than the newest one applied. */
async function pendingMigrations(connection: MigrationConnection, migrations: Migration[]): Promise<Migration[]> {
  const [newest] = await connection.query<{ created_at: string | number | null }>(
    `select created_at from "drizzle"."__drizzle_migrations" order by created_at desc limit 1`,
    [],
  );
  const appliedUpTo = newest?.created_at === undefined || newest.created_at === null ? null : Number(newest.created_at);
  return migrations.filter((migration) => appliedUpTo === null || appliedUpTo < migration.createdAt);
}

function isLockTimeout(error: unknown): boolean {
  return typeof error === "object" && error !== null && "code" in error && error.code === LOCK_NOT_AVAILABLE;
}

/** Failed while running this statement: kept on the error, to name it. */
class StatementFailed extends Error {
  constructor(
    readonly statement: string,
    readonly failure: unknown,
  ) {
    super("statement failed", { cause: failure });
  }
}

async function runStatement(connection: MigrationConnection, statement: string): Promise<void> {
  try {
    await connection.exec(statement);
  } catch (error) {
    throw new StatementFailed(statement, error);
  }
}

async function recordApplied(connection: MigrationConnection, migration: Migration): Promise<void> {
  await connection.query(`insert into "drizzle"."__drizzle_migrations" ("hash", "created_at") values ($1, $2)`, [
    migration.hash,
    migration.createdAt,
  ]);
}

/** One attempt at a migration: all of it, or (rolled back) none of it. */
async function applyInTransaction(connection: MigrationConnection, migration: Migration, policy: LockWaitPolicy): Promise<void> {
  await connection.transaction(async (tx) => {
    await tx.exec(`SET LOCAL lock_timeout = '${policy.lockTimeoutMs}ms'`);
    for (const statement of migration.statements) await runStatement(tx, statement);
    await recordApplied(tx, migration);
  });
}

/**
 * One attempt at a no-transaction migration: each statement commits as it ends, so a failed
 * attempt leaves the ones before it applied, and the next attempt runs them again (they are
 * written to allow that: docs/operations.md, "Migrations").
 */
async function applyStatementByStatement(connection: MigrationConnection, migration: Migration, policy: LockWaitPolicy): Promise<void> {
  await connection.exec(`SET lock_timeout = '${policy.lockTimeoutMs}ms'`);
  try {
    for (const statement of migration.statements) await runStatement(connection, statement);
    await recordApplied(connection, migration);
  } finally {
    await connection.exec(`RESET lock_timeout`);
  }
}

/** The relations a statement names (quoted, as Drizzle writes them): where its lock was wanted. */
function relationsNamed(statement: string): string[] {
  const names = [...statement.matchAll(/\b(?:TABLE|ON|INTO|UPDATE|FROM|REFERENCES|JOIN)\s+(?:"public"\.)?"([^"]+)"/gi)].map(
    (match) => `"${match[1]}"`,
  );
  return [...new Set(names)];
}

/** A statement on one line, cut short: comments dropped, spaces collapsed. */
function oneLine(statement: string): string {
  const text = statement
    .split("\n")
    .filter((line) => !line.trim().startsWith("--"))
    .join(" ")
    .replace(/\s+/g, " ")
    .trim();
  return text.length > 120 ? `${text.slice(0, 117)}...` : text;
}

function lockFailure(migration: Migration, policy: LockWaitPolicy, statement: string): MigrationLockError {
  const relations = relationsNamed(statement);
  const lock = relations.length > 0 ? `a lock on ${relations.join(", ")}` : "a lock";
  const applied = migration.inTransaction ? "nothing of it was applied" : "its statements before that one stay applied";
  return new MigrationLockError(
    `Migration ${migration.tag} stopped: it waited over ${policy.lockTimeoutMs / 1000} s for ${lock}, held by another session, ` +
      `${policy.attempts} times (${oneLine(statement)}); ${applied}, the migrations before it are.`,
  );
}

/** Runs `attempt` until it gets its locks in time, at most `policy.attempts` times. */
async function withLockRetries(migration: Migration, policy: LockWaitPolicy, attempt: () => Promise<void>): Promise<void> {
  for (let tried = 1, pauseMs = policy.firstPauseMs; ; tried++, pauseMs *= 2) {
    try {
      await attempt();
      return;
    } catch (error) {
      const failed = error instanceof StatementFailed ? error : null;
      if (!failed || !isLockTimeout(failed.failure)) throw failed ? failed.failure : error;
      if (tried >= policy.attempts) throw lockFailure(migration, policy, failed.statement);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
  }
}

/**
 * Applies the pending migrations one by one, each in its own transaction (or statement by
 * statement when marked), retrying one that could not get a lock in time. The caller makes sure no
 * other migrator runs meanwhile (an advisory lock on PostgreSQL; PGlite is single-process).
 */
export async function applyMigrations(
  connection: MigrationConnection,
  migrations: Migration[],
  policy: LockWaitPolicy = LOCK_WAIT,
): Promise<void> {
  await ensureJournal(connection);
  for (const migration of await pendingMigrations(connection, migrations)) {
    const apply = migration.inTransaction ? applyInTransaction : applyStatementByStatement;
    await withLockRetries(migration, policy, () => apply(connection, migration, policy));
  }
}
