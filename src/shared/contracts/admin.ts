// The admin console's API: every /api/admin/* route, its input and its answer. The server
// authorizes (admin plan) and validates each call; the browser only shows what comes back.
import * as z from "zod/mini";
import { PAID_PLANS, PLANS, PROVIDERS, SUBSCRIPTION_STATUSES, TRACKS } from "../plans.ts";
import { ATTACHMENT_MESSAGES, attachmentSchema, NOTES_MAX_LENGTH, QUIZ_RETRY_WAIT } from "./learning.ts";
import { PAYMENT_KINDS, PAYMENT_STATUSES, REFUND_STATUSES, type PaymentStatus } from "./billing.ts";
import { endpoint } from "./endpoint.ts";
import { exerciseInputSchema, type ExerciseInput } from "./exercises.ts";

/**
 * The admin console's texts (docs/product.md, "Admin console"): the original's, and ours where it
 * had none.
 */
export const ADMIN_MESSAGES = {
  programRequired: "Program ID, Title, and Duration are required.",
  programIdInvalid: "Program ID can use lowercase letters, digits and hyphens (2 to 60 characters), e.g. risk-management.",
  programIdReserved: (id: string) => `"${id}" is a word the site's addresses use: choose another Program ID.`,
  levelRequired: "Choose the program's level: Beginner, Intermediate or Advanced.",
  levelOfSeededId: (id: string) => `The program with ID "${id}" belongs to the ${id} level.`,
  archived: (title: string) => `${title} is archived: it is out of the catalogue, and its learners keep their progress.`,
  restored: (title: string) => `${title} is back in the catalogue.`,
  nothingToPublish: "Everything in this program is published already.",
  published: (title: string) => `${title}: published. Learners see it now.`,
  publishFailed: "Failed to publish.",
  publishNoAnswer: (question: string) => `The question "${question}" has no correct option: give it one before publishing.`,
  programExists: "A program with this ID already exists.",
  programNotFound: "Program not found.",
  priceInvalid: "Price must be a number of US dollars, 0 or more.",
  orderInvalid: "Display order must be a whole number.",
  moduleRequired: "Module title and YouTube ID are required.",
  moduleTitleRequired: "Module title is required.",
  notesTooLong: `Notes can be up to ${NOTES_MAX_LENGTH.toLocaleString("en")} characters.`,
  youtubeIdInvalid: "Enter the 11-character YouTube video ID (the part after watch?v=) or the video's link.",
  moduleNotInProgram: "This video is not part of the program.",
  questionRequired: "Please fill in all question fields.",
  optionFormat: "Each option must start with a letter and a closing parenthesis, e.g. A) Buy.",
  answerNotOption: "The answer must be the letter of one of the options, e.g. A.",
  quizIdRequired: "Quiz ID is required.",
  passMarkInvalid: "The pass mark must be a whole number of questions, from 1 to the number of questions.",
  retryWaitInvalid: "The wait before a new attempt must be a whole number of minutes, from 0 to 10080 (a week).",
  explanationTooLong: "An explanation can be at most 2000 characters.",
  deleteConfirm: "Are you sure you want to delete this program? This will remove all related data.",
  programSaved: "Program saved successfully!",
  programSaveFailed: "Failed to save program.",
  quizSaved: "Quiz saved successfully!",
  quizSaveFailed: "Failed to save quiz.",
  programDeleted: "Program and all related data deleted successfully!",
  programDeleteFailed: "Failed to delete program.",
  planUpdated: (plan: string) => `Updated user subscription to ${plan}`,
  planUpdateFailed: "Failed to update user subscription",
  ownPlan: "You cannot change your own plan.",
  userNotFound: "User not found.",
  progressUpdated: "User progress updated!",
  progressLoading: "Loading...",
  progressLoadFailed: "Failed to load user progress",
  progressSaveFailed: "Failed to save progress",
  progressInvalid: "Progress names, for each program, its videos as watched (true) or not watched (false).",
  progressNoProgram: (track: string) => `There is no ${track} program.`,
  progressModulesChanged: (program: string) =>
    `The videos of the ${program} have changed since this form was opened. Close it and open it again.`,
  admitted: (user: string) => `Admitted ${user} from waitlist and activated subscription.`,
  admitFailed: "Failed to admit waitlist user",
  notOnWaitlist: "This user has not paid for the waitlist.",
  alreadyAdmitted: "This user has already been admitted.",
  fixed: (count: number) => `Fixed ${count} users missing subscriptionPlan field.`,
  fixNone: "All users already have a subscriptionPlan field.",
  fixFailed: "Failed to fix users",
  refundTitle: "Refund payment",
  refundConfirm: (amount: string, learner: string, reference: string) =>
    `Refund ${amount} (GHS) to ${learner} for payment ${reference}? Paystack returns the money to the card or mobile money wallet that paid. When the whole payment is refunded, the time it bought that is not used up yet is removed.`,
  refundAmountInvalid: (left: string) => `Enter an amount in cedis, more than 0 and at most ${left}.`,
  refunded: (amount: string, learner: string) => `Refunded ${amount} to ${learner}.`,
  refundFailed: "Failed to refund the payment.",
  paymentsNone: "No payments yet.",
  paymentsNoneMatch: "No payments match these filters.",
  paymentDatesInvalid: "The start date must be on or before the end date.",
} as const;

