// Lesson questions (the community forum) and 1-on-1 mentorship (docs/product.md, "Questions and
// mentorship"): the routes' shapes, the limits and every text the learner and the admin read.
import * as z from "zod/mini";
import { waitText } from "./accounts.ts";
import { groupThousands } from "../formatters.ts";
import { endpoint } from "./endpoint.ts";

export const SUPPORT_LIMITS = {
  /** Characters of a question or an answer. */
  post: 2000,
  /** Questions of a lesson per page ("Show more" loads the next). */
  questionsPage: 20,
  /** Questions and answers together, per learner (administrators are not counted). */
  postsPerWindow: 5,
  postWindowSeconds: 600,
  topic: 200,
  preferredTimes: 500,
  note: 1000,
  /** Requests waiting for an answer, or confirmed and still to come, per learner. */
  openMentorship: 2,
} as const;


/** How a learner lost the Advanced plan, as the cancellation's note says it. */
const MENTORSHIP_LOSSES = {
  refund: "was refunded",
  expiry: "has ended",
  admin: "was changed by the Academy team",
} as const;
export type MentorshipLoss = keyof typeof MENTORSHIP_LOSSES;

export const SUPPORT_MESSAGES = {
  questionRequired: "Write your question before posting it.",
  answerRequired: "Write your answer before posting it.",
  postTooLong: `Please keep it to ${groupThousands(SUPPORT_LIMITS.post)} characters or fewer.`,
  tooManyPosts: (ms: number) =>
    `You have posted ${SUPPORT_LIMITS.postsPerWindow} times in ${SUPPORT_LIMITS.postWindowSeconds / 60} minutes. ` +
    `Please try again in ${waitText(ms)}.`,
  notOpen: "Questions under this lesson are open to learners whose plan includes this program.",
  questionNotFound: "This question has been removed.",
  answerNotFound: "This answer has been removed.",
  questionPosted: "Your question is posted. You will get an email when someone answers it.",
  answerPosted: "Your answer is posted.",
  questionsLoading: "Loading questions...",
  noQuestions: "No questions yet. Ask the first one.",
  staff: "Academy team",
  pinned: "Pinned",
  removeQuestionConfirm: "Remove this question and its answers? Learners will no longer see them.",
  removeAnswerConfirm: "Remove this answer? Learners will no longer see it.",
  questionRemoved: "Question removed.",
  answerRemoved: "Answer removed.",

  advancedOnly: "1-on-1 mentorship is part of the Advanced plan.",
  topicRequired: "Tell us what you would like to work on.",
  topicTooLong: `Please keep the topic to ${groupThousands(SUPPORT_LIMITS.topic)} characters or fewer.`,
  timesRequired: "Tell us a few days and times that suit you.",
  timesTooLong: `Please keep your preferred times to ${groupThousands(SUPPORT_LIMITS.preferredTimes)} characters or fewer.`,
  tooManyOpen: `You already have ${SUPPORT_LIMITS.openMentorship} open mentorship requests. Cancel one, or wait for the session, before asking for another.`,
  requestNotFound: "Mentorship request not found.",
  alreadyDecided: "This request has already been answered or cancelled.",
  /** The note of a request cancelled because the learner lost the Advanced plan (docs/product.md, "Questions and mentorship"). */
  cancelledPlanLost: (why: MentorshipLoss) =>
    `Cancelled because your Advanced plan ${MENTORSHIP_LOSSES[why]}. 1-on-1 mentorship is part of the Advanced plan.`,
  learnerLostAdvanced:
    "This learner no longer has the Advanced plan, so the request was cancelled and they were emailed why. Nothing was booked.",
  requestSent: "Request sent. We will email you when a time is confirmed.",
  requestCancelled: "Request cancelled.",
  timeInvalid: "Enter the session's date and time.",
  timeInPast: "Choose a time in the future.",
  noteRequired: "Add a note telling the learner why.",
  noteTooLong: `Please keep the note to ${groupThousands(SUPPORT_LIMITS.note)} characters or fewer.`,
  confirmed: "Session confirmed. The learner has been emailed.",
  declined: "Request declined. The learner has been emailed.",
} as const;

const text = (required: string, max: number, tooLong: string) =>
  z.string({ error: required }).check(z.trim(), z.minLength(1, required), z.maxLength(max, tooLong));

const isoDate = z.string();
const page = z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(100_000)), 1);
const id = z.string().check(z.maxLength(64));
/** Questions, answers and mentorship requests are named by UUIDs: anything else is refused before the database sees it. */
const recordId = z.uuid({ error: "No such record." });

