// The Programs tab: programs, their modules and their quizzes, as administrators edit them.
// Each change, its audit entry and its announcement to every instance's catalog cache are written
// in one transaction.
import { asc, count, eq, sql } from "drizzle-orm";
import type * as z from "zod/mini";
import {
  ADMIN_MESSAGES,
  type AdminProgram,
  type AdminQuiz,
  type adminQuizSchema,
  type createProgramSchema,
  type programFieldsSchema,
} from "../../../shared/contracts/admin.ts";
import { QUIZ_RETRY_WAIT } from "../../../shared/contracts/learning.ts";
import { isTrack, type Track } from "../../../shared/plans.ts";
import { checkQuestion } from "../../../shared/quiz.ts";
import { youtubeVideoId } from "../../../shared/youtube.ts";
import type { Db, Tx } from "../../db/client.ts";
import { auditLog, modules, programs, quizAttempts, quizzes, userProgress, type QuizQuestion } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";
import { announceCatalogChange } from "../catalog/catalog-changes.ts";
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
      })
      .from(modules)
      .where(id === undefined ? undefined : eq(modules.programId, id))
      .orderBy(asc(modules.programId), asc(modules.position)),
  ]);
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
          .map(({ id: moduleId, title, description, youtubeId }) => ({ id: moduleId, title, description, youtubeId })),
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

type ModuleDraft = { id: string | undefined; title: string; description: string; youtubeId: string };

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

/** The modules as sent, each with the bare video id (a pasted link is reduced to it). */
function moduleDrafts(fields: ProgramFields): ModuleDraft[] {
  return fields.modules.map((module) => {
    const youtubeId = youtubeVideoId(module.youtubeId);
    if (youtubeId === null) throw invalid(ADMIN_MESSAGES.youtubeIdInvalid);
    return { id: module.id, title: module.title, description: module.description, youtubeId };
  });
}

/**
 * Replaces the program's module rows with `drafts`, in that order. A module that names an id keeps
 * it (learners' progress maps module ids to true), so it must be one of this program's own, and
 * appear once. Rows are deleted and inserted again because (program_id, position) is unique.
 */
async function replaceModules(tx: Tx, programId: Track, drafts: ModuleDraft[]) {
  const existing = await tx
    .select({ id: modules.id, createdAt: modules.createdAt })
    .from(modules)
    .where(eq(modules.programId, programId));
  const createdAtById = new Map(existing.map((row) => [row.id, row.createdAt]));
  const kept = new Set<string>();
  for (const draft of drafts) {
    if (draft.id === undefined) continue;
    if (!createdAtById.has(draft.id) || kept.has(draft.id)) throw invalid(ADMIN_MESSAGES.moduleNotInProgram);
    kept.add(draft.id);
  }

  await tx.delete(modules).where(eq(modules.programId, programId));
  if (drafts.length > 0) {
    await tx.insert(modules).values(
      drafts.map((draft, position) => ({
        ...(draft.id === undefined ? {} : { id: draft.id, createdAt: createdAtById.get(draft.id) }),
        programId,
        position,
        title: draft.title,
        description: draft.description,
        youtubeId: draft.youtubeId,
      })),
    );
  }
  return { kept: kept.size, added: drafts.length - kept.size, removed: existing.length - kept.size };
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
    const moduleChanges = await replaceModules(tx, id, drafts);
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
export async function updateProgram(db: Db, actorId: string, id: string, fields: ProgramFields): Promise<AdminProgram> {
  const columns = programColumns(fields);
  const drafts = moduleDrafts(fields);
  return db.transaction(async (tx) => {
    const program = await lockProgram(tx, id);
    const moduleChanges = await replaceModules(tx, program.id, drafts);
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
}

/**
 * DELETE /api/admin/programs/:id: the program and everything hanging off it (modules, quiz, every
 * user's progress and quiz attempts) go with it, by the foreign keys' cascade.
 */
export async function deleteProgram(db: Db, actorId: string, id: string): Promise<void> {
  await db.transaction(async (tx) => {
    const program = await lockProgram(tx, id);
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
  });
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

