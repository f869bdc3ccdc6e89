// The trading journal (docs/trading.md, "The journal"): a learner's entries, their results in R and
// the figures drawn from them. Only the owner writes an entry; the owner and administrators read it;
// to anyone else it does not exist.
import { randomUUID } from "node:crypto";
import Big from "big.js";
import { stringify } from "csv-stringify/sync";
import { and, asc, count, desc, eq, inArray, isNotNull, sql } from "drizzle-orm";
import { fileTypeFromBuffer } from "file-type";
import { JOURNAL_CSV_COLUMNS, JOURNAL_MESSAGES, JOURNAL_PAGE_SIZE, type JournalEntry, type JournalStats } from "../../../shared/contracts/journal.ts";
import type { z } from "zod/mini";
import { ADMIN_MESSAGES } from "../../../shared/contracts/admin.ts";
import type { journalEntryInputSchema } from "../../../shared/contracts/journal.ts";
import type { CurrentUser } from "../../auth/session.ts";
import type { Db } from "../../db/client.ts";
import { journalComments, journalEntries, journalScreenshots, users } from "../../db/schema.ts";
import { enqueueJob } from "../../jobs/queue.ts";
import { HttpError } from "../../plugins/errors.ts";
import type { AttachmentStore, Delivery } from "../../storage/attachment-store.ts";

export type EntryInput = z.output<typeof journalEntryInputSchema>;
type EntryRow = typeof journalEntries.$inferSelect;
type ScreenshotRow = Pick<typeof journalScreenshots.$inferSelect, "contentType" | "sizeBytes" | "createdAt">;

/** Tells a learner of a mentor's comment (journal-emails.ts). */
export const JOURNAL_COMMENT_JOB = "journal.comment";

/** The equity curve's points: the last this many closed trades. */
const EQUITY_POINTS = 500;
const SCREENSHOT_TYPES = ["image/png", "image/jpeg", "image/webp"];

/**
 * The result in units of risk: the move from the entry to the exit in the trade's direction, over
 * the stop's distance from the entry; rounded half up to two decimals. Null while open.
 */
export function resultInR(input: Pick<EntryInput, "direction" | "entry" | "stop" | "exit">): string | null {
  if (!input.exit) return null;
  const entry = new Big(input.entry);
  const moved = new Big(input.exit).minus(entry).times(input.direction === "buy" ? 1 : -1);
  return moved.div(entry.minus(input.stop).abs()).toFixed(2, Big.roundHalfUp);
}

type CommentRow = Pick<typeof journalComments.$inferSelect, "id" | "entryId" | "body" | "createdAt">;

function toEntry(row: EntryRow, screenshot: ScreenshotRow | null, comments: readonly CommentRow[] = []): JournalEntry {
  return {
    id: row.id,
    kind: row.kind,
    instrument: row.instrument,
    direction: row.direction,
    entry: row.entry,
    stop: row.stop,
    target: row.target,
    exit: row.exit,
    size: row.size,
    tradedOn: row.tradedOn,
    notes: row.notes,
    r: row.r,
    sharedAt: row.sharedAt?.toISOString() ?? null,
    comments: comments.filter((comment) => comment.entryId === row.id).map((comment) => ({ id: comment.id, body: comment.body, createdAt: comment.createdAt.toISOString() })),
    // The upload's time in the address: a new screenshot is a new address, which no cache holds.
    screenshot: screenshot && { url: `/api/journal/${row.id}/screenshot?v=${screenshot.createdAt.getTime()}`, contentType: screenshot.contentType, sizeBytes: screenshot.sizeBytes },
    createdAt: row.createdAt.toISOString(),
  };
}

function columnsOf(input: EntryInput) {
  return {
    kind: input.kind,
    instrument: input.instrument,
    direction: input.direction,
    entry: input.entry,
    stop: input.stop,
    target: input.target || null,
    exit: input.exit || null,
    size: input.size,
    tradedOn: input.tradedOn,
    notes: input.notes,
    r: resultInR(input),
  };
}

