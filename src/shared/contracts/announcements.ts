// Announcements (docs/admin.md, "Announcements"): an administrator's message to an audience of
// learners, sent by a job, and the learner's way out of them. The routes' shapes, the limits and
// every text the administrator and the learner read.
import * as z from "zod/mini";
import { PAID_PLANS, PLAN_LABELS } from "../plans.ts";
import { groupThousands } from "../formatters.ts";
import { endpoint } from "./endpoint.ts";

export const ANNOUNCEMENT_LIMITS = {
  subject: 150,
  body: 5000,
  /** Announcements, and failed deliveries of one, per page. */
  page: 20,
} as const;

/** The plans an audience can name: the free plan stands for everyone not on an active paid plan. */
export const AUDIENCE_PLANS = ["free", ...PAID_PLANS] as const;
export type AudiencePlan = (typeof AUDIENCE_PLANS)[number];

export const AUDIENCE_KINDS = ["everyone", "plan", "cohort", "waitlist", "unfinished"] as const;
export type AudienceKind = (typeof AUDIENCE_KINDS)[number];

const learners = (n: number) => `${groupThousands(n)} ${n === 1 ? "learner" : "learners"}`;

export const ANNOUNCEMENT_MESSAGES = {
  subjectRequired: "Enter a subject.",
  subjectTooLong: `Keep the subject to ${groupThousands(ANNOUNCEMENT_LIMITS.subject)} characters or fewer.`,
  subjectOneLine: "The subject must fit on one line.",
  bodyRequired: "Enter the message.",
  bodyTooLong: `Keep the message to ${groupThousands(ANNOUNCEMENT_LIMITS.body)} characters or fewer.`,
  audienceRequired: "Choose who receives it.",
  planRequired: "Choose a plan.",
  cohortRequired: "Choose a cohort.",
  programRequired: "Choose a program.",
  noSuchCohort: (name: string) => `There is no cohort named ${name}.`,
  noSuchProgram: (track: string) => `There is no ${track} program.`,
  nobody: "Nobody is in this audience.",
  reach: (n: number) => `This announcement will reach ${learners(n)}.`,
  sendLabel: (n: number) => `Send to ${learners(n)}`,
  sendTitle: "Send this announcement?",
  sendConfirm: (subject: string, n: number) =>
    `Send "${subject}" to ${learners(n)}? Each of them receives it once, by email; it cannot be called back.`,
  started: (n: number) => `Sending to ${learners(n)}. Progress shows below.`,
  sendFailed: "Failed to send the announcement.",
  previewFailed: "Failed to preview the announcement.",
  previewStale: "The message or the audience changed since the preview: preview it again before sending.",
  previewNameNote: "Shown with your name; each learner sees their own.",
  notFound: "Announcement not found.",
  none: "No announcements yet.",
  noFailures: "No failed deliveries.",
  /** A row a killed process left half-done: it may have gone out, so it is never sent again. */
  interrupted: "Interrupted while sending; not sent again, to avoid a duplicate.",
  unsubscribedMeanwhile: "Unsubscribed before it was sent.",

  /** Closes every announcement email, followed by the learner's own unsubscribe link. */
  footer: "You receive announcements from Trading Academy. Unsubscribe:",
  visit: "Visit Trading Academy",
  unsubscribeLead:
    "Announcements are the occasional news the Trading Academy team sends to learners: new programs, cohort dates, events.",
  unsubscribeKeeps: "Receipts, password resets and other account emails are not announcements: they still reach you.",
  unsubscribeButton: "Unsubscribe from announcements",
  unsubscribed: "You will no longer receive announcements. Receipts and account emails still reach you.",
  badToken:
    "This unsubscribe link is not valid. Open the link in the most recent announcement email again, or write to us from the contact page.",
  unsubscribeFailed: "Failed to unsubscribe. Please try again.",
} as const;

export const AUDIENCE_PLAN_LABELS: Record<AudiencePlan, string> = {
  free: PLAN_LABELS.legacyFree,
  intermediate: PLAN_LABELS.intermediate,
  advanced: PLAN_LABELS.advanced,
};

export const AUDIENCE_KIND_LABELS: Record<AudienceKind, string> = {
  everyone: "Everyone",
  plan: "Learners on a plan",
  cohort: "A cohort",
  waitlist: "The waitlist (paid, not yet admitted)",
  unfinished: "Learners who have not finished a program",
};

