// One page per learner in the admin console (docs/admin.md, "Learner page"): GET
// /api/admin/users/:id answers everything the page shows, each list newest first and capped, with
// how many there are in all. The actions on the page are the Users tab's own calls.
import * as z from "zod/mini";
import { PAID_PLANS, PLANS, PROVIDERS, SUBSCRIPTION_STATUSES } from "../plans.ts";
import { PAYMENT_KINDS, PAYMENT_STATUSES, REFUND_STATUSES } from "./billing.ts";
import { adminCertificateSchema } from "./certificates.ts";
import { quizAttemptSchema as learnerQuizAttemptSchema } from "./learning.ts";
import { endpoint } from "./endpoint.ts";

export const LEARNER_MESSAGES = {
  notFound: "No such user.",
  loading: "Loading the learner...",
  noPlanHistory: "No plan changes recorded yet.",
  noPayments: "No payments yet.",
  noRefunds: "No refunds.",
  noPrograms: "There are no programs yet.",
  noQuizAttempts: "No quiz answers yet.",
  noQuizScores: "No quiz attempts yet.",
  noCertificates: "No certificates yet.",
  noQuestions: "No questions asked yet.",
  noAudit: "No audit entries about this learner yet.",
  notOnWaitlist: "Not on the waitlist.",
} as const;

/**
 * The audit actions that change a learner's plan (docs/data.md, "Audit log"), as the plan history
 * names them: an admin's choice, the Fix tool, a paid month, an admission, the end of a period,
 * and a whole refund that took paid time back (a partial refund changes no plan).
 */
export const PLAN_CHANGE_LABELS = {
  "plan.set": "Plan changed",
  "plan.fixed": "Missing plan fixed",
  "payment.credited": "Month paid",
  "waitlist.admitted": "Admitted from the waitlist",
  "subscription.continued": "Queued plan started",
  "subscription.expired": "Plan expired",
  "payment.refunded": "Refund took paid time back",
} as const;
export type PlanChangeAction = keyof typeof PLAN_CHANGE_LABELS;
export const PLAN_CHANGE_ACTIONS = Object.keys(PLAN_CHANGE_LABELS).filter(isPlanChangeAction);

export function isPlanChangeAction(action: string): action is PlanChangeAction {
  return Object.hasOwn(PLAN_CHANGE_LABELS, action);
}

/** The ways to sign in, as the auth library names them in the accounts table. */
export const SIGN_IN_METHOD_LABELS: Record<string, string> = {
  credential: "Email and password",
  google: "Google",
  mql5: "MQL5",
};

/** How many of each list the page shows: a learner has few, but the page stays small whatever happens. */
export const LEARNER_LIMITS = {
  planHistory: 50,
  payments: 50,
  quizAttempts: 50,
  questions: 20,
  audit: 50,
} as const;

/**
 * The learner's id as the address carries it. Any string: an id that cannot be a user's (too
 * long, control characters) is answered 404 like one that is not there.
 */
export const learnerParamsSchema = z.object({ id: z.string() });

const isoDate = z.string();
/** A list capped at its LEARNER_LIMITS entry, and how many there are in all. */
const capped = <T extends z.ZodMiniType>(entry: T) => z.object({ total: z.int(), entries: z.array(entry) });

export const learnerProfileSchema = z.object({
  id: z.string(),
  name: z.string(),
  email: z.string(),
  emailVerified: z.boolean(),
  /** How the account was first made; null for an imported row that never said. */
  provider: z.nullable(z.enum(PROVIDERS)),
  /** Every way the learner can sign in now ("credential" is email and password). */
  signInMethods: z.array(z.string()),
  createdAt: isoDate,
  lastActiveAt: z.nullable(isoDate),
});

export const learnerPlanSchema = z.object({
  /** The stored plan; null when the row has none (the Users tab's Fix tool repairs it). */
  plan: z.nullable(z.enum(PLANS)),
  status: z.enum(SUBSCRIPTION_STATUSES),
  start: z.nullable(isoDate),
  end: z.nullable(isoDate),
  /** Paid time of a lower plan that runs after `end` (docs/subscriptions.md, "Paid time is never lost"). */
  queued: z.nullable(z.object({ plan: z.enum(PAID_PLANS), end: isoDate })),
  /** The learner's waitlist place, if they paid for one. */
  waitlist: z.nullable(
    z.object({
      track: z.enum(PAID_PLANS),
      cohort: z.string(),
      paid: z.boolean(),
      admitted: z.boolean(),
      admittedAt: z.nullable(isoDate),
      createdAt: isoDate,
    }),
  ),
  /** Paid for a waitlist place and not admitted yet: Admit from Waitlist applies. */
  canAdmit: z.boolean(),
});

