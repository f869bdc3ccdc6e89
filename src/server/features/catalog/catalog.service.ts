// The catalog: the programs, their modules and quizzes. It is small (tens of programs at most) and
// read on every page, so it is read whole and kept in memory for a few seconds.
import { asc, inArray } from "drizzle-orm";
import type { ProgramList, ProgramSummary } from "../../../shared/contracts/catalog.ts";
import type { ExerciseKind, ExerciseSettings } from "../../../shared/contracts/exercises.ts";
import type { Plan, Track } from "../../../shared/plans.ts";
import type { Db, Tx } from "../../db/client.ts";
import { lessonAttachments, modules, programs, quizzes, type QuizQuestion } from "../../db/schema.ts";

/** `draft` only on a lesson not published yet, which only an administrator's preview holds. */
export type TrackModule = {
  id: string;
  title: string;
  description: string;
  youtubeId: string | null;
  freePreview: boolean;
  /** A chart exercise's kind (docs/trading.md, "Exercises"). */
  exercise?: ExerciseKind;
  draft?: true;
};

/** What a lesson holds beyond its video, by module id: notes as learners are sent them, files without their bytes. */
export type LessonExtras = {
  notesHtml: string;
  attachments: { id: string; fileName: string; contentType: string; sizeBytes: number }[];
  /** A chart exercise's settings, with the data set it replays (docs/trading.md, "Exercises"). */
  exercise: ExerciseSettings | null;
};

/**
 * One program with everything an entitled learner studies: the quiz answers stay on the server.
 * `level` decides which plans open it; an archived program is out of the catalogue's list but still
 * opens for those entitled, so its learners keep their progress (docs/data.md, "Content").
 */
export type CatalogTrack = {
  program: {
    id: string;
    level: Track;
    title: string;
    duration: string;
    description: string[];
    priceUsdCents: number | null;
    archived: boolean;
    draft: boolean;
  };
  modules: TrackModule[];
  lessons: ReadonlyMap<string, LessonExtras>;
  /**
   * passMark: questions to have right to pass, null for all (docs/product.md, "Completion and
   * certificates"); retryWaitMinutes: the wait after an attempt that did not pass ("Quiz attempts").
   */
  quiz: { title: string; questions: QuizQuestion[]; passMark: number | null; retryWaitMinutes: number } | null;
};

export type Catalog = {
  /** What anyone may see, by display order, archived programs left out: no video ids, no quiz. */
  summaries: ProgramSummary[];
  /** The same list as GET /api/programs sends it, serialised once. */
  summariesJson: string;
  /** Every published program, archived ones too, by id, as learners study it: no drafts. */
  tracks: ReadonlyMap<string, CatalogTrack>;
  /**
   * Every program as administrators preview it (docs/data.md, "Drafts"): drafts included, each
   * lesson not published yet marked `draft`.
   */
  previews: ReadonlyMap<string, CatalogTrack>;
};

/**
 * A program as someone on `plan` sees it: an administrator as they preview it, drafts included;
 * anyone else published content only (docs/data.md, "Drafts").
 */
export function programAsSeenBy(catalog: Catalog, plan: Plan, id: string): CatalogTrack | undefined {
  return (plan === "admin" ? catalog.previews : catalog.tracks).get(id);
}

/**
 * The attachments of lessons, without their bytes, oldest first, by module id: of the modules
 * given, or of every module.
 */
export async function readAttachmentListing(db: Db | Tx, moduleIds?: string[]) {
  const byModule = new Map<string, LessonExtras["attachments"]>();
  if (moduleIds?.length === 0) return byModule;
  const rows = await db
    .select({
      id: lessonAttachments.id,
      moduleId: lessonAttachments.moduleId,
      fileName: lessonAttachments.fileName,
      contentType: lessonAttachments.contentType,
      sizeBytes: lessonAttachments.sizeBytes,
    })
    .from(lessonAttachments)
    .where(moduleIds === undefined ? undefined : inArray(lessonAttachments.moduleId, moduleIds))
    .orderBy(asc(lessonAttachments.createdAt), asc(lessonAttachments.id));
  for (const { moduleId, ...file } of rows) {
    const files = byModule.get(moduleId);
    if (files) files.push(file);
    else byModule.set(moduleId, [file]);
  }
  return byModule;
}

