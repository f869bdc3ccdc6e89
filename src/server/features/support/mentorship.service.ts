// 1-on-1 mentorship (docs/product.md, "Questions and mentorship"): an Advanced learner asks for a
// session; an administrator confirms a time (on Accra's clock) or declines with a note. Each
// decision is audited and emailed (MENTORSHIP_JOB) in the transaction that makes it.
import { and, count, desc, eq, gt, or, sql } from "drizzle-orm";
import { academyTimeToInstant } from "../../../shared/academy-time.ts";
import {
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  type AdminMentorship,
  type Mentorship,
} from "../../../shared/contracts/support.ts";
import type { Plan } from "../../../shared/plans.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, mentorshipRequests, users } from "../../db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { HttpError } from "../../plugins/errors.ts";
import { cancelMentorshipWithoutAdvanced, MENTORSHIP_JOB } from "./mentorship-plan.ts";

export { MENTORSHIP_JOB };

type Learner = { id: string; plan: Plan };
type Row = typeof mentorshipRequests.$inferSelect;

/** Only an Advanced plan in effect includes mentorship (administrators answer requests; they make none). */
export function includesMentorship(plan: Plan): boolean {
  return plan === "advanced";
}

function view(row: Row): Mentorship {
  return {
    id: row.id,
    topic: row.topic,
    preferredTimes: row.preferredTimes,
    status: row.status,
    scheduledAt: row.scheduledAt?.toISOString() ?? null,
    note: row.note,
    createdAt: row.createdAt.toISOString(),
  };
}

/** Waiting for a time, or confirmed for a time still to come. */
function isOpen(now: Date) {
  return or(
    eq(mentorshipRequests.status, "requested"),
    and(eq(mentorshipRequests.status, "confirmed"), gt(mentorshipRequests.scheduledAt, now)),
  );
}

/** The learner's latest requests, newest first. */
export async function listOwnRequests(db: Db, learner: Learner) {
  const rows = await db
    .select()
    .from(mentorshipRequests)
    .where(eq(mentorshipRequests.userId, learner.id))
    .orderBy(desc(mentorshipRequests.createdAt), desc(mentorshipRequests.id))
    .limit(20);
  return { eligible: includesMentorship(learner.plan), requests: rows.map(view) };
}

export async function requestSession(
  db: Db,
  learner: Learner,
  input: { topic: string; preferredTimes: string },
  now: Date,
): Promise<Mentorship> {
  if (!includesMentorship(learner.plan)) throw new HttpError(403, "ADVANCED_ONLY", SUPPORT_MESSAGES.advancedOnly);
  return db.transaction(async (tx) => {
    // The learner's row lock holds a second request sent at the same time until this one is counted.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, learner.id)).for("update");
    const [open] = await tx
      .select({ n: count() })
      .from(mentorshipRequests)
      .where(and(eq(mentorshipRequests.userId, learner.id), isOpen(now)));
    if ((open?.n ?? 0) >= SUPPORT_LIMITS.openMentorship) throw new HttpError(409, "TOO_MANY_OPEN", SUPPORT_MESSAGES.tooManyOpen);
    const [row] = await tx.insert(mentorshipRequests).values({ userId: learner.id, ...input }).returning();
    if (!row) throw new Error("the mentorship request was not written");
    return view(row);
  });
}

/** 404 for a request that is not there (or not the learner's), 409 for one no longer waiting. */
async function refuseChange(db: Db | Tx, requestId: string, userId?: string): Promise<never> {
  const [row] = await db
    .select({ id: mentorshipRequests.id })
    .from(mentorshipRequests)
    .where(and(eq(mentorshipRequests.id, requestId), userId ? eq(mentorshipRequests.userId, userId) : undefined));
  if (!row) throw new HttpError(404, "REQUEST_NOT_FOUND", SUPPORT_MESSAGES.requestNotFound);
  throw new HttpError(409, "ALREADY_DECIDED", SUPPORT_MESSAGES.alreadyDecided);
}