/** Not after today where the learner is: a day ahead of UTC at most, since zones run to UTC+14. */
function checkDay(tradedOn: string, now: Date) {
  const latest = new Date(now.getTime() + 14 * 3_600_000).toISOString().slice(0, 10);
  if (tradedOn > latest) throw new HttpError(400, "VALIDATION", JOURNAL_MESSAGES.tradedOn);
}

/** The comments on these entries, oldest first, in one query. */
async function commentsOn(db: Db, entryIds: string[]): Promise<CommentRow[]> {
  if (entryIds.length === 0) return [];
  return db
    .select({ id: journalComments.id, entryId: journalComments.entryId, body: journalComments.body, createdAt: journalComments.createdAt })
    .from(journalComments)
    .where(inArray(journalComments.entryId, entryIds))
    .orderBy(asc(journalComments.createdAt), asc(journalComments.id));
}

/** An entry's screenshot as the entry reads it, from a left join (every column null: none). */
const SCREENSHOT_COLUMNS = { contentType: journalScreenshots.contentType, sizeBytes: journalScreenshots.sizeBytes, createdAt: journalScreenshots.createdAt };
type JoinedScreenshot = { contentType: string | null; sizeBytes: number | null; createdAt: Date | null } | null;
function screenshotOf(joined: JoinedScreenshot): ScreenshotRow | null {
  return joined?.contentType && joined.sizeBytes !== null && joined.createdAt ? { contentType: joined.contentType, sizeBytes: joined.sizeBytes, createdAt: joined.createdAt } : null;
}

const NOT_FOUND = () => new HttpError(404, "NOT_FOUND", JOURNAL_MESSAGES.notFound);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The entry with its screenshot's facts, if `user` may see it: its owner, or an administrator. */
async function visibleEntry(db: Db, user: CurrentUser, id: string, { toWrite = false } = {}) {
  if (!UUID.test(id)) throw NOT_FOUND();
  const [found] = await db
    .select({ entry: journalEntries, screenshot: SCREENSHOT_COLUMNS })
    .from(journalEntries)
    .leftJoin(journalScreenshots, eq(journalScreenshots.entryId, journalEntries.id))
    .where(eq(journalEntries.id, id));
  const mayRead = found && (found.entry.userId === user.id || (!toWrite && user.plan === "admin"));
  if (!mayRead) throw NOT_FOUND();
  return { row: found.entry, screenshot: screenshotOf(found.screenshot) };
}

/** A page of the learner's entries, newest traded first: their own, or one an administrator reads. */
export async function listEntries(db: Db, userId: string, page: number) {
  const mine = eq(journalEntries.userId, userId);
  const [rows, [total]] = await Promise.all([
    db
      .select({ entry: journalEntries, screenshot: SCREENSHOT_COLUMNS })
      .from(journalEntries)
      .leftJoin(journalScreenshots, eq(journalScreenshots.entryId, journalEntries.id))
      .where(mine)
      .orderBy(desc(journalEntries.tradedOn), desc(journalEntries.createdAt))
      .limit(JOURNAL_PAGE_SIZE)
      .offset((page - 1) * JOURNAL_PAGE_SIZE),
    db.select({ n: count() }).from(journalEntries).where(mine),
  ]);
  const comments = await commentsOn(db, rows.map(({ entry }) => entry.id));
  return {
    entries: rows.map(({ entry, screenshot }) => toEntry(entry, screenshotOf(screenshot), comments)),
    page,
    pageSize: JOURNAL_PAGE_SIZE,
    total: total?.n ?? 0,
  };
}

export async function readEntry(db: Db, user: CurrentUser, id: string): Promise<JournalEntry> {
  const { row, screenshot } = await visibleEntry(db, user, id);
  return toEntry(row, screenshot, await commentsOn(db, [id]));
}

export async function createEntry(db: Db, user: CurrentUser, input: EntryInput, now = new Date()): Promise<JournalEntry> {
  checkDay(input.tradedOn, now);
  const [row] = await db.insert(journalEntries).values({ userId: user.id, ...columnsOf(input) }).returning();
  if (!row) throw new Error("the journal entry was not written");
  return toEntry(row, null);
}