export async function loadCatalog(db: Db): Promise<Catalog> {
  const [programRows, moduleRows, quizRows, attachments] = await Promise.all([
    db.select().from(programs).orderBy(asc(programs.order), asc(programs.title)),
    // Without the notes' Markdown: learners are sent the HTML rendered from it.
    db
      .select({
        id: modules.id,
        programId: modules.programId,
        title: modules.title,
        description: modules.description,
        youtubeId: modules.youtubeId,
        freePreview: modules.freePreview,
        draft: modules.draft,
        notesHtml: modules.notesHtml,
        exercise: modules.exercise,
        exerciseDataSetId: modules.exerciseDataSetId,
      })
      .from(modules)
      .orderBy(asc(modules.programId), asc(modules.position)),
    db.select().from(quizzes),
    readAttachmentListing(db),
  ]);
  /** A program's track; with `drafts`, as an administrator previews it: what is not published yet too. */
  const trackOf = (program: (typeof programRows)[number], drafts: boolean): CatalogTrack => {
    const { id, level, title, duration, description, priceUsdCents, archivedAt } = program;
    const shown = moduleRows.filter((m) => m.programId === id && (drafts || !m.draft));
    const quiz = quizRows.find((q) => q.programId === id);
    return {
      program: { id, level, title, duration, description, priceUsdCents, archived: archivedAt !== null, draft: program.draft },
      modules: shown.map(({ id: moduleId, title: moduleTitle, description: about, youtubeId, freePreview, draft, exercise }) => ({
        id: moduleId,
        title: moduleTitle,
        description: about,
        youtubeId,
        freePreview,
        ...(exercise ? { exercise: exercise.kind } : {}),
        ...(draft ? { draft } : {}),
      })),
      lessons: new Map(
        shown.map((m) => [
          m.id,
          {
            notesHtml: m.notesHtml,
            attachments: attachments.get(m.id) ?? [],
            exercise: m.exercise && m.exerciseDataSetId ? { ...m.exercise, dataSetId: m.exerciseDataSetId } : null,
          },
        ]),
      ),
      quiz: quiz
        ? {
            title: quiz.title,
            questions: drafts ? quiz.questions : quiz.questions.filter((question) => !question.draft),
            passMark: quiz.passMark,
            retryWaitMinutes: quiz.retryWaitMinutes,
          }
        : null,
    };
  };

  const tracks = new Map<string, CatalogTrack>();
  const previews = new Map<string, CatalogTrack>();
  for (const program of programRows) {
    if (!program.draft) tracks.set(program.id, trackOf(program, false));
    previews.set(program.id, trackOf(program, true));
  }
  const summaries: ProgramSummary[] = programRows
    .filter((p) => p.archivedAt === null && !p.draft)
    .map((p) => ({
      id: p.id,
      level: p.level,
      title: p.title,
      duration: p.duration,
      priceUsd: p.priceUsdCents === null ? null : p.priceUsdCents / 100,
      description: p.description,
      order: p.order,
      moduleCount: tracks.get(p.id)?.modules.length ?? 0,
    }));
  const list: ProgramList = { programs: summaries };
  return { summaries, summariesJson: JSON.stringify(list), tracks, previews };
}

/**
 * The catalog kept in memory. An admin change on this server clears it at once; the other
 * instances on one PostgreSQL clear theirs when the change's notification reaches them, within a
 * second (catalog-changes.ts). `ttlMs` is the safety net should one ever be lost: every instance
 * reads again that often. When the database cannot be read, the last catalog read is served until
 * it can (what an admin change cleared is never served).
 */
export function createCatalogCache(db: Db, ttlMs = 10_000) {
  let generation = 0;
  let cached: { generation: number; expires: number; catalog: Promise<Catalog> } | null = null;
  let lastGood: { generation: number; catalog: Catalog } | null = null;
  return {
    read(now = Date.now()): Promise<Catalog> {
      if (cached && cached.generation === generation && cached.expires > now) return cached.catalog;
      const readAt = generation;
      const fallback = lastGood?.generation === readAt ? lastGood.catalog : null;
      const entry = {
        generation: readAt,
        expires: now + ttlMs,
        catalog: loadCatalog(db).then(
          (catalog) => {
            lastGood = { generation: readAt, catalog };
            return catalog;
          },
          (error: unknown) => {
            // Not kept: the next request asks the database again.
            if (cached === entry) cached = null;
            if (fallback) return fallback;
            throw error;
          },
        ),
      };
      cached = entry;
      return entry.catalog;
    },
    /** A program, module, quiz or price changed: the next read goes to the database. */
    invalidate() {
      generation++;
      cached = null;
      lastGood = null;
    },
  };
}
export type CatalogCache = ReturnType<typeof createCatalogCache>;