/** A plan as one audit entry records it, before or after the change; any part may be unknown. */
const planStateSchema = z.object({
  plan: z.nullable(z.string()),
  status: z.nullable(z.string()),
  end: z.nullable(isoDate),
});

export const planChangeSchema = z.object({
  id: z.int(),
  /** One of PLAN_CHANGE_ACTIONS. */
  action: z.string(),
  reason: z.string(),
  from: z.nullable(planStateSchema),
  to: z.nullable(planStateSchema),
  actorId: z.nullable(z.string()),
  actorEmail: z.nullable(z.string()),
  createdAt: isoDate,
});
export type PlanChange = z.infer<typeof planChangeSchema>;

export const learnerRecordRefundSchema = z.object({
  id: z.string(),
  amountMinor: z.int(),
  status: z.enum(REFUND_STATUSES),
  reason: z.nullable(z.string()),
  createdAt: isoDate,
  processedAt: z.nullable(isoDate),
});

/** A payment on a learner's record in the admin console, with its refunds (the learner's own view: ownPaymentSchema). */
export const learnerRecordPaymentSchema = z.object({
  id: z.string(),
  reference: z.string(),
  kind: z.enum(PAYMENT_KINDS),
  plan: z.enum(PAID_PLANS),
  /** Pesewas, as every amount (docs/data.md, "Money"). */
  amountMinor: z.int(),
  refundedMinor: z.int(),
  currency: z.string(),
  status: z.enum(PAYMENT_STATUSES),
  createdAt: isoDate,
  paidAt: z.nullable(isoDate),
  /** Its refunds, newest first. */
  refunds: z.array(learnerRecordRefundSchema),
});
export type LearnerRecordPayment = z.infer<typeof learnerRecordPaymentSchema>;

/** Where the learner stands in one program, by learning's own completion rule. */
export const learnerProgramSchema = z.object({
  /** The program's id. */
  track: z.string(),
  title: z.string(),
  videos: z.int(),
  watched: z.int(),
  /** When the learner first marked one of its videos watched; null until then. */
  startedAt: z.nullable(isoDate),
  /**
   * Null for a program without a quiz. `correct` is the best attempt's score; `attempts` every
   * attempt, oldest first, scored as learning scores it (docs/product.md, "Quiz attempts").
   */
  quiz: z.nullable(
    z.object({ questions: z.int(), correct: z.int(), passMark: z.int(), passed: z.boolean(), attempts: z.array(learnerQuizAttemptSchema) }),
  ),
  complete: z.boolean(),
  /** The valid certificate for it, if any. */
  certificateId: z.nullable(z.string()),
});
export type LearnerProgram = z.infer<typeof learnerProgramSchema>;

export const quizAttemptSchema = z.object({
  id: z.int(),
  track: z.string(),
  programTitle: z.nullable(z.string()),
  /** The number of the quiz attempt the answer was given in. */
  attempt: z.int(),
  /** 0-based, as stored; the page shows it from 1. */
  questionIndex: z.int(),
  option: z.string(),
  correct: z.boolean(),
  createdAt: isoDate,
});

export const learnerQuestionSchema = z.object({
  id: z.string(),
  track: z.string(),
  moduleId: z.string(),
  lessonTitle: z.string(),
  body: z.string(),
  pinned: z.boolean(),
  answers: z.int(),
  createdAt: isoDate,
});

export const learnerAuditEntrySchema = z.object({
  id: z.int(),
  action: z.string(),
  reason: z.string(),
  actorId: z.nullable(z.string()),
  actorEmail: z.nullable(z.string()),
  changes: z.unknown(),
  createdAt: isoDate,
});
export type LearnerAuditEntry = z.infer<typeof learnerAuditEntrySchema>;

/** GET /api/admin/users/:id */
export const learnerSchema = z.object({
  profile: learnerProfileSchema,
  plan: learnerPlanSchema,
  planHistory: capped(planChangeSchema),
  payments: capped(learnerRecordPaymentSchema),
  programs: z.array(learnerProgramSchema),
  quizAttempts: capped(quizAttemptSchema),
  certificates: z.array(adminCertificateSchema),
  questions: capped(learnerQuestionSchema),
  audit: capped(learnerAuditEntrySchema),
});
export type Learner = z.infer<typeof learnerSchema>;

/** The learner page's one read (docs/admin.md, "Learner page"). */
export const LEARNER_RECORD_ENDPOINTS = {
  learner: endpoint({ method: "GET", path: "/api/admin/users/:id", params: learnerParamsSchema, response: learnerSchema }),
};