export const USERS_PAGE_SIZE = 10;
/** Page size of the other paginated tabs (waitlist, payments, audit, messages). */
export const RECORDS_PAGE_SIZE = 20;
export const MAX_PAGE = 100_000;

const isoDate = z.string();
const page = z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(MAX_PAGE)), 1);

export const paginationSchema = z.object({ page: z.int(), pageSize: z.int(), total: z.int() });
export type Pagination = z.infer<typeof paginationSchema>;

// ---- Summary: the counts in the tab labels ----------------------------------------------------

/** GET /api/admin/summary */
export const adminSummarySchema = z.object({
  programs: z.int(),
  users: z.int(),
  /** Users with waitlist_paid (docs/product.md, "Admin console"). */
  waitlist: z.int(),
  payments: z.int(),
  audit: z.int(),
  messages: z.int(),
  /** Lesson questions, and mentorship requests (docs/product.md, "Questions and mentorship"). */
  questions: z.int(),
  mentorship: z.int(),
});
export type AdminSummary = z.infer<typeof adminSummarySchema>;

// ---- Programs, modules and quizzes --------------------------------------------------------------

const requiredProgramText = z.string(ADMIN_MESSAGES.programRequired).check(z.trim(), z.minLength(1, ADMIN_MESSAGES.programRequired), z.maxLength(200));

export const adminModuleSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** Null for a lesson of notes only. */
  youtubeId: z.nullable(z.string()),
  /** The notes as written, in Markdown (docs/product.md, "Lesson notes"). */
  notes: z.string(),
  freePreview: z.boolean(),
  /** Added and not published yet: no learner sees it (docs/data.md, "Drafts"). */
  draft: z.boolean(),
  attachments: z.array(attachmentSchema),
  /** A chart exercise's settings (docs/trading.md, "Exercises"); null for a lesson to watch or read. */
  exercise: z.nullable(exerciseInputSchema),
});
export type AdminModule = z.infer<typeof adminModuleSchema>;

export const adminProgramSchema = z.object({
  id: z.string(),
  level: z.enum(TRACKS),
  archived: z.boolean(),
  /** Created and not published yet: out of the catalogue, no learner opens it. */
  draft: z.boolean(),
  title: z.string(),
  duration: z.string(),
  priceUsd: z.nullable(z.number()),
  order: z.int(),
  description: z.array(z.string()),
  modules: z.array(adminModuleSchema),
  questionCount: z.int(),
  /** Of questionCount, those not published yet. */
  draftQuestionCount: z.int(),
  updatedAt: isoDate,
});
export type AdminProgram = z.infer<typeof adminProgramSchema>;

