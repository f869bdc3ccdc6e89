// What each plan and waitlist track offers (docs/product.md, "Subscription page"), and how prices
// read on the page.
import type { PaidPlan } from "../../../shared/plans.ts";
import { onFirstUse } from "../../../shared/formatters.ts";

export type PlanCardId = "free" | PaidPlan;

export const PLAN_TITLES: Record<PlanCardId, string> = {
  free: "Free",
  intermediate: "Intermediate",
  advanced: "Advanced",
};

export const PLAN_FEATURES: Record<PlanCardId, readonly string[]> = {
  free: ["Beginner course", "Basic trading resources", "Community forum under every lesson", "Email support"],
  intermediate: [
    "Intermediate course",
    "Chart patterns",
    "Risk management",
    "Trading psychology",
    "Market structure",
    "Email and chat support",
  ],
  advanced: [
    "All courses",
    "Pro trading strategies",
    "Algorithmic trading basics",
    "Portfolio management",
    "1-on-1 mentorship",
    "Priority support",
  ],
};

/** The waitlist cards' one-line pitch for each track. */
export const TRACK_DESCRIPTIONS: Record<PaidPlan, string> = {
  intermediate:
    "For traders who know the basics: read chart patterns, size risk and understand market structure over 4 weeks.",
  advanced:
    "For experienced traders: professional strategies, algorithmic basics and portfolio management, with 1-on-1 mentorship.",
};

const amount = onFirstUse(() => new Intl.NumberFormat("en-US", { maximumFractionDigits: 2 }));

/** "$35/month" */
export function usdPerMonth(usd: number): string {
  return `$${amount().format(usd)}/month`;
}

/** "GH₵ 1,545/month" */
export function ghsPerMonth(ghs: number): string {
  return `GH₵ ${amount().format(ghs)}/month`;
}

/** A period end as people read it: "14 March 2027". */
export function formatDate(iso: string): string {
  return new Date(iso).toLocaleDateString("en-GB", { day: "numeric", month: "long", year: "numeric" });
}
