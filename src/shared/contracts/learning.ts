import * as z from "zod/mini";
import { PAID_PLANS, TRACKS } from "../plans.ts";
import { addressOf, endpoint } from "./endpoint.ts";
import { EXERCISE_KINDS } from "../exercise-kinds.ts";

/**
 * Quiz answers per learner and question (docs/product.md, "Timings and limits"): at most `perWindow` in a window of
 * `windowSeconds`, and only the latest `kept` attempts are stored (docs/product.md, "Track page").
 */
export const QUIZ_ANSWER_LIMIT = { perWindow: 5, windowSeconds: 60, kept: 20 } as const;

/**
 * The wait after a quiz attempt that did not pass, before a new one (docs/product.md, "Quiz
 * attempts"): the admin sets it per quiz, in minutes.
 */
export const QUIZ_RETRY_WAIT = { defaultMinutes: 10, maxMinutes: 10_080 } as const;

export const LEARNING_MESSAGES = {
  loading: "Loading program...",
  notFound: "Program not found.",
  premiumOnly: "Available to Premium users only",
  quizLocked: (section: number) => `Watch Section ${section} to unlock this quiz.`,
  correct: "Correct",
  incorrect: "Incorrect",
  moduleNotFound: "This video is not part of the program.",
  questionNotFound: "This question is not part of the quiz.",
  tooManyAnswers: (seconds: number) =>
    `You have answered this question ${QUIZ_ANSWER_LIMIT.perWindow} times in a minute. ` +
    `Try again in ${seconds} ${seconds === 1 ? "second" : "seconds"}.`,
  score: (score: number, total: number) => `You scored ${score} of ${total}.`,
  attemptTooSoon: (wait: string) => `You can start a new attempt in ${wait}.`,
  attemptNotFinished: "Answer every question before starting a new attempt.",
  quizAlreadyPassed: "You have already passed this quiz.",
  paymentSuccess: "Payment verified! Your plan has been upgraded.",
} as const;

/** The longest notes a lesson may carry, in characters of Markdown (docs/product.md, "Lesson notes"). */
export const NOTES_MAX_LENGTH = 50_000;

/** Attachments (docs/product.md, "Attachments"): 20 MB each, of these kinds, checked by content. */
export const ATTACHMENT_MAX_BYTES = 20 * 1024 * 1024;
export const ATTACHMENT_KINDS = [
  { label: "PDF", extensions: ["pdf"], contentType: "application/pdf" },
  { label: "PNG image", extensions: ["png"], contentType: "image/png" },
  { label: "JPEG image", extensions: ["jpg", "jpeg"], contentType: "image/jpeg" },
  { label: "GIF image", extensions: ["gif"], contentType: "image/gif" },
  { label: "WebP image", extensions: ["webp"], contentType: "image/webp" },
  {
    label: "Excel spreadsheet",
    extensions: ["xlsx"],
    contentType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  },
  { label: "Excel 97-2003 spreadsheet", extensions: ["xls"], contentType: "application/vnd.ms-excel" },
  { label: "OpenDocument spreadsheet", extensions: ["ods"], contentType: "application/vnd.oasis.opendocument.spreadsheet" },
  { label: "CSV file", extensions: ["csv"], contentType: "text/csv" },
] as const;

export const ATTACHMENT_MESSAGES = {
  tooLarge: "Attachments can be up to 20 MB each.",
  empty: "The file is empty.",
  notAllowed: "Attach a PDF, an image (PNG, JPEG, GIF, WebP) or a spreadsheet (XLSX, XLS, ODS, CSV).",
  mismatch: (name: string) => `The content of ${name} is not what its name says: save it again in its own format and attach it.`,
  nameRequired: "The file needs a name, such as chart-template.pdf.",
  notFound: "This attachment is not part of the lesson.",
  saveModuleFirst: "Save the program first: attachments are added to saved lessons.",
  uploaded: (name: string) => `${name} attached.`,
  removed: (name: string) => `${name} removed.`,
  uploadFailed: "Failed to attach the file.",
  removeFailed: "Failed to remove the attachment.",
} as const;

