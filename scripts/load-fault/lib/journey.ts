// What a simulated learner does, over and over: list the programs, open the Beginner track,
// mark a video watched, answer a quiz question. Every answer is recorded by step and route.
// Like a person, a learner answers one question at most 5 times a minute (the app's limit,
// QUIZ_ANSWER_LIMIT): a round whose questions were all answered too recently skips the quiz.
import { programListSchema } from "../../../src/shared/contracts/catalog.ts";
import {
  QUIZ_ANSWER_LIMIT,
  quizAnswerResponseSchema,
  trackDetailSchema,
  watchedResponseSchema,
} from "../../../src/shared/contracts/learning.ts";
import { optionLetter } from "../../../src/shared/quiz-option.ts";
import type { Answer, Client } from "./http-client.ts";
import { signIn } from "./learners.ts";
import type { Recorder } from "./stats.ts";

export const TRACK = "beginner";

export const ROUTES = {
  login: "POST /api/auth/sign-in/email",
  programs: "GET /api/programs",
  track: "GET /api/programs/:track",
  watched: "POST /api/programs/:track/modules/:moduleId/watched",
  quiz: "POST /api/programs/:track/quiz/answers",
} as const;
export type Step = keyof typeof ROUTES;

type Parser = { safeParse(value: unknown): { success: boolean } };

/**
 * The time between two answers to one question: within the limit, with 3 s to spare for answers
 * that wait in a queue under load and so arrive closer together than they were sent.
 */
const ANSWER_SPACING_MS = (QUIZ_ANSWER_LIMIT.windowSeconds * 1000) / QUIZ_ANSWER_LIMIT.perWindow + 3000;

/**
 * When each learner (by their own address: a learner moved to another instance gets a new client
 * with the same address and session) last answered each question.
 */
const lastAnswers = new Map<string, Map<number, number>>();

/** The first question from `start` on (in turn) the learner may answer now, or null. */
function questionDue(client: Client, start: number, count: number, now: number): number | null {
  const answered = lastAnswers.get(client.localAddress) ?? new Map<number, number>();
  lastAnswers.set(client.localAddress, answered);
  for (let offset = 0; offset < count; offset++) {
    const index = (start + offset) % count;
    if (now - (answered.get(index) ?? -Infinity) >= ANSWER_SPACING_MS) return index;
  }
  return null;
}

/** A 2xx whose body also matches the app's own response contract. */
function okWith(answer: Answer, schema: Parser): boolean {
  return answer.status >= 200 && answer.status < 300 && schema.safeParse(answer.json).success;
}

/** Signs the learner in; records the attempt as the "login" step. */
export async function logIn(client: Client, email: string, recorder: Recorder): Promise<boolean> {
  const answer = await signIn(client, email);
  return recorder.record("login", ROUTES.login, answer, answer.status === 200 && client.cookies.has("ta.session_token"));
}

/**
 * One round of studying. Iteration 0 watches the first video, which opens the quiz; later rounds
 * go through the videos and questions in turn. Returns false when a step failed (the rest of the
 * round is skipped, as a person would stop at an error page).
 */
export async function studyRound(client: Client, iteration: number, recorder: Recorder, thinkMs = 0): Promise<boolean> {
  const pause = () => (thinkMs > 0 ? new Promise<void>((resolve) => setTimeout(resolve, thinkMs)) : Promise.resolve());

  const programs = await client.get("/api/programs");
  if (!recorder.record("programs", ROUTES.programs, programs, okWith(programs, programListSchema))) return false;
  await pause();

  const trackAnswer = await client.get(`/api/programs/${TRACK}`);
  const parsed = trackDetailSchema.safeParse(trackAnswer.json);
  if (!recorder.record("track", ROUTES.track, trackAnswer, trackAnswer.status === 200 && parsed.success) || !parsed.success) {
    return false;
  }
  await pause();

  const { modules, quiz } = parsed.data;
  const module = modules[iteration % Math.max(1, modules.length)];
  if (module) {
    const watched = await client.post(`/api/programs/${TRACK}/modules/${encodeURIComponent(module.id)}/watched`, {});
    if (!recorder.record("watched", ROUTES.watched, watched, okWith(watched, watchedResponseSchema))) return false;
    await pause();
  }

  // The quiz opens once the first video is watched: from the first round on, it is.
  const questionIndex = quiz ? questionDue(client, iteration, quiz.questions.length, Date.now()) : null;
  if (quiz && questionIndex !== null && (quiz.unlocked || iteration === 0)) {
    lastAnswers.get(client.localAddress)?.set(questionIndex, Date.now());
    const letters = (quiz.questions[questionIndex]?.options ?? []).flatMap((option) => optionLetter(option) ?? []);
    const option = letters[Math.floor(Math.random() * letters.length)] ?? "A";
    const answer = await client.post(`/api/programs/${TRACK}/quiz/answers`, { questionIndex, option });
    if (!recorder.record("quiz", ROUTES.quiz, answer, okWith(answer, quizAnswerResponseSchema))) return false;
    await pause();
  }
  return true;
}