export async function updateEntry(db: Db, user: CurrentUser, id: string, input: EntryInput, now = new Date()): Promise<JournalEntry> {
  checkDay(input.tradedOn, now);
  const { screenshot } = await visibleEntry(db, user, id, { toWrite: true });
  const [row] = await db
    .update(journalEntries)
    .set({ ...columnsOf(input), updatedAt: now })
    .where(and(eq(journalEntries.id, id), eq(journalEntries.userId, user.id)))
    .returning();
  if (!row) throw NOT_FOUND();
  return toEntry(row, screenshot, await commentsOn(db, [id]));
}

/** Removes an entry and its screenshot; a bucket forgets the screenshot once the row is gone. */
export async function removeEntry(db: Db, store: AttachmentStore, user: CurrentUser, id: string): Promise<void> {
  await visibleEntry(db, user, id, { toWrite: true });
  const removed = await db.transaction(async (tx) => {
    const [kept] = await tx.select({ storageKey: journalScreenshots.storageKey }).from(journalScreenshots).where(eq(journalScreenshots.entryId, id));
    await tx.delete(journalEntries).where(and(eq(journalEntries.id, id), eq(journalEntries.userId, user.id)));
    return kept?.storageKey ?? null;
  });
  if (removed) await store.discard([removed]);
}

/** An image by its content, PNG, JPEG or WebP, at most 2 MB (the route's body limit says so first). */
export async function putScreenshot(db: Db, store: AttachmentStore, user: CurrentUser, id: string, bytes: Uint8Array): Promise<JournalEntry> {
  const { row } = await visibleEntry(db, user, id, { toWrite: true });
  const detected = await fileTypeFromBuffer(bytes);
  if (!detected || !SCREENSHOT_TYPES.includes(detected.mime)) throw new HttpError(415, "SCREENSHOT_REFUSED", JOURNAL_MESSAGES.screenshotNotImage);
  const file = { id: randomUUID(), fileName: `journal-${id}.${detected.ext}`, contentType: detected.mime };
  const kept = await store.keep(file, bytes);
  const { replaced, screenshot } = await db.transaction(async (tx) => {
    const [before] = await tx.select({ storageKey: journalScreenshots.storageKey }).from(journalScreenshots).where(eq(journalScreenshots.entryId, id)).for("update");
    const values = { contentType: detected.mime, sizeBytes: bytes.byteLength, ...kept, createdAt: new Date() };
    const [written] = await tx
      .insert(journalScreenshots)
      .values({ entryId: id, ...values })
      .onConflictDoUpdate({ target: journalScreenshots.entryId, set: values })
      .returning({ contentType: journalScreenshots.contentType, sizeBytes: journalScreenshots.sizeBytes, createdAt: journalScreenshots.createdAt });
    if (!written) throw new Error("the screenshot was not written");
    return { replaced: before?.storageKey ?? null, screenshot: written };
  });
  if (replaced) await store.discard([replaced]);
  return toEntry(row, screenshot, await commentsOn(db, [id]));
}

export async function removeScreenshot(db: Db, store: AttachmentStore, user: CurrentUser, id: string): Promise<JournalEntry> {
  const { row } = await visibleEntry(db, user, id, { toWrite: true });
  const [removed] = await db.delete(journalScreenshots).where(eq(journalScreenshots.entryId, id)).returning({ storageKey: journalScreenshots.storageKey });
  if (removed?.storageKey) await store.discard([removed.storageKey]);
  return toEntry(row, null, await commentsOn(db, [id]));
}

/**
 * Shares an entry with the learner's mentor, the academy's team, or stops sharing it. Sharing is
 * part of the Advanced plan in effect (decided here); stopping is open to anyone.
 */
