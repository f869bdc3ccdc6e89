// A learner's progress entries (user_progress, docs/data.md "Learning"): how an entry is read, and
// every write to the table, so that what an entry holds is decided here alone. An entry maps the
// ids of the watched modules to true, whether the learner or an administrator wrote it. Anything
// else (older entries may hold other JSON or text) simply counts as nothing watched.
import { and, eq, inArray, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db, Tx } from "../../db/client.ts";
import { programs, userProgress } from "../../db/schema.ts";

export function watchedModuleIds(data: unknown, moduleIds: readonly string[]): string[] {
  if (typeof data !== "object" || data === null || Array.isArray(data)) return [];
  const entry = data as Record<string, unknown>;
  return moduleIds.filter((id) => entry[id] === true);
}

/** The beginner progress entry every account starts with (docs/data.md, "Learning"). */
async function createStarterProgress(db: Db, userId: string) {
  const [beginner] = await db.select({ id: programs.id }).from(programs).where(eq(programs.id, "beginner"));
  if (!beginner) return; // an administrator removed the Beginner program
  await db.insert(userProgress).values({ userId, programId: beginner.id, data: {} }).onConflictDoNothing();
}

async function withOneRetry(task: () => Promise<void>) {
  try {
    await task();
  } catch {
    await task();
  }
}

/** A new account starts learning: subscribed to auth's "a user was created" in app.ts. */
export async function startProgress(db: Db, userId: string): Promise<void> {
  await withOneRetry(() => createStarterProgress(db, userId));
}

/**
 * The statement that merges modules done into learners' entries: `rows` selects (user_id,
 * program_id, data), data the modules as {"<module id>": true}. It returns each entry as it left
 * it, and no row for an entry that held them all already. Two writes to one entry take turns (the
 * row's lock), so of two at once the second's entry holds both. A statement of its own
 * (recordWatched) or a part of a larger one (chart exercises' passes, written with their scores:
 * exercise-attempts.ts).
 */
export function watchedStatement(rows: SQL): SQL {
  return sql`insert into ${userProgress} as p (user_id, program_id, data, started_at)
    select w.user_id, w.program_id, w.data, now() from (${rows}) as w(user_id, program_id, data)
    on conflict (user_id, program_id) do update set
      -- An entry that is not an object (an older admin edit could store text) starts afresh.
      data = case when jsonb_typeof(p.data) = 'object' then p.data || excluded.data else excluded.data end,
      started_at = coalesce(p.started_at, now()),
      updated_at = now()
    where not (jsonb_typeof(p.data) = 'object' and p.data @> excluded.data)
    returning p.user_id, p.program_id, p.data`;
}

const entryRows = z.object({ rows: z.array(z.object({ data: z.unknown() })) });

/** Merges "this video is watched" into the learner's entry, idempotent: the entry as this write left it, or null when it was watched already. */
export async function recordWatched(db: Db | Tx, userId: string, track: string, moduleId: string): Promise<unknown> {
  const watched = watchedStatement(sql`select ${userId}::text, ${track}::text, jsonb_build_object(${moduleId}::text, true)`);
  const { rows } = entryRows.parse(await db.execute(watched));
  return rows[0]?.data ?? null;
}

/** A program's entry: the ids of its watched modules, each mapped to true. */
export type WatchedEntry = Record<string, true>;

/** What an entry held before a replacement and holds after it; null where there was no entry. */
export type ProgressChange = { track: string; from: unknown; to: WatchedEntry };

/**
 * An administrator's Edit Progress: each given program's watched modules become exactly those of
 * its entry (the caller has checked they are that program's), and says what changed, in the
 * entries' order. On the caller's transaction, so that the entries and the audit entry recording
 * the change are written together or not at all.
 */
export async function replaceProgress(
  tx: Tx,
  userId: string,
  entries: readonly { track: string; data: WatchedEntry }[],
): Promise<ProgressChange[]> {
  if (entries.length === 0) return []; // an insert needs at least one row
  const tracks = entries.map((entry) => entry.track);
  const before = await tx
    .select({ track: userProgress.programId, data: userProgress.data })
    .from(userProgress)
    .where(and(eq(userProgress.userId, userId), inArray(userProgress.programId, tracks)));
  await tx
    .insert(userProgress)
    .values(
      entries.map(({ track, data }) => ({
        userId,
        programId: track,
        data,
        startedAt: Object.keys(data).length > 0 ? sql`now()` : null,
      })),
    )
    .onConflictDoUpdate({
      target: [userProgress.userId, userProgress.programId],
      // The first watched video starts the program; clearing an entry keeps when it was started.
      set: { data: sql`excluded.data`, startedAt: sql`coalesce(${userProgress.startedAt}, excluded.started_at)`, updatedAt: sql`now()` },
    });
  const previous = (track: string) => before.find((row) => row.track === track)?.data ?? null;
  return entries.map(({ track, data }) => ({ track, from: previous(track), to: data }));
}
