// Expiry: paid months that are over end, or hand over to the paid time queued after them, and
// their reminders are queued, each once.
import { addDays } from "date-fns/addDays";
import { and, eq, gt, inArray, isNull, lte } from "drizzle-orm";
import { PAID_PLANS, renewalHolds } from "../../../shared/plans.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, subscriptionReminders, users } from "../../db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { cancelMentorshipWithoutAdvanced } from "../support/support.seam.ts";
import { renewalMayStillCome } from "./billing-auto-renewal.ts";

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
 * entry each, and queues the reminders: 3 days before the end and at the end. A period followed by
 * queued paid time does not end: the queued plan becomes current, from the old end to queuedEnd
 * (docs/subscriptions.md, "Paid time is never lost"), with no reminder. Nor does a period whose
 * automatic renewal is due or under way: it ends, and its learner is told, only once the renewal
 * has failed or can no longer come ("Automatic renewal"). Run periodically; resolves with how
 * many ended.
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
          // Access goes on with the queued plan: its own end is reminded once it is current.
          isNull(users.queuedPlan),
        ),
      );
    for (const user of endingSoon) if (user.end) await remindOnce(tx, user.id, user.end, "ending-soon");

    const lapsed = await tx
      .select({
        id: users.id,
        plan: users.subscriptionPlan,
        end: users.subscriptionEnd,
        queuedPlan: users.queuedPlan,
        queuedEnd: users.queuedEnd,
        autoRenew: users.autoRenew,
        renewalFailedFor: users.renewalFailedFor,
      })
      .from(users)
      .where(
        and(
          eq(users.subscriptionStatus, "active"),
          inArray(users.subscriptionPlan, [...PAID_PLANS]),
          lte(users.subscriptionEnd, now),
        ),
      )
      .for("update");
    let ended = 0;
    for (const user of lapsed) {
      const { queuedPlan, queuedEnd, end } = user;
      const handOver = queuedPlan && queuedEnd && end && queuedEnd > end ? { plan: queuedPlan, start: end, end: queuedEnd } : null;
      // The queued plan takes over from the old end (even when it too is over: the server was down).
      const next = handOver
        ? { subscriptionPlan: handOver.plan, subscriptionStart: handOver.start, subscriptionEnd: handOver.end, queuedPlan: null, queuedEnd: null }
        : { queuedPlan: null, queuedEnd: null };
      const lastEnd = handOver?.end ?? end;
      // Being renewed: it runs on, and nobody is told of an end, until the renewal has failed.
      const renewing = lastEnd !== null && renewalHolds(user, lastEnd, now) && (await renewalMayStillCome(tx, user.id, lastEnd, now));
      if (renewing && !handOver) continue;
      const continues = (handOver !== null && handOver.end > now) || renewing;
      const status = continues ? ("active" as const) : ("expired" as const);
      await tx.update(users).set({ ...next, subscriptionStatus: status }).where(eq(users.id, user.id));
      if (user.plan === "advanced") {
        // Mentorship needs Advanced: its end (to the queued Intermediate, or to nothing) cancels the open requests.
        const after = { subscriptionPlan: handOver?.plan ?? user.plan, subscriptionStatus: status, subscriptionEnd: handOver?.end ?? end };
        await cancelMentorshipWithoutAdvanced(tx, { userId: user.id, after, now, why: "expiry" });
      }
      if (handOver) {
        await tx.insert(auditLog).values({
          actorId: null,
          subjectUserId: user.id,
          action: "subscription.continued",
          reason: "the paid month ended; the paid time queued after it runs now",
          changes: { from: { plan: user.plan, end }, to: { plan: handOver.plan, end: handOver.end } },
        });
      }
      if (continues) continue;
      const last = handOver ?? { plan: user.plan, end };
      await tx.insert(auditLog).values({
        actorId: null,
        subjectUserId: user.id,
        action: "subscription.expired",
        reason: "the paid month ended",
        changes: { plan: last.plan, end: last.end },
      });
      if (last.end) await remindOnce(tx, user.id, last.end, "expired");
      ended++;
    }
    return ended;
  });
}
