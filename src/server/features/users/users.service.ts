import { addMonths } from "date-fns";
import { eq, sql } from "drizzle-orm";
import { ADMIN_MESSAGES } from "../../../shared/contracts/admin.ts";
import { effectivePlan, type PaidPlan, type Plan } from "../../../shared/plans.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, users, waitlist } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";

export type UserRow = typeof users.$inferSelect;

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
 * Gives a user a plan. A paid plan runs for one calendar month from now; admin and legacyFree
 * never expire. The change and its audit entry are written together.
 */
export async function setUserPlan(
  db: Db,
  input: UserSelector & { plan: Plan; actorId: string | null; reason: string; now: Date },
): Promise<{ userId: string; user: UserRow }> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, input);
    const paid = input.plan === "intermediate" || input.plan === "advanced";
    const next = {
      subscriptionPlan: input.plan,
      subscriptionStatus: paid ? ("active" as const) : ("inactive" as const),
      subscriptionStart: paid ? input.now : null,
      subscriptionEnd: paid ? addMonths(input.now, 1) : null,
    };
    const [updated] = await tx.update(users).set(next).where(eq(users.id, user.id)).returning();
    if (!updated) throw new Error(`user ${user.id} vanished under its row lock`);
    await tx.insert(auditLog).values({
      actorId: input.actorId,
      subjectUserId: user.id,
      action: "plan.set",
      reason: input.reason,
      changes: {
        from: { plan: user.subscriptionPlan, end: user.subscriptionEnd },
        to: { plan: next.subscriptionPlan, end: next.subscriptionEnd },
      },
    });
    return { userId: user.id, user: updated };
  });
}

const PLAN_RANK: Record<Plan, number> = { legacyFree: 0, intermediate: 1, advanced: 2, admin: 3 };

type Subscription = Pick<UserRow, "subscriptionPlan" | "subscriptionStatus" | "subscriptionStart" | "subscriptionEnd">;

/**
 * What admission does to a subscription (docs/subscriptions.md, "Admit from waitlist"): the track
 * paid for, for one calendar month from now. The same plan still running is extended from its end
 * rather than cut short; a higher plan the user holds now (admin, or Advanced when admitted to
 * Intermediate) is kept.
 */
function admissionSubscription(user: Subscription, track: PaidPlan, now: Date): Subscription {
  const current = effectivePlan(user, now);
  const { subscriptionPlan, subscriptionStatus, subscriptionStart, subscriptionEnd } = user;
  if (PLAN_RANK[current] > PLAN_RANK[track]) return { subscriptionPlan, subscriptionStatus, subscriptionStart, subscriptionEnd };
  if (current === track && subscriptionEnd) {
    return { subscriptionPlan, subscriptionStatus: "active", subscriptionStart, subscriptionEnd: addMonths(subscriptionEnd, 1) };
  }
  return { subscriptionPlan: track, subscriptionStatus: "active", subscriptionStart: now, subscriptionEnd: addMonths(now, 1) };
}

/**
 * Admits a waitlisted user: grants the track they paid for, marks them and their waitlist place
 * admitted, and records it, in one transaction. The user row is locked, so two admins clicking
 * Admit together admit once; the second is told the user is already admitted.
 */
export async function admitFromWaitlist(
  db: Db,
  input: { userId: string; actorId: string | null; now: Date },
): Promise<UserRow> {
  return db.transaction(async (tx) => {
    const user = await lockUser(tx, { userId: input.userId });
    const [place] = await tx.select().from(waitlist).where(eq(waitlist.userId, user.id)).for("update");
    if (!place || !user.waitlistPaid) throw new HttpError(409, "NOT_ON_WAITLIST", ADMIN_MESSAGES.notOnWaitlist);
    if (user.waitlistAdmitted || place.admitted) {
      throw new HttpError(409, "ALREADY_ADMITTED", ADMIN_MESSAGES.alreadyAdmitted);
    }

    const next = admissionSubscription(user, place.plan, input.now);
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
      reason: "admin",
      changes: {
        track: place.plan,
        cohort: place.cohort,
        from: { plan: user.subscriptionPlan, end: user.subscriptionEnd },
        to: { plan: next.subscriptionPlan, end: next.subscriptionEnd },
      },
    });
    return admitted;
  });
}
