// The Programs tab: programs, their modules and their quizzes, as administrators edit them.
// Each change, its audit entry and its announcement to every instance's catalog cache are written
// in one transaction.
import { createHash, randomUUID } from "node:crypto";
import { and, asc, count, countDistinct, eq, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import type * as z from "zod/mini";
import {
  ADMIN_MESSAGES,
  type AdminProgram,
  type AdminQuiz,
  type adminQuizSchema,
  type createProgramSchema,
  type programFieldsSchema,
  type PublishSummary,
  moduleProblem,
  programIdProblem,
} from "../../../shared/contracts/admin.ts";
import { storedExercise, type ExerciseSettings } from "../../../shared/contracts/exercises.ts";
import { ATTACHMENT_MESSAGES, attachmentPath, QUIZ_RETRY_WAIT } from "../../../shared/contracts/learning.ts";
import { isTrack } from "../../../shared/plans.ts";
import { checkQuestion } from "../../../shared/quiz.ts";
import { youtubeVideoId } from "../../../shared/youtube.ts";
import type { Db, Tx } from "../../db/client.ts";
import {
  auditLog,
  certificates,
  lessonAttachments,
  modules,
  programs,
  quizAttempts,
  quizzes,
  userProgress,
  type QuizQuestion,
} from "../../db/schema.ts";
import type { AttachmentStore } from "../../storage/attachment-store.ts";
import { checkAttachment } from "./attachment-content.ts";
import { renderLessonNotes } from "./lesson-notes.ts";
import { HttpError } from "../../plugins/errors.ts";
import { announceCatalogChange } from "./catalog-changes.ts";
import { readAttachmentListing } from "./catalog.service.ts";
import { queueOwedCertificates } from "../learning/learning.seam.ts";
import { checkedExercise } from "../exercises/exercises.seam.ts";

type ProgramFields = z.infer<typeof programFieldsSchema>;
type CreateProgramInput = z.infer<typeof createProgramSchema>;
type QuizInput = z.infer<typeof adminQuizSchema>;

/** docs/data.md, "Content": a program without a display order comes after the numbered ones. */
const DEFAULT_PROGRAM_ORDER = 99;

function invalid(message: string): HttpError {
  return new HttpError(400, "VALIDATION", message);
}

function programNotFound(): HttpError {
  return new HttpError(404, "PROGRAM_NOT_FOUND", ADMIN_MESSAGES.programNotFound);
}

// ---- Reading ----------------------------------------------------------------------------------

/** Programs as the admin console shows them; one program when `id` is given. */
async function readPrograms(db: Db | Tx, id?: string): Promise<AdminProgram[]> {
  const [programRows, moduleRows] = await Promise.all([
    db
      .select({ program: programs, questions: quizzes.questions })
      .from(programs)
      .leftJoin(quizzes, eq(quizzes.programId, programs.id))
      .where(id === undefined ? undefined : eq(programs.id, id))
      .orderBy(asc(programs.order), asc(programs.title), asc(programs.id)),
    db
      .select({
        id: modules.id,
        programId: modules.programId,
        title: modules.title,
        description: modules.description,
        youtubeId: modules.youtubeId,
        notes: modules.notes,
        freePreview: modules.freePreview,
        draft: modules.draft,
        exercise: modules.exercise,
        exerciseDataSetId: modules.exerciseDataSetId,
      })
      .from(modules)
      .where(id === undefined ? undefined : eq(modules.programId, id))
      .orderBy(asc(modules.programId), asc(modules.position)),
  ]);
  const attachments = await readAttachmentListing(db, moduleRows.map((m) => m.id));
  return programRows.map(({ program, questions }) => {
    const track = program.id;
    return {
      id: track,
      level: program.level,
      archived: program.archivedAt !== null,
      draft: program.draft,
      title: program.title,
      duration: program.duration,
      priceUsd: program.priceUsdCents === null ? null : program.priceUsdCents / 100,
      order: program.order,
      description: program.description,
      modules: moduleRows
        .filter((m) => m.programId === track)
        .map(({ id: moduleId, title, description, youtubeId, notes, freePreview, draft, exercise, exerciseDataSetId }) => ({
          id: moduleId,
          title,
          description,
          youtubeId,
          notes,
          freePreview,
          draft,
          exercise: exercise && exerciseDataSetId ? { ...exercise, dataSetId: exerciseDataSetId } : null,
          attachments: (attachments.get(moduleId) ?? []).map((file) => ({
            ...file,
            url: attachmentPath(track, moduleId, file.id),
          })),
        })),
      questionCount: questions?.length ?? 0,
      draftQuestionCount: questions?.filter((question) => question.draft).length ?? 0,
      updatedAt: program.updatedAt.toISOString(),
    };
  });
}

async function readProgram(db: Db | Tx, id: string): Promise<AdminProgram> {
  const [program] = await readPrograms(db, id);
  if (!program) throw programNotFound();
  return program;
}

export async function listAdminPrograms(db: Db): Promise<AdminProgram[]> {
  return readPrograms(db);
}

/** The program row, locked until the transaction ends so two saves of it never interleave. */
async function lockProgram(tx: Tx, id: string) {
  const [program] = await tx
    .select({ id: programs.id, title: programs.title, archivedAt: programs.archivedAt })
    .from(programs)
    .where(eq(programs.id, id))
    .for("update");
  if (!program) throw programNotFound();
  return program;
}

// ---- Saving a program -------------------------------------------------------------------------

type ModuleDraft = {
  id: string | undefined;
  title: string;
  description: string;
  youtubeId: string | null;
  notes: string;
  notesHtml: string;
  freePreview: boolean;
  exercise: ExerciseSettings | null;
};

/** The columns of Save Program: price in cents, default order, blank description entries dropped. */
function programColumns(fields: ProgramFields) {
  return {
    title: fields.title,
    duration: fields.duration,
    priceUsdCents: fields.priceUsd === null ? null : Math.round(fields.priceUsd * 100),
    order: fields.order ?? DEFAULT_PROGRAM_ORDER,
    description: fields.description.map((entry) => entry.trim()).filter((entry) => entry !== ""),
  };
}

/**
 * The modules as sent, each with the bare video id (a pasted link is reduced to it) or none, and
 * its notes rendered for learners (lesson-notes.ts).
 */
function moduleDrafts(fields: ProgramFields): ModuleDraft[] {
  return fields.modules.map((module) => {
    const problem = moduleProblem(module);
    if (problem) throw invalid(problem);
    const video = module.youtubeId ?? "";
    const youtubeId = video === "" ? null : youtubeVideoId(video);
    if (youtubeId === null && video !== "") throw invalid(ADMIN_MESSAGES.youtubeIdInvalid);
    const notes = module.notes.trim() === "" ? "" : module.notes;
    const { id, title, description, freePreview, exercise } = module;
    return { id, title, description, youtubeId, notes, notesHtml: renderLessonNotes(notes), freePreview, exercise };
  });
}

/**
 * Makes the program's modules `drafts`, in that order. A module that names an id keeps it, and
 * with it what hangs off it (learners' progress maps module ids to true; its attachments), so it
 * must be one of this program's own, and appear once. Kept modules are updated in place; their
 * positions are first moved out of the way, since (program_id, position) is unique. Returns the
 * counts for the audit entry and the bucket keys of the attachments of removed modules.
 */
async function replaceModules(tx: Tx, programId: string, drafts: ModuleDraft[]) {
  const existing = await tx.select({ id: modules.id }).from(modules).where(eq(modules.programId, programId));
  const existingIds = new Set(existing.map((row) => row.id));
  const kept = new Set<string>();
  for (const draft of drafts) {
    if (draft.id === undefined) continue;
    if (!existingIds.has(draft.id) || kept.has(draft.id)) throw invalid(ADMIN_MESSAGES.moduleNotInProgram);
    kept.add(draft.id);
  }

  const removedIds = [...existingIds].filter((id) => !kept.has(id));
  const removedKeys =
    removedIds.length === 0
      ? []
      : await tx
          .select({ key: lessonAttachments.storageKey })
          .from(lessonAttachments)
          .where(and(inArray(lessonAttachments.moduleId, removedIds), isNotNull(lessonAttachments.storageKey)));
  if (removedIds.length > 0) await tx.delete(modules).where(inArray(modules.id, removedIds));
  if (kept.size > 0) await tx.update(modules).set({ position: sql`-1 - ${modules.position}` }).where(eq(modules.programId, programId));
  for (const [position, draft] of drafts.entries()) {
    const exercise = draft.exercise && (await checkedExercise(tx, draft.exercise));
    const columns = {
      position,
      title: draft.title,
      description: draft.description,
      youtubeId: draft.youtubeId,
      notes: draft.notes,
      notesHtml: draft.notesHtml,
      freePreview: draft.freePreview,
      exercise: exercise && storedExercise(exercise),
      exerciseDataSetId: exercise?.dataSetId ?? null,
    };
    // A lesson added is a draft until published (docs/data.md, "Drafts").
    if (draft.id === undefined) await tx.insert(modules).values({ programId, ...columns, draft: true });
    else await tx.update(modules).set(columns).where(eq(modules.id, draft.id));
  }
  return {
    changes: { kept: kept.size, added: drafts.length - kept.size, removed: removedIds.length },
    discardedKeys: removedKeys.flatMap(({ key }) => (key === null ? [] : [key])),
  };
}

/**
 * POST /api/admin/programs: a new program in a level, under an id no program has (docs/data.md,
 * "Content"). A level's own id (beginner, ...) can only name a program of that level.
 */
export async function createProgram(db: Db, actorId: string, input: CreateProgramInput): Promise<AdminProgram> {
  const { id, level } = input;
  const problem = programIdProblem(id);
  if (problem) throw invalid(problem);
  if (isTrack(id) && id !== level) throw invalid(ADMIN_MESSAGES.levelOfSeededId(id));
  const columns = programColumns(input);
  const drafts = moduleDrafts(input);
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(programs)
      .values({ id, level, ...columns, draft: true })
      .onConflictDoNothing()
      .returning({ id: programs.id });
    if (inserted.length === 0) throw new HttpError(409, "PROGRAM_EXISTS", ADMIN_MESSAGES.programExists);
    const { changes: moduleChanges } = await replaceModules(tx, id, drafts);
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: null,
      action: "program.created",
      reason: "admin",
      changes: { programId: id, level, title: columns.title, modules: moduleChanges.added },
    });
    await announceCatalogChange(tx);
    return readProgram(tx, id);
  });
}

