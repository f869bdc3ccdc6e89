// Before paying: what a month of a plan would do to the learner's paid time, said by the server
// with the very rule that credits the payment (docs/subscriptions.md, "Before paying").
import { remainingDays, subscriptionPaymentOutcome } from "../../../shared/billing.ts";
import { BILLING_MESSAGES, type SubscriptionQuote } from "../../../shared/contracts/billing.ts";
import { paidTime, PLAN_LABELS, type PaidPlan } from "../../../shared/plans.ts";
import type { CurrentUser } from "../../auth/session.ts";
import { HttpError } from "../../plugins/errors.ts";
import { addPaidMonth, paidMonthOf, type SubscriptionState } from "../users/users.seam.ts";
import { loadPriceBook, quote } from "./billing-pricing.ts";
import { requireEligible, type BillingDeps } from "./billing.service.ts";

const planRef = (plan: PaidPlan) => ({ name: plan, label: PLAN_LABELS[plan] });

/**
 * The quote for a month of `plan` bought now: its price (quote(), as checkout charges it), the
 * month it buys (paidMonthOf, as the receipt names it) and what runs after it (addPaidMonth, as
 * crediting writes it). Refused as checkout refuses: not eligible, or an administrator.
 */
export async function quoteSubscription(deps: BillingDeps, user: CurrentUser, plan: PaidPlan, now: Date): Promise<SubscriptionQuote> {
  requireEligible(user, plan, now);
  const price = quote(await loadPriceBook(deps, now), "subscription", plan);
  return subscriptionQuoteOf(user, plan, now, { ghsPesewas: price.ghsPesewas, usdCents: price.usdCents });
}

/** The pure part of quoteSubscription: the learner's paid time before and after the month is added. */
export function subscriptionQuoteOf(
  user: SubscriptionState,
  plan: PaidPlan,
  now: Date,
  price: SubscriptionQuote["price"],
): SubscriptionQuote {
  const month = paidMonthOf(user, plan, now);
  // Only an administrator has no month to buy, and eligibility refuses them first.
  if (!month) throw new HttpError(409, "NOT_ELIGIBLE", BILLING_MESSAGES.cannotChange);
  const before = paidTime(user, now).current;
  const after = paidTime(addPaidMonth(user, plan, now), now).queued;
  return {
    plan: planRef(plan),
    outcome: subscriptionPaymentOutcome(before?.plan ?? null, plan),
    price,
    month: { startsAt: month.start.toISOString(), endsAt: month.end.toISOString() },
    current: before && { plan: planRef(before.plan), endsAt: before.end.toISOString(), daysLeft: remainingDays(before.end, now) },
    then: after && { plan: planRef(after.plan), startsAt: after.start.toISOString(), endsAt: after.end.toISOString() },
  };
}
