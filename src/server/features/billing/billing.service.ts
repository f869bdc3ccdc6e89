// Subscriptions and the paid waitlist. The server prices every plan, creates every Paystack
// transaction, and credits a payment exactly once, only after Paystack confirms it. Each part
// lives in its own file beside this one (pricing, checkout, crediting, waitlist, expiry); here are
// what they share and the learner's subscription.
import { eq } from "drizzle-orm";
import type { FastifyBaseLogger } from "fastify";
import { checkEligibility, remainingDays, type Eligibility } from "../../../shared/billing.ts";
import { BILLING_MESSAGES, type Subscription } from "../../../shared/contracts/billing.ts";
import { paidTime, PLAN_LABELS, type PaidPlan } from "../../../shared/plans.ts";
import type { CurrentUser } from "../../auth/session.ts";
import type { Db } from "../../db/client.ts";
import { config } from "../../db/schema.ts";
import type { Env } from "../../env.ts";
import type { PaystackClient } from "../../integrations/paystack.ts";
import type { Metrics } from "../../metrics/metrics.ts";
import { HttpError } from "../../plugins/errors.ts";

export type BillingDeps = {
  db: Db;
  env: Env;
  log: FastifyBaseLogger;
  paystack: PaystackClient | null;
  metrics: Pick<Metrics, "paymentCredited" | "exchangeRateFetchFailed" | "exchangeRateRefused">;
};

export type Kind = "subscription" | "waitlist";

export function eligibilityFor(user: CurrentUser, target: PaidPlan | null, now: Date): Eligibility {
  // The running period's end: the queued plan's once the stored period is over.
  const end = paidTime(user, now).current?.end ?? user.subscriptionEnd;
  return checkEligibility({ plan: user.plan, subscriptionEnd: end }, target, now);
}

/** Checkout and its quote refuse alike: the eligibility's reason, 409 (docs/subscriptions.md, "Eligibility and the renewal window"). */
export function requireEligible(user: CurrentUser, target: PaidPlan, now: Date): void {
  const eligibility = eligibilityFor(user, target, now);
  if (!eligibility.canChange) throw new HttpError(409, "NOT_ELIGIBLE", eligibility.reason ?? BILLING_MESSAGES.cannotChange);
}

export async function getSubscription(db: Db, user: CurrentUser, now: Date): Promise<Subscription> {
  const [lock] = await db.select().from(config).where(eq(config.key, "subscription"));
  const locked = typeof lock?.value === "object" && lock.value !== null && "locked" in lock.value && lock.value.locked === true;
  const paid = user.plan === "intermediate" || user.plan === "advanced";
  const { current, queued } = paidTime(user, now);
  return {
    status: paid ? "active" : user.subscriptionStatus === "active" ? "expired" : user.subscriptionStatus,
    plan: { name: user.plan, label: PLAN_LABELS[user.plan] },
    currentPeriodEnd: current ? current.end.toISOString() : null,
    remainingDays: current ? remainingDays(current.end, now) : null,
    queued: queued && {
      plan: { name: queued.plan, label: PLAN_LABELS[queued.plan] },
      startsAt: queued.start.toISOString(),
      endsAt: queued.end.toISOString(),
    },
    locked,
  };
}
