// The admin console's dashboard (docs/admin.md, "Dashboard"): GET /api/admin/dashboard, its
// period and its answer. Every figure is computed by the server; each section carries the one-line
// caption that says what it counts, so the browser shows exactly the server's words.
import * as z from "zod/mini";
import { PAID_PLANS } from "../plans.ts";
import { endpoint } from "./endpoint.ts";

export const DASHBOARD_MESSAGES = {
  dateInvalid: "Enter each date as YYYY-MM-DD, for example 2026-03-01.",
  periodReversed: "The start date must be on or before the end date.",
  noRevenue: "No payments in these 12 months.",
  noLearners: "No learner holds a paid plan today.",
  noRegistrations: "No one registered in this period.",
  noCompletion: "No learner has started a program yet.",
  noStops: "No learner is part-way through a program.",
  noWaitlist: "No one has paid for a waitlist place yet.",
  /** Where a learner who watched every video of a program stands until they pass its quiz. */
  quizStop: "Quiz",
} as const;

/** The funnel's default period: the last 30 days, today included. */
export const DEFAULT_PERIOD_DAYS = 30;
/** How many months the revenue chart shows, this one included. */
export const REVENUE_MONTHS = 12;
/** How many lessons the "where learners stop" list shows. */
export const STOP_LESSONS = 10;
/** How many cohorts the waitlist chart shows, the latest first. */
export const WAITLIST_COHORTS = 8;
/** Renewals due within this many days, and expiries within the other (docs/admin.md, "Dashboard"). */
export const RENEWAL_DAYS = 7;
export const EXPIRY_DAYS = 30;

const DAY_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

/** A calendar day, "2026-03-01", that exists (not 2026-02-30). */
export function isCalendarDay(value: string): boolean {
  if (!DAY_PATTERN.test(value)) return false;
  const parsed = new Date(`${value}T00:00:00Z`);
  return !Number.isNaN(parsed.getTime()) && parsed.toISOString().slice(0, 10) === value;
}

const day = z.string(DASHBOARD_MESSAGES.dateInvalid).check(z.refine(isCalendarDay, DASHBOARD_MESSAGES.dateInvalid));

/** GET /api/admin/dashboard?from=YYYY-MM-DD&to=YYYY-MM-DD: the funnel's days, both included. */
export const dashboardQuerySchema = z.object({ from: z.optional(day), to: z.optional(day) });
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

/** The message for a period the server refuses, or null; both sides check with it. */
export function periodError(from: string, to: string): string | null {
  if (!isCalendarDay(from) || !isCalendarDay(to)) return DASHBOARD_MESSAGES.dateInvalid;
  return from > to ? DASHBOARD_MESSAGES.periodReversed : null;
}

