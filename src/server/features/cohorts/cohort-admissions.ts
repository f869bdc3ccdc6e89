// "Admit all" as the job queue runs it (docs/admin.md, "Cohorts"). A run admits the paid,
// not-yet-admitted learners of one cohort and track who were waiting when it started, each in a
// transaction of their own (admitFromWaitlist), so a long run never holds a long lock. The runner
// retries a failed job and another instance takes over a stale one, so every step is safe to run
// again: an admitted learner drops out of the work list, and a run's counts move in the very
// transaction that admits.
import { and, asc, eq, gt, sql } from "drizzle-orm";
import { z } from "zod";
import type { AdmissionRun } from "../../../shared/contracts/cohorts.ts";
import type { PaidPlan } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { auditLog, cohortAdmissions, users, waitlist } from "../../db/schema.ts";
import type { Mailer } from "../../emails/outbox.ts";
import { HttpError } from "../../plugins/errors.ts";
import { admitFromWaitlist } from "../users/users.seam.ts";
import { COHORT_WELCOME_JOB, createWelcomeJobHandler, queueCohortWelcome } from "./cohort-welcome.ts";

export const ADMIT_ALL_JOB = "cohort.admit-all";
export { COHORT_WELCOME_JOB };

const admitAllJobSchema = z.object({ runId: z.string() });

/** Learners admitted between two looks at the run row: small enough for progress to move every second or so. */
export const ADMIT_ALL_BATCH = 50;

type RunRow = typeof cohortAdmissions.$inferSelect;

export function toAdmissionRun(row: RunRow): AdmissionRun {
  return {
    id: row.id,
    cohort: row.cohort,
    track: row.track,
    status: row.status,
    total: row.total,
    admitted: row.admitted,
    failed: row.failed,
    lastError: row.lastError,
    createdAt: row.createdAt.toISOString(),
    finishedAt: row.finishedAt?.toISOString() ?? null,
  };
}

/**
 * The places a run admits: of its cohort and track, paid, not admitted, and taken by the time it
 * started (`joinedBy`, the database's clock): someone who pays while it runs waits for the next
 * Admit all, so the confirmation's count is the run's.
 */
export function pendingPlaces(cohort: string, track: PaidPlan, joinedBy: ReturnType<typeof sql>) {
  return and(
    eq(waitlist.cohort, cohort),
    eq(waitlist.plan, track),
    eq(waitlist.admitted, false),
    eq(users.waitlistPaid, true),
    sql`${waitlist.createdAt} <= ${joinedBy}`,
  );
}

async function loadRun(db: Db, runId: string): Promise<RunRow | undefined> {
  const [run] = await db.select().from(cohortAdmissions).where(eq(cohortAdmissions.id, runId));
  return run;
}

/**
 * Admits the next batch of a run's learners after `after` (a user id; the list is in id order,
 * which no admission changes). Returns the last id looked at, or null when none was left. A
 * learner admitted meanwhile by hand, refunded or gone is passed over; any other failure is
 * counted on the run, with its message, and the rest go on.
 */
export async function admitBatch(db: Db, run: RunRow, after: string | null, size = ADMIT_ALL_BATCH): Promise<string | null> {
  const batch = await db
    .select({ userId: waitlist.userId })
    .from(waitlist)
    .innerJoin(users, eq(users.id, waitlist.userId))
    .where(
      and(
        pendingPlaces(run.cohort, run.track, sql`(select ${cohortAdmissions.createdAt} from ${cohortAdmissions} where ${cohortAdmissions.id} = ${run.id})`),
        after === null ? undefined : gt(waitlist.userId, after),
      ),
    )
    .orderBy(asc(waitlist.userId))
    .limit(size);
  for (const { userId } of batch) {
    try {
      await admitFromWaitlist(db, {
        userId,
        actorId: run.actorId,
        now: new Date(),
        reason: "admit all",
        inTransaction: async (tx, { place, month }) => {
          await tx
            .update(cohortAdmissions)
            .set({ admitted: sql`${cohortAdmissions.admitted} + 1` })
            .where(eq(cohortAdmissions.id, run.id));
          await queueCohortWelcome(tx, { userId, cohort: place.cohort, track: place.plan, month });
        },
      });
    } catch (error) {
      // Already admitted, no longer paid, or the account closed: nobody left to admit here.
      if (error instanceof HttpError && error.status < 500) continue;
      const message = error instanceof Error ? error.message : String(error);
      await db
        .update(cohortAdmissions)
        .set({ failed: sql`${cohortAdmissions.failed} + 1`, lastError: message })
        .where(eq(cohortAdmissions.id, run.id));
    }
  }
  return batch.at(-1)?.userId ?? null;
}

/**
 * Ends a run: done (or failed, with why) and its one audit entry for the whole action, written
 * together, and only by whichever invocation ends it first.
 */
async function finishRun(db: Db, runId: string, outcome: { status: "done" } | { status: "failed"; error: string }) {
  await db.transaction(async (tx) => {
    const [ended] = await tx
      .update(cohortAdmissions)
      .set({
        status: outcome.status,
        finishedAt: sql`now()`,
        ...(outcome.status === "failed" ? { lastError: outcome.error } : {}),
      })
      .where(and(eq(cohortAdmissions.id, runId), eq(cohortAdmissions.status, "running")))
      .returning();
    if (!ended) return;
    await tx.insert(auditLog).values({
      actorId: ended.actorId,
      subjectUserId: null,
      action: "waitlist.admitted-all",
      reason: "admin",
      changes: {
        cohort: ended.cohort,
        track: ended.track,
        status: ended.status,
        total: ended.total,
        admitted: ended.admitted,
        failed: ended.failed,
      },
    });
  });
}

/**
 * The job: admits the run's learners batch by batch until none is left, then ends the run. Run
 * again (a retry, or another instance taking over after a crash), it goes on where the admissions
 * stopped; learners who failed are tried once more, so their count starts again.
 */
export async function runAdmitAll(db: Db, runId: string): Promise<void> {
  const run = await loadRun(db, runId);
  if (!run || run.status !== "running") return;
  try {
    await db
      .update(cohortAdmissions)
      .set({ failed: 0 })
      .where(and(eq(cohortAdmissions.id, runId), eq(cohortAdmissions.status, "running")));
    let after: string | null = null;
    do {
      after = await admitBatch(db, run, after);
    } while (after !== null);
    await finishRun(db, runId, { status: "done" });
  } catch (error) {
    // The run itself broke (not one learner): it ends as failed with the reason, and the admin
    // may start it again; what it admitted stays admitted and is not admitted twice. If even
    // that cannot be written, the job fails and the runner retries the run.
    await finishRun(db, runId, { status: "failed", error: error instanceof Error ? error.message : String(error) });
  }
}

export function createCohortJobHandlers(deps: { db: Db; mailer: Mailer; appUrl: string }) {
  return {
    admitAll: (payload: unknown) => runAdmitAll(deps.db, admitAllJobSchema.parse(payload).runId),
    welcome: createWelcomeJobHandler(deps),
  };
}
