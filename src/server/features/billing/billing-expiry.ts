// Expiry: paid months that are over end, and their reminders are queued, each once.
import { addDays } from "date-fns";
import { and, eq, gt, inArray, lte } from "drizzle-orm";
import { PAID_PLANS } from "../../../shared/plans.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, subscriptionReminders, users } from "../../db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";

export const EXPIRY_REMINDER_JOB = "billing.expiry-reminder";
export const REMINDER_DAYS_BEFORE = 3;

/** Queues a reminder unless this one was already sent for this period (safe across servers). */
async function remindOnce(tx: Tx, userId: string, periodEnd: Date, kind: "ending-soon" | "expired") {
  const recorded = await tx
    .insert(subscriptionReminders)
    .values({ userId, periodEnd, kind })
    .onConflictDoNothing()
    .returning({ userId: subscriptionReminders.userId });
  if (recorded.length > 0) await enqueueJob(tx, EXPIRY_REMINDER_JOB, { userId, periodEnd: periodEnd.toISOString(), kind });
}

/**
 * Ends paid plans whose month is over (status expired: access falls back to free) with an audit
 * entry each, and queues the reminders: 3 days before the end and at the end. Run periodically.
 */
export async function expireSubscriptions(db: Db, now: Date): Promise<number> {
  return db.transaction(async (tx) => {
    const endingSoon = await tx
      .select({ id: users.id, end: users.subscriptionEnd })
      .from(users)
      .where(
        and(
          eq(users.subscriptionStatus, "active"),
          inArray(users.subscriptionPlan, [...PAID_PLANS]),
          gt(users.subscriptionEnd, now),
          lte(users.subscriptionEnd, addDays(now, REMINDER_DAYS_BEFORE)),
        ),
      );
    for (const user of endingSoon) if (user.end) await remindOnce(tx, user.id, user.end, "ending-soon");

    const lapsed = await tx
      .update(users)
      .set({ subscriptionStatus: "expired" })
      .where(
        and(
          eq(users.subscriptionStatus, "active"),
          inArray(users.subscriptionPlan, [...PAID_PLANS]),
          lte(users.subscriptionEnd, now),
        ),
      )
      .returning({ id: users.id, plan: users.subscriptionPlan, end: users.subscriptionEnd });
    for (const user of lapsed) {
      await tx.insert(auditLog).values({
        actorId: null,
        subjectUserId: user.id,
        action: "subscription.expired",
        reason: "the paid month ended",
        changes: { plan: user.plan, end: user.end },
      });
      if (user.end) await remindOnce(tx, user.id, user.end, "expired");
    }
    return lapsed.length;
  });
}
