import { addMonths } from "date-fns/addMonths";
import { eq, sql } from "drizzle-orm";
import { ADMIN_MESSAGES } from "../../../shared/contracts/admin.ts";
import { cohortMonth } from "../../../shared/contracts/cohorts.ts";
import { isPaidPlan, paidTime, PLAN_RANK, type Entitlement, type PaidPlan, type Plan } from "../../../shared/plans.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, cohorts, users, waitlist } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";
import { cancelMentorshipWithoutAdvanced } from "../support/support.seam.ts";

export type UserRow = typeof users.$inferSelect;

export type SubscriptionState = Pick<
  typeof users.$inferSelect,
  "subscriptionPlan" | "subscriptionStatus" | "subscriptionStart" | "subscriptionEnd" | "queuedPlan" | "queuedEnd"
>;

/**
 * What paid time is read from: the subscription, and the automatic renewal that may keep it
 * running past its end (a users row has both; `renewalHolds`, shared/plans.ts).
 */
type HeldSubscription = SubscriptionState & Pick<Entitlement, "autoRenew" | "renewalFailedFor">;

/** `date`, or `from` when that is later. */
function notBefore(date: Date, from: Date | null): Date {
  return from && from.getTime() > date.getTime() ? from : date;
}

/**
 * A paid month of `plan` added to what the learner holds (docs/subscriptions.md, "Paid time is
 * never lost"): the higher plan always runs first, and paid time of a lower plan is queued after
 * it, so no paid day is lost. The same plan adds a month at its end (queued time moves with it);
 * a lower plan is queued after the current period (or after what is queued already); a higher one
 * starts now and the unused days of the lower one are queued after it; nothing running starts now.
 *
 * `from` is the earliest the month itself may start: a cohort's start, for a learner admitted
 * before it (docs/subscriptions.md, "Admit from waitlist"). Access still opens at once; the month
 * is counted from `from`, so the days before the cohort cost the learner nothing. A period running
 * on past its end for its automatic renewal is still running: its month is added at its end.
 */
export function addPaidMonth(user: HeldSubscription, plan: PaidPlan, now: Date, from: Date | null = null): SubscriptionState {
  // Administrators have every program and never expire: a month of a plan adds nothing to that.
  if (user.subscriptionPlan === "admin") {
    const { subscriptionPlan, subscriptionStatus, subscriptionStart, subscriptionEnd, queuedPlan, queuedEnd } = user;
    return { subscriptionPlan, subscriptionStatus, subscriptionStart, subscriptionEnd, queuedPlan, queuedEnd };
  }
  const { current, queued } = paidTime(user, now);
  const active = "active" as const;
  if (!current) {
    return { subscriptionPlan: plan, subscriptionStatus: active, subscriptionStart: now, subscriptionEnd: addMonths(notBefore(now, from), 1), queuedPlan: null, queuedEnd: null };
  }
  const running = { subscriptionPlan: current.plan, subscriptionStatus: active, subscriptionStart: current.start, subscriptionEnd: current.end };
  if (plan === current.plan) {
    const end = addMonths(notBefore(current.end, from), 1);
    const shift = end.getTime() - current.end.getTime();
    return { ...running, subscriptionEnd: end, queuedPlan: queued?.plan ?? null, queuedEnd: queued ? new Date(queued.end.getTime() + shift) : null };
  }
  if (PLAN_RANK[plan] < PLAN_RANK[current.plan]) {
    // Queued time is always of a plan below the current one: with two paid plans, this very plan.
    return { ...running, queuedPlan: plan, queuedEnd: addMonths(notBefore(queued?.end ?? current.end, from), 1) };
  }
  const end = addMonths(notBefore(now, from), 1);
  const unused = current.end.getTime() - now.getTime();
  // A period running on past its end for its automatic renewal has no time left to queue.
  if (unused <= 0) return { subscriptionPlan: plan, subscriptionStatus: active, subscriptionStart: now, subscriptionEnd: end, queuedPlan: null, queuedEnd: null };
  return { subscriptionPlan: plan, subscriptionStatus: active, subscriptionStart: now, subscriptionEnd: end, queuedPlan: current.plan, queuedEnd: new Date(end.getTime() + unused) };
}

export type PaidMonth = { start: Date; end: Date };

/**
 * The month itself that addPaidMonth adds, from its start to its end, for the receipt
 * (docs/subscriptions.md, "Receipts") and the cohort's welcome: it starts now when nothing runs or
 * the plan is higher, at the current end for the same plan, after the queued time for a lower one,
 * and never before `from`. Null for an administrator, whose plan a payment does not change.
 */
export function paidMonthOf(user: HeldSubscription, plan: PaidPlan, now: Date, from: Date | null = null): PaidMonth | null {
  if (user.subscriptionPlan === "admin") return null;
  const { current, queued } = paidTime(user, now);
  let start = now;
  if (current && plan === current.plan) start = current.end;
  else if (current && PLAN_RANK[plan] < PLAN_RANK[current.plan]) start = queued?.end ?? current.end;
  start = notBefore(start, from);
  return { start, end: addMonths(start, 1) };
}

/** A subscription as the audit log records it: the plan, its status and end, and what is queued after it. */
export function periodOf(state: SubscriptionState) {
  return {
    plan: state.subscriptionPlan,
    status: state.subscriptionStatus,
    end: state.subscriptionEnd,
    queued: state.queuedPlan ? { plan: state.queuedPlan, end: state.queuedEnd } : null,
  };
}

export class UserNotFoundError extends HttpError {
  constructor(who: string) {
    super(404, "USER_NOT_FOUND", `No account found with the email ${who}.`);
  }
}

/** Whose plan: by email (operator commands) or by id (the admin console). */
export type UserSelector = { email: string } | { userId: string };

