// One page per learner (docs/admin.md, "Learner page"): everything the console knows about one
// user, read in parallel, each list newest first and capped (LEARNER_LIMITS) with its full count.
// Learning's own rules say where the learner stands in each program, and its certificates come
// through learning's seam; nothing is computed twice.
import { and, count, desc, eq, inArray, isNotNull, ne, or, sql } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { z } from "zod";
import {
  LEARNER_LIMITS,
  LEARNER_MESSAGES,
  PLAN_CHANGE_ACTIONS,
  type Learner,
  type LearnerProgram,
  type PlanChange,
} from "../../../shared/contracts/admin-learner.ts";
import type { Db } from "../../db/client.ts";
import {
  accounts,
  auditLog,
  lessonAnswers,
  lessonQuestions,
  modules,
  payments,
  programs,
  quizAttempts,
  refunds,
  userProgress,
  users,
  waitlist,
} from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";
import type { Catalog } from "../catalog/catalog.seam.ts";
import { userCertificates } from "../learning/learning.seam.ts";
import { bestScore, completionOf, quizOf, readStanding, scoredAttempts } from "../learning/learning.seam.ts";
import { watchedModuleIds } from "../learning/learning.seam.ts";

/**
 * Ids are made by the auth library (or kept from the import): short, printable ASCII. Anything
 * else is no user's, and is answered as such without asking the database. (A NUL byte never gets
 * this far: the input guard refuses it with a 400 for every route.)
 */
const PLAUSIBLE_ID = /^[\x21-\x7e]{1,64}$/;

const iso = (date: Date | null) => date?.toISOString() ?? null;

const planStateSchema = z.object({
  plan: z.string().nullish(),
  status: z.string().nullish(),
  end: z.string().nullish(),
});
type PlanState = z.infer<typeof planStateSchema>;
const transitionSchema = z.object({ from: planStateSchema.nullish(), to: planStateSchema.nullish() });

function planState(state: PlanState | null | undefined): PlanChange["to"] {
  return state ? { plan: state.plan ?? null, status: state.status ?? null, end: state.end ?? null } : null;
}

/**
 * What an entry's `changes` say about the plan. Most record { from, to } periods; an expiry
 * records only the plan and end that ran out. An entry of another shape (an older one) shows
 * neither side rather than failing the page.
 */
function planTransition(action: string, changes: unknown): Pick<PlanChange, "from" | "to"> {
  if (action === "subscription.expired") {
    const ended = planStateSchema.safeParse(changes);
    if (!ended.success) return { from: null, to: null };
    return { from: planState(ended.data), to: { plan: ended.data.plan ?? null, status: "expired", end: ended.data.end ?? null } };
  }
  const parsed = transitionSchema.safeParse(changes);
  if (!parsed.success) return { from: null, to: null };
  return { from: planState(parsed.data.from), to: planState(parsed.data.to) };
}

const actor = alias(users, "actor");

async function readProfile(db: Db, userId: string) {
  const [rows, methods] = await Promise.all([
    db
      .select({ user: users, place: waitlist })
      .from(users)
      .leftJoin(waitlist, eq(waitlist.userId, users.id))
      .where(eq(users.id, userId)),
    db
      .selectDistinct({ providerId: accounts.providerId })
      .from(accounts)
      .where(eq(accounts.userId, userId))
      .orderBy(accounts.providerId),
  ]);
  const row = rows[0];
  if (!row) return null;
  const { user, place } = row;
  return {
    profile: {
      id: user.id,
      name: user.name,
      email: user.email,
      emailVerified: user.emailVerified,
      provider: user.provider,
      signInMethods: methods.map((method) => method.providerId),
      createdAt: user.createdAt.toISOString(),
      lastActiveAt: iso(user.lastActiveAt),
    },
    plan: {
      plan: user.subscriptionPlan,
      status: user.subscriptionStatus,
      start: iso(user.subscriptionStart),
      end: iso(user.subscriptionEnd),
      queued: user.queuedPlan && user.queuedEnd ? { plan: user.queuedPlan, end: user.queuedEnd.toISOString() } : null,
      waitlist: place
        ? {
            track: place.plan,
            cohort: place.cohort,
            paid: user.waitlistPaid,
            admitted: place.admitted,
            admittedAt: iso(place.admittedAt),
            createdAt: place.createdAt.toISOString(),
          }
        : null,
      // The Users tab's rule for its Admit button; the server decides again when it is pressed.
      canAdmit: user.waitlistPaid && !user.waitlistAdmitted,
    },
  };
}

