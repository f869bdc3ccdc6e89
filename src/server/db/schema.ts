// The data model: every entity of the product, auth tables included, in one Drizzle schema.
import { sql } from "drizzle-orm";
import {
  bigint,
  bigserial,
  boolean,
  check,
  customType,
  date,
  index,
  integer,
  jsonb,
  numeric,
  pgEnum,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
  uuid,
  type AnyPgColumn,
} from "drizzle-orm/pg-core";
import type { ExerciseAnswer, StoredExercise } from "../../shared/contracts/exercises.ts";
import { PAID_PLANS, PLANS, PROVIDERS, SUBSCRIPTION_STATUSES, type Track } from "../../shared/plans.ts";

export const planEnum = pgEnum("plan", PLANS);
export const paidPlanEnum = pgEnum("paid_plan", PAID_PLANS);
export const providerEnum = pgEnum("provider", PROVIDERS);
export const subscriptionStatusEnum = pgEnum("subscription_status", SUBSCRIPTION_STATUSES);
export const paymentKindEnum = pgEnum("payment_kind", ["subscription", "waitlist"]);
export const paymentStatusEnum = pgEnum("payment_status", [
  "pending",
  "success",
  "failed",
  "abandoned",
  "reversed",
  "refunded",
  // Paystack's answer does not match the stored payment: never credited, for an admin to look at.
  "mismatched",
]);
export const mentorshipStatusEnum = pgEnum("mentorship_status", ["requested", "confirmed", "declined", "cancelled"]);
export const refundStatusEnum = pgEnum("refund_status", ["pending", "processed", "failed"]);
export const jobStatusEnum = pgEnum("job_status", ["pending", "running", "done", "failed"]);
export const bulkRunStatusEnum = pgEnum("bulk_run_status", ["running", "done", "failed"]);
export const deliveryStatusEnum = pgEnum("delivery_status", ["pending", "sending", "sent", "failed"]);

/** Binary data: node-postgres and PGlite both read bytea as a Buffer or Uint8Array. */
const bytea = customType<{ data: Uint8Array; driverData: Uint8Array }>({ dataType: () => "bytea" });

const createdAt = () => timestamp("created_at", { withTimezone: true }).notNull().defaultNow();
const updatedAt = () =>
  timestamp("updated_at", { withTimezone: true })
    .notNull()
    .defaultNow()
    .$onUpdate(() => new Date());

/**
 * users: the account (the auth library's user model, renamed) and the learner's entitlements.
 * Entitlement columns are written only by the server (payments, admin actions), never by the user.
 */
export const users = pgTable(
  "users",
  {
    id: text("id").primaryKey(),
    name: text("name").notNull().default(""),
    email: text("email").notNull(),
    // The admin console searches by a part of the email: lowered once when written, instead of
    // on every row of every search (which doubled the time of a search matching everyone). Kept
    // by the trigger "users_email_search" (migration 0005): never written by the code.
    emailSearch: text("email_search"),
    emailVerified: boolean("email_verified").notNull().default(false),
    image: text("image"),
    provider: providerEnum("provider"),
    // Every new account starts on legacyFree. Nullable on purpose: the admin "Fix Missing
    // Subscription Plans" tool repairs rows imported without one.
    subscriptionPlan: planEnum("subscription_plan").default("legacyFree"),
    subscriptionStatus: subscriptionStatusEnum("subscription_status").notNull().default("inactive"),
    subscriptionStart: timestamp("subscription_start", { withTimezone: true }),
    subscriptionEnd: timestamp("subscription_end", { withTimezone: true }),
    // Paid time of a lower plan that runs after the current period, from subscriptionEnd to
    // queuedEnd: a learner never loses paid days to a plan change (docs/decisions/010).
    queuedPlan: paidPlanEnum("queued_plan"),
    queuedEnd: timestamp("queued_end", { withTimezone: true }),
    // The learner chose automatic renewal by card; only ever on while their card can be charged
    // again. With it, a period whose renewal is due or under way keeps its access past its end,
    // until the renewal is paid or renewalFailedFor names that end (docs/subscriptions.md,
    // "Automatic renewal"). Here, not with the card, so that every reading of a plan sees it.
    autoRenew: boolean("auto_renew").notNull().default(false),
    renewalFailedFor: timestamp("renewal_failed_for", { withTimezone: true }),
    lastActiveAt: timestamp("last_active_at", { withTimezone: true }),
    intermediatePaid: boolean("intermediate_paid").notNull().default(false),
    advancedPaid: boolean("advanced_paid").notNull().default(false),
    waitlistPaid: boolean("waitlist_paid").notNull().default(false),
    waitlistAdmitted: boolean("waitlist_admitted").notNull().default(false),
    // How far the learner went, for the dashboard's funnel (docs/admin.md, "Dashboard"): started
    // Beginner, holds a valid Beginner certificate, made a payment that succeeded. Kept by the
    // database's triggers (migration 0015) as progress, certificates and payments change, by
    // whatever path; the app never writes them.
    funnelStartedBeginner: boolean("funnel_started_beginner").notNull().default(false),
    funnelFinishedBeginner: boolean("funnel_finished_beginner").notNull().default(false),
    funnelPaid: boolean("funnel_paid").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex("users_email_unique").on(sql`lower(${table.email})`),
    // Admin search by a part of the email (trigrams; the extension is created by migration 0004).
    index("users_email_search_trgm_idx").using("gin", sql`${table.emailSearch} gin_trgm_ops`),
    index("users_plan_idx").on(table.subscriptionPlan),
    // The admin users table: newest first by default.
    index("users_created_idx").on(sql`${table.createdAt} desc`, sql`${table.id} desc`),
    index("users_last_active_idx").on(sql`${table.lastActiveAt} desc nulls last`),
    index("users_waitlist_pending_idx")
      .on(table.createdAt)
      .where(sql`${table.waitlistPaid} and not ${table.waitlistAdmitted}`),
    index("users_subscription_end_idx")
      .on(table.subscriptionEnd)
      .where(sql`${table.subscriptionStatus} = 'active'`),
  ],
);

