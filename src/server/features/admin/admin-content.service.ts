// The Programs tab: programs, their modules and their quizzes, as administrators edit them.
// Each change, its audit entry and its announcement to every instance's catalog cache are written
// in one transaction.
import { createHash, randomUUID } from "node:crypto";
import { and, asc, count, eq, inArray, isNotNull, sql } from "drizzle-orm";
import type * as z from "zod/mini";
import {
  ADMIN_MESSAGES,
  type AdminProgram,
  type AdminQuiz,
  type adminQuizSchema,
  type createProgramSchema,
  type programFieldsSchema,
  moduleProblem,
} from "../../../shared/contracts/admin.ts";
import { ATTACHMENT_MESSAGES, attachmentPath, QUIZ_RETRY_WAIT } from "../../../shared/contracts/learning.ts";
import { isTrack, type Track } from "../../../shared/plans.ts";
import { checkQuestion } from "../../../shared/quiz.ts";
import { youtubeVideoId } from "../../../shared/youtube.ts";
import type { Db, Tx } from "../../db/client.ts";
import {
  auditLog,
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
import { announceCatalogChange } from "../catalog/catalog-changes.ts";
import { readAttachmentListing } from "../catalog/catalog.service.ts";
import { queueOwedCertificates } from "../learning/certificates.ts";

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
      })
      .from(modules)
      .where(id === undefined ? undefined : eq(modules.programId, id))
      .orderBy(asc(modules.programId), asc(modules.position)),
  ]);
  const attachments = await readAttachmentListing(db, moduleRows.map((m) => m.id));
  // Programs are created only with a track id; a row made by hand with another id cannot be
  // opened by anyone and is left out rather than breaking the whole tab.
  return programRows.flatMap(({ program, questions }) => {
    const track = program.id;
    if (!isTrack(track)) return [];
    return [
      {
        id: track,
        title: program.title,
        duration: program.duration,
        priceUsd: program.priceUsdCents === null ? null : program.priceUsdCents / 100,
        order: program.order,
        description: program.description,
        modules: moduleRows
          .filter((m) => m.programId === track)
          .map(({ id: moduleId, title, description, youtubeId, notes, freePreview }) => ({
            id: moduleId,
            title,
            description,
            youtubeId,
            notes,
            freePreview,
            attachments: (attachments.get(moduleId) ?? []).map((file) => ({
              ...file,
              url: attachmentPath(track, moduleId, file.id),
            })),
          })),
        questionCount: questions?.length ?? 0,
        updatedAt: program.updatedAt.toISOString(),
      },
    ];
  });
}

async function readProgram(db: Db | Tx, id: Track): Promise<AdminProgram> {
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
    .select({ id: programs.id, title: programs.title })
    .from(programs)
    .where(eq(programs.id, id))
    .for("update");
  if (!program || !isTrack(program.id)) throw programNotFound();
  return { id: program.id, title: program.title };
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
    const { id, title, description, freePreview } = module;
    return { id, title, description, youtubeId, notes, notesHtml: renderLessonNotes(notes), freePreview };
  });
}

/**
 * Makes the program's modules `drafts`, in that order. A module that names an id keeps it, and
 * with it what hangs off it (learners' progress maps module ids to true; its attachments), so it
 * must be one of this program's own, and appear once. Kept modules are updated in place; their
 * positions are first moved out of the way, since (program_id, position) is unique. Returns the
 * counts for the audit entry and the bucket keys of the attachments of removed modules.
 */
async function replaceModules(tx: Tx, programId: Track, drafts: ModuleDraft[]) {
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
    const columns = {
      position,
      title: draft.title,
      description: draft.description,
      youtubeId: draft.youtubeId,
      notes: draft.notes,
      notesHtml: draft.notesHtml,
      freePreview: draft.freePreview,
    };
    if (draft.id === undefined) await tx.insert(modules).values({ programId, ...columns });
    else await tx.update(modules).set(columns).where(eq(modules.id, draft.id));
  }
  return {
    changes: { kept: kept.size, added: drafts.length - kept.size, removed: removedIds.length },
    discardedKeys: removedKeys.flatMap(({ key }) => (key === null ? [] : [key])),
  };
}

/** POST /api/admin/programs: a new program for a track that has none. */
export async function createProgram(db: Db, actorId: string, input: CreateProgramInput): Promise<AdminProgram> {
  const id = input.id;
  if (!isTrack(id)) throw invalid(ADMIN_MESSAGES.programIdNotTrack);
  const columns = programColumns(input);
  const drafts = moduleDrafts(input);
  return db.transaction(async (tx) => {
    const inserted = await tx
      .insert(programs)
      .values({ id, ...columns })
      .onConflictDoNothing()
      .returning({ id: programs.id });
    if (inserted.length === 0) throw new HttpError(409, "PROGRAM_EXISTS", ADMIN_MESSAGES.programExists);
    const { changes: moduleChanges } = await replaceModules(tx, id, drafts);
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: null,
      action: "program.created",
      reason: "admin",
      changes: { programId: id, title: columns.title, modules: moduleChanges.added },
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

/** Checks every question and stores its answer as the letter of one of its options. */
function normalizeQuestions(questions: QuizInput["questions"]): QuizQuestion[] {
  return questions.map((input) => {
    const checked = checkQuestion(input);
    if ("error" in checked) throw invalid(checked.error);
    // An explanation left empty is none (docs/product.md, "Quiz attempts").
    const { explanation, ...question } = checked.question;
    return explanation ? { ...question, explanation } : question;
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
  const questions = normalizeQuestions(input.questions);
  // Null: every question (docs/product.md, "Completion and certificates").
  const passMark = input.passMark ?? null;
  if (passMark !== null && passMark > questions.length) throw invalid(ADMIN_MESSAGES.passMarkInvalid);
  const retryWaitMinutes = input.retryWaitMinutes ?? QUIZ_RETRY_WAIT.defaultMinutes;
  return db.transaction(async (tx) => {
    const program = await lockProgram(tx, id);
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