/** PUT /api/admin/programs/:id: the program's fields and its whole module list. */
export async function updateProgram(
  db: Db,
  store: AttachmentStore,
  actorId: string,
  id: string,
  fields: ProgramFields,
): Promise<AdminProgram> {
  const columns = programColumns(fields);
  const drafts = moduleDrafts(fields);
  let discarded: string[] = [];
  const saved = await db.transaction(async (tx) => {
    const program = await lockProgram(tx, id);
    const { changes: moduleChanges, discardedKeys } = await replaceModules(tx, program.id, drafts);
    discarded = discardedKeys;
    await tx.update(programs).set(columns).where(eq(programs.id, program.id));
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: null,
      action: "program.updated",
      reason: "admin",
      changes: { programId: program.id, title: { from: program.title, to: columns.title }, modules: moduleChanges },
    });
    // Fewer videos can complete the program for a learner who had not watched the one removed.
    await queueOwedCertificates(tx, { track: program.id });
    await announceCatalogChange(tx);
    return readProgram(tx, program.id);
  });
  // Once the rows are gone for good: a failed save keeps its modules, and their files.
  await store.discard(discarded);
  return saved;
}

/**
 * POST /api/admin/programs/:id/archive: takes a program out of the catalogue, or puts it back.
 * Nothing of it is removed: its learners keep their progress and certificates, and open it still
 * (docs/data.md, "Content").
 */