export const sessions = pgTable(
  "sessions",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    token: text("token").notNull().unique(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    ipAddress: text("ip_address"),
    userAgent: text("user_agent"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("sessions_user_idx").on(table.userId)],
);

export const accounts = pgTable(
  "accounts",
  {
    id: text("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    accountId: text("account_id").notNull(),
    providerId: text("provider_id").notNull(),
    accessToken: text("access_token"),
    refreshToken: text("refresh_token"),
    idToken: text("id_token"),
    accessTokenExpiresAt: timestamp("access_token_expires_at", { withTimezone: true }),
    refreshTokenExpiresAt: timestamp("refresh_token_expires_at", { withTimezone: true }),
    scope: text("scope"),
    password: text("password"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("accounts_user_idx").on(table.userId),
    uniqueIndex("accounts_provider_account_unique").on(table.providerId, table.accountId),
  ],
);

export const verifications = pgTable(
  "verifications",
  {
    id: text("id").primaryKey(),
    identifier: text("identifier").notNull(),
    value: text("value").notNull(),
    expiresAt: timestamp("expires_at", { withTimezone: true }).notNull(),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [index("verifications_identifier_idx").on(table.identifier)],
);

/** rate_limits: the auth library's request counters, shared by every app server. */
export const rateLimits = pgTable("rate_limits", {
  id: text("id").primaryKey(),
  key: text("key").notNull().unique(),
  count: integer("count").notNull(),
  lastRequest: bigint("last_request", { mode: "number" }).notNull(),
});

/** login_failures: failed password sign-ins per account, for the per-account lockout. */
export const loginFailures = pgTable(
  "login_failures",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    email: text("email").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("login_failures_email_idx").on(table.email, table.createdAt)],
);

/** dev_mail: the development mailbox, used instead of SMTP when SMTP_URL is unset (never in production). */
export const devMail = pgTable(
  "dev_mail",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("dev_mail_to_idx").on(table.to, table.createdAt)],
);

/**
 * mail_outbox: every email but the announcements, queued with the change that caused it and sent
 * by the `mail.send` job (src/server/emails/outbox.ts, docs/decisions/023-mail-outbox.md). A row
 * is claimed (pending or failing -> sending) before its message goes, so it is sent at most once;
 * once sent or given up, its text and HTML (which may hold a one-time link) are blanked.
 */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    to: text("to").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html").notNull(),
    headers: jsonb("headers").$type<Record<string, string>>(),
    status: text("status", { enum: ["pending", "sending", "sent", "failing", "failed"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  // The rows not sent (a few, unless the mail server is down), counted by status for /api/health
  // and /metrics, and listed newest first in the console.
  (table) => [index("mail_outbox_unsent_idx").on(table.status, table.createdAt).where(sql`${table.status} <> 'sent'`)],
);

/**
 * programs: each belongs to a level (the spec's track: beginner, intermediate or advanced), which
 * decides the plan that opens it; the id is its address, /program/{id}. The three seeded programs
 * have their level as id (docs/data.md, "Content"). An archived program is out of the catalogue;
 * its learners keep their progress and certificates.
 */
export const programs = pgTable(
  "programs",
  {
    id: text("id").primaryKey(),
    level: text("level").$type<Track>().notNull(),
    title: text("title").notNull(),
    duration: text("duration").notNull(),
    priceUsdCents: integer("price_usd_cents"),
    description: jsonb("description").$type<string[]>().notNull().default([]),
    order: integer("display_order").notNull().default(99),
    /** Created by an administrator and not published yet: no learner sees it (docs/data.md, "Drafts"). */
    draft: boolean("draft").notNull().default(false),
    archivedAt: timestamp("archived_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [check("programs_level_known", sql`${table.level} in ('beginner', 'intermediate', 'advanced')`)],
);

/**
 * modules: the lessons of a program, in order: a video, written notes, or both (docs/data.md,
 * "Content"). The notes are kept as the admin wrote them (Markdown) and as learners are sent them,
 * rendered and sanitised once when saved (docs/product.md, "Lesson notes").
 */
export const modules = pgTable(
  "modules",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    programId: text("program_id")
      .notNull()
      .references(() => programs.id, { onDelete: "cascade", onUpdate: "cascade" }),
    position: integer("position").notNull(),
    title: text("title").notNull(),
    description: text("description").notNull().default(""),
    /** Null for a lesson of notes only. */
    youtubeId: text("youtube_id"),
    notes: text("notes").notNull().default(""),
    notesHtml: text("notes_html").notNull().default(""),
    /** Open to anyone signed in, whatever their plan: what a locked program shows of itself (docs/product.md, "Previews"). */
    freePreview: boolean("free_preview").notNull().default(false),
    /** Added by an administrator and not published yet: no learner sees it (docs/data.md, "Drafts"). */
    draft: boolean("draft").notNull().default(false),
    /**
     * A chart exercise's settings, checked when saved (docs/trading.md, "Exercises"); null for a
     * lesson to watch or read. The data set it replays is a column of its own, so that a set in
     * use cannot be removed.
     */
    exercise: jsonb("exercise").$type<StoredExercise>(),
    exerciseDataSetId: uuid("exercise_data_set_id").references((): AnyPgColumn => priceDataSets.id, { onDelete: "restrict" }),
    createdAt: createdAt(),
  },
  (table) => [
    uniqueIndex("modules_program_position_unique").on(table.programId, table.position),
    check("modules_video_or_notes", sql`${table.youtubeId} is not null or ${table.notes} <> '' or ${table.exercise} is not null`),
    check("modules_exercise_data_set", sql`(${table.exercise} is null) = (${table.exerciseDataSetId} is null)`),
  ],
);

/**
 * lesson_attachments: files a lesson offers for download (docs/product.md, "Attachments"). The
 * bytes are in `data` when the database keeps them (the default), or in the S3-compatible bucket
 * under `storage_key`; `sha256` and `size_bytes` are of the bytes as uploaded.
 */
export const lessonAttachments = pgTable(
  "lesson_attachments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    moduleId: uuid("module_id")
      .notNull()
      .references(() => modules.id, { onDelete: "cascade" }),
    fileName: text("file_name").notNull(),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    sha256: text("sha256").notNull(),
    data: bytea("data"),
    storageKey: text("storage_key"),
    createdAt: createdAt(),
  },
  (table) => [
    index("lesson_attachments_module_idx").on(table.moduleId, table.createdAt),
    check("lesson_attachments_stored_once", sql`(${table.data} is null) <> (${table.storageKey} is null)`),
  ],
);

/**
 * `explanation`, optional, is shown to a learner once they have answered the question; `draft`, a
 * question added and not published yet, which no learner sees (docs/data.md, "Drafts").
 */
export type QuizQuestion = { question: string; options: string[]; answer: string; explanation?: string; draft?: true };

/** quizzes: one per program, same id. Questions are edited and saved as a whole. */
export const quizzes = pgTable("quizzes", {
  programId: text("program_id")
    .primaryKey()
    .references(() => programs.id, { onDelete: "cascade", onUpdate: "cascade" }),
  title: text("title").notNull(),
  questions: jsonb("questions").$type<QuizQuestion[]>().notNull().default([]),
  // How many questions a learner must have right to pass; null means every question
  // (docs/product.md, "Completion and certificates").
  passMark: integer("pass_mark"),
  // Minutes a learner waits after an attempt that did not pass before starting a new one
  // (docs/product.md, "Quiz attempts").
  retryWaitMinutes: integer("retry_wait_minutes").notNull().default(10),
  updatedAt: updatedAt(),
});

/**
 * user_progress: one row per user and program. `data` maps the id of each watched module to true,
 * whoever set it, the learner or an administrator (docs/data.md, "Learning").
 */
export const userProgress = pgTable(
  "user_progress",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    programId: text("program_id")
      .notNull()
      .references(() => programs.id, { onDelete: "cascade", onUpdate: "cascade" }),
    data: jsonb("data").notNull().default({}),
    // When the learner first marked a video of the program watched; null until then. The
    // dashboard's "started" and "days to finish" count from here (docs/admin.md, "Dashboard").
    startedAt: timestamp("started_at", { withTimezone: true }),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.programId] }),
    // Who started each program (docs/admin.md, "Dashboard"): counted, and joined to the funnel's
    // learners, from the index alone.
    index("user_progress_started_idx")
      .on(table.programId, table.userId)
      .where(sql`${table.startedAt} is not null`),
  ],
);