/** A file a lesson offers; `url` downloads it (for those whose plan opens the program). */
export const attachmentSchema = z.object({
  id: z.string(),
  fileName: z.string(),
  contentType: z.string(),
  sizeBytes: z.int(),
  url: z.string(),
});
export type Attachment = z.infer<typeof attachmentSchema>;

/** A file's size as people read it: "820 KB", "4.2 MB" (a learner pays for data by the megabyte). */
export function fileSizeLabel(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  const megabytes = bytes / (1024 * 1024);
  return `${megabytes < 10 ? megabytes.toFixed(1) : Math.round(megabytes)} MB`;
}

/** What kind of file an attachment is, in words ("PDF", "Excel spreadsheet"). */
export function attachmentKindLabel(contentType: string): string {
  return ATTACHMENT_KINDS.find((kind) => kind.contentType === contentType)?.label ?? "File";
}

/** Where an attachment is downloaded from: under its lesson, so that access is the lesson's. */
export function attachmentPath(track: string, moduleId: string, attachmentId: string): string {
  return addressOf(LEARNING_ENDPOINTS.attachment, { track, moduleId, attachmentId });
}

/** GET /api/programs/:track/modules/:moduleId: what a lesson holds beyond its video. */
export const lessonContentSchema = z.object({
  /** The notes, rendered and sanitised on the server: safe to insert as HTML. */
  notesHtml: z.string(),
  attachments: z.array(attachmentSchema),
});
export type LessonContent = z.infer<typeof lessonContentSchema>;

export const attachmentParamsSchema = z.object({
  track: z.string().check(z.maxLength(64)),
  moduleId: z.string().check(z.maxLength(64)),
  attachmentId: z.string().check(z.maxLength(64)),
});

export const trackParamsSchema = z.object({ track: z.string().check(z.maxLength(64)) });

export const trackModuleSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  /** Null for a lesson of notes only. */
  youtubeId: z.nullable(z.string()),
  /** Open to anyone signed in (docs/product.md, "Previews"). */
  freePreview: z.boolean(),
  /** A chart exercise (docs/trading.md, "Exercises"): done by passing it, not by marking it watched. */
  exercise: z.optional(z.enum(EXERCISE_KINDS)),
  /** Only in an administrator's preview: a lesson not published yet (docs/data.md, "Drafts"). */
  draft: z.optional(z.literal(true)),
});
export type TrackModule = z.infer<typeof trackModuleSchema>;

/**
 * One attempt at a quiz, scored by the server on each question's first answer in it (docs/product.md,
 * "Quiz attempts"); later answers to a question do not change its score.
 */
export const quizAttemptSchema = z.object({
  /** 1 for the first attempt. */
  number: z.int(),
  /** Questions whose first answer in this attempt was right. */
  score: z.int(),
  /** Questions answered in this attempt, of `total`. */
  answered: z.int(),
  total: z.int(),
  /** Every question answered. */
  finished: z.boolean(),
  /** The score reaches the quiz's pass mark. */
  passed: z.boolean(),
  startedAt: z.string(),
  /** When the last question was first answered; null until every question is. */
  finishedAt: z.nullable(z.string()),
  /** The questions (indexes) whose first answer was wrong: the ones to review. */
  review: z.array(z.int()),
});
export type QuizAttempt = z.infer<typeof quizAttemptSchema>;

/** The learner's attempts, oldest first (the last is the current one), and when a new one may start. */
export const quizAttemptsStateSchema = z.object({
  attempts: z.array(quizAttemptSchema),
  /**
   * Set when the current attempt is finished and the quiz is not passed: when a new attempt may
   * start (now or in the past: at once).
   */
  nextAttemptAt: z.nullable(z.string()),
});

const learnerAnswerSchema = z.object({ questionIndex: z.int(), option: z.string(), correct: z.boolean() });

/**
 * A quiz as a learner sees it: the options in the order of the learner's current attempt, each still
 * starting with its own letter (which the answer names), never the answers.
 */
