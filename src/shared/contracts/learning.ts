import * as z from "zod/mini";
import { TRACKS } from "../plans.ts";

/**
 * Quiz answers per learner and question (docs/product.md, "Timings and limits"): at most `perWindow` in a window of
 * `windowSeconds`, and only the latest `kept` attempts are stored (docs/product.md, "Track page").
 */
export const QUIZ_ANSWER_LIMIT = { perWindow: 5, windowSeconds: 60, kept: 20 } as const;

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

/** A quiz as a learner sees it: the options, never the answers. */
export const learnerQuizSchema = z.object({
  title: z.string(),
  /** The quiz belongs to the first video and opens once it is watched. */
  moduleId: z.string(),
  section: z.int(),
  unlocked: z.boolean(),
  questions: z.array(z.object({ question: z.string(), options: z.array(z.string()) })),
  /** The learner's latest answer per question, so a returning learner sees where they stand. */
  answers: z.array(z.object({ questionIndex: z.int(), option: z.string(), correct: z.boolean() })),
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

export const quizAnswerResponseSchema = z.object({
  correct: z.boolean(),
  message: z.enum([LEARNING_MESSAGES.correct, LEARNING_MESSAGES.incorrect]),
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
