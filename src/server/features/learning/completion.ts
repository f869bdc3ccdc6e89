// When a program is complete (docs/product.md, "Completion and certificates"): every video watched
// and the quiz passed by an attempt (docs/product.md, "Quiz attempts"). The rule is pure; the query reads what it needs on the caller's connection or
// transaction.
import { and, asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import type { Completion, QuizAttempt } from "../../../shared/contracts/learning.ts";
import type { Db, Tx } from "../../db/client.ts";
import { PerUserCache, type UserChanges } from "../../db/user-changes.ts";
import { quizSittings } from "../../db/schema.ts";
import type { CatalogTrack } from "../catalog/catalog.seam.ts";
import { watchedModuleIds } from "./progress.ts";
import { scoreAttempt, storedAttemptSchema, type StoredAttempt } from "./quiz-attempts.ts";

/** Questions to have right: the admin's pass mark within 1..questions, every question when unset. */
export function passMarkOf(quiz: { questionCount: number; passMark: number | null }): number {
  const { questionCount, passMark } = quiz;
  if (passMark === null) return questionCount;
  return Math.min(Math.max(passMark, 1), questionCount);
}

export type CompletionInput = {
  moduleIds: readonly string[];
  watched: readonly string[];
  /** Null for a program without a quiz (or with no questions). */
  quiz: { questionCount: number; passMark: number | null } | null;
  /** The learner's attempts at the quiz, each with its first answers (quiz-attempts.ts). */
  attempts: readonly StoredAttempt[];
};

/** Every attempt scored on the quiz as it is now (docs/product.md, "Quiz attempts"). */
export function scoredAttempts(
  quiz: { questionCount: number; passMark: number | null } | null,
  attempts: readonly StoredAttempt[],
): QuizAttempt[] {
  if (!quiz) return [];
  const rules = { questionCount: quiz.questionCount, passMark: passMarkOf(quiz) };
  return attempts.map((attempt) => scoreAttempt(attempt, rules));
}

/** The best score of the attempts, the one that decides passing; 0 before any. */
export function bestScore(attempts: readonly QuizAttempt[]): number {
  return attempts.reduce((best, attempt) => Math.max(best, attempt.score), 0);
}

/**
 * Complete when every video is watched and, when there is a quiz, one attempt scored at least its
 * pass mark (each question by its first answer in that attempt). A program without videos has
 * nothing to complete.
 */
export function completionOf(input: CompletionInput): Omit<Completion, "certificateId"> {
  const { moduleIds, watched, quiz, attempts } = input;
  const allWatched = moduleIds.length > 0 && moduleIds.every((id) => watched.includes(id));
  const passMark = quiz ? passMarkOf(quiz) : 0;
  const quizPassed = scoredAttempts(quiz, attempts).some((attempt) => attempt.passed);
  return { complete: allWatched && (quiz === null || quizPassed), quizPassed, passMark };
}

/** The quiz a learner answers: a stored quiz with questions. */
export function quizOf(track: CatalogTrack): { questionCount: number; passMark: number | null } | null {
  const { quiz } = track;
  return quiz && quiz.questions.length > 0 && track.modules.length > 0
    ? { questionCount: quiz.questions.length, passMark: quiz.passMark }
    : null;
}

/** The learner's attempts at the track's quiz, oldest first. */
export async function storedAttempts(db: Db | Tx, userId: string, track: string): Promise<StoredAttempt[]> {
  const rows = await db
    .select({
      number: quizSittings.number,
      startedAt: quizSittings.startedAt,
      answeredAt: quizSittings.answeredAt,
      firstAnswers: quizSittings.firstAnswers,
    })
    .from(quizSittings)
    .where(and(eq(quizSittings.userId, userId), eq(quizSittings.programId, track)))
    .orderBy(asc(quizSittings.number));
  return rows.map((row) => ({
    number: row.number,
    startedAt: row.startedAt.getTime(),
    answeredAt: row.answeredAt?.getTime() ?? null,
    firstAnswers: row.firstAnswers,
  }));
}

/** A learner's latest answer to a question, as the database functions answer it. */
export const latestAnswerSchema = z.object({ questionIndex: z.number(), option: z.string(), correct: z.boolean() });
export type LatestAnswer = z.infer<typeof latestAnswerSchema>;

/**
 * Where a learner stands on a track: the progress entry, the latest answers of the current attempt,
 * the valid certificate and every attempt.
 */
export type Standing = { data: unknown; answers: LatestAnswer[]; certificateId: string | null; attempts: StoredAttempt[] };

/** learner_standing's attempts column, as the database answers it. */
export const storedAttemptsSchema = z.array(storedAttemptSchema);

/**
 * The progress entry, the latest answer per question and the valid (not revoked) certificate in one
 * statement, built once per database or transaction (docs/performance.md, "Where the time goes"):
 * one round trip instead of three. The columns are the database function `learner_standing`
 * (migrations 0011, 0012 and 0019), which the quiz answer's function reads too.
 */
function standingQuery(db: Db | Tx) {
  return db
    .select({
      data: sql<unknown>`standing.data`,
      answers: sql<LatestAnswer[] | null>`standing.answers`,
      certificateId: sql<string | null>`standing.certificate_id`,
      attempts: sql<unknown>`standing.attempts`,
    })
    .from(sql`learner_standing(${sql.placeholder("userId")}, ${sql.placeholder("track")}) as standing`)
    .prepare("learner_standing");
}

const preparedStanding = new WeakMap<Db | Tx, ReturnType<typeof standingQuery>>();

/** The learner's progress entry ({} when none), latest answer per question and valid certificate. */
export async function readStanding(
  db: Db | Tx,
  userId: string,
  track: string,
): Promise<Standing> {
  let query = preparedStanding.get(db);
  if (!query) {
    query = standingQuery(db);
    preparedStanding.set(db, query);
  }
  const [row] = await query.execute({ userId, track });
  return {
    data: row?.data ?? {},
    answers: row?.answers ?? [],
    certificateId: row?.certificateId ?? null,
    attempts: storedAttemptsSchema.parse(row?.attempts ?? []),
  };
}

/**
 * The completion a standing makes on the track. Once reached it is kept: a learner holding a valid
 * certificate stays complete when lessons or questions are published later (docs/data.md, "Drafts").
 */
export function completionFrom(track: CatalogTrack, standing: Standing): Completion {
  const quiz = quizOf(track);
  const moduleIds = track.modules.map((m) => m.id);
  const watched = watchedModuleIds(standing.data, moduleIds);
  const now = completionOf({ moduleIds, watched, quiz, attempts: standing.attempts });
  const { certificateId } = standing;
  return { ...now, complete: now.complete || certificateId !== null, certificateId };
}


/** Standing kept in memory for the track read (docs/performance.md, "Caching signed-in reads"). */
export function createStandingCache(changes: UserChanges): PerUserCache<Standing> {
  return new PerUserCache(changes, { scope: "learning", maxEntries: 50_000, maxAgeMs: 5 * 60_000 });
}

/** readStanding, from memory when this instance has it (outside a transaction only). */
export async function cachedStanding(db: Db, cache: PerUserCache<Standing>, userId: string, track: string): Promise<Standing> {
  const key = `${userId}:${track}`;
  const kept = cache.get(key);
  if (kept) return kept;
  const stamp = cache.stamp();
  const standing = await readStanding(db, userId, track);
  cache.set(key, userId, standing, stamp);
  return standing;
}

/** Where the learner stands on the track, read on `db` (a transaction sees its own writes). */
export async function readCompletion(db: Db | Tx, track: CatalogTrack, userId: string): Promise<Completion> {
  return completionFrom(track, await readStanding(db, userId, track.program.id));
}