async function readPlanHistory(db: Db, userId: string): Promise<Learner["planHistory"]> {
  const where = and(
    eq(auditLog.subjectUserId, userId),
    inArray(auditLog.action, PLAN_CHANGE_ACTIONS),
    // A partial refund takes no time back and records no `to`: it is no change of plan.
    or(ne(auditLog.action, "payment.refunded"), isNotNull(sql`${auditLog.changes} -> 'to'`)),
  );
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: auditLog.id,
        action: auditLog.action,
        reason: auditLog.reason,
        changes: auditLog.changes,
        actorId: auditLog.actorId,
        actorEmail: actor.email,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .leftJoin(actor, eq(actor.id, auditLog.actorId))
      .where(where)
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(LEARNER_LIMITS.planHistory),
    db.select({ n: count() }).from(auditLog).where(where),
  ]);
  return {
    total: total?.n ?? 0,
    entries: rows.map(({ changes, createdAt, ...row }) => ({
      ...row,
      ...planTransition(row.action, changes),
      createdAt: createdAt.toISOString(),
    })),
  };
}

async function readPayments(db: Db, userId: string): Promise<Learner["payments"]> {
  const shown = db
    .select({ id: payments.id })
    .from(payments)
    .where(eq(payments.userId, userId))
    .orderBy(desc(payments.createdAt), desc(payments.id))
    .limit(LEARNER_LIMITS.payments);
  const [rows, refundRows, [total]] = await Promise.all([
    db
      .select()
      .from(payments)
      .where(eq(payments.userId, userId))
      .orderBy(desc(payments.createdAt), desc(payments.id))
      .limit(LEARNER_LIMITS.payments),
    // Only the refunds of the payments shown, so the page stays small however many there are.
    db
      .select()
      .from(refunds)
      .where(inArray(refunds.paymentId, shown))
      .orderBy(desc(refunds.createdAt), desc(refunds.id)),
    db.select({ n: count() }).from(payments).where(eq(payments.userId, userId)),
  ]);
  return {
    total: total?.n ?? 0,
    entries: rows.map((payment) => ({
      id: payment.id,
      reference: payment.reference,
      kind: payment.kind,
      plan: payment.plan,
      amountMinor: payment.amountMinor,
      refundedMinor: payment.refundedMinor,
      currency: payment.currency,
      status: payment.status,
      createdAt: payment.createdAt.toISOString(),
      paidAt: iso(payment.paidAt),
      refunds: refundRows
        .filter((refund) => refund.paymentId === payment.id)
        .map((refund) => ({
          id: refund.id,
          amountMinor: refund.amountMinor,
          status: refund.status,
          reason: refund.reason,
          createdAt: refund.createdAt.toISOString(),
          processedAt: iso(refund.processedAt),
        })),
    })),
  };
}

/**
 * Per program of the catalogue, in its display order: videos watched, the quiz's attempts scored,
 * complete or not and the valid certificate, as learning itself decides them
 * (readStanding, completionOf), and when the learner started it.
 */
async function readPrograms(db: Db, catalog: Catalog, userId: string): Promise<LearnerProgram[]> {
  const tracks = [...catalog.tracks.values()];
  const [starts, standings] = await Promise.all([
    db
      .select({ track: userProgress.programId, startedAt: userProgress.startedAt })
      .from(userProgress)
      .where(eq(userProgress.userId, userId)),
    Promise.all(tracks.map((track) => readStanding(db, userId, track.program.id))),
  ]);
  return tracks.map((track, index) => {
    const standing = standings[index] ?? { data: {}, answers: [], certificateId: null, attempts: [] };
    const moduleIds = track.modules.map((module) => module.id);
    const watched = watchedModuleIds(standing.data, moduleIds);
    const quiz = quizOf(track);
    const completion = completionOf({ moduleIds, watched, quiz, attempts: standing.attempts });
    const attempts = scoredAttempts(quiz, standing.attempts);
    return {
      track: track.program.id,
      title: track.program.title,
      videos: moduleIds.length,
      watched: watched.length,
      startedAt: iso(starts.find((start) => start.track === track.program.id)?.startedAt ?? null),
      quiz: quiz && {
        questions: quiz.questionCount,
        correct: bestScore(attempts),
        passMark: completion.passMark,
        passed: completion.quizPassed,
        attempts,
      },
      complete: completion.complete,
      certificateId: standing.certificateId,
    };
  });
}

