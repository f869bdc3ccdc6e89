// The cohorts of the admin console (docs/admin.md, "Cohorts"): the quarterly intakes, their paid
// places by track, and "Admit all", which admits a cohort's track in one run the browser follows.
import { addMonths } from "date-fns/addMonths";
import * as z from "zod/mini";
import { ACADEMY_TIME_ZONE, academyTimeToInstant } from "../academy-time.ts";
import { PAID_PLANS, PLAN_LABELS, type PaidPlan } from "../plans.ts";
import { paginationSchema } from "./admin.ts";
import { onFirstUse } from "../formatters.ts";
import { endpoint } from "./endpoint.ts";

/** Cohorts shown per page of the Waitlist tab, newest start first. */
export const COHORTS_PAGE_SIZE = 6;
export const COHORT_NAME_MAX = 60;

const track = (name: PaidPlan) => PLAN_LABELS[name];

export const COHORT_MESSAGES = {
  nameRequired: "Enter the cohort's name, for example January 2027.",
  startRequired: "Enter the cohort's start date.",
  tracksRequired: "Choose at least one track: Intermediate, Advanced or both.",
  exists: (name: string) => `There is already a cohort named ${name}.`,
  notFound: (name: string) => `There is no cohort named ${name}.`,
  trackHasPlaces: (cohort: string, plan: PaidPlan, places: number) =>
    `${places} ${places === 1 ? "learner has" : "learners have"} paid for the ${track(plan)} track of ${cohort}, so it stays.`,
  created: (name: string) => `Cohort ${name} created.`,
  saved: (name: string) => `Cohort ${name} saved.`,
  saveFailed: "Failed to save the cohort.",
  everyoneAdmitted: (cohort: string, plan: PaidPlan) => `Everyone on the ${cohort} ${track(plan)} waitlist is already admitted.`,
  alreadyRunning: (cohort: string, plan: PaidPlan) => `Admit all is already running for the ${cohort} ${track(plan)} waitlist.`,
  runNotFound: "This Admit all run does not exist.",
  admitAllTitle: (cohort: string, plan: PaidPlan) => `Admit all ${track(plan)} learners of ${cohort}`,
  admitAllConfirm: (count: number, cohort: string, plan: PaidPlan, startsOn: string, now: Date) => {
    const who = `Admit ${count} paid ${count === 1 ? "learner" : "learners"} of the ${cohort} ${track(plan)} waitlist?`;
    const month = cohortMonth(startsOn, now);
    const span = `from ${formatAcademyDay(month.start)} to ${formatAcademyDay(month.end)}`;
    const after = `A learner who already holds ${track(plan)} time gets the month after it. Each also gets an email welcoming them to the cohort.`;
    return month.started
      ? `${who} The cohort started on ${formatCohortStart(startsOn)}, so the month runs from admission: each gets a month of the ${track(plan)} track ${span}. ${after}`
      : `${who} Each gets a month of the ${track(plan)} track from the cohort's start, ${span}, with the program open to them from today. ${after}`;
  },
  admitAllFailed: "Failed to start Admit all.",
  progress: (done: number, total: number) => `Admitting: ${done} of ${total}`,
  result: (admitted: number, total: number) => `Admitted ${admitted} of ${total}`,
  failures: (failed: number, error: string | null) =>
    `${failed} could not be admitted${error ? ` (${error})` : ""}. Start Admit all again to try them once more.`,
  skipped: (skipped: number) =>
    `${skipped} ${skipped === 1 ? "was" : "were"} admitted by hand or refunded while it ran.`,
  stopped: (error: string | null) => `Admit all stopped${error ? `: ${error}` : ""}. Start it again to admit the rest.`,
} as const;

const dayFormat = onFirstUse(() => new Intl.DateTimeFormat("en-GB", {
  timeZone: ACADEMY_TIME_ZONE,
  weekday: "long",
  day: "numeric",
  month: "long",
  year: "numeric",
}));

/** A cohort's start day as people read it, on the academy's calendar: "Friday 1 January 2027". */
export function formatCohortStart(startsOn: string): string {
  // Midday: the day is the same on Accra's calendar whatever its offset from UTC.
  return dayFormat().format(new Date(`${startsOn}T12:00:00Z`)).replace(",", "");
}

/** A day on the academy's calendar as people read it: "Friday 1 January 2027". */
export function formatAcademyDay(instant: Date): string {
  return dayFormat().format(instant).replace(",", "");
}

/** When a cohort starts: the first minute of its start day on the academy's calendar. */
export function cohortStartInstant(startsOn: string): Date {
  const start = academyTimeToInstant(`${startsOn}T00:00`);
  if (!start) throw new Error(`a cohort's start is a calendar day: ${startsOn}`);
  return start;
}

/**
 * The month a learner admitted to a cohort at `now` is given (docs/subscriptions.md, "Admit from
 * waitlist"): from the cohort's start, or from admission once the cohort has started. A learner who
 * holds time of the same plan already gets it after that time (addPaidMonth on the server).
 */