// ---- The message and its audience ---------------------------------------------------------------

const subject = z
  .string({ error: ANNOUNCEMENT_MESSAGES.subjectRequired })
  .check(
    z.trim(),
    z.minLength(1, ANNOUNCEMENT_MESSAGES.subjectRequired),
    z.maxLength(ANNOUNCEMENT_LIMITS.subject, ANNOUNCEMENT_MESSAGES.subjectTooLong),
    // A line break in a subject would be a header line of its own in the email.
    z.regex(/^[^\r\n]*$/, ANNOUNCEMENT_MESSAGES.subjectOneLine),
  );

const body = z
  .string({ error: ANNOUNCEMENT_MESSAGES.bodyRequired })
  .check(
    z.trim(),
    z.minLength(1, ANNOUNCEMENT_MESSAGES.bodyRequired),
    z.maxLength(ANNOUNCEMENT_LIMITS.body, ANNOUNCEMENT_MESSAGES.bodyTooLong),
  );

export const audienceSchema = z.discriminatedUnion(
  "kind",
  [
    z.object({ kind: z.literal("everyone") }),
    z.object({ kind: z.literal("plan"), plan: z.enum(AUDIENCE_PLANS, { error: ANNOUNCEMENT_MESSAGES.planRequired }) }),
    z.object({
      kind: z.literal("cohort"),
      cohort: z
        .string({ error: ANNOUNCEMENT_MESSAGES.cohortRequired })
        .check(z.trim(), z.minLength(1, ANNOUNCEMENT_MESSAGES.cohortRequired), z.maxLength(100, ANNOUNCEMENT_MESSAGES.cohortRequired)),
    }),
    z.object({ kind: z.literal("waitlist") }),
    z.object({
      kind: z.literal("unfinished"),
      program: z
        .string({ error: ANNOUNCEMENT_MESSAGES.programRequired })
        .check(z.minLength(1, ANNOUNCEMENT_MESSAGES.programRequired), z.maxLength(64, ANNOUNCEMENT_MESSAGES.programRequired)),
    }),
  ],
  { error: ANNOUNCEMENT_MESSAGES.audienceRequired },
);
export type Audience = z.infer<typeof audienceSchema>;

/**
 * How an audience is named in the console's list; a program by its title when `programTitles`
 * knows it (a program deleted since is named by its id).
 */
export function audienceLabel(audience: Audience, programTitles: ReadonlyMap<string, string> = new Map()): string {
  switch (audience.kind) {
    case "everyone":
      return "Everyone";
    case "plan":
      return `Plan: ${AUDIENCE_PLAN_LABELS[audience.plan]}`;
    case "cohort":
      return `Cohort: ${audience.cohort}`;
    case "waitlist":
      return "The waitlist";
    case "unfinished":
      return `Not finished: ${programTitles.get(audience.program) ?? audience.program}`;
  }
}

/** POST /api/admin/announcements/preview: the message and its audience, as the form holds them. */
export const announcementDraftSchema = z.object({ subject, body, audience: audienceSchema });
export type AnnouncementDraft = z.input<typeof announcementDraftSchema>;

/**
 * POST /api/admin/announcements: the draft with an id the browser makes once per message, so that
 * a second click or a retried request starts the same announcement, not another one.
 */
export const startAnnouncementSchema = z.extend(announcementDraftSchema, { id: z.uuid({ error: "The announcement needs an id (a UUID)." }) });
export type StartAnnouncementInput = z.input<typeof startAnnouncementSchema>;

export const renderedEmailSchema = z.object({ subject: z.string(), text: z.string(), html: z.string() });

export const announcementPreviewSchema = z.object({
  /** How many learners the audience holds now. */
  recipients: z.int(),
  /** The email as the administrator would receive it. */
  email: renderedEmailSchema,
});
export type AnnouncementPreview = z.infer<typeof announcementPreviewSchema>;

// ---- Sending and its progress ---------------------------------------------------------------------

export const ANNOUNCEMENT_STATUSES = ["running", "done", "failed"] as const;

export const ANNOUNCEMENT_STATUS_LABELS: Record<(typeof ANNOUNCEMENT_STATUSES)[number], string> = {
  running: "Sending",
  done: "Sent",
  failed: "Stopped",
};

