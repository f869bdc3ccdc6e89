// Money and subscription rules that both sides read. Pure: no I/O, "now" always passed in.
import { PLAN_RANK, type PaidPlan, type Plan } from "./plans.ts";
import { onFirstUse } from "./formatters.ts";

/** docs/subscriptions.md, "Pricing": subscription prices when the program has none. */
export const DEFAULT_SUBSCRIPTION_USD: Record<PaidPlan, number> = { intermediate: 35, advanced: 50 };
/** docs/subscriptions.md, "Pricing": waitlist prices when the program has none. */
export const DEFAULT_WAITLIST_USD: Record<PaidPlan, number> = { intermediate: 100, advanced: 200 };
/**
 * docs/subscriptions.md, "Pricing": without an exchange rate, the waitlist shows 12 cedis per
 * dollar.
 */
export const WAITLIST_FALLBACK_RATE = 12;
/**
 * docs/subscriptions.md, "Eligibility and the renewal window": renewing or changing plan opens in
 * the last 7 days of a period.
 */
export const RENEWAL_WINDOW_DAYS = 7;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * The charge in pesewas: USD price x rate, rounded to whole cedis, x 100
 * (docs/subscriptions.md, "Pricing").
 */
export function cediAmountPesewas(usd: number, ghsPerUsd: number): number {
  return Math.round(usd * ghsPerUsd) * 100;
}

const cediNumber = onFirstUse(() => new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));

/** Pesewas as the admin console shows them (docs/data.md, "Money"): 54000 -> "₵540.00". */
export function formatCedis(amountMinor: number): string {
  return `₵${cediNumber().format(amountMinor / 100)}`;
}

/** Pesewas as learners read them, on their payments, receipts and emails: 54000 -> "GH₵ 540.00". */
export function formatGhs(amountMinor: number): string {
  return `GH₵ ${cediNumber().format(amountMinor / 100)}`;
}

const usdNumber = onFirstUse(() => new Intl.NumberFormat("en-US", { minimumFractionDigits: 2, maximumFractionDigits: 2 }));
const rateNumber = onFirstUse(() => new Intl.NumberFormat("en-US", { maximumFractionDigits: 4 }));

/**
 * A receipt's price line (docs/subscriptions.md, "Receipts"): the dollar price and the rate it was
 * charged at, the rate to at most 4 decimals without trailing zeros: "US$ 35.00 at 15.45 cedis per
 * dollar" for 3500 cents at "15.450000".
 */
export function priceAtRateText(priceUsdCents: number, exchangeRate: string): string {
  return `US$ ${usdNumber().format(priceUsdCents / 100)} at ${rateNumber().format(Number(exchangeRate))} cedis per dollar`;
}

/** Days left in a period: the ceiling of the days to its end, never below 0. */
export function remainingDays(end: Date, now: Date): number {
  return Math.max(0, Math.ceil((end.getTime() - now.getTime()) / DAY_MS));
}

/** "Expires Today", "1 day", "N days" (docs/subscriptions.md, "Remaining days"). */
export function remainingDaysLabel(days: number): string {
  if (days <= 0) return "Expires Today";
  return days === 1 ? "1 day" : `${days} days`;
}

/**
 * The next quarterly cohort, named by its start month (docs/subscriptions.md, "Cohorts"): before
 * April gives April, before July gives July, before October gives October, otherwise January next
 * year.
 */
export function nextCohort(now: Date): { name: string; startsOn: string } {
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth(); // 0 = January
  const [startMonth, startYear] = month < 3 ? [3, year] : month < 6 ? [6, year] : month < 9 ? [9, year] : [0, year + 1];
  const names = ["January", "", "", "April", "", "", "July", "", "", "October"];
  return {
    name: `${names[startMonth]} ${startYear}`,
    startsOn: `${startYear}-${String(startMonth + 1).padStart(2, "0")}-01`,
  };
}

/**
 * docs/subscriptions.md, "Payment references": LTF-{PLAN}-{timestamp} or
 * LTF-WAITLIST-{PLAN}-{timestamp}.
 */
export function paymentReference(kind: "subscription" | "waitlist", plan: PaidPlan, timestampMs: number): string {
  const prefix = kind === "waitlist" ? "LTF-WAITLIST" : "LTF";
  return `${prefix}-${plan.toUpperCase()}-${timestampMs}`;
}

export type Eligibility = { canChange: boolean; reason: string | null; daysToWait: number };

/**
 * May this user buy `target` now (docs/subscriptions.md, "Eligibility and the renewal window")?
 * Free or lapsed users may buy any paid plan; Intermediate may move up to Advanced at any time; in
 * the last 7 days of a period a user may renew or change; otherwise they wait until that window
 * opens.
 */
export function checkEligibility(
  user: { plan: Plan; subscriptionEnd: Date | null },
  target: PaidPlan | null,
  now: Date,
): Eligibility {
  if (user.plan === "admin") {
    return { canChange: false, reason: "Administrators already have every program.", daysToWait: 0 };
  }
  if (user.plan === "legacyFree" || !user.subscriptionEnd) return { canChange: true, reason: null, daysToWait: 0 };
  if (user.plan === "intermediate" && target === "advanced") return { canChange: true, reason: null, daysToWait: 0 };
  const left = remainingDays(user.subscriptionEnd, now);
  if (left <= RENEWAL_WINDOW_DAYS) return { canChange: true, reason: null, daysToWait: 0 };
  const daysToWait = left - RENEWAL_WINDOW_DAYS;
  return {
    canChange: false,
    reason: `You can renew or change your plan in the last ${RENEWAL_WINDOW_DAYS} days of your current month (in ${daysToWait} ${daysToWait === 1 ? "day" : "days"}).`,
    daysToWait,
  };
}

/** What a subscription payment does to the plan: `success` is the upgrade (the original's word). */
export type SubscriptionPaymentOutcome = "success" | "renewed" | "queued";

/**
 * docs/subscriptions.md, "Paid time is never lost": a month of the plan already held is a renewal,
 * a month of a lower plan waits after the current one, anything else is an upgrade that starts now.
 */
export function subscriptionPaymentOutcome(current: Plan | null, bought: PaidPlan): SubscriptionPaymentOutcome {
  if (current === bought) return "renewed";
  if (current !== null && PLAN_RANK[current] > PLAN_RANK[bought]) return "queued";
  return "success";
}
