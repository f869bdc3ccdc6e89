// Lesson questions, the community forum (docs/product.md, "Questions and mentorship"): who may read
// and post under a lesson is who may open its track (canOpenTrack, the rule the track page uses);
// administrators answer, pin and remove. Posts are counted per learner in rate_limits, in the
// transaction that writes them, so a refused post neither counts nor is stored.
import { asc, count, desc, eq, inArray, sql } from "drizzle-orm";
import { LEARNING_MESSAGES } from "../../../shared/contracts/learning.ts";
import {
  SUPPORT_LIMITS,
  SUPPORT_MESSAGES,
  type AdminQuestion,
  type LessonAnswer,
  type LessonQuestion,
  type QuestionPage,
} from "../../../shared/contracts/support.ts";
import { canOpenTrack, type Plan } from "../../../shared/plans.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, lessonAnswers, lessonQuestions, modules, programs, users } from "../../db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { HttpError } from "../../plugins/errors.ts";
import { countRequest } from "../../plugins/rate-limit-store.ts";
import { programAsSeenBy, type Catalog } from "../catalog/catalog.seam.ts";

export const LESSON_ANSWER_JOB = "lesson-answer-email";

type Member = { id: string; plan: Plan };

/** The Academy team: administrators (their plan never expires, so the stored plan is the one in effect). */
const isStaff = sql<boolean>`${users.subscriptionPlan} = 'admin'`;
const authorName = sql<string>`coalesce(nullif(${users.name}, ''), 'Learner')`;

/** The lesson, if its track exists, the member may open it and the video is in it; 404 or 403 otherwise. */
function openLesson(catalog: Catalog, member: Member, trackId: string, moduleId: string) {
  const track = programAsSeenBy(catalog, member.plan, trackId);
  if (!track) throw new HttpError(404, "PROGRAM_NOT_FOUND", LEARNING_MESSAGES.notFound);
  if (!canOpenTrack(member.plan, track.program.level)) throw new HttpError(403, "PREMIUM_ONLY", SUPPORT_MESSAGES.notOpen);
  if (!track.modules.some((m) => m.id === moduleId)) throw new HttpError(404, "MODULE_NOT_FOUND", LEARNING_MESSAGES.moduleNotFound);
  return { track: track.program.id, moduleId };
}

/** A post past the limit: 429, with the seconds until the learner may post again. */
export class TooManyPosts extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, "TOO_MANY_POSTS", SUPPORT_MESSAGES.tooManyPosts(retryAfterSeconds * 1000));
  }
}

async function countPost(tx: Tx, member: Member, now: Date): Promise<void> {
  if (member.plan === "admin") return;
  const windowMs = SUPPORT_LIMITS.postWindowSeconds * 1000;
  const counted = await countRequest(tx, `lesson-post:${member.id}`, windowMs, now.getTime());
  if (counted.current > SUPPORT_LIMITS.postsPerWindow) throw new TooManyPosts(Math.max(1, Math.ceil(counted.ttl / 1000)));
}

type AnswerRow = { id: string; questionId: string; body: string; userId: string; author: string; staff: boolean; createdAt: Date };

async function answersOf(db: Db, questionIds: string[]): Promise<AnswerRow[]> {
  if (questionIds.length === 0) return [];
  return db
    .select({
      id: lessonAnswers.id,
      questionId: lessonAnswers.questionId,
      body: lessonAnswers.body,
      userId: lessonAnswers.userId,
      author: authorName,
      staff: isStaff,
      createdAt: lessonAnswers.createdAt,
    })
    .from(lessonAnswers)
    .innerJoin(users, eq(users.id, lessonAnswers.userId))
    .where(inArray(lessonAnswers.questionId, questionIds))
    .orderBy(asc(lessonAnswers.createdAt), asc(lessonAnswers.id));
}

function answerView(row: Omit<AnswerRow, "questionId">, viewerId: string): LessonAnswer {
  return { id: row.id, body: row.body, author: row.author, staff: row.staff, mine: row.userId === viewerId, createdAt: row.createdAt.toISOString() };
}