/** The learner withdraws a request still waiting for a time. */
export async function cancelRequest(db: Db, learner: Learner, requestId: string): Promise<Mentorship> {
  const [row] = await db
    .update(mentorshipRequests)
    .set({ status: "cancelled" })
    .where(and(eq(mentorshipRequests.id, requestId), eq(mentorshipRequests.userId, learner.id), eq(mentorshipRequests.status, "requested")))
    .returning();
  return row ? view(row) : refuseChange(db, requestId, learner.id);
}

type Decision =
  | { status: "confirmed"; scheduledAt: string; note: string }
  | { status: "declined"; note: string };

/** An administrator's answer to a waiting request: the row, its audit entry and the learner's email together. */
export async function decideRequest(db: Db, actorId: string, requestId: string, decision: Decision, now: Date): Promise<Mentorship> {
  let scheduledAt: Date | null = null;
  if (decision.status === "confirmed") {
    scheduledAt = academyTimeToInstant(decision.scheduledAt);
    if (!scheduledAt) throw new HttpError(400, "VALIDATION", SUPPORT_MESSAGES.timeInvalid);
    if (scheduledAt.getTime() <= now.getTime()) throw new HttpError(400, "VALIDATION", SUPPORT_MESSAGES.timeInPast);
  }
  const refusal = await db.transaction(async (tx) => {
    // The learner's row locked: a plan change waits for this decision, or this one sees it. A
    // learner who no longer has Advanced (an expiry the job has not written yet) has the request
    // cancelled now, told why, and the admin is refused in words (docs/product.md).
    const [request] = await tx
      .select({ userId: mentorshipRequests.userId, status: mentorshipRequests.status })
      .from(mentorshipRequests)
      .where(eq(mentorshipRequests.id, requestId));
    if (!request || request.status !== "requested" || decision.status !== "confirmed") return null;
    const [learner] = await tx.select().from(users).where(eq(users.id, request.userId)).for("update");
    if (!learner) return null;
    const cancelled = await cancelMentorshipWithoutAdvanced(tx, { userId: learner.id, after: learner, now, why: "expiry", actorId });
    return cancelled > 0 ? new HttpError(409, "NO_LONGER_ADVANCED", SUPPORT_MESSAGES.learnerLostAdvanced) : null;
  });
  if (refusal) throw refusal;
  return db.transaction(async (tx) => {
    const [row] = await tx
      .update(mentorshipRequests)
      .set({ status: decision.status, scheduledAt, note: decision.note || null, decidedBy: actorId, decidedAt: now })
      .where(and(eq(mentorshipRequests.id, requestId), eq(mentorshipRequests.status, "requested")))
      .returning();
    if (!row) return refuseChange(tx, requestId);
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: row.userId,
      action: decision.status === "confirmed" ? "mentorship.confirm" : "mentorship.decline",
      reason: decision.note || "Mentorship session confirmed.",
      changes: { requestId, topic: row.topic, scheduledAt: scheduledAt?.toISOString() ?? null },
    });
    await enqueueJob(tx, MENTORSHIP_JOB, { requestId });
    return view(row);
  });
}

/** Every request, for the Mentorship tab: those waiting for a time first, then newest. */
export async function listAdminRequests(
  db: Db,
  page: number,
  pageSize: number,
): Promise<{ page: number; pageSize: number; total: number; requests: AdminMentorship[] }> {
  const [rows, [total]] = await Promise.all([
    db
      .select({ request: mentorshipRequests, learnerName: users.name, learnerEmail: users.email })
      .from(mentorshipRequests)
      .innerJoin(users, eq(users.id, mentorshipRequests.userId))
      .orderBy(sql`${mentorshipRequests.status} <> 'requested'`, desc(mentorshipRequests.createdAt), desc(mentorshipRequests.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(mentorshipRequests),
  ]);
  const requests = rows.map(({ request, learnerName, learnerEmail }) => ({ ...view(request), learnerId: request.userId, learnerName, learnerEmail }));
  return { page, pageSize, total: total?.n ?? 0, requests };
}

/** The request and its learner, for the email. */
export async function requestWithLearner(db: Db, requestId: string) {
  const [row] = await db
    .select({ request: mentorshipRequests, user: users })
    .from(mentorshipRequests)
    .innerJoin(users, eq(users.id, mentorshipRequests.userId))
    .where(eq(mentorshipRequests.id, requestId));
  return row ?? null;
}