// ---- Lesson questions ---------------------------------------------------------------------------

export const lessonParamsSchema = z.object({ track: z.string().check(z.maxLength(64)), moduleId: id });
export const questionParamsSchema = z.object({ questionId: recordId });
export const answerParamsSchema = z.object({ answerId: recordId });
export const pageQuerySchema = z.object({ page });

export const questionRequestSchema = z.object({ body: text(SUPPORT_MESSAGES.questionRequired, SUPPORT_LIMITS.post, SUPPORT_MESSAGES.postTooLong) });
export const answerRequestSchema = z.object({ body: text(SUPPORT_MESSAGES.answerRequired, SUPPORT_LIMITS.post, SUPPORT_MESSAGES.postTooLong) });
export type PostRequest = z.input<typeof questionRequestSchema>;

const postFields = {
  id: z.string(),
  body: z.string(),
  /** The author's name as learners see it. */
  author: z.string(),
  /** Written by an administrator: shown as the Academy team. */
  staff: z.boolean(),
  /** Written by the one asking. */
  mine: z.boolean(),
  createdAt: isoDate,
};

export const lessonAnswerSchema = z.object(postFields);
export type LessonAnswer = z.infer<typeof lessonAnswerSchema>;

export const lessonQuestionSchema = z.object({ ...postFields, pinned: z.boolean(), answers: z.array(lessonAnswerSchema) });
export type LessonQuestion = z.infer<typeof lessonQuestionSchema>;

/** GET /api/programs/:track/modules/:moduleId/questions?page=: pinned first, then newest. */
export const questionPageSchema = z.object({ questions: z.array(lessonQuestionSchema), hasMore: z.boolean() });
export type QuestionPage = z.infer<typeof questionPageSchema>;

export const questionResponseSchema = z.object({ question: lessonQuestionSchema });
export const answerResponseSchema = z.object({ answer: lessonAnswerSchema });

/** PUT /api/admin/questions/:questionId/pin */
export const pinRequestSchema = z.object({ pinned: z.boolean() });

/** A question as the admin's Questions tab lists it: where it was asked, by whom, and its answers. */
export const adminQuestionSchema = z.extend(lessonQuestionSchema, {
  /** For the link to the asker's learner page in the console. */
  authorId: z.string(),
  authorEmail: z.string(),
  /** The program's id. */
  track: z.string(),
  moduleId: z.string(),
  lessonTitle: z.string(),
  /** No answer from the Academy team yet. */
  unanswered: z.boolean(),
  /** Asked by a learner on the Advanced plan now: priority support (docs/product.md, "Questions and mentorship"). */
  priority: z.boolean(),
});
export type AdminQuestion = z.infer<typeof adminQuestionSchema>;

/** GET /api/admin/questions?page=: unanswered by the team first, Advanced learners' first among them, then newest. */
export const adminQuestionListSchema = z.object({
  page: z.int(),
  pageSize: z.int(),
  total: z.int(),
  questions: z.array(adminQuestionSchema),
});

export const okSchema = z.object({ ok: z.literal(true) });

// ---- Mentorship ---------------------------------------------------------------------------------

export const MENTORSHIP_STATUSES = ["requested", "confirmed", "declined", "cancelled"] as const;
export type MentorshipStatus = (typeof MENTORSHIP_STATUSES)[number];

export const MENTORSHIP_STATUS_LABELS: Record<MentorshipStatus, string> = {
  requested: "Waiting for a time",
  confirmed: "Confirmed",
  declined: "Declined",
  cancelled: "Cancelled",
};

export const mentorshipParamsSchema = z.object({ requestId: recordId });

/** POST /api/mentorship: what the learner wants to work on and when they can meet, in their words. */
export const mentorshipRequestSchema = z.object({
  topic: text(SUPPORT_MESSAGES.topicRequired, SUPPORT_LIMITS.topic, SUPPORT_MESSAGES.topicTooLong),
  preferredTimes: text(SUPPORT_MESSAGES.timesRequired, SUPPORT_LIMITS.preferredTimes, SUPPORT_MESSAGES.timesTooLong),
});
export type MentorshipRequestInput = z.input<typeof mentorshipRequestSchema>;