export async function archiveProgram(db: Db, actorId: string, id: string, archived: boolean): Promise<AdminProgram> {
  return db.transaction(async (tx) => {
    const program = await lockProgram(tx, id);
    if ((program.archivedAt !== null) !== archived) {
      await tx
        .update(programs)
        .set({ archivedAt: archived ? sql`now()` : null })
        .where(eq(programs.id, program.id));
      await tx.insert(auditLog).values({
        actorId,
        subjectUserId: null,
        action: archived ? "program.archived" : "program.restored",
        reason: "admin",
        changes: { programId: program.id, title: program.title },
      });
      await announceCatalogChange(tx);
    }
    return readProgram(tx, program.id);
  });
}

/**
 * DELETE /api/admin/programs/:id: the program and everything hanging off it (modules and their
 * attachments, quiz, every user's progress and quiz attempts) go with it, by the foreign keys'
 * cascade.
 */
export async function deleteProgram(db: Db, store: AttachmentStore, actorId: string, id: string): Promise<void> {
  const discarded = await db.transaction(async (tx) => {
    const program = await lockProgram(tx, id);
    const keys = await tx
      .select({ key: lessonAttachments.storageKey })
      .from(lessonAttachments)
      .innerJoin(modules, eq(modules.id, lessonAttachments.moduleId))
      .where(and(eq(modules.programId, program.id), isNotNull(lessonAttachments.storageKey)));
    const countOf = async (table: typeof modules | typeof userProgress | typeof quizAttempts) => {
      const [row] = await tx.select({ n: count() }).from(table).where(eq(table.programId, program.id));
      return row?.n ?? 0;
    };
    const removed = {
      modules: await countOf(modules),
      progressEntries: await countOf(userProgress),
      quizAttempts: await countOf(quizAttempts),
    };
    await tx.delete(programs).where(eq(programs.id, program.id));
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: null,
      action: "program.deleted",
      reason: "admin",
      changes: { programId: program.id, title: program.title, ...removed },
    });
    await announceCatalogChange(tx);
    return keys.flatMap(({ key }) => (key === null ? [] : [key]));
  });
  await store.discard(discarded);
}

