// Mentorship needs the Advanced plan (docs/product.md, "Questions and mentorship"). Every change
// that can take the plan away (a refund, the expiry job, an administrator's or operator's change)
// calls this in its own transaction, so a learner who loses Advanced never keeps a request open
// that an administrator might still confirm. A seam (docs/architecture.md): users and billing call it.
import { and, eq, gt, or } from "drizzle-orm";
import { SUPPORT_MESSAGES, type MentorshipLoss } from "../../../shared/contracts/support.ts";
import { effectivePlan, type Entitlement } from "../../../shared/plans.ts";
import type { Tx } from "../../db/client.ts";
import { auditLog, mentorshipRequests } from "../../db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";

export const MENTORSHIP_JOB = "mentorship-email";
export type { MentorshipLoss };

/**
 * Cancels the learner's open mentorship requests (waiting for a time, or confirmed for a time still
 * to come) when `after`, their plan once the change is written, no longer gives Advanced at `now`.
 * Each gets the reason as its note, an audit entry and the learner's email (a job, queued here, so
 * it is sent once whichever instance runs it). Returns how many were cancelled.
 */
export async function cancelMentorshipWithoutAdvanced(
  tx: Tx,
  input: { userId: string; after: Entitlement; now: Date; why: MentorshipLoss; actorId?: string | null },
): Promise<number> {
  if (effectivePlan(input.after, input.now) === "advanced") return 0;
  const note = SUPPORT_MESSAGES.cancelledPlanLost(input.why);
  const cancelled = await tx
    .update(mentorshipRequests)
    .set({ status: "cancelled", note, decidedBy: null, decidedAt: input.now })
    .where(
      and(
        eq(mentorshipRequests.userId, input.userId),
        or(
          eq(mentorshipRequests.status, "requested"),
          and(eq(mentorshipRequests.status, "confirmed"), gt(mentorshipRequests.scheduledAt, input.now)),
        ),
      ),
    )
    .returning({ id: mentorshipRequests.id, topic: mentorshipRequests.topic });
  if (cancelled.length === 0) return 0;
  await tx.insert(auditLog).values(
    cancelled.map((request) => ({
      actorId: input.actorId ?? null,
      subjectUserId: input.userId,
      action: "mentorship.cancel",
      reason: note,
      changes: { requestId: request.id, topic: request.topic },
    })),
  );
  for (const request of cancelled) await enqueueJob(tx, MENTORSHIP_JOB, { requestId: request.id, cancelled: true });
  return cancelled.length;
}