type QuestionRow = { id: string; body: string; userId: string; author: string; staff: boolean; pinnedAt: Date | null; createdAt: Date };

const questionColumns = {
  id: lessonQuestions.id,
  body: lessonQuestions.body,
  userId: lessonQuestions.userId,
  author: authorName,
  staff: isStaff,
  pinnedAt: lessonQuestions.pinnedAt,
  createdAt: lessonQuestions.createdAt,
};

async function withAnswers<R extends QuestionRow>(db: Db, rows: R[], viewerId: string) {
  const answers = await answersOf(db, rows.map((row) => row.id));
  return rows.map((row) => ({
    row,
    question: {
      ...answerView(row, viewerId),
      pinned: row.pinnedAt !== null,
      answers: answers.filter((a) => a.questionId === row.id).map((a) => answerView(a, viewerId)),
    } satisfies LessonQuestion,
  }));
}

/** One page of a lesson's questions: pinned first (latest pinned on top), then newest. */
export async function listQuestions(
  db: Db,
  catalog: Catalog,
  member: Member,
  lesson: { track: string; moduleId: string },
  page: number,
): Promise<QuestionPage> {
  const { moduleId } = openLesson(catalog, member, lesson.track, lesson.moduleId);
  const size = SUPPORT_LIMITS.questionsPage;
  const rows = await db
    .select(questionColumns)
    .from(lessonQuestions)
    .innerJoin(users, eq(users.id, lessonQuestions.userId))
    .where(eq(lessonQuestions.moduleId, moduleId))
    .orderBy(sql`${lessonQuestions.pinnedAt} desc nulls last`, desc(lessonQuestions.createdAt), desc(lessonQuestions.id))
    .limit(size + 1)
    .offset((page - 1) * size);
  const shown = await withAnswers(db, rows.slice(0, size), member.id);
  return { questions: shown.map(({ question }) => question), hasMore: rows.length > size };
}

async function authorOf(db: Db | Tx, userId: string) {
  const [row] = await db.select({ author: authorName, staff: isStaff }).from(users).where(eq(users.id, userId));
  if (!row) throw new Error(`user ${userId} is not in users`);
  return row;
}

export async function askQuestion(
  db: Db,
  catalog: Catalog,
  member: Member,
  lesson: { track: string; moduleId: string },
  body: string,
  now: Date,
): Promise<LessonQuestion> {
  const { track, moduleId } = openLesson(catalog, member, lesson.track, lesson.moduleId);
  return db.transaction(async (tx) => {
    await countPost(tx, member, now);
    const [row] = await tx.insert(lessonQuestions).values({ moduleId, programId: track, userId: member.id, body }).returning();
    if (!row) throw new Error("the question was not written");
    const { author, staff } = await authorOf(tx, member.id);
    return { id: row.id, body, author, staff, mine: true, pinned: false, createdAt: row.createdAt.toISOString(), answers: [] };
  });
}

/**
 * An answer, by an administrator or a learner of the question's track. The asker is emailed
 * (LESSON_ANSWER_JOB), in the same transaction, unless they answered themselves.
 */
export async function answerQuestion(db: Db, member: Member, questionId: string, body: string, now: Date): Promise<LessonAnswer> {
  return db.transaction(async (tx) => {
    const [question] = await tx
      .select({ level: programs.level, userId: lessonQuestions.userId })
      .from(lessonQuestions)
      .innerJoin(programs, eq(programs.id, lessonQuestions.programId))
      .where(eq(lessonQuestions.id, questionId));
    if (!question) throw new HttpError(404, "QUESTION_NOT_FOUND", SUPPORT_MESSAGES.questionNotFound);
    if (!canOpenTrack(member.plan, question.level)) throw new HttpError(403, "PREMIUM_ONLY", SUPPORT_MESSAGES.notOpen);
    await countPost(tx, member, now);
    const [row] = await tx.insert(lessonAnswers).values({ questionId, userId: member.id, body }).returning();
    if (!row) throw new Error("the answer was not written");
    if (question.userId !== member.id) await enqueueJob(tx, LESSON_ANSWER_JOB, { answerId: row.id });
    const { author, staff } = await authorOf(tx, member.id);
    return { id: row.id, body, author, staff, mine: true, createdAt: row.createdAt.toISOString() };
  });
}

