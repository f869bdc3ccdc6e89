// Studying a track: what an entitled learner may see, marking videos watched and answering the
// quiz. Every check is made here on the server from the user's effective plan; the progress
// entries themselves are written in progress.ts.
import { and, desc, eq, inArray } from "drizzle-orm";
import {
  ATTACHMENT_MESSAGES,
  attachmentPath,
  LEARNING_MESSAGES,
  QUIZ_ANSWER_LIMIT,
  type Completion,
  type LessonContent,
  type ProgramPreview,
  type LessonPositions,
  type ProgramProgress,
  type TrackDetail,
} from "../../../shared/contracts/learning.ts";
import { isQuizUnlocked, programProgress } from "../../../shared/learning.ts";
import { canOpenTrack, isTrack, type Plan } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import type { PerUserCache, UserChanges } from "../../db/user-changes.ts";
import { lessonAttachments, lessonPositions, quizAttempts, userProgress } from "../../db/schema.ts";
import type { AttachmentFile, AttachmentStore, Delivery, KeptBytes } from "../../storage/attachment-store.ts";
import type { Catalog, CatalogTrack } from "../catalog/catalog.service.ts";
import { HttpError } from "../../plugins/errors.ts";
import { optionLetter } from "../../../shared/quiz-option.ts";
import { recordWatched, watchedModuleIds } from "./progress.ts";
import {
  cachedStanding,
  completionFrom,
  completionOf,
  quizOf,
  readStanding,
  type Standing,
} from "./completion.ts";
import { issueOnCompletion } from "./certificates.ts";
import type { AnswerRecorder, AnswerToRecord } from "./quiz-answers.ts";

type Learner = { id: string; plan: Plan };

/** The track, if it exists; 404 otherwise. */
function findTrack(catalog: Catalog, trackId: string): CatalogTrack {
  const track = isTrack(trackId) ? catalog.tracks.get(trackId) : undefined;
  if (!track) throw new HttpError(404, "PROGRAM_NOT_FOUND", LEARNING_MESSAGES.notFound);
  return track;
}

function premiumOnly(): HttpError {
  return new HttpError(403, "PREMIUM_ONLY", LEARNING_MESSAGES.premiumOnly);
}

/** The track, if it exists and the learner may open it; 404 or 403 otherwise. */
function openTrack(catalog: Catalog, learner: Learner, trackId: string): CatalogTrack {
  const track = findTrack(catalog, trackId);
  if (!canOpenTrack(learner.plan, track.program.id)) throw premiumOnly();
  return track;
}

/**
 * GET /api/programs/:track/preview (docs/product.md, "Previews"): a program's curriculum as anyone
 * signed in may see it: every lesson's title and kind, the free previews with their description
 * and video, the quiz's size; never a closed lesson's video, notes or files, nor a question.
 */
export function getProgramPreview(catalog: Catalog, learner: Learner, trackId: string): ProgramPreview {
  const track = findTrack(catalog, trackId);
  const { id, title, duration, description } = track.program;
  const quiz = trackQuiz(track);
  return {
    program: { id, title, duration, description },
    lessons: track.modules.map((module) => ({
      id: module.id,
      title: module.title,
      kind: module.youtubeId === null ? "notes" : "video",
      freePreview: module.freePreview,
      description: module.freePreview ? module.description : "",
      youtubeId: module.freePreview ? module.youtubeId : null,
    })),
    quiz: quiz && { title: quiz.title, questionCount: quiz.questions.length },
    open: canOpenTrack(learner.plan, id),
  };
}

/** The track of a lesson the learner may open; 404 when the module is not one of its lessons. */
function openModule(catalog: Catalog, learner: Learner, trackId: string, moduleId: string): CatalogTrack {
  const track = openTrack(catalog, learner, trackId);
  if (!track.modules.some((m) => m.id === moduleId)) {
    throw new HttpError(404, "MODULE_NOT_FOUND", LEARNING_MESSAGES.moduleNotFound);
  }
  return track;
}

/** The quiz of a track with questions, opened by watching the first video (section 1). */
function trackQuiz({ modules, quiz }: CatalogTrack) {
  const firstModule = modules[0];
  return quiz && firstModule && quiz.questions.length > 0 ? { ...quiz, moduleId: firstModule.id, section: 1 } : null;
}

