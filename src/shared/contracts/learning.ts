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
});
export type TrackDetail = z.infer<typeof trackDetailSchema>;

/** GET /api/progress: watched-video counts per program, for Start / Continue. */
export const progressSummarySchema = z.object({
  programs: z.record(z.string(), z.object({ watched: z.int() })),
});

export const moduleParamsSchema = z.object({
  track: z.string().check(z.maxLength(64)),
  moduleId: z.string().check(z.maxLength(64)),
});

export const watchedResponseSchema = z.object({ watched: z.array(z.string()) });

export const quizAnswerRequestSchema = z.object({
  questionIndex: z.int().check(z.minimum(0), z.maximum(999)),
  option: z.string().check(z.regex(/^[A-Z]$/, "Choose one of the options.")),
});

export const quizAnswerResponseSchema = z.object({
  correct: z.boolean(),
  message: z.enum([LEARNING_MESSAGES.correct, LEARNING_MESSAGES.incorrect]),
});