/** GET /api/admin/programs: every program with its modules, by display order. */
export const adminProgramListSchema = z.object({ programs: z.array(adminProgramSchema) });

/**
 * A module as the program form sends it: `id` for a module that already exists (so learners'
 * progress, keyed by module id, survives an edit), none for a new one. The list order is the
 * display order. `youtubeId` may be a YouTube link: the server keeps only the id. A lesson has a
 * video, notes, or both (`moduleProblem`); its attachments are uploaded on their own, once it is saved.
 */
export const moduleInputSchema = z.object({
  id: z.optional(z.string().check(z.maxLength(64))),
  title: z.string(ADMIN_MESSAGES.moduleRequired).check(z.trim(), z.maxLength(200)),
  description: z._default(z.string().check(z.trim(), z.maxLength(2000)), ""),
  /** "" or null (as the module is read back) for a lesson of notes only. */
  youtubeId: z._default(z.nullable(z.string(ADMIN_MESSAGES.moduleRequired).check(z.trim(), z.maxLength(200))), ""),
  notes: z._default(z.string().check(z.maxLength(NOTES_MAX_LENGTH, ADMIN_MESSAGES.notesTooLong)), ""),
  /** Open to anyone signed in, whatever their plan (docs/product.md, "Previews"). */
  freePreview: z._default(z.boolean(), false),
  /** A chart exercise (docs/trading.md, "Exercises"): a lesson that needs no video or notes. */
  exercise: z._default(z.nullable(exerciseInputSchema), null),
});

/** Why a module cannot be saved, or null: the spec's message where its form had the case. */
export function moduleProblem(module: { title: string; youtubeId: string | null; notes: string; exercise?: ExerciseInput | null }): string | null {
  const hasNotes = module.notes.trim() !== "" || Boolean(module.exercise);
  if (module.title.trim() === "") return hasNotes ? ADMIN_MESSAGES.moduleTitleRequired : ADMIN_MESSAGES.moduleRequired;
  if ((module.youtubeId ?? "").trim() === "" && !hasNotes) return ADMIN_MESSAGES.moduleRequired;
  return null;
}

/**
 * The fields of Save Program; empty price -> null, empty order -> 99
 * (docs/product.md, "Admin console").
 */
export const programFieldsSchema = z.object({
  title: requiredProgramText,
  duration: requiredProgramText,
  priceUsd: z.nullable(
    z.number(ADMIN_MESSAGES.priceInvalid).check(z.minimum(0, ADMIN_MESSAGES.priceInvalid), z.maximum(100_000)),
  ),
  order: z.nullable(z.int(ADMIN_MESSAGES.orderInvalid).check(z.minimum(-1_000_000), z.maximum(1_000_000))),
  /** Already split on commas and trimmed by the form; blanks are dropped by the server. */
  description: z.array(z.string().check(z.maxLength(500))).check(z.maxLength(50)),
  modules: z.array(moduleInputSchema).check(z.maxLength(200)),
});
export type ProgramFields = z.input<typeof programFieldsSchema>;

/**
 * A program's id is its address, /program/{id}: lowercase words joined by hyphens, and not a word
 * the site's addresses keep for themselves (docs/data.md, "Content").
 */
export const PROGRAM_ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
export const RESERVED_PROGRAM_IDS: readonly string[] = ["new", "edit", "preview", "archived", "admin", "api"];

/** Why a program id cannot be used, or null. */
export function programIdProblem(id: string): string | null {
  if (id === "") return ADMIN_MESSAGES.programRequired;
  if (id.length < 2 || id.length > 60 || !PROGRAM_ID_PATTERN.test(id)) return ADMIN_MESSAGES.programIdInvalid;
  if (RESERVED_PROGRAM_IDS.includes(id)) return ADMIN_MESSAGES.programIdReserved(id);
  return null;
}