export const announcementSchema = z.object({
  id: z.string(),
  subject: z.string(),
  body: z.string(),
  audience: audienceSchema,
  status: z.enum(ANNOUNCEMENT_STATUSES),
  /** The people it was addressed to, fixed when sending started. */
  recipients: z.int(),
  sent: z.int(),
  failed: z.int(),
  /** Not sent yet, or being sent now. */
  pending: z.int(),
  /** The administrator who sent it; null once their account is gone. */
  sentBy: z.nullable(z.string()),
  createdAt: z.string(),
  finishedAt: z.nullable(z.string()),
});
export type Announcement = z.infer<typeof announcementSchema>;

export const announcementResponseSchema = z.object({ announcement: announcementSchema });

/** GET /api/admin/announcements?page=: newest first. */
export const announcementListSchema = z.object({
  page: z.int(),
  pageSize: z.int(),
  total: z.int(),
  announcements: z.array(announcementSchema),
});

export const deliveryFailureSchema = z.object({ email: z.string(), error: z.string(), at: z.nullable(z.string()) });
export type DeliveryFailure = z.infer<typeof deliveryFailureSchema>;

/** GET /api/admin/announcements/:id/failures?page=: the deliveries that failed, by address. */
export const deliveryFailureListSchema = z.object({
  page: z.int(),
  pageSize: z.int(),
  total: z.int(),
  failures: z.array(deliveryFailureSchema),
});

export const announcementParamsSchema = z.object({ id: z.uuid({ error: ANNOUNCEMENT_MESSAGES.notFound }) });
export const announcementPageQuerySchema = z.object({
  page: z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000)), 1),
});

/** GET /api/admin/announcements/audiences: what the audience's second choice offers. */
export const audienceOptionsSchema = z.object({
  cohorts: z.array(z.object({ name: z.string(), startsOn: z.string() })),
  programs: z.array(z.object({ id: z.string(), title: z.string() })),
});
export type AudienceOptions = z.infer<typeof audienceOptionsSchema>;

// ---- Unsubscribing --------------------------------------------------------------------------------

const token = z.string({ error: ANNOUNCEMENT_MESSAGES.badToken }).check(z.minLength(1, ANNOUNCEMENT_MESSAGES.badToken), z.maxLength(512, ANNOUNCEMENT_MESSAGES.badToken));

/** POST /api/announcements/unsubscribe: the token of the link in an announcement. */
export const unsubscribeRequestSchema = z.object({ token });
/** POST /api/announcements/one-click-unsubscribe?token=: a mail program's one-click unsubscribe (RFC 8058). */
export const oneClickQuerySchema = z.object({ token });
export const unsubscribeResponseSchema = z.object({ ok: z.literal(true), message: z.string() });

/**
 * The console's Announcements tab and the learner's way out (docs/admin.md, "Announcements"). The
 * one-click unsubscribe is posted by mail programs, not by the browser app: it is not here.
 */
export const ANNOUNCEMENT_ENDPOINTS = {
  list: endpoint({ method: "GET", path: "/api/admin/announcements", query: announcementPageQuerySchema, response: announcementListSchema }),
  audiences: endpoint({ method: "GET", path: "/api/admin/announcements/audiences", response: audienceOptionsSchema }),
  preview: endpoint({ method: "POST", path: "/api/admin/announcements/preview", body: announcementDraftSchema, response: announcementPreviewSchema }),
  /**
   * 201 when sending starts; a repeat of the same id answers 200 with the announcement as it is
   * (its own registration, announcements.routes.ts).
   */
  start: endpoint({ method: "POST", path: "/api/admin/announcements", body: startAnnouncementSchema, response: announcementResponseSchema, status: 201 }),
  announcement: endpoint({ method: "GET", path: "/api/admin/announcements/:id", params: announcementParamsSchema, response: announcementResponseSchema }),
  failures: endpoint({
    method: "GET",
    path: "/api/admin/announcements/:id/failures",
    params: announcementParamsSchema,
    query: announcementPageQuerySchema,
    response: deliveryFailureListSchema,
  }),
  unsubscribe: endpoint({ method: "POST", path: "/api/announcements/unsubscribe", body: unsubscribeRequestSchema, response: unsubscribeResponseSchema }),
};