/**
 * lesson_positions: where a learner stopped in a lesson's video, in whole seconds, so the lesson
 * resumes there on any device (docs/product.md, "Lesson player"). One row per learner and module,
 * overwritten as the video plays; gone with the learner or the module.
 */
export const lessonPositions = pgTable(
  "lesson_positions",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    moduleId: uuid("module_id")
      .notNull()
      .references(() => modules.id, { onDelete: "cascade" }),
    seconds: integer("seconds").notNull(),
    updatedAt: updatedAt(),
  },
  (table) => [
    primaryKey({ columns: [table.userId, table.moduleId] }),
    check("lesson_positions_seconds_range", sql`${table.seconds} between 0 and 86400`),
  ],
);

/** quiz_attempts: every answer a learner chose, checked on the server. */
export const quizAttempts = pgTable(
  "quiz_attempts",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    programId: text("program_id")
      .notNull()
      .references(() => programs.id, { onDelete: "cascade", onUpdate: "cascade" }),
    // The number of the quiz attempt (quiz_sittings) this answer belongs to.
    attempt: integer("attempt").notNull().default(1),
    questionIndex: integer("question_index").notNull(),
    option: text("option").notNull(),
    correct: boolean("correct").notNull(),
    createdAt: createdAt(),
  },
  // Each question's answers in an attempt newest first: the latest answer per question and the trim
  // past the kept ones read a few entries, not the learner's whole history (docs/performance.md,
  // "Writes in one round trip").
  (table) => [
    index("quiz_attempts_attempt_question_idx").on(
      table.userId,
      table.programId,
      table.attempt,
      table.questionIndex,
      table.createdAt.desc().nullsFirst(), // as `order by created_at desc` sorts
      table.id.desc().nullsFirst(),
    ),
  ],
);

