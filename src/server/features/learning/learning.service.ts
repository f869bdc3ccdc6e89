// Studying a track: what an entitled learner may see, marking videos watched and answering the
// quiz. Every check is made here on the server from the user's effective plan.
import { and, asc, desc, eq, inArray, sql } from "drizzle-orm";
import { LEARNING_MESSAGES, type TrackDetail } from "../../../shared/contracts/learning.ts";
import { canOpenTrack, isTrack, type Plan, type Track } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { modules, programs, quizAttempts, quizzes, userProgress } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";
import { optionLetter } from "../../../shared/quiz.ts";
import { watchedModuleIds } from "./progress.ts";

type Learner = { id: string; plan: Plan };

/** The track, if it exists and the learner may open it; 404 or 403 otherwise. */
async function openTrack(db: Db, learner: Learner, trackId: string) {
  const [program] = isTrack(trackId) ? await db.select().from(programs).where(eq(programs.id, trackId)) : [];
  if (!program || !isTrack(program.id)) throw new HttpError(404, "PROGRAM_NOT_FOUND", LEARNING_MESSAGES.notFound);
  const track: Track = program.id;
  if (!canOpenTrack(learner.plan, track)) {
    throw new HttpError(403, "PREMIUM_ONLY", LEARNING_MESSAGES.premiumOnly);
  }
  return { ...program, id: track };
}

async function trackModules(db: Db, track: Track) {
  return db
    .select({ id: modules.id, title: modules.title, description: modules.description, youtubeId: modules.youtubeId })
    .from(modules)
    .where(eq(modules.programId, track))
    .orderBy(asc(modules.position));
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

export async function getTrack(db: Db, learner: Learner, trackId: string): Promise<TrackDetail> {
  const program = await openTrack(db, learner, trackId);
  const [moduleList, data, [quiz]] = await Promise.all([
    trackModules(db, program.id),
    progressData(db, learner.id, program.id),
    db.select().from(quizzes).where(eq(quizzes.programId, program.id)),
  ]);
  const watched = watchedModuleIds(data, moduleList.map((m) => m.id));
  const firstModule = moduleList[0];
  const hasQuiz = quiz && firstModule && quiz.questions.length > 0;
  return {
    program: { id: program.id, title: program.title, duration: program.duration, description: program.description },
    modules: moduleList,
    watched,
    quiz: hasQuiz
      ? {
          title: quiz.title,
          moduleId: firstModule.id,
          section: 1,
          unlocked: watched.includes(firstModule.id),
          questions: quiz.questions.map(({ question, options }) => ({ question, options })),
          answers: await latestAnswers(db, learner.id, program.id),
        }
      : null,
  };
}

/** Marks a video watched: merged into the learner's progress, idempotent. */
export async function markWatched(db: Db, learner: Learner, trackId: string, moduleId: string): Promise<string[]> {
  const program = await openTrack(db, learner, trackId);
  const moduleList = await trackModules(db, program.id);
  if (!moduleList.some((m) => m.id === moduleId)) {
    throw new HttpError(404, "MODULE_NOT_FOUND", LEARNING_MESSAGES.moduleNotFound);
  }
  const entry = { [moduleId]: true };
  const [row] = await db
    .insert(userProgress)
    .values({ userId: learner.id, programId: program.id, data: entry })
    .onConflictDoUpdate({
      target: [userProgress.userId, userProgress.programId],
      // An entry an administrator replaced with something other than an object starts afresh.
      set: {
        data: sql`case when jsonb_typeof(${userProgress.data}) = 'object'
          then ${userProgress.data} || excluded.data else excluded.data end`,
        updatedAt: sql`now()`,
      },
    })
    .returning({ data: userProgress.data });
  return watchedModuleIds(row?.data, moduleList.map((m) => m.id));
}

/** Checks a chosen option on the server and records the attempt. */
export async function answerQuestion(
  db: Db,
  learner: Learner,
  trackId: string,
  input: { questionIndex: number; option: string },
): Promise<boolean> {
  const detail = await getTrack(db, learner, trackId);
  if (!detail.quiz) throw new HttpError(404, "QUIZ_NOT_FOUND", LEARNING_MESSAGES.questionNotFound);
  if (!detail.quiz.unlocked) {
    throw new HttpError(403, "QUIZ_LOCKED", LEARNING_MESSAGES.quizLocked(detail.quiz.section));
  }
  const [quiz] = await db.select().from(quizzes).where(eq(quizzes.programId, detail.program.id));
  const question = quiz?.questions[input.questionIndex];
  const letters = question?.options.map(optionLetter) ?? [];
  if (!question || !letters.includes(input.option)) {
    throw new HttpError(404, "QUESTION_NOT_FOUND", LEARNING_MESSAGES.questionNotFound);
  }
  const correct = question.answer.trim().toUpperCase() === input.option;
  await db.insert(quizAttempts).values({
    userId: learner.id,
    programId: detail.program.id,
    questionIndex: input.questionIndex,
    option: input.option,
    correct,
  });
  return correct;
}

/** Watched counts per program for the program list (Start or Continue). */
export async function progressSummary(db: Db, userId: string): Promise<Record<string, { watched: number }>> {
  const rows = await db.select().from(userProgress).where(eq(userProgress.userId, userId));
  if (rows.length === 0) return {};
  const moduleRows = await db
    .select({ id: modules.id, programId: modules.programId })
    .from(modules)
    .where(inArray(modules.programId, rows.map((r) => r.programId)));
  return Object.fromEntries(
    rows.map((row) => {
      const ids = moduleRows.filter((m) => m.programId === row.programId).map((m) => m.id);
      return [row.programId, { watched: watchedModuleIds(row.data, ids).length }];
    }),
  );
}
