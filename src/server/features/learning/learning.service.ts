// Studying a track: what an entitled learner may see, marking videos watched and answering the
// quiz. Every check is made here on the server from the user's effective plan; the progress
// entries themselves are written in progress.ts.
import { and, eq, inArray, isNull, sql } from "drizzle-orm";
import {
  ATTACHMENT_MESSAGES,
  attachmentPath,
  LEARNING_MESSAGES,
  QUIZ_ANSWER_LIMIT,
  QUIZ_RETRY_WAIT,
  type Completion,
  type LessonContent,
  type ProgramPreview,
  type LessonPositions,
  type LearnerQuiz,
  type ProgramProgress,
  type ProgressSummary,
  type QuizAnswerResponse,
  type TrackDetail,
} from "../../../shared/contracts/learning.ts";
import { EXERCISE_MESSAGES } from "../../../shared/contracts/exercises.ts";
import { isQuizUnlocked, nextStepOf, programProgress } from "../../../shared/learning.ts";
import { canOpenTrack, type Plan } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import type { PerUserCache, UserChanges } from "../../db/user-changes.ts";
import { certificates, lessonAttachments, lessonPositions, quizAttempts, quizSittings, userProgress } from "../../db/schema.ts";
import type { AttachmentFile, AttachmentStore, Delivery, KeptBytes } from "../../storage/attachment-store.ts";
import { programAsSeenBy, type Catalog, type CatalogTrack } from "../catalog/catalog.seam.ts";
import { HttpError } from "../../plugins/errors.ts";
import { optionLetter } from "../../../shared/quiz-option.ts";
import { waitInWords } from "../../../shared/quiz-attempts.ts";
import { recordWatched, watchedModuleIds } from "./progress.ts";
import {
  cachedStanding,
  completionFrom,
  completionOf,
  passMarkOf,
  quizOf,
  readStanding,
  scoredAttempts,
  storedAttempts,
  type Standing,
} from "./completion.ts";
import { newAttemptRefusal, nextAttemptAt, optionsInAttemptOrder } from "./quiz-attempts.ts";
import { issueOnCompletion } from "./certificates.ts";
import type { AnswerRecorder, AnswerToRecord } from "./quiz-answers.ts";

export type Learner = { id: string; plan: Plan };

/**
 * The program, if it exists; 404 otherwise. Administrators see it as they preview it, drafts
 * included (docs/data.md, "Drafts"); a learner never sees a draft.
 */
function findTrack(catalog: Catalog, learner: Learner, trackId: string): CatalogTrack {
  const track = programAsSeenBy(catalog, learner.plan, trackId);
  if (!track) throw new HttpError(404, "PROGRAM_NOT_FOUND", LEARNING_MESSAGES.notFound);
  return track;
}

function premiumOnly(): HttpError {
  return new HttpError(403, "PREMIUM_ONLY", LEARNING_MESSAGES.premiumOnly);
}

/** The track, if it exists and the learner may open it; 404 or 403 otherwise. */
function openTrack(catalog: Catalog, learner: Learner, trackId: string): CatalogTrack {
  const track = findTrack(catalog, learner, trackId);
  if (!canOpenTrack(learner.plan, track.program.level)) throw premiumOnly();
  return track;
}

/**
 * GET /api/programs/:track/preview (docs/product.md, "Previews"): a program's curriculum as anyone
 * signed in may see it: every lesson's title and kind, the free previews with their description
 * and video, the quiz's size; never a closed lesson's video, notes or files, nor a question.
 */
