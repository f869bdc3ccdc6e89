import * as z from "zod/mini";
import { TRACKS } from "../plans.ts";

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

export const trackParamsSchema = z.object({ track: z.string().check(z.maxLength(64)) });

export const trackModuleSchema = z.object({
  id: z.string(),
  title: z.string(),
  description: z.string(),
  youtubeId: z.string(),
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

export const trackDetailSchema = z.object({
  program: z.object({
    id: z.enum(TRACKS),
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
});
export type ProgramProgress = z.infer<typeof programProgressSchema>;

/** GET /api/progress: the progress of every program the learner's plan opens, by program id. */
export const progressSummarySchema = z.object({
  programs: z.record(z.string(), programProgressSchema),
});

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

/** POST /api/programs/:track/quiz/attempts: the quiz as the new attempt shows it. */
export const newAttemptResponseSchema = z.object({ quiz: learnerQuizSchema });
export type QuizAnswerResponse = z.infer<typeof quizAnswerResponseSchema>;
