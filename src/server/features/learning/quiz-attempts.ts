// Quiz attempts (docs/product.md, "Quiz attempts"): each attempt is scored on the first answer to
// each question in it, the quiz is passed by an attempt at or above the pass mark, and a new
// attempt starts after the quiz's wait, its options in a new order. Pure: the attempts come from
// the database function learner_standing (migration 0019), "now" is passed in.
import { z } from "zod";
import type { QuizAttempt } from "../../../shared/contracts/learning.ts";
import { optionLetter } from "../../../shared/quiz-option.ts";

/** An attempt as stored (quiz_sittings): times in epoch milliseconds, first answers by question index. */
export const storedAttemptSchema = z.object({
  number: z.number(),
  startedAt: z.coerce.number(),
  answeredAt: z.nullable(z.coerce.number()),
  firstAnswers: z.record(z.string(), z.boolean()),
});
export type StoredAttempt = z.infer<typeof storedAttemptSchema>;

export type QuizRules = { questionCount: number; passMark: number };

/** An attempt's score on the quiz as it is now: questions past its end count for nothing. */
export function scoreAttempt(attempt: StoredAttempt, { questionCount, passMark }: QuizRules): QuizAttempt {
  let score = 0;
  let answered = 0;
  const review: number[] = [];
  for (let index = 0; index < questionCount; index += 1) {
    const correct = attempt.firstAnswers[String(index)];
    if (correct === undefined) continue;
    answered += 1;
    if (correct) score += 1;
    else review.push(index);
  }
  const finished = questionCount > 0 && answered === questionCount;
  return {
    number: attempt.number,
    score,
    answered,
    total: questionCount,
    finished,
    passed: questionCount > 0 && score >= passMark,
    startedAt: new Date(attempt.startedAt).toISOString(),
    finishedAt: finished && attempt.answeredAt !== null ? new Date(attempt.answeredAt).toISOString() : null,
    review,
  };
}

/**
 * When the learner may start a new attempt: once the current attempt is finished without passing,
 * `waitMinutes` after its last question was first answered; null while it is not finished, or once
 * the quiz is passed (by any attempt).
 */
export function nextAttemptAt(attempts: readonly QuizAttempt[], waitMinutes: number): Date | null {
  const current = attempts.at(-1);
  if (!current?.finished || current.finishedAt === null || attempts.some((attempt) => attempt.passed)) return null;
  return new Date(Date.parse(current.finishedAt) + waitMinutes * 60_000);
}

/** Why a new attempt cannot start now, or null when it can. */
export function newAttemptRefusal(
  attempts: readonly QuizAttempt[],
  waitMinutes: number,
  now: Date,
): { reason: "passed" | "unfinished" } | { reason: "wait"; waitMs: number } | null {
  if (attempts.some((attempt) => attempt.passed)) return { reason: "passed" };
  const current = attempts.at(-1);
  if (!current?.finished) return { reason: "unfinished" };
  const at = nextAttemptAt(attempts, waitMinutes);
  const waitMs = at ? at.getTime() - now.getTime() : 0;
  return waitMs > 0 ? { reason: "wait", waitMs } : null;
}

/**
 * A permutation of 0..n-1 drawn from `seed` (Fisher-Yates): FNV-1a makes the seed a number, and
 * mulberry32 draws from it. Neither needs to be secret: the order is drawn without the answer, so
 * knowing it tells nothing. Cheap enough for every track read, which is answered from memory (a
 * SHA-256 per question took about 2 µs of a read's 100).
 */
function drawnOrder(n: number, seed: string): number[] {
  let state = 0x811c9dc5;
  for (let index = 0; index < seed.length; index += 1) state = Math.imul(state ^ seed.charCodeAt(index), 0x01000193);
  const next = () => {
    state = (state + 0x6d2b79f5) | 0;
    let mixed = Math.imul(state ^ (state >>> 15), 1 | state);
    mixed = (mixed + Math.imul(mixed ^ (mixed >>> 7), 61 | mixed)) ^ mixed;
    return ((mixed ^ (mixed >>> 14)) >>> 0) / 4_294_967_296;
  };
  const order = Array.from({ length: n }, (_, index) => index);
  for (let index = n - 1; index > 0; index -= 1) {
    const pick = Math.floor(next() * (index + 1));
    [order[index], order[pick]] = [order[pick] ?? 0, order[index] ?? 0];
  }
  return order;
}

/**
 * The order a question's options are shown in, in the learner's attempt `attempt`: drawn from the
 * learner, the program, the attempt and the question alone, never from the answer, so the order
 * tells nothing about which option is right; each attempt's order differs from the one before
 * (turned by one place when the draw repeats it). Each option keeps its own letter, which is what
 * the learner's answer names, so the answer path needs no order to read. A question with an option
 * that has no letter (only a quiz stored without checkQuestion) keeps the admin's order.
 */
export function optionsInAttemptOrder(
  options: readonly string[],
  seed: { userId: string; programId: string; questionIndex: number },
  attempt: number,
): string[] {
  if (options.length < 2 || options.some((option) => optionLetter(option) === null)) return [...options];
  const draw = (number: number) => drawnOrder(options.length, `${seed.userId}:${seed.programId}:${number}:${seed.questionIndex}`);
  let order = draw(1);
  for (let number = 2; number <= attempt; number += 1) {
    const next = draw(number);
    order = next.every((position, index) => position === order[index]) ? [...next.slice(1), ...next.slice(0, 1)] : next;
  }
  return order.map((index) => options[index] ?? "");
}