/** POST /api/admin/programs (create; 409 when the id is taken). */
export const createProgramSchema = z.extend(programFieldsSchema, {
  id: z.string(ADMIN_MESSAGES.programRequired).check(z.trim(), z.minLength(1, ADMIN_MESSAGES.programRequired), z.maxLength(64)),
  level: z.enum(TRACKS, ADMIN_MESSAGES.levelRequired),
});

/**
 * GET /api/admin/programs/:id/publish: what Publish would put in front of learners, and how many
 * learners who completed the program it touches (they stay complete: docs/data.md, "Drafts").
 */
export const publishSummarySchema = z.object({
  program: z.boolean(),
  lessons: z.int(),
  questions: z.int(),
  completedLearners: z.int(),
});
export type PublishSummary = z.infer<typeof publishSummarySchema>;

const counted = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

/** The Publish confirmation: what learners will see, and the completed learners it touches. */
export function publishMessage(summary: PublishSummary): string {
  const parts = [
    ...(summary.program ? ["the program itself"] : []),
    ...(summary.lessons > 0 ? [counted(summary.lessons, "new lesson", "new lessons")] : []),
    ...(summary.questions > 0 ? [counted(summary.questions, "new quiz question", "new quiz questions")] : []),
  ];
  const what = parts.length > 1 ? `${parts.slice(0, -1).join(", ")} and ${parts.at(-1)}` : (parts[0] ?? "nothing new");
  const completed =
    summary.completedLearners === 0
      ? "No learner has completed this program yet."
      : `${counted(summary.completedLearners, "learner has", "learners have")} completed this program: they stay complete and keep their certificates, and find the new content waiting.`;
  return `Learners will see ${what}. ${completed}`;
}

/** POST /api/admin/programs/:id/archive: out of the catalogue (true) or back in it (false). */
export const archiveProgramSchema = z.object({ archived: z.boolean() });
export type CreateProgramInput = z.input<typeof createProgramSchema>;

/** PUT /api/admin/programs/:id takes programFieldsSchema; both answer { program }. */
export const programResponseSchema = z.object({ program: adminProgramSchema });

export const programParamsSchema = z.object({
  id: z.string().check(z.trim(), z.minLength(1, ADMIN_MESSAGES.quizIdRequired), z.maxLength(64)),
});

export const moduleAttachmentsParamsSchema = z.extend(programParamsSchema, { moduleId: z.string().check(z.maxLength(64)) });
export const attachmentDeleteParamsSchema = z.extend(moduleAttachmentsParamsSchema, { attachmentId: z.string().check(z.maxLength(64)) });
/** POST .../attachments?name=chart-template.pdf, the file itself as the body (application/octet-stream). */
export const attachmentUploadQuerySchema = z.object({
  name: z.string(ATTACHMENT_MESSAGES.nameRequired).check(z.maxLength(1000, ATTACHMENT_MESSAGES.nameRequired)),
});

export const quizQuestionInputSchema = z.object({
  question: z.string(ADMIN_MESSAGES.questionRequired).check(z.trim(), z.minLength(1, ADMIN_MESSAGES.questionRequired), z.maxLength(1000)),
  options: z
    .array(z.string(ADMIN_MESSAGES.questionRequired).check(z.trim(), z.minLength(1, ADMIN_MESSAGES.questionRequired), z.maxLength(500)), ADMIN_MESSAGES.questionRequired)
    .check(z.minLength(1, ADMIN_MESSAGES.questionRequired), z.maxLength(26)),
  answer: z.string(ADMIN_MESSAGES.questionRequired).check(z.trim(), z.minLength(1, ADMIN_MESSAGES.questionRequired), z.maxLength(500)),
  /** Shown to a learner once they have answered the question; optional (empty is none). */
  explanation: z.optional(z.string(ADMIN_MESSAGES.explanationTooLong).check(z.trim(), z.maxLength(2000, ADMIN_MESSAGES.explanationTooLong))),
  /**
   * In the server's answer only: a question not published yet. Sent back, it is ignored: the server
   * decides what is a draft (docs/data.md, "Drafts").
   */
  draft: z.optional(z.boolean()),
});
export type QuizQuestionInput = z.infer<typeof quizQuestionInputSchema>;