export function getProgramPreview(catalog: Catalog, learner: Learner, trackId: string): ProgramPreview {
  const track = findTrack(catalog, learner, trackId);
  const { id, title, duration, description } = track.program;
  const quiz = trackQuiz(track);
  return {
    program: { id, title, duration, description },
    lessons: track.modules.map((module) => ({
      id: module.id,
      title: module.title,
      kind: module.exercise ? "exercise" : module.youtubeId === null ? "notes" : "video",
      freePreview: module.freePreview,
      description: module.freePreview ? module.description : "",
      youtubeId: module.freePreview ? module.youtubeId : null,
    })),
    quiz: quiz && { title: quiz.title, questionCount: quiz.questions.length },
    open: canOpenTrack(learner.plan, track.program.level),
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
  const { id, level, title, duration, description } = track.program;
  const standing = await cachedStanding(db, standingCache, learner.id, id);
  const watched = watchedModuleIds(standing.data, track.modules.map((m) => m.id));
  return {
    program: { id, level, title, duration, description },
    modules: track.modules,
    watched,
    quiz: learnerQuiz(track, learner.id, standing, watched),
    completion: completionFrom(track, standing),
  };
}

/**
 * A lesson of a track the learner may open, or a free preview of any track (docs/product.md,
 * "Previews"); 404 for a module that is not the track's.
 */
export function openLesson(catalog: Catalog, learner: Learner, trackId: string, moduleId: string) {
  const track = findTrack(catalog, learner, trackId);
  const preview = track.modules.some((module) => module.id === moduleId && module.freePreview);
  if (!preview && !canOpenTrack(learner.plan, track.program.level)) throw premiumOnly();
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

/** The attempts scored, and when a new one may start (docs/product.md, "Quiz attempts"). */
function attemptsState(track: CatalogTrack, attempts: Standing["attempts"]): Pick<LearnerQuiz, "attempts" | "nextAttemptAt"> {
  const scored = scoredAttempts(quizOf(track), attempts);
  const next = nextAttemptAt(scored, track.quiz?.retryWaitMinutes ?? QUIZ_RETRY_WAIT.defaultMinutes);
  return { attempts: scored, nextAttemptAt: next?.toISOString() ?? null };
}

/**
 * The quiz as the learner sees it in their current attempt: the options in that attempt's order,
 * the explanation of each question they answered in it, never an answer.
 */
function learnerQuiz(track: CatalogTrack, userId: string, standing: Standing, watched: readonly string[]): LearnerQuiz | null {
  const quiz = trackQuiz(track);
  if (!quiz) return null;
  const attempt = standing.attempts.at(-1)?.number ?? 1;
  const answered = new Set(standing.answers.map((answer) => answer.questionIndex));
  return {
    title: quiz.title,
    moduleId: quiz.moduleId,
    section: quiz.section,
    unlocked: isQuizUnlocked(quiz, watched),
    passMark: passMarkOf({ questionCount: quiz.questions.length, passMark: quiz.passMark }),
    retryWaitMinutes: quiz.retryWaitMinutes,
    questions: quiz.questions.map(({ question, options, explanation }, questionIndex) => ({
      question,
      options: optionsInAttemptOrder(options, { userId, programId: track.program.id, questionIndex }, attempt),
      explanation: answered.has(questionIndex) ? explanationOf(explanation) : null,
    })),
    answers: standing.answers,
    ...attemptsState(track, standing.attempts),
  };
}

function explanationOf(explanation: string | undefined): string | null {
  return explanation?.trim() ? explanation.trim() : null;
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
  // An exercise is done by passing it, not by marking it (docs/trading.md, "Exercises").
  if (track.lessons.get(moduleId)?.exercise) throw new HttpError(409, "EXERCISE_NOT_WATCHED", EXERCISE_MESSAGES.notWatched);
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
    const added = (await recordWatched(db, learner.id, track.program.id, moduleId)) !== null;
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
): Promise<{ completion: Completion; issued: boolean; attempts: Standing["attempts"] }> {
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
  const standing: Standing = {
    data: row.data ?? {},
    answers: row.answers ?? [],
    certificateId: row.certificateId,
    attempts: row.attempts ?? [],
  };
  // Without this answer: when it was the attempt's first to the question, the attempt's score
  // without it; a later answer changed no score.
  const key = String(attempt.questionIndex);
  const attemptsBefore = row.firstAnswer
    ? standing.attempts.map((stored, index, all) =>
        index === all.length - 1
          ? { ...stored, firstAnswers: Object.fromEntries(Object.entries(stored.firstAnswers).filter(([question]) => question !== key)) }
          : stored,
      )
    : standing.attempts;
  const before = completionFrom(track, { ...standing, attempts: attemptsBefore });
  const issued = await issueOnCompletion(db, track, attempt.userId, before, completionFrom(track, standing));
  return { ...issued, attempts: standing.attempts };
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
): Promise<QuizAnswerResponse & { issued: boolean }> {
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
    const { completion, issued, attempts } = await recordAttempt(db, record, changes, track, quiz, attempt, now);
    return {
      correct,
      message: correct ? LEARNING_MESSAGES.correct : LEARNING_MESSAGES.incorrect,
      explanation: explanationOf(question.explanation),
      completion,
      ...attemptsState(track, attempts),
      issued,
    };
  } finally {
    changes.changed({ scope: "learning", userId: learner.id }); // docs/performance.md, "Caching signed-in reads"
  }
}

/** A new attempt refused: 429 with the wait left, in words and in seconds. */
export class AttemptTooSoon extends HttpError {
  readonly retryAfterSeconds: number;
  constructor(waitMs: number) {
    super(429, "ATTEMPT_TOO_SOON", LEARNING_MESSAGES.attemptTooSoon(waitInWords(waitMs)));
    this.retryAfterSeconds = Math.max(1, Math.ceil(waitMs / 1000));
  }
}

/**
 * Starts a new attempt at the quiz (docs/product.md, "Quiz attempts"): only once the current one is
 * finished without passing and the quiz's wait since its last first answer is over. Decided and
 * written in one transaction holding the learner's progress row, the row an answer locks
 * (record_quiz_answer, migration 0016), so an answer and a new attempt take turns. The attempt's
 * options come in a new order; its answers start empty.
 */
export async function startAttempt(
  db: Db,
  catalog: Catalog,
  learner: Learner,
  trackId: string,
  now: Date,
): Promise<LearnerQuiz> {
  const track = openTrack(catalog, learner, trackId);
  const quiz = trackQuiz(track);
  if (!quiz) throw new HttpError(404, "QUIZ_NOT_FOUND", LEARNING_MESSAGES.questionNotFound);
  const programId = track.program.id;
  const moduleIds = track.modules.map((m) => m.id);
  const standing = await db.transaction(async (tx) => {
    const [entry] = await tx
      .select({ data: userProgress.data })
      .from(userProgress)
      .where(and(eq(userProgress.userId, learner.id), eq(userProgress.programId, programId)))
      .for("update");
    if (!isQuizUnlocked(quiz, watchedModuleIds(entry?.data, moduleIds))) {
      throw new HttpError(403, "QUIZ_LOCKED", LEARNING_MESSAGES.quizLocked(quiz.section));
    }
    const attempts = await storedAttempts(tx, learner.id, programId);
    const refusal = newAttemptRefusal(scoredAttempts(quizOf(track), attempts), quiz.retryWaitMinutes, now);
    if (refusal?.reason === "passed") throw new HttpError(409, "QUIZ_PASSED", LEARNING_MESSAGES.quizAlreadyPassed);
    if (refusal?.reason === "unfinished") throw new HttpError(409, "ATTEMPT_NOT_FINISHED", LEARNING_MESSAGES.attemptNotFinished);
    if (refusal?.reason === "wait") throw new AttemptTooSoon(refusal.waitMs);
    await tx.insert(quizSittings).values({ userId: learner.id, programId, number: (attempts.at(-1)?.number ?? 0) + 1, startedAt: now });
    return readStanding(tx, learner.id, programId);
  });
  const quizShown = learnerQuiz(track, learner.id, standing, watchedModuleIds(standing.data, moduleIds));
  if (!quizShown) throw new Error(`the quiz of ${programId} went away`);
  return quizShown;
}

function latest(dates: readonly (Date | null)[]): Date | null {
  return dates.reduce<Date | null>((last, date) => (date && (!last || date > last) ? date : last), null);
}

/**
 * The progress of every program the learner's plan opens, for the program cards and the home page
 * (docs/product.md, "Progress"), and the next step (nextStepOf): three queries whatever the number
 * of programs (the learner's progress entries, their attempts, their valid certificates), the rest
 * from the catalog in memory.
 */
export async function progressSummary(
  db: Db,
  catalog: Catalog,
  learner: Learner & { paidSince: Date | null },
): Promise<ProgressSummary> {
  const [rows, attempts, certified] = await Promise.all([
    db
      .select({
        programId: userProgress.programId,
        data: userProgress.data,
        startedAt: userProgress.startedAt,
        updatedAt: userProgress.updatedAt,
      })
      .from(userProgress)
      .where(eq(userProgress.userId, learner.id)),
    // Each attempt with the time of its latest answer (a few probes of the attempt's index).
    db
      .select({
        programId: quizSittings.programId,
        number: quizSittings.number,
        startedAt: quizSittings.startedAt,
        answeredAt: quizSittings.answeredAt,
        firstAnswers: quizSittings.firstAnswers,
        lastAnswerAt: sql<Date | null>`(select max(${quizAttempts.createdAt}) from ${quizAttempts}
          where ${quizAttempts.userId} = ${quizSittings.userId} and ${quizAttempts.programId} = ${quizSittings.programId}
            and ${quizAttempts.attempt} = ${quizSittings.number})`.mapWith((value: string | Date | null) => (value === null ? null : new Date(value))),
      })
      .from(quizSittings)
      .where(eq(quizSittings.userId, learner.id))
      .orderBy(quizSittings.programId, quizSittings.number),
    // A valid certificate keeps its program complete (completionFrom, completion.ts).
    db
      .select({ programId: certificates.programId })
      .from(certificates)
      .where(and(eq(certificates.userId, learner.id), isNull(certificates.revokedAt))),
  ]);
  const summary: Record<string, ProgramProgress> = {};
  for (const track of catalog.tracks.values()) {
    const id = track.program.id;
    if (!canOpenTrack(learner.plan, track.program.level)) continue;
    const row = rows.find((entry) => entry.programId === id);
    // An archived program is listed only to the learners who started it (docs/data.md, "Content").
    if (track.program.archived && !row?.startedAt) continue;
    const moduleIds = track.modules.map((m) => m.id);
    const watched = watchedModuleIds(row?.data, moduleIds);
    const quiz = trackQuiz(track);
    const quizAttempts = quiz ? attempts.filter((attempt) => attempt.programId === id) : [];
    // Passed by the completion rule: an attempt at the admin's pass mark (completion.ts).
    const stored = quizAttempts.map(({ number, startedAt, answeredAt, firstAnswers }) => ({
      number,
      startedAt: startedAt.getTime(),
      answeredAt: answeredAt?.getTime() ?? null,
      firstAnswers,
    }));
    const { quizPassed, complete } = completionOf({ moduleIds, watched, quiz: quizOf(track), attempts: stored });
    const progress = programProgress({
      modules: track.modules,
      watched,
      quiz: quiz && { moduleId: quiz.moduleId, title: quiz.title, passed: quizPassed },
    });
    const studiedAt = latest([watched.length > 0 ? (row?.updatedAt ?? null) : null, ...quizAttempts.map((a) => a.lastAnswerAt)]);
    summary[id] = {
      ...progress,
      lastStudiedAt: studiedAt?.toISOString() ?? null,
      complete: complete || certified.some((certificate) => certificate.programId === id),
    };
  }
  const next = nextStepOf({ programs: catalog.summaries, progress: summary, plan: learner.plan, paidSince: learner.paidSince });
  return { programs: summary, next };
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