export const mentorshipSchema = z.object({
  id: z.string(),
  topic: z.string(),
  preferredTimes: z.string(),
  status: z.enum(MENTORSHIP_STATUSES),
  /** The confirmed session's start. */
  scheduledAt: z.nullable(isoDate),
  note: z.nullable(z.string()),
  createdAt: isoDate,
});
export type Mentorship = z.infer<typeof mentorshipSchema>;

/** GET /api/mentorship: whether the plan includes it (decided by the server), and the learner's requests. */
export const mentorshipListSchema = z.object({ eligible: z.boolean(), requests: z.array(mentorshipSchema) });
export const mentorshipResponseSchema = z.object({ request: mentorshipSchema });

const note = z.string().check(z.trim(), z.maxLength(SUPPORT_LIMITS.note, SUPPORT_MESSAGES.noteTooLong));

/** POST /api/admin/mentorship/:requestId/confirm: a date-time input's value, on Accra's clock. */
export const confirmMentorshipSchema = z.object({
  scheduledAt: z.string({ error: SUPPORT_MESSAGES.timeInvalid }).check(z.regex(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}$/, SUPPORT_MESSAGES.timeInvalid)),
  note: z._default(note, ""),
});
export type ConfirmMentorshipInput = z.input<typeof confirmMentorshipSchema>;

/** POST /api/admin/mentorship/:requestId/decline */
export const declineMentorshipSchema = z.object({
  note: text(SUPPORT_MESSAGES.noteRequired, SUPPORT_LIMITS.note, SUPPORT_MESSAGES.noteTooLong),
});

export const adminMentorshipSchema = z.extend(mentorshipSchema, { learnerId: z.string(), learnerName: z.string(), learnerEmail: z.string() });
export type AdminMentorship = z.infer<typeof adminMentorshipSchema>;

/** GET /api/admin/mentorship?page=: requests waiting for a time first, then newest. */
export const adminMentorshipListSchema = z.object({
  page: z.int(),
  pageSize: z.int(),
  total: z.int(),
  requests: z.array(adminMentorshipSchema),
});

/** Questions under lessons and 1-on-1 mentorship (docs/product.md, "Questions and mentorship"). */
export const SUPPORT_ENDPOINTS = {
  questions: endpoint({
    method: "GET",
    path: "/api/programs/:track/modules/:moduleId/questions",
    params: lessonParamsSchema,
    query: pageQuerySchema,
    response: questionPageSchema,
  }),
  ask: endpoint({
    method: "POST",
    path: "/api/programs/:track/modules/:moduleId/questions",
    params: lessonParamsSchema,
    body: questionRequestSchema,
    response: questionResponseSchema,
    status: 201,
  }),
  answer: endpoint({
    method: "POST",
    path: "/api/questions/:questionId/answers",
    params: questionParamsSchema,
    body: answerRequestSchema,
    response: answerResponseSchema,
    status: 201,
  }),
  mentorship: endpoint({ method: "GET", path: "/api/mentorship", response: mentorshipListSchema }),
  requestSession: endpoint({ method: "POST", path: "/api/mentorship", body: mentorshipRequestSchema, response: mentorshipResponseSchema, status: 201 }),
  cancelSession: endpoint({ method: "POST", path: "/api/mentorship/:requestId/cancel", params: mentorshipParamsSchema, response: mentorshipResponseSchema }),
  adminQuestions: endpoint({ method: "GET", path: "/api/admin/questions", query: pageQuerySchema, response: adminQuestionListSchema }),
  pin: endpoint({ method: "PUT", path: "/api/admin/questions/:questionId/pin", params: questionParamsSchema, body: pinRequestSchema, response: okSchema }),
  removeQuestion: endpoint({ method: "DELETE", path: "/api/admin/questions/:questionId", params: questionParamsSchema, response: okSchema }),
  removeAnswer: endpoint({ method: "DELETE", path: "/api/admin/answers/:answerId", params: answerParamsSchema, response: okSchema }),
  adminMentorship: endpoint({ method: "GET", path: "/api/admin/mentorship", query: pageQuerySchema, response: adminMentorshipListSchema }),
  confirmSession: endpoint({
    method: "POST",
    path: "/api/admin/mentorship/:requestId/confirm",
    params: mentorshipParamsSchema,
    body: confirmMentorshipSchema,
    response: mentorshipResponseSchema,
  }),
  declineSession: endpoint({
    method: "POST",
    path: "/api/admin/mentorship/:requestId/decline",
    params: mentorshipParamsSchema,
    body: declineMentorshipSchema,
    response: mentorshipResponseSchema,
  }),
};
