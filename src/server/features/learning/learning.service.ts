// Studying a track: what an entitled learner may see, marking videos watched and answering the
// quiz. Every check is made here on the server from the user's effective plan; the progress
// entries themselves are written in progress.ts.
import { and, desc, eq, inArray } from "drizzle-orm";
import {
  LEARNING_MESSAGES,
  QUIZ_ANSWER_LIMIT,
  type Completion,
  type ProgramProgress,
  type TrackDetail,
} from "../../../shared/contracts/learning.ts";
import { isQuizUnlocked, programProgress } from "../../../shared/learning.ts";
import { canOpenTrack, isTrack, type Plan } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { quizAttempts, userProgress } from "../../db/schema.ts";
import type { Catalog, CatalogTrack } from "../catalog/catalog.service.ts";
import { HttpError } from "../../plugins/errors.ts";
import { countRequest } from "../../plugins/rate-limit-store.ts";
import { optionLetter } from "../../../shared/quiz-option.ts";
import { recordWatched, watchedModuleIds } from "./progress.ts";
import { completionOf, progressData, quizOf, readCompletion, readStanding } from "./completion.ts";
import { issueOnCompletion, lockProgress } from "./certificates.ts";

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

/** The quiz of a track with questions, opened by watching the first video (section 1). */
function trackQuiz({ modules, quiz }: CatalogTrack) {
  const firstModule = modules[0];
  return quiz && firstModule && quiz.questions.length > 0 ? { ...quiz, moduleId: firstModule.id, section: 1 } : null;
}

export async function getTrack(db: Db, catalog: Catalog, learner: Learner, trackId: string): Promise<TrackDetail> {
  const track = openTrack(catalog, learner, trackId);
  const { id, title, duration, description } = track.program;
  const quiz = trackQuiz(track);
  const standing = await readStanding(db, learner.id, id);
  const { data, certificateId } = standing;
  const answers = quiz ? standing.answers : [];
  const moduleIds = track.modules.map((m) => m.id);
  const watched = watchedModuleIds(data, moduleIds);
  const completion = { ...completionOf({ moduleIds, watched, quiz: quizOf(track), answers }), certificateId };
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
    completion,
  };
}

/** Marks a video watched: merged into the learner's progress, idempotent. */
export async function markWatched(
  db: Db,
  catalog: Catalog,
  learner: Learner,
  trackId: string,
  moduleId: string,
): Promise<{ watched: string[]; completion: Completion; issued: boolean }> {
  const track = openTrack(catalog, learner, trackId);
  if (!track.modules.some((m) => m.id === moduleId)) {
    throw new HttpError(404, "MODULE_NOT_FOUND", LEARNING_MESSAGES.moduleNotFound);
  }
  // The write and the certificate it may complete the program with, together
  // (docs/product.md, "Completion and certificates").
  return db.transaction(async (tx) => {
    await lockProgress(tx, learner.id, track.program.id);
    const before = await readCompletion(tx, track, learner.id);
    const data = await recordWatched(tx, learner.id, track.program.id, moduleId);
    const watched = watchedModuleIds(data, track.modules.map((m) => m.id));
    return { watched, ...(await issueOnCompletion(tx, track, learner.id, before)) };
  });
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
async function recordAttempt(
  db: Db,
  track: CatalogTrack,
  attempt: Attempt,
  now: Date,
): Promise<{ completion: Completion; issued: boolean }> {
  const { perWindow, windowSeconds, kept } = QUIZ_ANSWER_LIMIT;
  return db.transaction(async (tx) => {
    const key = `quiz-answer:${attempt.userId}:${attempt.programId}:${attempt.questionIndex}`;
    const counted = await countRequest(tx, key, windowSeconds * 1000, now.getTime());
    if (counted.current > perWindow) throw new TooManyAnswers(Math.max(1, Math.ceil(counted.ttl / 1000)));
    // The answer that passes the quiz may complete the program: its certificate is issued here too
    // (docs/product.md, "Completion and certificates").
    await lockProgress(tx, attempt.userId, track.program.id);
    const before = await readCompletion(tx, track, attempt.userId);
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
    return issueOnCompletion(tx, track, attempt.userId, before);
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
): Promise<{ correct: boolean; completion: Completion; issued: boolean }> {
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
  return { correct, ...(await recordAttempt(db, track, attempt, now)) };
}

function latest(dates: readonly (Date | null)[]): Date | null {
  return dates.reduce<Date | null>((last, date) => (date && (!last || date > last) ? date : last), null);
}

/**
 * The progress of every program the learner's plan opens, for the program cards and the home page
 * (docs/product.md, "Progress"): two queries whatever the number of programs (the learner's
 * progress entries and their latest answers), the rest from the catalog in memory.
 */
export async function progressSummary(
  db: Db,
  catalog: Catalog,
  learner: Learner,
): Promise<Record<string, ProgramProgress>> {
  const [rows, answers] = await Promise.all([
    db
      .select({ programId: userProgress.programId, data: userProgress.data, updatedAt: userProgress.updatedAt })
      .from(userProgress)
      .where(eq(userProgress.userId, learner.id)),
    db
      .selectDistinctOn([quizAttempts.programId, quizAttempts.questionIndex], {
        programId: quizAttempts.programId,
        questionIndex: quizAttempts.questionIndex,
        correct: quizAttempts.correct,
        createdAt: quizAttempts.createdAt,
      })
      .from(quizAttempts)
      .where(eq(quizAttempts.userId, learner.id))
      .orderBy(quizAttempts.programId, quizAttempts.questionIndex, desc(quizAttempts.createdAt), desc(quizAttempts.id)),
  ]);
  const summary: Record<string, ProgramProgress> = {};
  for (const track of catalog.tracks.values()) {
    const id = track.program.id;
    if (!canOpenTrack(learner.plan, id)) continue;
    const row = rows.find((entry) => entry.programId === id);
    const moduleIds = track.modules.map((m) => m.id);
    const watched = watchedModuleIds(row?.data, moduleIds);
    const quiz = trackQuiz(track);
    const quizAnswers = quiz ? answers.filter((answer) => answer.programId === id) : [];
    // Passed by the completion rule, the admin's pass mark (completion.ts).
    const { quizPassed } = completionOf({ moduleIds, watched, quiz: quizOf(track), answers: quizAnswers });
    const progress = programProgress({
      modules: track.modules,
      watched,
      quiz: quiz && { moduleId: quiz.moduleId, title: quiz.title, passed: quizPassed },
    });
    const studiedAt = latest([watched.length > 0 ? (row?.updatedAt ?? null) : null, ...quizAnswers.map((a) => a.createdAt)]);
    summary[id] = { ...progress, lastStudiedAt: studiedAt?.toISOString() ?? null };
  }
  return summary;
}