/**
 * quiz_sittings: one per attempt a learner makes at a program's quiz, numbered from 1 (docs/data.md,
 * "Learning"; quiz_attempts holds the answers). `firstAnswers` maps a question's index to whether
 * the learner's first answer to it in this attempt was right: the attempt's score, which later
 * answers do not change. `answeredAt` is when the latest of those first answers came.
 */
export const quizSittings = pgTable(
  "quiz_sittings",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    programId: text("program_id")
      .notNull()
      .references(() => programs.id, { onDelete: "cascade", onUpdate: "cascade" }),
    number: integer("number").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull(),
    firstAnswers: jsonb("first_answers").$type<Record<string, boolean>>().notNull().default({}),
    answeredAt: timestamp("answered_at", { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.programId, table.number] })],
);

/**
 * exercise_attempts: a learner's attempts at a chart exercise, numbered from 1 (docs/trading.md,
 * "Exercises"). `revealed` is the last bar of the data set the learner has been sent: the decision
 * bar, moved on by each step. The answer and its score are written once, by the first submission
 * of the attempt (`scored_at is null` guards the update).
 */
export const exerciseAttempts = pgTable(
  "exercise_attempts",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    moduleId: uuid("module_id")
      .notNull()
      .references(() => modules.id, { onDelete: "cascade" }),
    number: integer("number").notNull(),
    startedAt: timestamp("started_at", { withTimezone: true }).notNull().defaultNow(),
    revealed: integer("revealed").notNull(),
    answer: jsonb("answer").$type<ExerciseAnswer>(),
    passed: boolean("passed"),
    scoredAt: timestamp("scored_at", { withTimezone: true }),
  },
  (table) => [primaryKey({ columns: [table.userId, table.moduleId, table.number] })],
);

export const contacts = pgTable(
  "contacts",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    email: text("email").notNull(),
    message: text("message").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("contacts_created_idx").on(sql`${table.createdAt} desc`)],
);

export const payments = pgTable(
  "payments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    reference: text("reference").notNull().unique(),
    // Null once the learner deleted their account: the payment is kept, anonymised, as a financial
    // record (docs/accounts.md, "Deleting an account").
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    userEmail: text("user_email").notNull(),
    kind: paymentKindEnum("kind").notNull(),
    plan: paidPlanEnum("plan").notNull(),
    amountMinor: integer("amount_minor").notNull(),
    currency: text("currency").notNull().default("GHS"),
    priceUsdCents: integer("price_usd_cents").notNull(),
    exchangeRate: numeric("exchange_rate", { precision: 12, scale: 6 }).notNull(),
    status: paymentStatusEnum("status").notNull().default("pending"),
    paidAt: timestamp("paid_at", { withTimezone: true }),
    creditedAt: timestamp("credited_at", { withTimezone: true }),
    // The last time the server asked Paystack about this payment: reconciliation, or the learner
    // opening a page, which asks at most once a minute (docs/subscriptions.md, "Asking Paystack").
    checkedAt: timestamp("checked_at", { withTimezone: true }),
    // What has been given back through refunds Paystack accepted (and did not fail); status becomes
    // refunded when it is all (docs/subscriptions.md, "Refunds").
    refundedMinor: integer("refunded_minor").notNull().default(0),
    // How the learner paid, from Paystack's verified transaction when it was credited
    // (docs/subscriptions.md, "Receipts"): its channel (card, mobile_money, ...), the card's brand
    // or the wallet's network, and the number masked (the card's last 4 digits, the wallet's
    // 055***4987). Null for a payment credited before these were kept.
    methodChannel: text("method_channel"),
    methodBrand: text("method_brand"),
    methodNumber: text("method_number"),
    // The month a subscription payment bought, for its receipt; null for the waitlist.
    periodStart: timestamp("period_start", { withTimezone: true }),
    periodEnd: timestamp("period_end", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("payments_created_idx").on(sql`${table.createdAt} desc`),
    // The dashboard's revenue by month: money received, by the day it arrived, summed from the
    // index alone (docs/admin.md, "Dashboard").
    index("payments_paid_idx")
      .on(table.paidAt, table.status, table.currency, table.amountMinor)
      .where(sql`${table.paidAt} is not null`),
    // The funnel's last step: did a learner ever pay? (The status is a column, not part of the
    // condition: a condition naming an enum value fails in the migration that adds the value.)
    index("payments_paid_user_idx")
      .on(table.userId, table.status)
      .where(sql`${table.paidAt} is not null`),
    // Reconciliation's work list: the payments still waiting for Paystack's word.
    index("payments_pending_idx").on(table.createdAt).where(sql`${table.status} = 'pending'`),
    check("payments_refund_within_amount", sql`${table.refundedMinor} between 0 and ${table.amountMinor}`),
    index("payments_user_idx").on(table.userId, table.createdAt),
    check("payments_amount_positive", sql`${table.amountMinor} > 0`),
  ],
);