/** The user's row, locked for the rest of the transaction; 404 when there is none. */
async function lockUser(tx: Tx, who: UserSelector): Promise<UserRow> {
  const [user] = await tx
    .select()
    .from(users)
    .where("email" in who ? sql`lower(${users.email}) = lower(${who.email})` : eq(users.id, who.userId))
    .for("update");
  if (user) return user;
  if ("email" in who) throw new UserNotFoundError(who.email);
  throw new HttpError(404, "USER_NOT_FOUND", ADMIN_MESSAGES.userNotFound);
}

/**
 * An administrator's plan change (docs/subscriptions.md, "Paid time is never lost"): a paid plan
 * runs for one calendar month from now; admin and legacyFree never expire. Paid time queued after
 * the current period is kept when the new plan is paid: after it when it is of a lower plan, added
 * to it when it is of the same plan. Choosing admin or Free ends every paid period, queued included.
 */
export function planSetByAdmin(user: HeldSubscription, plan: Plan, now: Date): SubscriptionState {
  if (!isPaidPlan(plan)) {
    return { subscriptionPlan: plan, subscriptionStatus: "inactive", subscriptionStart: null, subscriptionEnd: null, queuedPlan: null, queuedEnd: null };
  }
  const end = addMonths(now, 1);
  const set = { subscriptionPlan: plan, subscriptionStatus: "active" as const, subscriptionStart: now, subscriptionEnd: end };
  const { current, queued } = paidTime(user, now);
  // The time still to come after the period the admin replaces: what is queued, measured from when it starts.
  const later = queued && current ? { plan: queued.plan, length: queued.end.getTime() - current.end.getTime() } : null;
  if (!later || PLAN_RANK[later.plan] > PLAN_RANK[plan]) return { ...set, queuedPlan: null, queuedEnd: null };
  if (later.plan === plan) return { ...set, subscriptionEnd: new Date(end.getTime() + later.length), queuedPlan: null, queuedEnd: null };
  return { ...set, queuedPlan: later.plan, queuedEnd: new Date(end.getTime() + later.length) };
}

/** Gives a user a plan (`planSetByAdmin`); the change and its audit entry are written together. */
export async function setUserPlan(
  db: Db,
  input: UserSelector & { plan: Plan; actorId: string | null; reason: string; now: Date },
): Promise<{ userId: string; user: UserRow }> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, input);
    const next = planSetByAdmin(user, input.plan, input.now);
    const [updated] = await tx.update(users).set(next).where(eq(users.id, user.id)).returning();
    if (!updated) throw new Error(`user ${user.id} vanished under its row lock`);
    // Mentorship needs Advanced: a change away from it cancels the open requests with it.
    await cancelMentorshipWithoutAdvanced(tx, { userId: user.id, after: next, now: input.now, why: "admin", actorId: input.actorId });
    await tx.insert(auditLog).values({
      actorId: input.actorId,
      subjectUserId: user.id,
      action: "plan.set",
      reason: input.reason,
      changes: { from: periodOf(user), to: periodOf(next) },
    });
    return { userId: user.id, user: updated };
  });
}

export type WaitlistPlace = typeof waitlist.$inferSelect;

/**
 * Admits a waitlisted user: grants the track they paid for, marks them and their waitlist place
 * admitted, and records it, in one transaction. The user row is locked, so two admins clicking
 * Admit together admit once; the second is told the user is already admitted. `inTransaction`
 * adds writes that stand or fall with this admission (Admit all counts it and queues the welcome
 * email there, docs/admin.md, "Cohorts"); `reason` is the audit entry's (default "admin").
 */
export async function admitFromWaitlist(
  db: Db,
  input: {
    userId: string;
    actorId: string | null;
    now: Date;
    reason?: string;
    inTransaction?: (tx: Tx, admitted: { user: UserRow; place: WaitlistPlace; month: PaidMonth | null }) => Promise<void>;
  },
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, { userId: input.userId });
    const [place] = await tx.select().from(waitlist).where(eq(waitlist.userId, user.id)).for("update");
    if (!place || !user.waitlistPaid) throw new HttpError(409, "NOT_ON_WAITLIST", ADMIN_MESSAGES.notOnWaitlist);
    if (user.waitlistAdmitted || place.admitted) {
      throw new HttpError(409, "ALREADY_ADMITTED", ADMIN_MESSAGES.alreadyAdmitted);
    }

    // Admission is a paid month of the track, counted from the cohort's start when the learner is
    // admitted before it (docs/subscriptions.md, "Admit from waitlist").
    const [cohort] = await tx.select({ startsOn: cohorts.startsOn }).from(cohorts).where(eq(cohorts.name, place.cohort));
    const cohortStart = cohort ? cohortMonth(cohort.startsOn, input.now) : null;
    const from = cohortStart && !cohortStart.started ? cohortStart.start : null;
    const next = addPaidMonth(user, place.plan, input.now, from);
    const month = paidMonthOf(user, place.plan, input.now, from);
    const [admitted] = await tx
      .update(users)
      .set({ ...next, waitlistAdmitted: true })
      .where(eq(users.id, user.id))
      .returning();
    if (!admitted) throw new Error(`user ${user.id} vanished under its row lock`);
    await tx.update(waitlist).set({ admitted: true, admittedAt: input.now }).where(eq(waitlist.userId, user.id));
    await tx.insert(auditLog).values({
      actorId: input.actorId,
      subjectUserId: user.id,
      action: "waitlist.admitted",
      reason: input.reason ?? "admin",
      changes: {
        track: place.plan,
        cohort: place.cohort,
        month: month && { start: month.start, end: month.end },
        from: periodOf(user),
        to: periodOf(next),
      },
    });
    await input.inTransaction?.(tx, { user: admitted, place, month });
    return admitted;
  });
}
