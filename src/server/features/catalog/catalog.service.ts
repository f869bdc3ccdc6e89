// The catalog: the programs, their modules and quizzes. It is small (three programs) and read on
// every page, so it is read whole and kept in memory for a few seconds.
import { asc } from "drizzle-orm";
import type { ProgramList, ProgramSummary } from "../../../shared/contracts/catalog.ts";
import { isTrack, type Track } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { modules, programs, quizzes, type QuizQuestion } from "../../db/schema.ts";

export type TrackModule = { id: string; title: string; description: string; youtubeId: string };

/** One track with everything an entitled learner studies: the quiz answers stay on the server. */
export type CatalogTrack = {
  program: { id: Track; title: string; duration: string; description: string[]; priceUsdCents: number | null };
  modules: TrackModule[];
  /**
   * passMark: questions to have right to pass, null for all (docs/product.md, "Completion and
   * certificates"); retryWaitMinutes: the wait after an attempt that did not pass ("Quiz attempts").
   */
  quiz: { title: string; questions: QuizQuestion[]; passMark: number | null; retryWaitMinutes: number } | null;
};

export type Catalog = {
  /** What anyone may see, by display order: no video ids, no quiz. */
  summaries: ProgramSummary[];
  /** The same list as GET /api/programs sends it, serialised once. */
  summariesJson: string;
  tracks: ReadonlyMap<Track, CatalogTrack>;
};

export async function loadCatalog(db: Db): Promise<Catalog> {
  const [programRows, moduleRows, quizRows] = await Promise.all([
    db.select().from(programs).orderBy(asc(programs.order), asc(programs.title)),
    db.select().from(modules).orderBy(asc(modules.programId), asc(modules.position)),
    db.select().from(quizzes),
  ]);
  const modulesOf = (programId: string): TrackModule[] =>
    moduleRows
      .filter((m) => m.programId === programId)
      .map(({ id, title, description, youtubeId }) => ({ id, title, description, youtubeId }));

  const summaries: ProgramSummary[] = programRows.map((p) => ({
    id: p.id,
    title: p.title,
    duration: p.duration,
    priceUsd: p.priceUsdCents === null ? null : p.priceUsdCents / 100,
    description: p.description,
    order: p.order,
    moduleCount: modulesOf(p.id).length,
  }));
  const tracks = new Map<Track, CatalogTrack>();
  for (const { id, title, duration, description, priceUsdCents } of programRows) {
    if (!isTrack(id)) continue; // only a track can be opened or sold (decision record 005)
    const quiz = quizRows.find((q) => q.programId === id);
    tracks.set(id, {
      program: { id, title, duration, description, priceUsdCents },
      modules: modulesOf(id),
      quiz: quiz
        ? { title: quiz.title, questions: quiz.questions, passMark: quiz.passMark, retryWaitMinutes: quiz.retryWaitMinutes }
        : null,
    });
  }
  const list: ProgramList = { programs: summaries };
  return { summaries, summariesJson: JSON.stringify(list), tracks };
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