export const learnerQuizSchema = z.extend(quizAttemptsStateSchema, {
  title: z.string(),
  /** The quiz belongs to the first video and opens once it is watched. */
  moduleId: z.string(),
  section: z.int(),
  unlocked: z.boolean(),
  /** Questions to have right in one attempt to pass. */
  passMark: z.int(),
  /** Minutes to wait after an attempt that did not pass. */
  retryWaitMinutes: z.int(),
  questions: z.array(
    z.object({
      question: z.string(),
      options: z.array(z.string()),
      /** The admin's explanation, sent once the question is answered in the current attempt. */
      explanation: z.nullable(z.string()),
    }),
  ),
  /** The learner's latest answer per question in the current attempt, so a returning learner sees where they stand. */
  answers: z.array(learnerAnswerSchema),
});
export type LearnerQuiz = z.infer<typeof learnerQuizSchema>;

/**
 * Where the learner stands on finishing the program (docs/product.md, "Completion and certificates"):
 * every video watched and, when the program has a quiz, `passMark` questions right.
 */
export const completionSchema = z.object({
  complete: z.boolean(),
  quizPassed: z.boolean(),
  /** Questions to have right to pass the quiz; 0 when the program has no quiz. */
  passMark: z.int(),
  /** The learner's valid certificate for the program, once issued. */
  certificateId: z.nullable(z.string()),
});
export type Completion = z.infer<typeof completionSchema>;

/**
 * GET /api/programs/:track/preview: what anyone signed in may see of a program, whatever their plan
 * (docs/product.md, "Previews"): its lessons by title, the free previews whole, and the quiz's size.
 */
export const programPreviewSchema = z.object({
  program: z.object({ id: z.string(), title: z.string(), duration: z.string(), description: z.array(z.string()) }),
  lessons: z.array(
    z.object({
      id: z.string(),
      title: z.string(),
      kind: z.enum(["video", "notes", "exercise"]),
      freePreview: z.boolean(),
      /** A free preview's description and video; empty and null for the other lessons. */
      description: z.string(),
      youtubeId: z.nullable(z.string()),
    }),
  ),
  quiz: z.nullable(z.object({ title: z.string(), questionCount: z.int() })),
  /** Whether the learner's plan opens the whole program. */
  open: z.boolean(),
});
export type ProgramPreview = z.infer<typeof programPreviewSchema>;

export const trackDetailSchema = z.object({
  program: z.object({
    id: z.string(),
    level: z.enum(TRACKS),
    title: z.string(),
    duration: z.string(),
    description: z.array(z.string()),
  }),
  modules: z.array(trackModuleSchema),
  watched: z.array(z.string()),
  quiz: z.nullable(learnerQuizSchema),
  completion: completionSchema,
});
export type TrackDetail = z.infer<typeof trackDetailSchema>;

/**
 * One program's progress, as the program cards and the home page show it (docs/product.md,
 * "Progress"). The steps of a program are its videos and its quiz (`programProgress`,
 * src/shared/learning.ts).
 */
export const programProgressSchema = z.object({
  /** Videos watched, of `total`. */
  watched: z.int(),
  total: z.int(),
  /** Whether the quiz is passed; null when the program has no quiz. */
  quizPassed: z.nullable(z.boolean()),
  /** The steps done, in whole percent (rounded down: 100 only once every step is done). */
  percent: z.int(),
  /**
   * Where to go on: the first unwatched video, else the quiz not yet passed (it sits under the
   * lesson `lessonId`), else null.
   */
  next: z.nullable(z.object({ lessonId: z.string(), title: z.string(), kind: z.enum(["video", "quiz"]) })),
  /** When the learner last watched a video or answered the quiz here; null before the first time. */
  lastStudiedAt: z.nullable(z.string()),
  /**
   * Complete by the completion rule, and kept so once certified: a valid certificate keeps it
   * complete when lessons are published later (completionFrom, docs/product.md, "Progress").
   */
  complete: z.boolean(),
});
export type ProgramProgress = z.infer<typeof programProgressSchema>;

/** The home page's first card (nextStepOf, src/shared/learning.ts; docs/product.md, "Home and program list"). */
export const nextStepSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.enum(["start", "continue"]), programId: z.string(), bought: z.boolean() }),
  z.object({ kind: z.literal("upgrade"), plan: z.enum(PAID_PLANS), programId: z.string() }),
  z.object({ kind: z.literal("done") }),
]);