export function cohortMonth(startsOn: string, now: Date): { start: Date; end: Date; started: boolean } {
  const cohortStart = cohortStartInstant(startsOn);
  const started = cohortStart.getTime() <= now.getTime();
  const start = started ? now : cohortStart;
  return { start, end: addMonths(start, 1), started };
}

const planSchema = z.enum(PAID_PLANS, { error: COHORT_MESSAGES.tracksRequired });

const cohortName = z
  .string({ error: COHORT_MESSAGES.nameRequired })
  .check(z.trim(), z.minLength(1, COHORT_MESSAGES.nameRequired), z.maxLength(COHORT_NAME_MAX, COHORT_MESSAGES.nameRequired));

/** The cohort's fields as the form sends them; the start is a calendar day (YYYY-MM-DD). */
const cohortFields = {
  startsOn: z.iso.date({ error: COHORT_MESSAGES.startRequired }),
  tracks: z
    .array(planSchema, { error: COHORT_MESSAGES.tracksRequired })
    .check(z.minLength(1, COHORT_MESSAGES.tracksRequired), z.maxLength(PAID_PLANS.length * 2, COHORT_MESSAGES.tracksRequired)),
};

/** POST /api/admin/cohorts: a new cohort (409 when the name, in any case, is taken). */
export const createCohortRequestSchema = z.object({ name: cohortName, ...cohortFields });
export type CreateCohortRequest = z.input<typeof createCohortRequestSchema>;

/** PUT /api/admin/cohorts/:name: its start and tracks (a track with paid places stays). */
export const updateCohortRequestSchema = z.object(cohortFields);
export type UpdateCohortRequest = z.input<typeof updateCohortRequestSchema>;

export const cohortParamsSchema = z.object({ name: z.string().check(z.minLength(1), z.maxLength(COHORT_NAME_MAX)) });

export const cohortsQuerySchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000)), 1),
});

/** POST /api/admin/cohorts/:name/admit-all */
export const admitAllRequestSchema = z.object({ track: planSchema });

export const admissionRunParamsSchema = z.object({ id: z.uuid(COHORT_MESSAGES.runNotFound) });

export const ADMISSION_RUN_STATUSES = ["running", "done", "failed"] as const;

/**
 * One "Admit all": how many were waiting when it started (`total`), how many it has admitted and
 * how many failed so far. `done` or `failed` once it has ended.
 */
export const admissionRunSchema = z.object({
  id: z.string(),
  cohort: z.string(),
  track: z.enum(PAID_PLANS),
  status: z.enum(ADMISSION_RUN_STATUSES),
  total: z.int(),
  admitted: z.int(),
  failed: z.int(),
  lastError: z.nullable(z.string()),
  createdAt: z.string(),
  finishedAt: z.nullable(z.string()),
});
export type AdmissionRun = z.infer<typeof admissionRunSchema>;
export const admissionRunResponseSchema = z.object({ run: admissionRunSchema });

/** A track of a cohort: its paid places, how many of them are admitted, and its latest run. */
export const cohortTrackSchema = z.object({
  track: z.enum(PAID_PLANS),
  /** Whether the cohort offers it; a track with places but not offered is still shown. */
  offered: z.boolean(),
  paid: z.int(),
  admitted: z.int(),
  lastRun: z.nullable(admissionRunSchema),
});
export type CohortTrack = z.infer<typeof cohortTrackSchema>;

export const cohortSchema = z.object({
  name: z.string(),
  startsOn: z.string(),
  tracks: z.array(z.enum(PAID_PLANS)),
  byTrack: z.array(cohortTrackSchema),
});
export type Cohort = z.infer<typeof cohortSchema>;
export const cohortResponseSchema = z.object({ cohort: cohortSchema });

/** GET /api/admin/cohorts?page=: newest start first. */
export const cohortListSchema = z.extend(paginationSchema, { cohorts: z.array(cohortSchema) });
export type CohortList = z.infer<typeof cohortListSchema>;

/** The cohorts of the Waitlist tab and "Admit all" (docs/admin.md, "Cohorts"). */
export const COHORT_ENDPOINTS = {
  list: endpoint({ method: "GET", path: "/api/admin/cohorts", query: cohortsQuerySchema, response: cohortListSchema }),
  create: endpoint({ method: "POST", path: "/api/admin/cohorts", body: createCohortRequestSchema, response: cohortResponseSchema, status: 201 }),
  update: endpoint({ method: "PUT", path: "/api/admin/cohorts/:name", params: cohortParamsSchema, body: updateCohortRequestSchema, response: cohortResponseSchema }),
  admitAll: endpoint({
    method: "POST",
    path: "/api/admin/cohorts/:name/admit-all",
    params: cohortParamsSchema,
    body: admitAllRequestSchema,
    response: admissionRunResponseSchema,
    status: 202,
  }),
  admissionRun: endpoint({ method: "GET", path: "/api/admin/cohort-admissions/:id", params: admissionRunParamsSchema, response: admissionRunResponseSchema }),
};