/** Days move on the academy's calendar: Africa/Accra, which is UTC all year. */
export function addDays(dayText: string, days: number): string {
  const date = new Date(`${dayText}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** "2026-03-01" -> "1 March 2026". */
export function formatDay(dayText: string): string {
  const [year, month, date] = dayText.split("-").map(Number);
  return `${date} ${MONTHS[(month ?? 1) - 1]} ${year}`;
}

/** "2026-03" -> "March 2026"; `short` gives "Mar 2026", as the chart's axis reads it. */
export function formatMonth(month: string, short = false): string {
  const [year, index] = month.split("-").map(Number);
  const name = MONTHS[(index ?? 1) - 1] ?? "";
  return `${short ? name.slice(0, 3) : name} ${year}`;
}

/** The captions (docs/admin.md, "Dashboard"): one line each, saying exactly what is counted. */
export const DASHBOARD_CAPTIONS = {
  revenue:
    "Cedis received each month: successful payments on the day they were paid, less refunds on the day they were processed (Accra time).",
  monthToDate: (days: number, month: string, lastMonth: string) =>
    `${formatMonth(month)} so far (days 1 to ${days}) against the same days of ${formatMonth(lastMonth)}, and all of ${formatMonth(lastMonth)}.`,
  learners: "Learners whose paid plan runs today, by plan; administrators are not counted.",
  renewals: `Learners whose paid time ends in the next ${RENEWAL_DAYS} days, and how many of them have already paid for the next month.`,
  expiries: `Learners whose paid time ended in the last ${EXPIRY_DAYS} days and who hold no paid plan today.`,
  funnel: (from: string, to: string) =>
    `Learners who registered from ${formatDay(from)} to ${formatDay(to)}, and how many of them went on to each next step (to this day).`,
  completion:
    "Started: learners who watched a first video; finished: learners holding a valid certificate; days from the first video to the certificate.",
  stops: `Where learners who started a program and have not finished it are: the first video they have not watched, or the quiz; the ${STOP_LESSONS} most common.`,
  waitlist: `Paid waitlist places by cohort and track, and how many were admitted; the ${WAITLIST_COHORTS} latest cohorts.`,
} as const;

const count = z.int().check(z.minimum(0));
const pesewas = z.int();

export const revenueMonthSchema = z.object({
  /** "2026-03", on the academy's calendar. */
  month: z.string(),
  /** Successful payments paid in the month, in pesewas. */
  receivedMinor: pesewas,
  /** Refunds processed in the month, in pesewas. */
  refundedMinor: pesewas,
  /** receivedMinor - refundedMinor: below 0 when more was refunded than received. */
  netMinor: pesewas,
});
export type RevenueMonth = z.infer<typeof revenueMonthSchema>;

export const FUNNEL_STEPS = ["registered", "verified", "startedBeginner", "finishedBeginner", "paid"] as const;
export type FunnelStep = (typeof FUNNEL_STEPS)[number];
export const FUNNEL_LABELS: Record<FunnelStep, string> = {
  registered: "Registered",
  verified: "Verified their email",
  startedBeginner: "Started Beginner",
  finishedBeginner: "Finished Beginner",
  paid: "Paid",
};

export const dashboardSchema = z.object({
  /** When the figures were computed. */
  computedAt: z.string(),
  revenue: z.object({
    caption: z.string(),
    /** The last REVENUE_MONTHS months, oldest first, this one last (so far). */
    months: z.array(revenueMonthSchema),
    monthToDate: z.object({
      caption: z.string(),
      /** This month's net so far, days 1 to `days`. */
      thisMonthMinor: pesewas,
      /** Last month's net over the same days of the month. */
      lastMonthSameDaysMinor: pesewas,
      /** All of last month's net. */
      lastMonthMinor: pesewas,
      days: z.int(),
    }),
  }),
  learners: z.object({
    caption: z.string(),
    byPlan: z.array(z.object({ plan: z.enum(PAID_PLANS), learners: count })),
    total: count,
  }),
  renewals: z.object({
    caption: z.string(),
    /** Paid time ending in the next RENEWAL_DAYS days, the renewed among them. */
    due: count,
    renewed: count,
    expiriesCaption: z.string(),
    /** Paid time ended in the last EXPIRY_DAYS days, not renewed. */
    expiredNotRenewed: count,
  }),
  funnel: z.object({
    caption: z.string(),
    from: z.string(),
    to: z.string(),
    steps: z.array(
      z.object({
        step: z.enum(FUNNEL_STEPS),
        label: z.string(),
        learners: count,
        /** The share of the step before that made this one (0 to 1); null for the first, or after 0. */
        conversion: z.nullable(z.number()),
      }),
    ),
  }),
  completion: z.object({
    caption: z.string(),
    programs: z.array(
      z.object({
        programId: z.string(),
        title: z.string(),
        started: count,
        finished: count,
        /** The median of the finishers' days from the first video to the certificate; null without any. */
        medianDaysToFinish: z.nullable(z.number()),
      }),
    ),
  }),
  stops: z.object({
    caption: z.string(),
    lessons: z.array(
      z.object({
        programId: z.string(),
        programTitle: z.string(),
        /** "Section 2: Risk management", or "Quiz" when every video is watched. */
        lesson: z.string(),
        learners: count,
      }),
    ),
  }),
  waitlist: z.object({
    caption: z.string(),
    cohorts: z.array(
      z.object({
        cohort: z.string(),
        startsOn: z.string(),
        tracks: z.array(z.object({ track: z.enum(PAID_PLANS), paid: count, admitted: count })),
      }),
    ),
  }),
});
export type Dashboard = z.infer<typeof dashboardSchema>;

/** Every figure of the console's first tab, for the funnel's period (docs/admin.md, "Dashboard"). */
export const DASHBOARD_ENDPOINTS = {
  dashboard: endpoint({ method: "GET", path: "/api/admin/dashboard", query: dashboardQuerySchema, response: dashboardSchema }),
};
