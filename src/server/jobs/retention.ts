// Retention: rows that have served their purpose are deleted, hourly through the scheduler and on
// demand with `npm run cli -- prune` (docs/operations.md, "Retention"). Each statement deletes at
// most one batch, and a run at most a few batches a table, so a run on a large backlog stays short
// and the backlog goes over the following runs.
import { and, eq, inArray, lt, type SQL } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { ACCOUNT_MAIL_WINDOW_MS } from "../auth/account-mail-limit.ts";
import { LOCKOUT_WINDOW_MS } from "../auth/login-lockout.ts";
import type { Db, Tx } from "../db/client.ts";
import { devMail, jobs, loginFailures, mailOutbox, rateLimits, sessions, verifications } from "../db/schema.ts";
import type { Schedule } from "./scheduler.ts";

const HOUR_MS = 60 * 60_000;
const DAY_MS = 24 * HOUR_MS;

export const RETENTION = {
  /** A finished job is kept a week: enough to answer "did my receipt go out?". */
  doneJobsMs: 7 * DAY_MS,
  /**
   * A job that gave up (a receipt never sent, a contact message never forwarded) is an operator's
   * evidence: kept a quarter, the length of a cohort, long enough to be found after a complaint.
   */
  failedJobsMs: 90 * DAY_MS,
  /**
   * The longest limit window is the new-accounts limit's hour (docs/product.md, "Limits"; the
   * others are 1 to 15 minutes). A counter's row holds when its window started, so a row older
   * than an hour belongs to a window that is over: deleting it changes nothing.
   */
  rateLimitMs: Math.max(HOUR_MS, 4 * ACCOUNT_MAIL_WINDOW_MS),
  /** The lockout counts 15 minutes of failures; a day leaves them to read after an attack. */
  loginFailureMs: Math.max(DAY_MS, 4 * LOCKOUT_WINDOW_MS),
  /** The development mailbox: a week of test mail. */
  devMailMs: 7 * DAY_MS,
  /** An email sent (its recipient and subject, its content blanked): a week, as a finished job. */
  sentMailMs: 7 * DAY_MS,
  /** An email given up: a quarter, as a failed job, the evidence of a mail that never went out. */
  failedMailMs: 90 * DAY_MS,
} as const;

export const RETENTION_BATCH = { size: 1_000, perRun: 10 } as const;

export type RetentionCounts = {
  doneJobs: number;
  failedJobs: number;
  rateLimits: number;
  loginFailures: number;
  verifications: number;
  sessions: number;
  devMail: number;
  sentMail: number;
  failedMail: number;
};

/** Deletes up to `size` rows of `table` matching `where`; resolves with how many went. */
async function deleteBatch(db: Db | Tx, table: PgTable, id: PgColumn, where: SQL | undefined, size: number) {
  const batch = db.select({ id }).from(table).where(where).limit(size);
  const deleted = await db.delete(table).where(inArray(id, batch)).returning({ id });
  return deleted.length;
}

/**
 * Deletes what is past its retention at `now`; resolves with how many rows of each kind went.
 * On a `Db` each batch commits by itself; on a `Tx` (the scheduler's) the run is one transaction.
 */
export async function deleteExpiredRecords(
  db: Db | Tx,
  now: Date,
  batch: { size: number; perRun: number } = RETENTION_BATCH,
): Promise<RetentionCounts> {
  const before = (ms: number) => new Date(now.getTime() - ms);
  const counts: RetentionCounts = {
    doneJobs: 0,
    failedJobs: 0,
    rateLimits: 0,
    loginFailures: 0,
    verifications: 0,
    sessions: 0,
    devMail: 0,
    sentMail: 0,
    failedMail: 0,
  };
  // A job's run_at is the time of its last try: when a done or failed job finished.
  const targets: [keyof RetentionCounts, PgTable, PgColumn, SQL | undefined][] = [
    ["doneJobs", jobs, jobs.id, and(eq(jobs.status, "done"), lt(jobs.runAt, before(RETENTION.doneJobsMs)))],
    ["failedJobs", jobs, jobs.id, and(eq(jobs.status, "failed"), lt(jobs.runAt, before(RETENTION.failedJobsMs)))],
    ["rateLimits", rateLimits, rateLimits.id, lt(rateLimits.lastRequest, now.getTime() - RETENTION.rateLimitMs)],
    ["loginFailures", loginFailures, loginFailures.id, lt(loginFailures.createdAt, before(RETENTION.loginFailureMs))],
    ["verifications", verifications, verifications.id, lt(verifications.expiresAt, now)],
    ["sessions", sessions, sessions.id, lt(sessions.expiresAt, now)],
    ["devMail", devMail, devMail.id, lt(devMail.createdAt, before(RETENTION.devMailMs))],
    // An email is given up within hours of being queued: its queuing time stands for that.
    ["sentMail", mailOutbox, mailOutbox.id, and(eq(mailOutbox.status, "sent"), lt(mailOutbox.sentAt, before(RETENTION.sentMailMs)))],
    ["failedMail", mailOutbox, mailOutbox.id, and(eq(mailOutbox.status, "failed"), lt(mailOutbox.createdAt, before(RETENTION.failedMailMs)))],
  ];
  for (const [kind, table, id, where] of targets) {
    for (let run = 0; run < batch.perRun; run++) {
      const deleted = await deleteBatch(db, table, id, where, batch.size);
      counts[kind] += deleted;
      if (deleted < batch.size) break;
    }
  }
  return counts;
}

/** Hourly: finished jobs, spent rate-limit counters, old sign-in failures, expired tokens, old emails. */
export const RETENTION_SCHEDULE: Schedule = { name: "retention", everyMs: HOUR_MS, run: (tx, now) => deleteExpiredRecords(tx, now) };