/** GET /api/progress: the progress of every program the learner's plan opens, by program id, and the next step. */
export const progressSummarySchema = z.object({
  programs: z.record(z.string(), programProgressSchema),
  next: nextStepSchema,
});
export type ProgressSummary = z.infer<typeof progressSummarySchema>;

export const moduleParamsSchema = z.object({
  track: z.string().check(z.maxLength(64)),
  moduleId: z.string().check(z.maxLength(64)),
});

/** After Mark as Watched: the watched videos and whether that completed the program. */
export const watchedResponseSchema = z.object({ watched: z.array(z.string()), completion: completionSchema });

export const quizAnswerRequestSchema = z.object({
  questionIndex: z.int().check(z.minimum(0), z.maximum(999)),
  option: z.string().check(z.regex(/^[A-Z]$/, "Choose one of the options.")),
});

export const quizAnswerResponseSchema = z.extend(quizAttemptsStateSchema, {
  correct: z.boolean(),
  message: z.enum([LEARNING_MESSAGES.correct, LEARNING_MESSAGES.incorrect]),
  /** The question's explanation, now that it is answered; null when it has none. */
  explanation: z.nullable(z.string()),
  completion: completionSchema,
});

/** A saved playing position is at most a day into a video (docs/product.md, "Lesson player"). */
export const LESSON_POSITION_MAX_SECONDS = 24 * 60 * 60;

/** PUT .../modules/:moduleId/position, and its answer: where the learner stopped, in whole seconds. */
export const lessonPositionSchema = z.object({
  seconds: z.int().check(z.minimum(0), z.maximum(LESSON_POSITION_MAX_SECONDS)),
});

/** GET /api/programs/:track/positions: the saved position of each lesson the learner stopped in, by module id. */
export const lessonPositionsSchema = z.object({ positions: z.record(z.string(), z.int()) });
export type LessonPositions = z.infer<typeof lessonPositionsSchema>["positions"];

/** POST /api/programs/:track/quiz/attempts: the quiz as the new attempt shows it. */
export const newAttemptResponseSchema = z.object({ quiz: learnerQuizSchema });
export type QuizAnswerResponse = z.infer<typeof quizAnswerResponseSchema>;

/**
 * Studying a program (docs/product.md, "Track page", "Lesson player", "Quiz attempts"): the
 * learner's progress, a program's lessons, notes, attachments and quiz, and what the learner does there.
 */
export const LEARNING_ENDPOINTS = {
  progress: endpoint({ method: "GET", path: "/api/progress", response: progressSummarySchema }),
  track: endpoint({ method: "GET", path: "/api/programs/:track", params: trackParamsSchema, response: trackDetailSchema }),
  preview: endpoint({ method: "GET", path: "/api/programs/:track/preview", params: trackParamsSchema, response: programPreviewSchema }),
  lesson: endpoint({ method: "GET", path: "/api/programs/:track/modules/:moduleId", params: moduleParamsSchema, response: lessonContentSchema }),
  /** A download, linked to (an attachment's `url`) and never called: the file itself, or a redirect to it, never JSON. */
  attachment: endpoint({
    method: "GET",
    path: "/api/programs/:track/modules/:moduleId/attachments/:attachmentId",
    params: attachmentParamsSchema,
    response: z.file(),
  }),
  markWatched: endpoint({ method: "POST", path: "/api/programs/:track/modules/:moduleId/watched", params: moduleParamsSchema, response: watchedResponseSchema }),
  positions: endpoint({ method: "GET", path: "/api/programs/:track/positions", params: trackParamsSchema, response: lessonPositionsSchema }),
  savePosition: endpoint({
    method: "PUT",
    path: "/api/programs/:track/modules/:moduleId/position",
    params: moduleParamsSchema,
    body: lessonPositionSchema,
    response: lessonPositionSchema,
  }),
  answerQuiz: endpoint({
    method: "POST",
    path: "/api/programs/:track/quiz/answers",
    params: trackParamsSchema,
    body: quizAnswerRequestSchema,
    response: quizAnswerResponseSchema,
  }),
  newAttempt: endpoint({ method: "POST", path: "/api/programs/:track/quiz/attempts", params: trackParamsSchema, response: newAttemptResponseSchema, status: 201 }),
};