/** GET and PUT /api/admin/programs/:id/quiz (a program without a quiz answers an empty one). */
export const adminQuizSchema = z.object({
  title: z.string().check(z.trim(), z.maxLength(200)),
  questions: z.array(quizQuestionInputSchema).check(z.maxLength(200)),
  /**
   * Questions a learner must have right to pass (docs/product.md, "Completion and certificates"):
   * 1 to the number of questions; null (or left out) for all of them.
   */
  passMark: z.optional(
    z.nullable(z.int(ADMIN_MESSAGES.passMarkInvalid).check(z.minimum(1, ADMIN_MESSAGES.passMarkInvalid))),
  ),
  /**
   * Minutes a learner waits after an attempt that did not pass before a new one (docs/product.md,
   * "Quiz attempts"): 0 to a week; left out, 10.
   */
  retryWaitMinutes: z.optional(
    z.int(ADMIN_MESSAGES.retryWaitInvalid).check(
      z.minimum(0, ADMIN_MESSAGES.retryWaitInvalid),
      z.maximum(QUIZ_RETRY_WAIT.maxMinutes, ADMIN_MESSAGES.retryWaitInvalid),
    ),
  ),
});
export type AdminQuiz = z.infer<typeof adminQuizSchema>;

// ---- Users ----------------------------------------------------------------------------------------

export const USER_SORTS = ["newest", "email", "lastActive"] as const;
export type UserSort = (typeof USER_SORTS)[number];

/** GET /api/admin/users: filtered, sorted and paged in the database. */
export const usersQuerySchema = z.object({
  page,
  /** A part of the email, case-insensitive. */
  search: z.optional(z.string().check(z.trim(), z.maxLength(200))),
  /** Only users who paid for the waitlist and are not admitted yet. */
  waitlistPending: z.optional(z.stringbool()),
  sort: z._default(z.enum(USER_SORTS), "newest"),
});

export const adminUserSchema = z.object({
  id: z.string(),
  email: z.string(),
  /** The stored plan; null when the row has none (the Fix tool repairs it). */
  plan: z.nullable(z.enum(PLANS)),
  provider: z.nullable(z.enum(PROVIDERS)),
  status: z.enum(SUBSCRIPTION_STATUSES),
  subscriptionEnd: z.nullable(isoDate),
  /** Paid time of a lower plan that runs after subscriptionEnd (docs/subscriptions.md, "Paid time is never lost"). */
  queued: z.nullable(z.object({ plan: z.enum(PAID_PLANS), end: isoDate })),
  lastActiveAt: z.nullable(isoDate),
  waitlistPaid: z.boolean(),
  waitlistAdmitted: z.boolean(),
  createdAt: isoDate,
});
export type AdminUser = z.infer<typeof adminUserSchema>;

export const userListSchema = z.extend(paginationSchema, { users: z.array(adminUserSchema) });
export type UserList = z.infer<typeof userListSchema>;

export const userParamsSchema = z.object({ id: z.string().check(z.minLength(1), z.maxLength(64)) });

/** PUT /api/admin/users/:id/plan: changes the plan at once (a paid plan runs one month from now). */
export const setPlanRequestSchema = z.object({ plan: z.enum(PLANS) });
/** Answer of a plan change and of an admit: the user as the table shows it. */
export const userResponseSchema = z.object({ user: adminUserSchema });

/**
 * GET /api/admin/users/:id/progress: one entry per track that has a program, in display order: its
 * videos in order, each watched or not, and its quiz (null without questions) with how many of the
 * learner's latest answers are right and whether that passes.
 */