/**
 * refunds: money given back for a payment, started by an admin here or elsewhere (the Paystack
 * dashboard; its refund webhooks find or create the row by gatewayId).
 */
export const refunds = pgTable(
  "refunds",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    paymentId: uuid("payment_id")
      .notNull()
      .references(() => payments.id, { onDelete: "restrict" }),
    amountMinor: integer("amount_minor").notNull(),
    status: refundStatusEnum("status").notNull().default("pending"),
    /** Paystack's id of the refund, once it has one. */
    gatewayId: text("gateway_id").unique(),
    /** The admin who asked for it; null for a refund started outside the product. */
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    reason: text("reason"),
    createdAt: createdAt(),
    processedAt: timestamp("processed_at", { withTimezone: true }),
  },
  (table) => [
    index("refunds_payment_idx").on(table.paymentId),
    index("refunds_processed_idx")
      .on(table.processedAt)
      .where(sql`${table.status} = 'processed'`),
    check("refunds_amount_positive", sql`${table.amountMinor} > 0`),
  ],
);

/**
 * cohorts: the quarterly intakes, named by their start month ("January 2027"). A waitlist payment
 * creates the cohort it joins if no administrator has yet (docs/admin.md, "Cohorts").
 */
export const cohorts = pgTable("cohorts", {
  name: text("name").primaryKey(),
  startsOn: date("starts_on", { mode: "string" }).notNull(),
  tracks: paidPlanEnum("tracks").array().notNull().default(sql`'{intermediate,advanced}'::paid_plan[]`),
  createdAt: createdAt(),
});

/** waitlist: one entry per user who paid to join the next cohort. */
export const waitlist = pgTable(
  "waitlist",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    plan: paidPlanEnum("plan").notNull(),
    paymentReference: text("payment_reference").references(() => payments.reference),
    cohort: text("cohort")
      .notNull()
      .references(() => cohorts.name, { onUpdate: "cascade" }),
    admitted: boolean("admitted").notNull().default(false),
    admittedAt: timestamp("admitted_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    // Deleting a payment checks this reference.
    index("waitlist_payment_reference_idx").on(table.paymentReference),
    // The waitlist by cohort and track, and "Admit all"'s work list.
    index("waitlist_cohort_idx").on(table.cohort, table.plan, table.admitted),
  ],
);

/** subscription_reminders: which reminder went out for which period, so each is sent once. */
export const subscriptionReminders = pgTable(
  "subscription_reminders",
  {
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    kind: text("kind", { enum: ["ending-soon", "expired"] }).notNull(),
    createdAt: createdAt(),
  },
  (table) => [primaryKey({ columns: [table.userId, table.periodEnd, table.kind] })],
);

/**
 * card_authorizations: the card a learner last paid with, as Paystack verified it, which Charge
 * Authorization can charge again when Paystack marks it reusable; and whether the learner chose
 * automatic renewal (docs/subscriptions.md, "Automatic renewal"). Written only from a verified card
 * payment of this learner. The code never leaves the server: the browser sees the brand and last 4.
 */
export const cardAuthorizations = pgTable("card_authorizations", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  authorizationCode: text("authorization_code").notNull(),
  // The Paystack customer the card belongs to: Charge Authorization is sent with this email.
  email: text("email").notNull(),
  brand: text("brand"),
  last4: text("last4"),
  reusable: boolean("reusable").notNull(),
  // The learner's choice of automatic renewal moved to users.auto_renew (migration 0029); the
  // column stays in the database, unread, for instances of the previous release during an upgrade.
  updatedAt: updatedAt(),
});

export const renewalChargeStatusEnum = pgEnum("renewal_charge_status", ["claimed", "charging", "pending", "success", "failed", "cancelled"]);

/**
 * renewal_charges: one automatic charge of a period's renewal, claimed once per (learner, period
 * end, attempt) before Paystack is asked, so several instances and a restart charge it once; its
 * reference is Paystack's, and the payment's (docs/decisions/019-automatic-renewal-claimed-once.md).
 */