async function readQuizAttempts(db: Db, userId: string): Promise<Learner["quizAttempts"]> {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: quizAttempts.id,
        track: quizAttempts.programId,
        programTitle: programs.title,
        attempt: quizAttempts.attempt,
        questionIndex: quizAttempts.questionIndex,
        option: quizAttempts.option,
        correct: quizAttempts.correct,
        createdAt: quizAttempts.createdAt,
      })
      .from(quizAttempts)
      .leftJoin(programs, eq(programs.id, quizAttempts.programId))
      .where(eq(quizAttempts.userId, userId))
      .orderBy(desc(quizAttempts.createdAt), desc(quizAttempts.id))
      .limit(LEARNER_LIMITS.quizAttempts),
    db.select({ n: count() }).from(quizAttempts).where(eq(quizAttempts.userId, userId)),
  ]);
  return { total: total?.n ?? 0, entries: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
}

async function readQuestions(db: Db, userId: string): Promise<Learner["questions"]> {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: lessonQuestions.id,
        track: lessonQuestions.programId,
        moduleId: lessonQuestions.moduleId,
        lessonTitle: modules.title,
        body: lessonQuestions.body,
        pinnedAt: lessonQuestions.pinnedAt,
        answers: sql<number>`(select count(*) from ${lessonAnswers} where ${lessonAnswers.questionId} = ${lessonQuestions.id})::int`,
        createdAt: lessonQuestions.createdAt,
      })
      .from(lessonQuestions)
      .innerJoin(modules, eq(modules.id, lessonQuestions.moduleId))
      .where(eq(lessonQuestions.userId, userId))
      .orderBy(desc(lessonQuestions.createdAt), desc(lessonQuestions.id))
      .limit(LEARNER_LIMITS.questions),
    db.select({ n: count() }).from(lessonQuestions).where(eq(lessonQuestions.userId, userId)),
  ]);
  return {
    total: total?.n ?? 0,
    entries: rows.map(({ pinnedAt, createdAt, ...row }) => ({ ...row, pinned: pinnedAt !== null, createdAt: createdAt.toISOString() })),
  };
}

async function readAudit(db: Db, userId: string): Promise<Learner["audit"]> {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        id: auditLog.id,
        action: auditLog.action,
        reason: auditLog.reason,
        actorId: auditLog.actorId,
        actorEmail: actor.email,
        changes: auditLog.changes,
        createdAt: auditLog.createdAt,
      })
      .from(auditLog)
      .leftJoin(actor, eq(actor.id, auditLog.actorId))
      .where(eq(auditLog.subjectUserId, userId))
      .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
      .limit(LEARNER_LIMITS.audit),
    db.select({ n: count() }).from(auditLog).where(eq(auditLog.subjectUserId, userId)),
  ]);
  return { total: total?.n ?? 0, entries: rows.map((row) => ({ ...row, createdAt: row.createdAt.toISOString() })) };
}

/** The learner page's data; 404 in the error shape for an id that is no user's. */
export async function readLearner(db: Db, catalog: Catalog, userId: string): Promise<Learner> {
  if (!PLAUSIBLE_ID.test(userId)) throw new HttpError(404, "USER_NOT_FOUND", LEARNER_MESSAGES.notFound);
  const [account, planHistory, paymentList, programList, quizList, certificates, questions, audit] = await Promise.all([
    readProfile(db, userId),
    readPlanHistory(db, userId),
    readPayments(db, userId),
    readPrograms(db, catalog, userId),
    readQuizAttempts(db, userId),
    userCertificates(db, userId),
    readQuestions(db, userId),
    readAudit(db, userId),
  ]);
  if (!account) throw new HttpError(404, "USER_NOT_FOUND", LEARNER_MESSAGES.notFound);
  return {
    ...account,
    planHistory,
    payments: paymentList,
    programs: programList,
    quizAttempts: quizList,
    certificates,
    questions,
    audit,
  };
}