export async function shareEntry(db: Db, user: CurrentUser, id: string, shared: boolean, now = new Date()): Promise<JournalEntry> {
  const { screenshot } = await visibleEntry(db, user, id, { toWrite: true });
  if (shared && user.plan !== "advanced") throw new HttpError(403, "ADVANCED_ONLY", JOURNAL_MESSAGES.shareAdvancedOnly);
  const [row] = await db
    .update(journalEntries)
    .set({ sharedAt: shared ? sql`coalesce(${journalEntries.sharedAt}, ${now.toISOString()}::timestamptz)` : null })
    .where(and(eq(journalEntries.id, id), eq(journalEntries.userId, user.id)))
    .returning();
  if (!row) throw NOT_FOUND();
  return toEntry(row, screenshot, await commentsOn(db, [id]));
}

/** The Mentorship tab's list: the entries shared with the mentor, most recently shared first. */
/**
 * GET /api/admin/users/:id/journal: a learner's figures and a page of their entries, for an
 * administrator (docs/trading.md, "The journal": private to the learner and the academy's team).
 */
export async function learnerJournal(db: Db, userId: string, page: number) {
  const [learner] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!learner) throw new HttpError(404, "USER_NOT_FOUND", ADMIN_MESSAGES.userNotFound);
  const [entries, stats] = await Promise.all([listEntries(db, learner.id, page), journalStats(db, learner.id)]);
  return { ...entries, stats };
}

export async function listSharedEntries(db: Db, page: number) {
  const shared = isNotNull(journalEntries.sharedAt);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        entry: journalEntries,
        learner: { id: users.id, name: users.name, email: users.email },
        screenshot: SCREENSHOT_COLUMNS,
      })
      .from(journalEntries)
      .innerJoin(users, eq(users.id, journalEntries.userId))
      .leftJoin(journalScreenshots, eq(journalScreenshots.entryId, journalEntries.id))
      .where(shared)
      .orderBy(desc(journalEntries.sharedAt), desc(journalEntries.id))
      .limit(JOURNAL_PAGE_SIZE)
      .offset((page - 1) * JOURNAL_PAGE_SIZE),
    db.select({ n: count() }).from(journalEntries).where(shared),
  ]);
  const comments = await commentsOn(db, rows.map(({ entry }) => entry.id));
  return {
    entries: rows.map(({ entry, learner, screenshot }) => ({ entry: toEntry(entry, screenshotOf(screenshot), comments), learner })),
    page,
    pageSize: JOURNAL_PAGE_SIZE,
    total: total?.n ?? 0,
  };
}

/** A mentor's comment on a shared entry, and the job that tells the learner, in one transaction. */
export async function commentOnEntry(db: Db, mentor: CurrentUser, id: string, body: string): Promise<JournalEntry> {
  const { row, screenshot } = await visibleEntry(db, mentor, id);
  if (!row.sharedAt) throw NOT_FOUND();
  await db.transaction(async (tx) => {
    const [comment] = await tx.insert(journalComments).values({ entryId: id, authorId: mentor.id, body }).returning({ id: journalComments.id });
    if (!comment) throw new Error("the comment was not written");
    await enqueueJob(tx, JOURNAL_COMMENT_JOB, { commentId: comment.id });
  });
  return toEntry(row, screenshot, await commentsOn(db, [id]));
}

/** The screenshot's bytes, or a short-lived link to them, for its owner or an administrator. */
export async function getScreenshot(db: Db, store: AttachmentStore, user: CurrentUser, id: string): Promise<{ contentType: string; delivery: Delivery }> {
  await visibleEntry(db, user, id);
  const [shot] = await db.select().from(journalScreenshots).where(eq(journalScreenshots.entryId, id));
  if (!shot) throw NOT_FOUND();
  const file = { id, fileName: `journal-${id}`, contentType: shot.contentType };
  const kept = shot.storageKey === null ? { data: shot.data ?? new Uint8Array(), storageKey: null } : { data: null, storageKey: shot.storageKey };
  return { contentType: shot.contentType, delivery: await store.deliver(file, kept) };
}

/**
 * Every entry of the learner's as CSV, oldest first (RFC 4180, CRLF; a cell a spreadsheet would
 * run as a formula starts with '). A learner's own entries: a few thousand at most, read at once.
 */