export async function getTrack(
  db: Db,
  catalog: Catalog,
  learner: Learner,
  trackId: string,
  standingCache: PerUserCache<Standing>,
): Promise<TrackDetail> {
  const track = openTrack(catalog, learner, trackId);
  const { id, title, duration, description } = track.program;
  const quiz = trackQuiz(track);
  const standing = await cachedStanding(db, standingCache, learner.id, id);
  const answers = quiz ? standing.answers : [];
  const watched = watchedModuleIds(standing.data, track.modules.map((m) => m.id));
  const completion = completionFrom(track, standing);
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

/**
 * A lesson of a track the learner may open, or a free preview of any track (docs/product.md,
 * "Previews"); 404 for a module that is not the track's.
 */
function openLesson(catalog: Catalog, learner: Learner, trackId: string, moduleId: string) {
  const track = findTrack(catalog, trackId);
  const preview = track.modules.some((module) => module.id === moduleId && module.freePreview);
  if (!preview && !canOpenTrack(learner.plan, track.program.id)) throw premiumOnly();
  const lesson = track.lessons.get(moduleId);
  if (!lesson) throw new HttpError(404, "MODULE_NOT_FOUND", LEARNING_MESSAGES.moduleNotFound);
  return { track, lesson };
}

/** What a lesson holds beyond its video (docs/product.md, "Lesson notes" and "Attachments"). */
export function getLessonContent(catalog: Catalog, learner: Learner, trackId: string, moduleId: string): LessonContent {
  const { track, lesson } = openLesson(catalog, learner, trackId, moduleId);
  return {
    notesHtml: lesson.notesHtml,
    attachments: lesson.attachments.map((file) => ({ ...file, url: attachmentPath(track.program.id, moduleId, file.id) })),
  };
}

/**
 * An attachment's bytes, or a short-lived link to them, for a learner whose plan opens the
 * program. Only an attachment of this very lesson is found: an id of another lesson or program is
 * 404, whatever the learner's plan.
 */
export async function getAttachment(
  db: Db,
  store: AttachmentStore,
  catalog: Catalog,
  learner: Learner,
  params: { track: string; moduleId: string; attachmentId: string },
): Promise<{ file: AttachmentFile; delivery: Delivery }> {
  const { lesson } = openLesson(catalog, learner, params.track, params.moduleId);
  const listed = lesson.attachments.find((file) => file.id === params.attachmentId);
  const [row] = listed
    ? await db
        .select({ data: lessonAttachments.data, storageKey: lessonAttachments.storageKey })
        .from(lessonAttachments)
        .where(and(eq(lessonAttachments.id, listed.id), eq(lessonAttachments.moduleId, params.moduleId)))
    : [];
  if (!listed || !row) throw new HttpError(404, "ATTACHMENT_NOT_FOUND", ATTACHMENT_MESSAGES.notFound);
  const file = { id: listed.id, fileName: listed.fileName, contentType: listed.contentType };
  const kept: KeptBytes | null =
    row.data !== null
      ? { data: row.data, storageKey: null }
      : row.storageKey !== null
        ? { data: null, storageKey: row.storageKey }
        : null;
  if (!kept) throw new Error(`attachment ${file.id} has neither bytes nor a storage key`);
  return { file, delivery: await store.deliver(file, kept) };
}

/** Marks a video watched: merged into the learner's progress, idempotent. */
export async function markWatched(
  db: Db,
  catalog: Catalog,
  learner: Learner,
  trackId: string,
  moduleId: string,
  standingCache: PerUserCache<Standing>,
): Promise<{ watched: string[]; completion: Completion; issued: boolean }> {
  const track = openModule(catalog, learner, trackId, moduleId);
  const moduleIds = track.modules.map((m) => m.id);
  // A video already watched changes nothing, and needs no write (a locked row is a durable
  // commit): unless the program is complete without a certificate, the answer is what stands.
  const current = await cachedStanding(db, standingCache, learner.id, track.program.id);
  const currentlyWatched = watchedModuleIds(current.data, moduleIds);
  if (currentlyWatched.includes(moduleId)) {
    const completion = completionFrom(track, current);
    if (!completion.complete || completion.certificateId !== null) return { watched: currentlyWatched, completion, issued: false };
  }
  try {
    // The write commits first, then the standing is read in a statement of its own: of two writes
    // that could each complete the program, the one that commits last reads both (docs/product.md,
    // "Completion and certificates").
    const added = await recordWatched(db, learner.id, track.program.id, moduleId);
    const standing = await readStanding(db, learner.id, track.program.id);
    const after = completionFrom(track, standing);
    const before = added ? completionFrom(track, { ...standing, data: withoutModule(standing.data, moduleId) }) : after;
    const watched = watchedModuleIds(standing.data, moduleIds);
    return { watched, ...(await issueOnCompletion(db, track, learner.id, before, after)) };
  } finally {
    // This instance forgets the standing it kept (docs/performance.md, "Caching signed-in reads").
    standingCache.forget(learner.id);
  }
}

function withoutModule(data: unknown, moduleId: string): unknown {
  if (typeof data !== "object" || data === null) return data;
  return Object.fromEntries(Object.entries(data).filter(([id]) => id !== moduleId));
}

/** An answer past the limit: 429, with the seconds until the learner may answer again. */
export class TooManyAnswers extends HttpError {
  constructor(readonly retryAfterSeconds: number) {
    super(429, "TOO_MANY_ANSWERS", LEARNING_MESSAGES.tooManyAnswers(retryAfterSeconds));
  }
}

/**
 * Records an answer (quiz-answers.ts): the database function record_quiz_answer (migrations 0011
 * and 0012) locks the learner's progress row, checks the quiz is open, counts the answer against
 * QUIZ_ANSWER_LIMIT, stores it, trims the attempts past the latest `kept`, and reads the standing
 * after it. The change is announced to the other instances, then the certificate issued when
 * this answer completed the program (docs/product.md, "Completion and certificates").
 */
async function recordAttempt(
  db: Db,
  record: AnswerRecorder,
  changes: UserChanges,
  track: CatalogTrack,
  quiz: { moduleId: string; section: number },
  attempt: Omit<AnswerToRecord, "moduleId" | "nowMs">,
  now: Date,
): Promise<{ completion: Completion; issued: boolean }> {
  const nowMs = now.getTime();
  const row = await record({ ...attempt, moduleId: quiz.moduleId, nowMs });
  if (row.outcome === "locked") throw new HttpError(403, "QUIZ_LOCKED", LEARNING_MESSAGES.quizLocked(quiz.section));
  if (row.outcome === "refused") {
    // Requests counted together may carry clocks a few milliseconds apart (rate-limit-store.ts).
    const windowMs = QUIZ_ANSWER_LIMIT.windowSeconds * 1000;
    const ttl = Math.min(windowMs, Math.max(0, (row.lastRequest ?? nowMs) + windowMs - nowMs));
    throw new TooManyAnswers(Math.max(1, Math.ceil(ttl / 1000)));
  }
  // The function's writes announced nothing: the answer is announced now it is committed, without
  // holding the reply (this instance forgets at once; the others hear a moment later, as they would
  // a notice sent with the commit).
  void changes.announce({ scope: "learning", userId: attempt.userId });
  const standing: Standing = { data: row.data ?? {}, answers: row.answers ?? [], certificateId: row.certificateId };
  const others = standing.answers.filter((answer) => answer.questionIndex !== attempt.questionIndex);
  const before = completionFrom(track, { ...standing, answers: row.earlier ? [...others, row.earlier] : others });
  return issueOnCompletion(db, track, attempt.userId, before, completionFrom(track, standing));
}

/** Checks a chosen option on the server and records the attempt, within the limit per question. */
export async function answerQuestion(
  db: Db,
  catalog: Catalog,
  learner: Learner,
  trackId: string,
  input: { questionIndex: number; option: string },
  now: Date,
  changes: UserChanges,
  record: AnswerRecorder,
): Promise<{ correct: boolean; completion: Completion; issued: boolean }> {
  const track = openTrack(catalog, learner, trackId);
  const quiz = trackQuiz(track);
  if (!quiz) throw new HttpError(404, "QUIZ_NOT_FOUND", LEARNING_MESSAGES.questionNotFound);
  const question = quiz.questions[input.questionIndex];
  const letters = question?.options.map(optionLetter) ?? [];
  if (!question || !letters.includes(input.option)) {
    throw new HttpError(404, "QUESTION_NOT_FOUND", LEARNING_MESSAGES.questionNotFound);
  }
  const correct = question.answer.trim().toUpperCase() === input.option;
  const attempt = { userId: learner.id, programId: track.program.id, questionIndex: input.questionIndex, option: input.option, correct };
  try {
    return { correct, ...(await recordAttempt(db, record, changes, track, quiz, attempt, now)) };
  } finally {
    changes.changed({ scope: "learning", userId: learner.id }); // docs/performance.md, "Caching signed-in reads"
  }
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

/**
 * Where the learner stopped in each lesson of a track they may open (docs/product.md, "Lesson
 * player"): one read of the learner's rows by primary key, asked once when the player opens.
 */
export async function lessonPositionsOf(db: Db, catalog: Catalog, learner: Learner, trackId: string): Promise<LessonPositions> {
  const track = openTrack(catalog, learner, trackId);
  const moduleIds = track.modules.map((m) => m.id);
  if (moduleIds.length === 0) return {};
  const rows = await db
    .select({ moduleId: lessonPositions.moduleId, seconds: lessonPositions.seconds })
    .from(lessonPositions)
    .where(and(eq(lessonPositions.userId, learner.id), inArray(lessonPositions.moduleId, moduleIds)));
  return Object.fromEntries(rows.map((row) => [row.moduleId, row.seconds]));
}

/** Saves where the learner stopped in a lesson: one upsert, nothing cached to forget. */
export async function saveLessonPosition(
  db: Db,
  catalog: Catalog,
  learner: Learner,
  trackId: string,
  moduleId: string,
  seconds: number,
): Promise<void> {
  openModule(catalog, learner, trackId, moduleId);
  await db
    .insert(lessonPositions)
    .values({ userId: learner.id, moduleId, seconds })
    .onConflictDoUpdate({ target: [lessonPositions.userId, lessonPositions.moduleId], set: { seconds, updatedAt: new Date() } });
}
