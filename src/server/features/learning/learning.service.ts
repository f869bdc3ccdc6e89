// Studying a track: what an entitled learner may see, marking videos watched and answering the
// quiz. Every check is made here on the server from the user's effective plan; the progress
// entries themselves are written in progress.ts.
import { and, desc, eq, inArray } from "drizzle-orm";
import { LEARNING_MESSAGES, QUIZ_ANSWER_LIMIT, type TrackDetail } from "../../../shared/contracts/learning.ts";
import { isQuizUnlocked } from "../../../shared/learning.ts";
import { canOpenTrack, isTrack, type Plan, type Track } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { quizAttempts, userProgress } from "../../db/schema.ts";
import type { Catalog, CatalogTrack } from "../catalog/catalog.service.ts";
import { HttpError } from "../../plugins/errors.ts";
import { countRequest } from "../../plugins/rate-limit-store.ts";
import { optionLetter } from "../../../shared/quiz-option.ts";
import { recordWatched, watchedModuleIds } from "./progress.ts";

type Learner = { id: string; plan: Plan };

/** The track, if it exists and the learner may open it; 404 or 403 otherwise. */
function openTrack(catalog: Catalog, learner: Learner, trackId: string): CatalogTrack {
  const track = isTrack(trackId) ? catalog.tracks.get(trackId) : undefined;
  if (!track) throw new HttpError(404, "PROGRAM_NOT_FOUND", LEARNING_MESSAGES.notFound);
  if (!canOpenTrack(learner.plan, track.program.id)) {
    throw new HttpError(403, "PREMIUM_ONLY", LEARNING_MESSAGES.premiumOnly);
  }
  return track;
}

async function progressData(db: Db, userId: string, track: Track): Promise<unknown> {
  const [row] = await db
    .select({ data: userProgress.data })
    .from(userProgress)
    .where(and(eq(userProgress.userId, userId), eq(userProgress.programId, track)));
  return row?.data ?? {};
}

async function latestAnswers(db: Db, userId: string, track: Track) {
  const rows = await db
    .selectDistinctOn([quizAttempts.questionIndex], {
      questionIndex: quizAttempts.questionIndex,
      option: quizAttempts.option,
      correct: quizAttempts.correct,
    })
    .from(quizAttempts)
    .where(and(eq(quizAttempts.userId, userId), eq(quizAttempts.programId, track)))
    .orderBy(quizAttempts.questionIndex, desc(quizAttempts.createdAt), desc(quizAttempts.id));
  return rows;
}

/** The quiz of a track with questions, opened by watching the first video (section 1). */
function trackQuiz({ modules, quiz }: CatalogTrack) {
  const firstModule = modules[0];
  return quiz && firstModule && quiz.questions.length > 0 ? { ...quiz, moduleId: firstModule.id, section: 1 } : null;
}

export async function getTrack(db: Db, catalog: Catalog, learner: Learner, trackId: string): Promise<TrackDetail> {
  const track = openTrack(catalog, learner, trackId);
  const { id, title, duration, description } = track.program;
  const quiz = trackQuiz(track);
  const [data, answers] = await Promise.all([
    progressData(db, learner.id, id),
    quiz ? latestAnswers(db, learner.id, id) : [],
  ]);
  const watched = watchedModuleIds(data, track.modules.map((m) => m.id));
  return {
    program: { id, title, duration, description },
    modules: track.modules,
    watched,
    quiz: quiz
      ? {
          title: quiz.title,
          moduleId: quiz.moduleId,
          section: quiz.section,
          unlocked: isQuizUnlocked(quiz, watched),
          questions: quiz.questions.map(({ question, options }) => ({ question, options })),
          answers,
        }
      : null,
  };
}

/** Marks a video watched: merged into the learner's progress, idempotent. */
export async function markWatched(
  db: Db,
  catalog: Catalog,
  learner: Learner,
  trackId: string,
  moduleId: string,
): Promise<string[]> {
  const track = openTrack(catalog, learner, trackId);
  if (!track.modules.some((m) => m.id === moduleId)) {
    throw new HttpError(404, "MODULE_NOT_FOUND", LEARNING_MESSAGES.moduleNotFound);
  }
  const data = await recordWatched(db, learner.id, track.program.id, moduleId);
  return watchedModuleIds(data, track.modules.map((m) => m.id));
}