export const renewalCharges = pgTable(
  "renewal_charges",
  {
    id: uuid("id").primaryKey(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    periodEnd: timestamp("period_end", { withTimezone: true }).notNull(),
    // 1 on the day the period ends; 2 the next day, after a first attempt that failed.
    attempt: integer("attempt").notNull(),
    plan: paidPlanEnum("plan").notNull(),
    reference: text("reference").notNull().unique(),
    status: renewalChargeStatusEnum("status").notNull().default("claimed"),
    // Why it failed, in words, for the learner (Paystack's gateway response, or that it could not be reached).
    failure: text("failure"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    uniqueIndex("renewal_charges_once_idx").on(table.userId, table.periodEnd, table.attempt),
    index("renewal_charges_user_idx").on(table.userId, sql`${table.createdAt} desc`),
  ],
);

/** config: small named settings, e.g. `subscription` -> { locked }. */
export const config = pgTable("config", {
  key: text("key").primaryKey(),
  value: jsonb("value").notNull(),
  updatedAt: updatedAt(),
});

/** audit_log: who changed whose entitlements, when, what and why. */
export const auditLog = pgTable(
  "audit_log",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    subjectUserId: text("subject_user_id").references(() => users.id, { onDelete: "set null" }),
    action: text("action").notNull(),
    reason: text("reason").notNull(),
    changes: jsonb("changes").notNull().default({}),
    createdAt: createdAt(),
  },
  (table) => [
    index("audit_log_actor_idx").on(table.actorId),
    index("audit_log_created_idx").on(sql`${table.createdAt} desc`),
    index("audit_log_subject_idx").on(table.subjectUserId, table.createdAt),
  ],
);

/** jobs: durable background work (emails, receipts, reminders), retried until done. */
export const jobs = pgTable(
  "jobs",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    kind: text("kind").notNull(),
    payload: jsonb("payload").notNull(),
    status: jobStatusEnum("status").notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    maxAttempts: integer("max_attempts").notNull().default(8),
    runAt: timestamp("run_at", { withTimezone: true }).notNull().defaultNow(),
    lockedAt: timestamp("locked_at", { withTimezone: true }),
    lastError: text("last_error"),
    createdAt: createdAt(),
  },
  (table) => [
    index("jobs_due_idx")
      .on(table.runAt)
      .where(sql`${table.status} = 'pending'`),
  ],
);

/**
 * certificates: one per learner and completed program. The id is the public certificate number
 * anyone can verify at /certificates/{id}; the holder's name and the program's title are copied at
 * issue, so that the certificate reads as it was issued (docs/product.md, "Completion and certificates").
 */
export const certificates = pgTable(
  "certificates",
  {
    id: text("id").primaryKey(),
    userId: text("user_id").references(() => users.id, { onDelete: "set null" }),
    holderName: text("holder_name").notNull(),
    // No reference: a certificate outlives a program an administrator removes.
    programId: text("program_id").notNull(),
    programTitle: text("program_title").notNull(),
    issuedAt: timestamp("issued_at", { withTimezone: true }).notNull().defaultNow(),
    // When the holder watched their first video of the program, as their progress said when the
    // certificate was issued: the dashboard's days to finish (docs/admin.md, "Dashboard"). Filled
    // in by the database (migration 0015) from the progress entry; null when it had no start.
    startedAt: timestamp("started_at", { withTimezone: true }),
    revokedAt: timestamp("revoked_at", { withTimezone: true }),
    revokedBy: text("revoked_by").references(() => users.id, { onDelete: "set null" }),
    revokeReason: text("revoke_reason"),
  },
  (table) => [
    // One valid certificate per learner and program; a revoked one does not block a new one.
    uniqueIndex("certificates_user_program_valid_unique")
      .on(table.userId, table.programId)
      .where(sql`${table.revokedAt} is null`),
    index("certificates_user_idx").on(table.userId, table.issuedAt),
    index("certificates_program_idx").on(table.programId, table.issuedAt),
  ],
);