export const userProgressSchema = z.object({
  tracks: z.array(
    z.object({
      /** The program's id. */
      track: z.string(),
      title: z.string(),
      modules: z.array(z.object({ id: z.string(), title: z.string(), watched: z.boolean() })),
      quiz: z.nullable(
        z.object({ title: z.string(), questions: z.int(), correct: z.int(), passMark: z.int(), passed: z.boolean() }),
      ),
    }),
  ),
});
export type UserProgress = z.infer<typeof userProgressSchema>;

/**
 * PUT /api/admin/users/:id/progress: for each track given, every video of that program, by id,
 * watched (true) or not (false); a video left out counts as not watched, a track left out is not
 * changed. The server refuses a track without a program and an id that is not one of its videos.
 */
const watchedMarksSchema = z.record(
  z.string().check(z.maxLength(64)),
  z.boolean({ error: ADMIN_MESSAGES.progressInvalid }),
  { error: ADMIN_MESSAGES.progressInvalid },
);
export const setProgressRequestSchema = z.object({
  progress: z.record(z.string().check(z.maxLength(64)), watchedMarksSchema, { error: ADMIN_MESSAGES.progressInvalid }),
});
export type ProgressUpdate = z.infer<typeof setProgressRequestSchema>["progress"];

/** POST /api/admin/users/fix-missing-plans */
export const fixPlansResponseSchema = z.object({ fixed: z.int() });

/** GET /api/admin/users.csv?tz=Area/City: dates in that time zone (the admin's), default UTC. */
export const usersCsvQuerySchema = z.object({ tz: z.optional(z.string().check(z.maxLength(64))) });
export const USERS_CSV_COLUMNS = [
  "Email",
  "UID",
  "SubscriptionPlan",
  "Provider",
  "Status",
  "SubscriptionEnd",
  "LastActive",
] as const;

// ---- Waitlist, payments, audit, messages ---------------------------------------------------------

export const pageQuerySchema = z.object({ page });

/**
 * GET /api/admin/waitlist?cohort=: every paid waitlist place, or one cohort's (docs/admin.md,
 * "Cohorts"), not yet admitted first, then newest.
 */
export const waitlistQuerySchema = z.object({ page, cohort: z.optional(z.string().check(z.maxLength(60))) });

export const waitlistEntrySchema = z.object({
  userId: z.string(),
  email: z.string(),
  plan: z.enum(PAID_PLANS),
  cohort: z.string(),
  paid: z.boolean(),
  admitted: z.boolean(),
  admittedAt: z.nullable(isoDate),
  createdAt: isoDate,
});
export type WaitlistEntry = z.infer<typeof waitlistEntrySchema>;
export const waitlistListSchema = z.extend(paginationSchema, { entries: z.array(waitlistEntrySchema) });

/**
 * GET /api/admin/payments?status=&from=&to=: newest first, filtered in the database. `from` and
 * `to` are instants (the browser turns the admin's calendar days into them): from inclusive, to
 * exclusive.
 */
export const paymentsQuerySchema = z.object({
  page,
  status: z.optional(z.enum(PAYMENT_STATUSES)),
  from: z.optional(z.iso.datetime({ offset: true })),
  to: z.optional(z.iso.datetime({ offset: true })),
});
export type PaymentsQuery = z.input<typeof paymentsQuerySchema>;

/**
 * How the Payments tab names each status; abandoned checkouts are not failures, and a payment
 * Paystack's answer did not match needs attention (docs/subscriptions.md, "Payments are real").
 */
export const ADMIN_PAYMENT_STATUS_LABELS: Record<PaymentStatus, string> = {
  pending: "Pending",
  success: "Success",
  failed: "Failed",
  abandoned: "Abandoned",
  reversed: "Reversed",
  refunded: "Refunded",
  mismatched: "Needs attention",
};