// ---- Publishing --------------------------------------------------------------------------------

/** What is not published yet in the program, and who completed it (valid certificates). */
async function readDrafts(db: Db | Tx, id: string): Promise<{ summary: PublishSummary; questions: QuizQuestion[] }> {
  const [row] = await db
    .select({ draft: programs.draft, questions: quizzes.questions })
    .from(programs)
    .leftJoin(quizzes, eq(quizzes.programId, programs.id))
    .where(eq(programs.id, id));
  if (!row) throw programNotFound();
  const [[lessons], [completed]] = await Promise.all([
    db.select({ n: count() }).from(modules).where(and(eq(modules.programId, id), eq(modules.draft, true))),
    db
      .select({ n: countDistinct(certificates.userId) })
      .from(certificates)
      .where(and(eq(certificates.programId, id), isNull(certificates.revokedAt))),
  ]);
  const questions = row.questions ?? [];
  const summary = {
    program: row.draft,
    lessons: lessons?.n ?? 0,
    questions: questions.filter((question) => question.draft).length,
    completedLearners: completed?.n ?? 0,
  };
  return { summary, questions };
}

/** GET /api/admin/programs/:id/publish: what Publish would put before learners, asked before it. */
export async function publishSummary(db: Db, id: string): Promise<PublishSummary> {
  return (await readDrafts(db, id)).summary;
}

/**
 * POST /api/admin/programs/:id/publish: the program, its lessons and its quiz questions, all that
 * is a draft, in front of learners at once (docs/data.md, "Drafts"). Every question must have a
 * correct option. Learners who completed the program stay complete (their certificate holds it).
 */