/** lesson_questions: what learners ask under a lesson (the community forum and plan support). */
export const lessonQuestions = pgTable(
  "lesson_questions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    moduleId: uuid("module_id")
      .notNull()
      .references(() => modules.id, { onDelete: "cascade" }),
    programId: text("program_id")
      .notNull()
      .references(() => programs.id, { onDelete: "cascade", onUpdate: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    pinnedAt: timestamp("pinned_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("lesson_questions_module_idx").on(table.moduleId, table.createdAt),
    index("lesson_questions_user_idx").on(table.userId, table.createdAt),
    index("lesson_questions_created_idx").on(sql`${table.createdAt} desc`),
  ],
);

/** lesson_answers: replies to a lesson question, by administrators or learners of the track. */
export const lessonAnswers = pgTable(
  "lesson_answers",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    questionId: uuid("question_id")
      .notNull()
      .references(() => lessonQuestions.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index("lesson_answers_question_idx").on(table.questionId, table.createdAt),
    index("lesson_answers_user_idx").on(table.userId),
  ],
);

/** mentorship_requests: an Advanced learner's request for a 1-on-1 session, and the admin's reply. */
export const mentorshipRequests = pgTable(
  "mentorship_requests",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    topic: text("topic").notNull(),
    preferredTimes: text("preferred_times").notNull(),
    status: mentorshipStatusEnum("status").notNull().default("requested"),
    /** The confirmed session time. */
    scheduledAt: timestamp("scheduled_at", { withTimezone: true }),
    /** The admin's note to the learner: why declined, or what to prepare. */
    note: text("note"),
    decidedBy: text("decided_by").references(() => users.id, { onDelete: "set null" }),
    decidedAt: timestamp("decided_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [
    index("mentorship_requests_status_idx").on(table.status, table.createdAt),
    index("mentorship_requests_user_idx").on(table.userId, table.createdAt),
  ],
);

/**
 * cohort_admissions: one "Admit all" run over a cohort's track, done as a job. At most one run per
 * cohort and track is under way at a time; each learner is admitted in a transaction of their own
 * that skips whoever is already admitted (docs/admin.md, "Cohorts").
 */
export const cohortAdmissions = pgTable(
  "cohort_admissions",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    cohort: text("cohort")
      .notNull()
      .references(() => cohorts.name, { onUpdate: "cascade" }),
    track: paidPlanEnum("track").notNull(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    status: bulkRunStatusEnum("status").notNull().default("running"),
    /** Paid, not-yet-admitted learners when the run started. */
    total: integer("total").notNull().default(0),
    admitted: integer("admitted").notNull().default(0),
    failed: integer("failed").notNull().default(0),
    lastError: text("last_error"),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [
    uniqueIndex("cohort_admissions_one_running_unique")
      .on(table.cohort, table.track)
      .where(sql`${table.status} = 'running'`),
    index("cohort_admissions_created_idx").on(sql`${table.createdAt} desc`),
  ],
);

/** The people an announcement goes to (docs/admin.md, "Announcements"). */
export type AnnouncementAudience =
  | { kind: "everyone" }
  | { kind: "plan"; plan: string }
  | { kind: "cohort"; cohort: string }
  | { kind: "waitlist" }
  | { kind: "unfinished"; program: string };

/**
 * announcements: a message an administrator sent to an audience. Sending is a job that works
 * through announcement_deliveries, so that it resumes after a restart and mails each person once.
 */
export const announcements = pgTable(
  "announcements",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    subject: text("subject").notNull(),
    body: text("body").notNull(),
    audience: jsonb("audience").$type<AnnouncementAudience>().notNull(),
    actorId: text("actor_id").references(() => users.id, { onDelete: "set null" }),
    status: bulkRunStatusEnum("status").notNull().default("running"),
    /** How many people it was addressed to, fixed when sending started. */
    recipients: integer("recipients").notNull().default(0),
    createdAt: createdAt(),
    finishedAt: timestamp("finished_at", { withTimezone: true }),
  },
  (table) => [index("announcements_created_idx").on(sql`${table.createdAt} desc`)],
);

/** announcement_deliveries: one row per announcement and person; its status says what happened. */
export const announcementDeliveries = pgTable(
  "announcement_deliveries",
  {
    announcementId: uuid("announcement_id")
      .notNull()
      .references(() => announcements.id, { onDelete: "cascade" }),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    email: text("email").notNull(),
    status: deliveryStatusEnum("status").notNull().default("pending"),
    /** When a sender took the row; a row left "sending" by a killed process is not sent again. */
    claimedAt: timestamp("claimed_at", { withTimezone: true }),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    error: text("error"),
  },
  (table) => [
    primaryKey({ columns: [table.announcementId, table.userId] }),
    index("announcement_deliveries_status_idx").on(table.announcementId, table.status),
  ],
);

/** announcement_unsubscribes: learners who asked for no announcements (receipts and security mail still go). */
export const announcementUnsubscribes = pgTable("announcement_unsubscribes", {
  userId: text("user_id")
    .primaryKey()
    .references(() => users.id, { onDelete: "cascade" }),
  createdAt: createdAt(),
});

/**
 * sms_numbers: a learner's Ghanaian mobile number in E.164, once confirmed by a code, and what they
 * chose to receive by SMS (docs/product.md, "SMS"). The code is kept hashed, never as sent.
 */
export const smsNumbers = pgTable(
  "sms_numbers",
  {
    userId: text("user_id")
      .primaryKey()
      .references(() => users.id, { onDelete: "cascade" }),
    phone: text("phone").notNull(),
    confirmedAt: timestamp("confirmed_at", { withTimezone: true }),
    // Another number asked for while `phone` is confirmed: the code is its own, and `phone` keeps
    // its SMS until the code is given (docs/product.md, "SMS").
    pendingPhone: text("pending_phone"),
    codeHash: text("code_hash"),
    codeExpiresAt: timestamp("code_expires_at", { withTimezone: true }),
    codeTriesLeft: integer("code_tries_left").notNull().default(0),
    reminders: boolean("reminders").notNull().default(true),
    receipts: boolean("receipts").notNull().default(true),
    cohorts: boolean("cohorts").notNull().default(true),
    mentorship: boolean("mentorship").notNull().default(true),
    createdAt: createdAt(),
  },
  // A number belongs to one account once confirmed; unconfirmed, several may be trying it.
  (table) => [uniqueIndex("sms_numbers_confirmed_phone_unique").on(table.phone).where(sql`${table.confirmedAt} is not null`)],
);

/** sms_code_requests: each confirmation code asked for, counted by the limits per number, account and address. */
export const smsCodeRequests = pgTable(
  "sms_code_requests",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    phone: text("phone").notNull(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    ip: text("ip").notNull(),
    createdAt: createdAt(),
  },
  (table) => [
    index("sms_code_requests_phone_idx").on(table.phone, table.createdAt),
    index("sms_code_requests_user_idx").on(table.userId, table.createdAt),
    index("sms_code_requests_ip_idx").on(table.ip, table.createdAt),
  ],
);

/**
 * sms_messages: one row per event that sends an SMS (`eventKey` unique: never two for one event),
 * sent by the job queue; a code's text is kept without the code.
 */
export const smsMessages = pgTable(
  "sms_messages",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    eventKey: text("event_key").notNull().unique(),
    userId: text("user_id").references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["code", "reminder", "receipt", "cohort", "mentorship"] }).notNull(),
    to: text("to").notNull(),
    content: text("content").notNull(),
    status: text("status", { enum: ["pending", "sent", "failing", "cancelled"] }).notNull().default("pending"),
    attempts: integer("attempts").notNull().default(0),
    lastError: text("last_error"),
    providerMessageId: text("provider_message_id"),
    rate: text("rate"),
    sentAt: timestamp("sent_at", { withTimezone: true }),
    createdAt: createdAt(),
  },
  (table) => [index("sms_messages_failing_idx").on(table.createdAt).where(sql`${table.status} = 'failing'`)],
);

