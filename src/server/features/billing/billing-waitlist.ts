// The paid waitlist as its buyer sees it: which tracks are still for sale, and their place.
import { eq } from "drizzle-orm";
import { nextCohort } from "../../../shared/billing.ts";
import type { WaitlistStatus } from "../../../shared/contracts/billing.ts";
import type { CurrentUser } from "../../auth/session.ts";
import type { Db } from "../../db/client.ts";
import { waitlist } from "../../db/schema.ts";

/**
 * docs/subscriptions.md, "The paid waitlist": which waitlist tracks the page hides for this user.
 */
export function waitlistHidden(user: Pick<CurrentUser, "plan" | "intermediatePaid" | "advancedPaid">) {
  return {
    intermediate: user.intermediatePaid || user.advancedPaid || user.plan === "intermediate" || user.plan === "advanced" || user.plan === "admin",
    advanced: user.advancedPaid || user.plan === "advanced" || user.plan === "admin",
  };
}

export async function getWaitlistStatus(db: Db, user: CurrentUser, now: Date): Promise<WaitlistStatus> {
  const [entry] = await db.select().from(waitlist).where(eq(waitlist.userId, user.id));
  return {
    cohort: nextCohort(now),
    paid: user.waitlistPaid,
    paidPlan: entry?.plan ?? null,
    admitted: user.waitlistAdmitted,
    hidden: waitlistHidden(user),
  };
}