/** An answer past the limit: 429, with the seconds until the learner may answer again. */
export class TooManyAnswers extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, "TOO_MANY_ANSWERS", LEARNING_MESSAGES.tooManyAnswers(retryAfterSeconds));
  }
}

type Attempt = typeof quizAttempts.$inferInsert;

/**
 * Stores an attempt within the limit (QUIZ_ANSWER_LIMIT), in one transaction: the count (one
 * atomic upsert in rate_limits, whose row lock holds a concurrent answer to the same question back
 * until this one commits, on any instance), the new row, and the removal of the rows past the
 * latest `kept`. A refused answer rolls back and so does not count.
 */
async function recordAttempt(db: Db, attempt: Attempt, now: Date): Promise<void> {
  const { perWindow, windowSeconds, kept } = QUIZ_ANSWER_LIMIT;
  await db.transaction(async (tx) => {
    const key = `quiz-answer:${attempt.userId}:${attempt.programId}:${attempt.questionIndex}`;
    const counted = await countRequest(tx, key, windowSeconds * 1000, now.getTime());
    if (counted.current > perWindow) throw new TooManyAnswers(Math.max(1, Math.ceil(counted.ttl / 1000)));
    await tx.insert(quizAttempts).values(attempt);
    const sameQuestion = and(
      eq(quizAttempts.userId, attempt.userId),
      eq(quizAttempts.programId, attempt.programId),
      eq(quizAttempts.questionIndex, attempt.questionIndex),
    );
    const older = tx
      .select({ id: quizAttempts.id })
      .from(quizAttempts)
      .where(sameQuestion)
      .orderBy(desc(quizAttempts.createdAt), desc(quizAttempts.id))
      .offset(kept);
    await tx.delete(quizAttempts).where(and(sameQuestion, inArray(quizAttempts.id, older)));
  });
}

/** Checks a chosen option on the server and records the attempt, within the limit per question. */
export async function answerQuestion(
  db: Db,
  catalog: Catalog,
  learner: Learner,
  trackId: string,
  input: { questionIndex: number; option: string },
  now: Date,
): Promise<boolean> {
  const track = openTrack(catalog, learner, trackId);
  const quiz = trackQuiz(track);
  if (!quiz) throw new HttpError(404, "QUIZ_NOT_FOUND", LEARNING_MESSAGES.questionNotFound);
  const watched = watchedModuleIds(await progressData(db, learner.id, track.program.id), [quiz.moduleId]);
  if (!isQuizUnlocked(quiz, watched)) {
    throw new HttpError(403, "QUIZ_LOCKED", LEARNING_MESSAGES.quizLocked(quiz.section));
  }
  const question = quiz.questions[input.questionIndex];
  const letters = question?.options.map(optionLetter) ?? [];
  if (!question || !letters.includes(input.option)) {
    throw new HttpError(404, "QUESTION_NOT_FOUND", LEARNING_MESSAGES.questionNotFound);
  }
  const correct = question.answer.trim().toUpperCase() === input.option;
  const attempt = { userId: learner.id, programId: track.program.id, questionIndex: input.questionIndex, option: input.option, correct };
  await recordAttempt(db, attempt, now);
  return correct;
}

/** Watched counts per program for the program list (Start or Continue). */
export async function progressSummary(
  db: Db,
  catalog: Catalog,
  userId: string,
): Promise<Record<string, { watched: number }>> {
  const rows = await db.select().from(userProgress).where(eq(userProgress.userId, userId));
  return Object.fromEntries(
    rows.map((row) => {
      const track = isTrack(row.programId) ? catalog.tracks.get(row.programId) : undefined;
      const ids = track?.modules.map((m) => m.id) ?? [];
      return [row.programId, { watched: watchedModuleIds(row.data, ids).length }];
    }),
  );
}