/**
 * price_data_sets: price bars the academy owns, which exercises replay (docs/trading.md, "Price
 * data"): uploaded by an administrator as MetaTrader 5's or TradingView's export, or generated for
 * the demo catalogue and marked illustrative. Taken whole or not at all: a set's bars are written
 * in the transaction that writes the set.
 */
export const priceDataSets = pgTable(
  "price_data_sets",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    name: text("name").notNull(),
    instrument: text("instrument").notNull(),
    /** The price move one pip is, as the administrator wrote it (0.0001, 0.01, 0.10). */
    pipSize: numeric("pip_size").notNull(),
    timeframe: text("timeframe", { enum: ["M1", "M5", "M15", "M30", "H1", "H4", "D1", "W1"] }).notNull(),
    source: text("source", { enum: ["metatrader5", "tradingview", "generated"] }).notNull(),
    /** Not real prices: the demo catalogue's generated set, labelled so wherever it shows. */
    illustrative: boolean("illustrative").notNull().default(false),
    barCount: integer("bar_count").notNull(),
    firstBarAt: timestamp("first_bar_at", { withTimezone: true }).notNull(),
    lastBarAt: timestamp("last_bar_at", { withTimezone: true }).notNull(),
    uploadedBy: text("uploaded_by").references(() => users.id, { onDelete: "set null" }),
    createdAt: createdAt(),
  },
  (table) => [check("price_data_sets_pip_positive", sql`${table.pipSize} > 0`), check("price_data_sets_bars", sql`${table.barCount} between 1 and 20000`)],
);

/** price_bars: a set's bars in time order; prices as the file wrote them (numeric, never binary fractions). */
export const priceBars = pgTable(
  "price_bars",
  {
    dataSetId: uuid("data_set_id")
      .notNull()
      .references(() => priceDataSets.id, { onDelete: "cascade" }),
    /** The bar's place in the set, from 0. */
    position: integer("position").notNull(),
    time: timestamp("time", { withTimezone: true }).notNull(),
    open: numeric("open").notNull(),
    high: numeric("high").notNull(),
    low: numeric("low").notNull(),
    close: numeric("close").notNull(),
  },
  (table) => [primaryKey({ columns: [table.dataSetId, table.position] })],
);

/**
 * journal_entries: a learner's own record of a trade, practice or real (docs/trading.md, "The
 * journal"). Private: only its owner and administrators read it. Prices and the size as typed
 * (numeric); `r`, the result in units of risk, is computed by the server when the exit is known,
 * rounded half up to two decimals, and null while the trade is open.
 */
export const journalEntries = pgTable(
  "journal_entries",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    userId: text("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    kind: text("kind", { enum: ["practice", "real"] }).notNull(),
    instrument: text("instrument").notNull(),
    direction: text("direction", { enum: ["buy", "sell"] }).notNull(),
    entry: numeric("entry").notNull(),
    stop: numeric("stop").notNull(),
    target: numeric("target"),
    exit: numeric("exit"),
    /** In lots. */
    size: numeric("size").notNull(),
    tradedOn: date("traded_on").notNull(),
    notes: text("notes").notNull().default(""),
    r: numeric("r", { precision: 12, scale: 2 }),
    /** When an Advanced learner shared it with their mentor (the academy's team); null when not shared. */
    sharedAt: timestamp("shared_at", { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (table) => [
    index("journal_entries_user_idx").on(table.userId, table.tradedOn, table.createdAt),
    index("journal_entries_shared_idx").on(table.sharedAt).where(sql`${table.sharedAt} is not null`),
  ],
);

/** journal_comments: a mentor's comments on an entry shared with them, told to the learner by email and, if they chose, SMS. */
export const journalComments = pgTable(
  "journal_comments",
  {
    id: uuid("id").primaryKey().defaultRandom(),
    entryId: uuid("entry_id")
      .notNull()
      .references(() => journalEntries.id, { onDelete: "cascade" }),
    authorId: text("author_id").references(() => users.id, { onDelete: "set null" }),
    body: text("body").notNull(),
    createdAt: createdAt(),
  },
  (table) => [index("journal_comments_entry_idx").on(table.entryId, table.createdAt)],
);

/** journal_screenshots: an entry's one screenshot (at most 2 MB, an image by its content), kept as lesson attachments are. */
export const journalScreenshots = pgTable(
  "journal_screenshots",
  {
    entryId: uuid("entry_id")
      .primaryKey()
      .references(() => journalEntries.id, { onDelete: "cascade" }),
    contentType: text("content_type").notNull(),
    sizeBytes: integer("size_bytes").notNull(),
    data: bytea("data"),
    storageKey: text("storage_key"),
    createdAt: createdAt(),
  },
  (table) => [check("journal_screenshots_stored_once", sql`(${table.data} is null) <> (${table.storageKey} is null)`)],
);
