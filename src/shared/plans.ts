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
  subscriptionEnd: Date | null;
};

/**
 * The plan a user actually has now: a paid plan counts only while its period runs; admin and
 * legacyFree never expire; a user without a plan is free.
 */
export function effectivePlan(user: Entitlement, now: Date): Plan {
  const plan = user.subscriptionPlan ?? "legacyFree";
  if (plan === "admin" || plan === "legacyFree") return plan;
  const active =
    user.subscriptionStatus === "active" &&
    user.subscriptionEnd !== null &&
    user.subscriptionEnd.getTime() > now.getTime();
  return active ? plan : "legacyFree";
}

/** "Access Level" as the avatar menu shows it: the plan, or Free. */
export function accessLevelLabel(plan: Plan): string {
  return plan === "legacyFree" ? "Free" : PLAN_LABELS[plan];
}