/** `amountMinor` and `refundedMinor` are in pesewas (shown / 100). */
export const adminPaymentSchema = z.object({
  id: z.string(),
  /** The learner's id, for the link to their page; null once the account was deleted. */
  userId: z.nullable(z.string()),
  userEmail: z.string(),
  /** The learner's name, when the account still has one. */
  userName: z.string(),
  kind: z.enum(PAYMENT_KINDS),
  plan: z.enum(PAID_PLANS),
  amountMinor: z.int(),
  refundedMinor: z.int(),
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  reference: z.string(),
  createdAt: isoDate,
});
export type AdminPayment = z.infer<typeof adminPaymentSchema>;
export const paymentListSchema = z.extend(paginationSchema, { payments: z.array(adminPaymentSchema) });

/** POST /api/admin/payments/:id/refund: all that is left of the payment unless `amountMinor` says less. */
export const paymentParamsSchema = z.object({ id: z.uuid() });
export const refundRequestSchema = z.object({
  amountMinor: z.optional(z.int().check(z.minimum(1), z.maximum(1_000_000_000))),
  reason: z.optional(z.string().check(z.trim(), z.maxLength(500))),
});
export const refundResponseSchema = z.object({
  payment: z.object({ id: z.string(), amountMinor: z.int(), refundedMinor: z.int(), status: z.enum(PAYMENT_STATUSES) }),
  refund: z.object({ id: z.string(), amountMinor: z.int(), status: z.enum(REFUND_STATUSES) }),
});

/** GET /api/admin/audit?user=email: newest first, optionally one user's entries. */
export const auditQuerySchema = z.object({
  page,
  user: z.optional(z.string().check(z.trim(), z.maxLength(200))),
});
export const auditEntrySchema = z.object({
  id: z.int(),
  action: z.string(),
  reason: z.string(),
  /** Ids for the links to the learner pages; null for the system, or an account since deleted. */
  actorId: z.nullable(z.string()),
  actorEmail: z.nullable(z.string()),
  subjectId: z.nullable(z.string()),
  subjectEmail: z.nullable(z.string()),
  changes: z.unknown(),
  createdAt: isoDate,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export const auditListSchema = z.extend(paginationSchema, { entries: z.array(auditEntrySchema) });

/** GET /api/admin/messages: contact form messages, newest first. */
export const contactMessageSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  message: z.string(),
  createdAt: isoDate,
});
export type AdminContactMessage = z.infer<typeof contactMessageSchema>;
export const messageListSchema = z.extend(paginationSchema, { messages: z.array(contactMessageSchema) });

/**
 * GET /api/admin/mail/unsent: the emails the mail server has not taken, newest first: failing (tried
 * again later) or failed (given up). Who, what about, how often and why; never the message itself,
 * which may hold a one-time link.
 */
export const unsentMailSchema = z.object({
  total: z.number(),
  messages: z.array(
    z.object({
      id: z.number(),
      to: z.string(),
      subject: z.string(),
      status: z.enum(["failing", "failed"]),
      attempts: z.number(),
      lastError: z.nullable(z.string()),
      createdAt: isoDate,
    }),
  ),
});
export type UnsentMail = z.infer<typeof unsentMailSchema>["messages"][number];

export const okSchema = z.object({ ok: z.literal(true) });

/** The console's counts and read-only records (docs/product.md, "Admin console"). */
export const ADMIN_RECORDS_ENDPOINTS = {
  summary: endpoint({ method: "GET", path: "/api/admin/summary", response: adminSummarySchema }),
  waitlist: endpoint({ method: "GET", path: "/api/admin/waitlist", query: waitlistQuerySchema, response: waitlistListSchema }),
  audit: endpoint({ method: "GET", path: "/api/admin/audit", query: auditQuerySchema, response: auditListSchema }),
  messages: endpoint({ method: "GET", path: "/api/admin/messages", query: pageQuerySchema, response: messageListSchema }),
  unsentMail: endpoint({ method: "GET", path: "/api/admin/mail/unsent", response: unsentMailSchema }),
};