// ---- The admin's side ---------------------------------------------------------------------------

export async function setPinned(db: Db, questionId: string, pinned: boolean, now: Date): Promise<void> {
  const updated = await db
    .update(lessonQuestions)
    .set({ pinnedAt: pinned ? now : null })
    .where(eq(lessonQuestions.id, questionId))
    .returning({ id: lessonQuestions.id });
  if (updated.length === 0) throw new HttpError(404, "QUESTION_NOT_FOUND", SUPPORT_MESSAGES.questionNotFound);
}

/** Removes a question (its answers go with it) or an answer, with an audit entry naming its author. */
export async function removePost(db: Db, actorId: string, post: { questionId: string } | { answerId: string }): Promise<void> {
  await db.transaction(async (tx) => {
    const removed =
      "questionId" in post
        ? await tx
            .delete(lessonQuestions)
            .where(eq(lessonQuestions.id, post.questionId))
            .returning({ userId: lessonQuestions.userId, moduleId: lessonQuestions.moduleId })
        : await tx
            .delete(lessonAnswers)
            .where(eq(lessonAnswers.id, post.answerId))
            .returning({ userId: lessonAnswers.userId, questionId: lessonAnswers.questionId });
    const [row] = removed;
    if (!row) {
      throw "questionId" in post
        ? new HttpError(404, "QUESTION_NOT_FOUND", SUPPORT_MESSAGES.questionNotFound)
        : new HttpError(404, "ANSWER_NOT_FOUND", SUPPORT_MESSAGES.answerNotFound);
    }
    const { userId, ...where } = row;
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: userId,
      action: "questionId" in post ? "question.remove" : "answer.remove",
      reason: "Removed from the lesson questions by an administrator.",
      changes: { ...post, ...where },
    });
  });
}

/** Has an answer from the Academy team. */
const answeredByStaff = sql<boolean>`exists (
  select 1 from ${lessonAnswers} a join ${users} staff on staff.id = a.user_id
  where a.question_id = ${lessonQuestions.id} and staff.subscription_plan = 'admin')`;

/** The asker holds the Advanced plan now: their questions come first (priority support). */
const askedWithPriority = sql<boolean>`(${users.subscriptionPlan} = 'advanced' and ${users.subscriptionStatus} = 'active'
  and ${users.subscriptionEnd} > now())`;

/**
 * Every question, for the Questions tab: those the team has not answered first, among them those
 * of learners on the Advanced plan (its priority support), then newest.
 */
export async function listAdminQuestions(
  db: Db,
  viewerId: string,
  page: number,
  pageSize: number,
): Promise<{ page: number; pageSize: number; total: number; questions: AdminQuestion[] }> {
  const [rows, [total]] = await Promise.all([
    db
      .select({
        ...questionColumns,
        authorEmail: users.email,
        track: lessonQuestions.programId,
        moduleId: lessonQuestions.moduleId,
        lessonTitle: modules.title,
        answered: answeredByStaff,
        priority: askedWithPriority,
      })
      .from(lessonQuestions)
      .innerJoin(users, eq(users.id, lessonQuestions.userId))
      .innerJoin(modules, eq(modules.id, lessonQuestions.moduleId))
      .orderBy(answeredByStaff, sql`${askedWithPriority} desc`, desc(lessonQuestions.createdAt), desc(lessonQuestions.id))
      .limit(pageSize)
      .offset((page - 1) * pageSize),
    db.select({ n: count() }).from(lessonQuestions),
  ]);
  const shown = await withAnswers(db, rows, viewerId);
  const questions = shown.map(({ row, question }) => ({
    ...question,
    authorId: row.userId,
    authorEmail: row.authorEmail,
    track: row.track,
    moduleId: row.moduleId,
    lessonTitle: row.lessonTitle,
    unanswered: !row.answered,
    priority: row.priority,
  }));
  return { page, pageSize, total: total?.n ?? 0, questions };
}