export async function publishProgram(db: Db, actorId: string, id: string): Promise<AdminProgram> {
  return db.transaction(async (tx) => {
    const program = await lockProgram(tx, id);
    const { summary, questions: stored } = await readDrafts(tx, program.id);
    if (!summary.program && summary.lessons === 0 && summary.questions === 0) throw invalid(ADMIN_MESSAGES.nothingToPublish);
    const unanswerable = stored.find((question) => "error" in checkQuestion(question));
    if (unanswerable) throw invalid(ADMIN_MESSAGES.publishNoAnswer(unanswerable.question));

    await tx.update(programs).set({ draft: false }).where(eq(programs.id, program.id));
    await tx.update(modules).set({ draft: false }).where(and(eq(modules.programId, program.id), eq(modules.draft, true)));
    if (summary.questions > 0) {
      const questions = stored.map(({ question, options, answer, explanation }) =>
        explanation === undefined ? { question, options, answer } : { question, options, answer, explanation },
      );
      await tx.update(quizzes).set({ questions, updatedAt: sql`now()` }).where(eq(quizzes.programId, program.id));
    }
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: null,
      action: "program.published",
      reason: "admin",
      changes: { programId: program.id, title: program.title, ...summary },
    });
    await announceCatalogChange(tx);
    return readProgram(tx, program.id);
  });
}

// ---- Attachments ------------------------------------------------------------------------------

/** Module and attachment ids are UUIDs: anything else names nothing (and would fail the query). */
const isUuid = (id: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);

async function findModule(db: Db | Tx, programId: string, moduleId: string) {
  const [module] = isUuid(moduleId)
    ? await db
        .select({ id: modules.id, title: modules.title })
        .from(modules)
        .where(and(eq(modules.id, moduleId), eq(modules.programId, programId)))
    : [];
  if (!module) throw new HttpError(404, "MODULE_NOT_FOUND", ADMIN_MESSAGES.moduleNotInProgram);
  return module;
}

/** The module, if it is one of the program's; the program row is locked as for a save of it. */
async function lockModule(tx: Tx, programId: string, moduleId: string) {
  const program = await lockProgram(tx, programId);
  return { program, module: await findModule(tx, program.id, moduleId) };
}

/**
 * POST /api/admin/programs/:id/modules/:moduleId/attachments: a file for a saved lesson, checked
 * by its content (attachment-content.ts). A bucket gets the bytes first; should the row then not
 * be written, the object is discarded again.
 */
export async function addAttachment(
  db: Db,
  store: AttachmentStore,
  actorId: string,
  target: { programId: string; moduleId: string },
  upload: { fileName: string; bytes: Uint8Array },
): Promise<AdminProgram> {
  const checked = await checkAttachment(upload.fileName, upload.bytes);
  if ("error" in checked) throw new HttpError(checked.status, "ATTACHMENT_REFUSED", checked.error);
  // Checked before the bytes go anywhere: nothing is stored for a lesson that is not there.
  await findModule(db, target.programId, target.moduleId);

  const file = { id: randomUUID(), fileName: checked.fileName, contentType: checked.contentType };
  const kept = await store.keep(file, upload.bytes);
  try {
    return await db.transaction(async (tx) => {
      const { program, module } = await lockModule(tx, target.programId, target.moduleId);
      await tx.insert(lessonAttachments).values({
        ...file,
        moduleId: module.id,
        sizeBytes: upload.bytes.byteLength,
        sha256: createHash("sha256").update(upload.bytes).digest("hex"),
        ...kept,
      });
      await tx.insert(auditLog).values({
        actorId,
        subjectUserId: null,
        action: "attachment.added",
        reason: "admin",
        changes: { programId: program.id, lesson: module.title, fileName: file.fileName, sizeBytes: upload.bytes.byteLength },
      });
      await announceCatalogChange(tx);
      return readProgram(tx, program.id);
    });
  } catch (error) {
    if (kept.storageKey !== null) await store.discard([kept.storageKey]);
    throw error;
  }
}

/** DELETE /api/admin/programs/:id/modules/:moduleId/attachments/:attachmentId */
export async function removeAttachment(
  db: Db,
  store: AttachmentStore,
  actorId: string,
  target: { programId: string; moduleId: string; attachmentId: string },
): Promise<AdminProgram> {
  const { saved, discarded } = await db.transaction(async (tx) => {
    const { program, module } = await lockModule(tx, target.programId, target.moduleId);
    const [removed] = isUuid(target.attachmentId)
      ? await tx
          .delete(lessonAttachments)
          .where(and(eq(lessonAttachments.id, target.attachmentId), eq(lessonAttachments.moduleId, module.id)))
          .returning({ fileName: lessonAttachments.fileName, storageKey: lessonAttachments.storageKey })
      : [];
    if (!removed) throw new HttpError(404, "ATTACHMENT_NOT_FOUND", ATTACHMENT_MESSAGES.notFound);
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: null,
      action: "attachment.removed",
      reason: "admin",
      changes: { programId: program.id, lesson: module.title, fileName: removed.fileName },
    });
    await announceCatalogChange(tx);
    return { saved: await readProgram(tx, program.id), discarded: removed.storageKey };
  });
  if (discarded !== null) await store.discard([discarded]);
  return saved;
}

