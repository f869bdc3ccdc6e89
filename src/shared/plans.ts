// Plans, tracks and which plan opens which track. Pure: imported by the server and the browser.

export const PLANS = ["legacyFree", "intermediate", "advanced", "admin"] as const;
export type Plan = (typeof PLANS)[number];

export const PAID_PLANS = ["intermediate", "advanced"] as const;
export type PaidPlan = (typeof PAID_PLANS)[number];

export const TRACKS = ["beginner", "intermediate", "advanced"] as const;
export type Track = (typeof TRACKS)[number];

export const PROVIDERS = ["email", "google", "mql5"] as const;
export type Provider = (typeof PROVIDERS)[number];

export const SUBSCRIPTION_STATUSES = ["inactive", "active", "expired"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];

export function isTrack(value: string): value is Track {
  return (TRACKS as readonly string[]).includes(value);
}

/**
 * The tracks each plan opens (docs/subscriptions.md, "Plans and tracks": legacyFree counts as
 * unpaid).
 */
const TRACKS_BY_PLAN: Record<Plan, readonly Track[]> = {
  legacyFree: ["beginner"],
  intermediate: ["beginner", "intermediate"],
  advanced: ["beginner", "intermediate", "advanced"],
  admin: ["beginner", "intermediate", "advanced"],
};

export function tracksForPlan(plan: Plan): readonly Track[] {
  return TRACKS_BY_PLAN[plan];
}

export function canOpenTrack(plan: Plan, track: Track): boolean {
  return TRACKS_BY_PLAN[plan].includes(track);
}

/**
 * How a plan is named to people (docs/subscriptions.md, "Plans and tracks": legacyFree reads
 * "Free (Beginner)").
 */
export const PLAN_LABELS: Record<Plan, string> = {
  legacyFree: "Free (Beginner)",
  intermediate: "Intermediate",
  advanced: "Advanced",
  admin: "Admin",
};

export type Entitlement = {
  subscriptionPlan: Plan | null;
  subscriptionStatus: SubscriptionStatus;
  subscriptionStart?: Date | null;
  subscriptionEnd: Date | null;
  /** Paid time of a lower plan that runs after the current period, to queuedEnd. */
  queuedPlan?: PaidPlan | null;
  queuedEnd?: Date | null;
  /** The learner chose automatic renewal by card (left out: no renewal is counted on). */
  autoRenew?: boolean;
  /** The period end whose automatic renewal failed or was called off. */
  renewalFailedFor?: Date | null;
};

export function isPaidPlan(plan: Plan | null): plan is PaidPlan {
  return plan === "intermediate" || plan === "advanced";
}

/** How plans rank: a higher plan opens every track of a lower one. */
export const PLAN_RANK: Record<Plan, number> = { legacyFree: 0, intermediate: 1, advanced: 2, admin: 3 };

export type PaidPeriod = { plan: PaidPlan; start: Date | null; end: Date };

const DAY_MS = 86_400_000;

/**
 * The latest a paid period ending at `end` runs on for its automatic renewal: the end of the UTC
 * day after the day it ends. The renewal is due on the day the period ends, and a charge claimed
 * that day may still be under way after midnight (docs/subscriptions.md, "Automatic renewal").
 */
export function renewalHoldEnd(end: Date): Date {
  return new Date(Math.floor(end.getTime() / DAY_MS) * DAY_MS + 2 * DAY_MS);
}

/**
 * Whether a paid period that ended at `end` runs on at `now` because its automatic renewal is due
 * or under way: the learner chose it, the renewal of this end has not failed, and the hold has
 * not run out. The renewal's month is then added at `end`; a renewal that fails ends the period
 * at once (the expiry job also ends it once nothing is due or under way any more).
 */
export function renewalHolds(user: Pick<Entitlement, "autoRenew" | "renewalFailedFor">, end: Date, now: Date): boolean {
  return (
    user.autoRenew === true &&
    end.getTime() <= now.getTime() &&
    now.getTime() < renewalHoldEnd(end).getTime() &&
    user.renewalFailedFor?.getTime() !== end.getTime()
  );
}

/**
 * The paid time a user holds at `now` (docs/subscriptions.md, "Paid time is never lost"): the
 * current period while it runs, and the lower plan queued after it. Once the current period is
 * over, the queued time is current, even before the expiry job has moved it there. The last
 * period, once over, stays current while its automatic renewal is due or under way
 * (`renewalHolds`), so that the learner keeps the plan and the renewed month starts at its end.
 */
export function paidTime(user: Entitlement, now: Date): { current: PaidPeriod | null; queued: (PaidPeriod & { start: Date }) | null } {
  const plan = user.subscriptionPlan;
  const end = user.subscriptionEnd;
  if (!isPaidPlan(plan) || user.subscriptionStatus !== "active" || end === null) return { current: null, queued: null };
  const queued =
    user.queuedPlan && user.queuedEnd && user.queuedEnd.getTime() > end.getTime()
      ? { plan: user.queuedPlan, start: end, end: user.queuedEnd }
      : null;
  if (end.getTime() > now.getTime()) return { current: { plan, start: user.subscriptionStart ?? null, end }, queued };
  if (queued && queued.end.getTime() > now.getTime()) return { current: queued, queued: null };
  const last = queued ?? { plan, start: user.subscriptionStart ?? null, end };
  if (renewalHolds(user, last.end, now)) return { current: last, queued: null };
  return { current: null, queued: null };
}

/**
 * The plan a user actually has now: a paid plan counts only while its period (or the paid time
 * queued after it) runs; admin and legacyFree never expire; a user without a plan is free.
 */
export function effectivePlan(user: Entitlement, now: Date): Plan {
  const plan = user.subscriptionPlan ?? "legacyFree";
  if (plan === "admin" || plan === "legacyFree") return plan;
  return paidTime(user, now).current?.plan ?? "legacyFree";
}

/** "Access Level" as the avatar menu shows it: the plan, or Free. */
export function accessLevelLabel(plan: Plan): string {
  return plan === "legacyFree" ? "Free" : PLAN_LABELS[plan];
}