/** The Payments tab and refunds (docs/subscriptions.md, "Refunds"). */
export const ADMIN_PAYMENTS_ENDPOINTS = {
  list: endpoint({ method: "GET", path: "/api/admin/payments", query: paymentsQuerySchema, response: paymentListSchema }),
  refund: endpoint({
    method: "POST",
    path: "/api/admin/payments/:id/refund",
    params: paymentParamsSchema,
    body: refundRequestSchema,
    response: refundResponseSchema,
  }),
};

/** The Programs tab: programs with their lessons and files, each program's quiz, and Publish (docs/data.md, "Content" and "Drafts"). */
export const ADMIN_PROGRAMS_ENDPOINTS = {
  list: endpoint({ method: "GET", path: "/api/admin/programs", response: adminProgramListSchema }),
  create: endpoint({ method: "POST", path: "/api/admin/programs", body: createProgramSchema, response: programResponseSchema, status: 201 }),
  update: endpoint({ method: "PUT", path: "/api/admin/programs/:id", params: programParamsSchema, body: programFieldsSchema, response: programResponseSchema }),
  publishSummary: endpoint({ method: "GET", path: "/api/admin/programs/:id/publish", params: programParamsSchema, response: publishSummarySchema }),
  publish: endpoint({ method: "POST", path: "/api/admin/programs/:id/publish", params: programParamsSchema, response: programResponseSchema }),
  archive: endpoint({
    method: "POST",
    path: "/api/admin/programs/:id/archive",
    params: programParamsSchema,
    body: archiveProgramSchema,
    response: programResponseSchema,
  }),
  remove: endpoint({ method: "DELETE", path: "/api/admin/programs/:id", params: programParamsSchema, response: okSchema }),
  quiz: endpoint({ method: "GET", path: "/api/admin/programs/:id/quiz", params: programParamsSchema, response: adminQuizSchema }),
  saveQuiz: endpoint({ method: "PUT", path: "/api/admin/programs/:id/quiz", params: programParamsSchema, body: adminQuizSchema, response: adminQuizSchema }),
  /**
   * The file itself is the body (application/octet-stream), not JSON, so this route is registered
   * on its own (catalog-admin.routes.ts) and the browser sends the file with apiRequest.
   */
  addAttachment: endpoint({
    method: "POST",
    path: "/api/admin/programs/:id/modules/:moduleId/attachments",
    params: moduleAttachmentsParamsSchema,
    query: attachmentUploadQuerySchema,
    response: programResponseSchema,
    status: 201,
  }),
  removeAttachment: endpoint({
    method: "DELETE",
    path: "/api/admin/programs/:id/modules/:moduleId/attachments/:attachmentId",
    params: attachmentDeleteParamsSchema,
    response: programResponseSchema,
  }),
};

/** The Users tab and a learner's page: the list, the plan, Admit from Waitlist, the progress editor, the Fix tool and the CSV. */
export const ADMIN_USERS_ENDPOINTS = {
  list: endpoint({ method: "GET", path: "/api/admin/users", query: usersQuerySchema, response: userListSchema }),
  /** A download, linked to and never called: the CSV's text, streamed (src/server/features/admin/users-csv.ts), never JSON. */
  csv: endpoint({ method: "GET", path: "/api/admin/users.csv", query: usersCsvQuerySchema, response: z.string() }),
  setPlan: endpoint({ method: "PUT", path: "/api/admin/users/:id/plan", params: userParamsSchema, body: setPlanRequestSchema, response: userResponseSchema }),
  admit: endpoint({ method: "POST", path: "/api/admin/users/:id/admit", params: userParamsSchema, response: userResponseSchema }),
  progress: endpoint({ method: "GET", path: "/api/admin/users/:id/progress", params: userParamsSchema, response: userProgressSchema }),
  setProgress: endpoint({
    method: "PUT",
    path: "/api/admin/users/:id/progress",
    params: userParamsSchema,
    body: setProgressRequestSchema,
    response: okSchema,
  }),
  fixMissingPlans: endpoint({ method: "POST", path: "/api/admin/users/fix-missing-plans", response: fixPlansResponseSchema }),
};