// ---- Quizzes ----------------------------------------------------------------------------------

/**
 * Checks every question and stores its answer as the letter of one of its options. A question is
 * published when a published question of the quiz as stored has its text; any other is a draft
 * (docs/data.md, "Drafts"): what the browser says of it is not asked.
 */
function normalizeQuestions(questions: QuizInput["questions"], stored: readonly QuizQuestion[]): QuizQuestion[] {
  const published = new Set(stored.filter((question) => !question.draft).map((question) => question.question));
  return questions.map((input) => {
    const checked = checkQuestion(input);
    if ("error" in checked) throw invalid(checked.error);
    // An explanation left empty is none (docs/product.md, "Quiz attempts").
    const { question: text, options, answer, explanation } = checked.question;
    const kept: QuizQuestion = explanation ? { question: text, options, answer, explanation } : { question: text, options, answer };
    return published.has(kept.question) ? kept : { ...kept, draft: true };
  });
}

/** GET /api/admin/programs/:id/quiz: with the answers; an empty quiz when none is stored yet. */
export async function getAdminQuiz(db: Db, id: string): Promise<AdminQuiz> {
  const [row] = await db
    .select({ title: quizzes.title, questions: quizzes.questions, passMark: quizzes.passMark, retryWaitMinutes: quizzes.retryWaitMinutes })
    .from(programs)
    .leftJoin(quizzes, eq(quizzes.programId, programs.id))
    .where(eq(programs.id, id));
  if (!row) throw programNotFound();
  return {
    title: row.title ?? "",
    questions: row.questions ?? [],
    passMark: row.passMark,
    retryWaitMinutes: row.retryWaitMinutes ?? QUIZ_RETRY_WAIT.defaultMinutes,
  };
}

/** PUT /api/admin/programs/:id/quiz: the whole quiz; a blank title becomes "{program} Quiz". */
export async function saveQuiz(db: Db, actorId: string, id: string, input: QuizInput): Promise<AdminQuiz> {
  // Null: every question (docs/product.md, "Completion and certificates").
  const passMark = input.passMark ?? null;
  if (passMark !== null && passMark > input.questions.length) throw invalid(ADMIN_MESSAGES.passMarkInvalid);
  const retryWaitMinutes = input.retryWaitMinutes ?? QUIZ_RETRY_WAIT.defaultMinutes;
  return db.transaction(async (tx) => {
    const program = await lockProgram(tx, id);
    const [stored] = await tx.select({ questions: quizzes.questions }).from(quizzes).where(eq(quizzes.programId, program.id));
    const questions = normalizeQuestions(input.questions, stored?.questions ?? []);
    const title = input.title === "" ? `${program.title} Quiz` : input.title;
    const [saved] = await tx
      .insert(quizzes)
      .values({ programId: program.id, title, questions, passMark, retryWaitMinutes })
      .onConflictDoUpdate({ target: quizzes.programId, set: { title, questions, passMark, retryWaitMinutes, updatedAt: sql`now()` } })
      .returning({
        title: quizzes.title,
        questions: quizzes.questions,
        passMark: quizzes.passMark,
        retryWaitMinutes: quizzes.retryWaitMinutes,
      });
    if (!saved) throw new Error(`the quiz of ${program.id} was not saved`);
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: null,
      action: "quiz.saved",
      reason: "admin",
      changes: { programId: program.id, title, questions: questions.length, passMark, retryWaitMinutes },
    });
    // A lower pass mark, or answers now right, can complete the program for a learner.
    await queueOwedCertificates(tx, { track: program.id });
    await announceCatalogChange(tx);
    return saved;
  });
}