export async function journalCsv(db: Db, user: CurrentUser): Promise<string> {
  const rows = await db
    .select()
    .from(journalEntries)
    .where(eq(journalEntries.userId, user.id))
    .orderBy(asc(journalEntries.tradedOn), asc(journalEntries.createdAt));
  return stringify(
    rows.map((row) => [row.tradedOn, row.kind, row.instrument, row.direction, row.entry, row.stop, row.target ?? "", row.exit ?? "", row.size, row.r ?? "", row.notes]),
    { columns: [...JOURNAL_CSV_COLUMNS], header: true, record_delimiter: "windows", quote_record_delimiter: true, escape_formulas: true },
  );
}

const ratio = (value: string | null, places: number) => (value === null ? null : new Big(value).toFixed(places, Big.roundHalfUp));

/**
 * The figures of a learner's closed trades, counted by the database (docs/trading.md, "The
 * journal"): each average from the entries' R, rounded half up to two decimals at the end; the win
 * rate to one.
 */
export async function journalStats(db: Db, userId: string): Promise<JournalStats> {
  const [totals] = await db
    .select({
      trades: sql<number>`count(${journalEntries.r})::int`,
      open: sql<number>`(count(*) - count(${journalEntries.r}))::int`,
      wins: sql<number>`(count(*) filter (where ${journalEntries.r} > 0))::int`,
      losses: sql<number>`(count(*) filter (where ${journalEntries.r} < 0))::int`,
      sumR: sql<string | null>`sum(${journalEntries.r})::text`,
      sumWins: sql<string | null>`(sum(${journalEntries.r}) filter (where ${journalEntries.r} > 0))::text`,
      sumLosses: sql<string | null>`(sum(${journalEntries.r}) filter (where ${journalEntries.r} < 0))::text`,
    })
    .from(journalEntries)
    .where(eq(journalEntries.userId, userId));
  const { trades = 0, open = 0, wins = 0, losses = 0, sumR = null, sumWins = null, sumLosses = null } = totals ?? {};
  // The running sum over every closed trade, then its last points, oldest first.
  const running = db.$with("running").as(
    db
      .select({
        id: journalEntries.id,
        tradedOn: journalEntries.tradedOn,
        createdAt: journalEntries.createdAt,
        totalR: sql<string>`sum(${journalEntries.r}) over (order by ${journalEntries.tradedOn}, ${journalEntries.createdAt}, ${journalEntries.id})::text`.as("total_r"),
      })
      .from(journalEntries)
      .where(and(eq(journalEntries.userId, userId), isNotNull(journalEntries.r))),
  );
  const curve = await db
    .with(running)
    .select({ tradedOn: running.tradedOn, totalR: running.totalR })
    .from(running)
    .orderBy(desc(running.tradedOn), desc(running.createdAt), desc(running.id))
    .limit(EQUITY_POINTS);
  const averageOf = (sum: string | null, n: number) => (sum === null || n === 0 ? null : new Big(sum).div(n));
  const averageWin = averageOf(sumWins, wins);
  const averageLoss = averageOf(sumLosses, losses)?.abs() ?? null;
  const expectancy =
    trades === 0 ? null : new Big(wins).div(trades).times(averageWin ?? 0).minus(new Big(losses).div(trades).times(averageLoss ?? 0));
  return {
    trades,
    open,
    wins,
    winRate: trades === 0 ? null : new Big(wins).times(100).div(trades).toFixed(1, Big.roundHalfUp),
    averageR: ratio(averageOf(sumR, trades)?.toString() ?? null, 2),
    averageWinR: ratio(averageWin?.toString() ?? null, 2),
    averageLossR: ratio(averageLoss?.toString() ?? null, 2),
    expectancyR: ratio(expectancy?.toString() ?? null, 2),
    equity: curve.reverse().map((point) => ({ tradedOn: point.tradedOn, totalR: new Big(point.totalR).toFixed(2) })),
  };
}
