// The trading journal (docs/trading.md, "The journal"): a learner's own record of trades, practice
// or real, and the figures the server draws from them. Entries are private: another learner's
// entry is answered as one that does not exist.
import Big from "big.js";
import * as z from "zod/mini";
import { endpoint } from "./endpoint.ts";

export const JOURNAL_SCREENSHOT_MAX_BYTES = 2 * 1024 * 1024;
export const JOURNAL_NOTES_MAX_LENGTH = 2_000;
export const JOURNAL_PAGE_SIZE = 20;

/** The columns of the journal's CSV export, in order. */
export const JOURNAL_CSV_COLUMNS = ["Date", "Kind", "Instrument", "Direction", "Entry", "Stop-loss", "Take-profit", "Exit", "Size (lots)", "Result (R)", "Notes"] as const;

export const JOURNAL_MESSAGES = {
  instrument: "Write the instrument as 3 to 12 letters or digits, such as EURUSD or XAUUSD.",
  entry: "Enter the entry as a price above 0.",
  stop: "Enter the stop-loss as a price above 0.",
  target: "Enter the take-profit as a price above 0, or leave it empty.",
  exit: "Enter the exit as a price above 0, or leave it empty while the trade is open.",
  size: "Enter the size in lots, above 0.",
  stopSide: (direction: "buy" | "sell") => (direction === "buy" ? "A buy's stop-loss must be below its entry." : "A sell's stop-loss must be above its entry."),
  targetSide: (direction: "buy" | "sell") => (direction === "buy" ? "A buy's take-profit must be above its entry." : "A sell's take-profit must be below its entry."),
  tradedOn: "Enter the day of the trade, not after today.",
  notesTooLong: `Notes are at most ${JOURNAL_NOTES_MAX_LENGTH.toLocaleString("en-US")} characters.`,
  screenshotTooLarge: "The screenshot is larger than 2 MB. Crop it or save it as a JPEG.",
  screenshotNotImage: "The screenshot must be a PNG, JPEG or WebP image.",
  notFound: "That journal entry does not exist.",
  shareAdvancedOnly: "Sharing trades with a mentor is part of the Advanced plan.",
  commentRequired: "Write a comment of 1 to 2,000 characters.",
} as const;

export const JOURNAL_COMMENT_MAX_LENGTH = 2_000;

/** A price or a size as typed: digits with one decimal point, above zero. */
const POSITIVE_DECIMAL = /^(?=.*[1-9])\d{1,12}(\.\d{1,10})?$/;
const positive = (message: string) => z.string(message).check(z.trim(), z.regex(POSITIVE_DECIMAL, message));
/** Empty, or a positive decimal. */
const optionalPositive = (message: string) => z._default(z.string(message).check(z.trim(), z.regex(new RegExp(`^$|${POSITIVE_DECIMAL.source}`), message)), "");

/** A day as YYYY-MM-DD that exists. */
function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const day = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(day.getTime()) && day.toISOString().slice(0, 10) === text;
}

/** What a learner writes in an entry; the server adds the result. */
export const journalEntryInputSchema = z
  .object({
    kind: z.enum(["practice", "real"], { error: "Choose practice or real." }),
    instrument: z.string(JOURNAL_MESSAGES.instrument).check(z.trim(), z.toUpperCase(), z.regex(/^[A-Z0-9.]{3,12}$/, JOURNAL_MESSAGES.instrument)),
    direction: z.enum(["buy", "sell"], { error: "Choose buy or sell." }),
    entry: positive(JOURNAL_MESSAGES.entry),
    stop: positive(JOURNAL_MESSAGES.stop),
    target: optionalPositive(JOURNAL_MESSAGES.target),
    exit: optionalPositive(JOURNAL_MESSAGES.exit),
    size: positive(JOURNAL_MESSAGES.size),
    tradedOn: z.string(JOURNAL_MESSAGES.tradedOn).check(z.refine(isDay, JOURNAL_MESSAGES.tradedOn)),
    notes: z._default(z.string().check(z.maxLength(JOURNAL_NOTES_MAX_LENGTH, JOURNAL_MESSAGES.notesTooLong)), ""),
  })
  .check((ctx) => {
    const { direction, entry, stop, target } = ctx.value;
    const below = direction === "buy" ? -1 : 1;
    if (!POSITIVE_DECIMAL.test(entry) || !POSITIVE_DECIMAL.test(stop)) return;
    if (new Big(stop).cmp(entry) !== below) ctx.issues.push({ code: "custom", message: JOURNAL_MESSAGES.stopSide(direction), input: stop, path: ["stop"] });
    if (target && POSITIVE_DECIMAL.test(target) && new Big(target).cmp(entry) !== -below) {
      ctx.issues.push({ code: "custom", message: JOURNAL_MESSAGES.targetSide(direction), input: target, path: ["target"] });
    }
  });
export type JournalEntryInput = z.input<typeof journalEntryInputSchema>;

export const journalEntrySchema = z.object({
  id: z.string(),
  kind: z.enum(["practice", "real"]),
  instrument: z.string(),
  direction: z.enum(["buy", "sell"]),
  entry: z.string(),
  stop: z.string(),
  target: z.nullable(z.string()),
  exit: z.nullable(z.string()),
  size: z.string(),
  tradedOn: z.string(),
  notes: z.string(),
  /** The result in units of risk, two decimals; null while the trade is open. */
  r: z.nullable(z.string()),
  /** When it was shared with the learner's mentor, or null. */
  sharedAt: z.nullable(z.string()),
  /** The mentor's comments, oldest first. */
  comments: z.array(z.object({ id: z.string(), body: z.string(), createdAt: z.string() })),
  /** The address of its screenshot, or null. */
  screenshot: z.nullable(z.object({ url: z.string(), contentType: z.string(), sizeBytes: z.number() })),
  createdAt: z.string(),
});
export type JournalEntry = z.output<typeof journalEntrySchema>;

/** The figures of the closed trades (an exit written), each worked out in docs/trading.md. */
export const journalStatsSchema = z.object({
  trades: z.number(),
  open: z.number(),
  wins: z.number(),
  /** Percent of closed trades above 0 R, one decimal; null with no closed trade. */
  winRate: z.nullable(z.string()),
  averageR: z.nullable(z.string()),
  averageWinR: z.nullable(z.string()),
  averageLossR: z.nullable(z.string()),
  /** R to expect per trade: win rate x average win - loss rate x average loss. */
  expectancyR: z.nullable(z.string()),
  /** The sum of R after each closed trade, in the order traded, the last 500. */
  equity: z.array(z.object({ tradedOn: z.string(), totalR: z.string() })),
});
export type JournalStats = z.output<typeof journalStatsSchema>;

const entryParams = z.object({ id: z.string().check(z.maxLength(64)) });
const page = z._default(z.coerce.number().check(z.int(), z.minimum(1), z.maximum(10_000)), 1);

/** An entry shared with the mentor, as the console's Mentorship tab lists it. */
export const sharedJournalEntrySchema = z.object({
  entry: journalEntrySchema,
  learner: z.object({ id: z.string(), name: z.string(), email: z.string() }),
});
export type SharedJournalEntry = z.output<typeof sharedJournalEntrySchema>;

export const journalCommentInputSchema = z.object({
  body: z.string(JOURNAL_MESSAGES.commentRequired).check(z.trim(), z.minLength(1, JOURNAL_MESSAGES.commentRequired), z.maxLength(JOURNAL_COMMENT_MAX_LENGTH, JOURNAL_MESSAGES.commentRequired)),
});

/** A page of a learner's entries, newest traded first. */
const entryPageSchema = z.object({ entries: z.array(journalEntrySchema), page: z.number(), pageSize: z.number(), total: z.number() });

export const JOURNAL_ENDPOINTS = {
  list: endpoint({ method: "GET", path: "/api/journal", query: z.object({ page }), response: entryPageSchema }),
  stats: endpoint({ method: "GET", path: "/api/journal/stats", response: journalStatsSchema }),
  create: endpoint({ method: "POST", path: "/api/journal", body: journalEntryInputSchema, response: z.object({ entry: journalEntrySchema }), status: 201 }),
  read: endpoint({ method: "GET", path: "/api/journal/:id", params: entryParams, response: z.object({ entry: journalEntrySchema }) }),
  update: endpoint({ method: "PUT", path: "/api/journal/:id", params: entryParams, body: journalEntryInputSchema, response: z.object({ entry: journalEntrySchema }) }),
  remove: endpoint({ method: "DELETE", path: "/api/journal/:id", params: entryParams, response: z.object({ removed: z.literal(true) }) }),
  /** A download, linked to and never called: every entry of the learner's as CSV, never JSON. */
  csv: endpoint({ method: "GET", path: "/api/journal/journal.csv", response: z.string() }),
  /** The image, linked to (an entry's `screenshot.url`) and never called: the bytes, or a redirect to them. */
  screenshot: endpoint({ method: "GET", path: "/api/journal/:id/screenshot", params: entryParams, response: z.file() }),
  /** The image itself as the body (application/octet-stream); registered on its own (journal.routes.ts). */
  putScreenshot: endpoint({ method: "PUT", path: "/api/journal/:id/screenshot", params: entryParams, response: z.object({ entry: journalEntrySchema }) }),
  /** Shares the entry with the learner's mentor, or stops sharing it: sharing is for an Advanced plan in effect. */
  share: endpoint({ method: "PUT", path: "/api/journal/:id/share", params: entryParams, body: z.object({ shared: z.boolean() }), response: z.object({ entry: journalEntrySchema }) }),
  removeScreenshot: endpoint({ method: "DELETE", path: "/api/journal/:id/screenshot", params: entryParams, response: z.object({ entry: journalEntrySchema }) }),
} as const;

/** The mentor's side, in the console's Mentorship tab: the entries learners shared, and a comment on one. */
export const ADMIN_JOURNAL_ENDPOINTS = {
  shared: endpoint({
    method: "GET",
    path: "/api/admin/journal/shared",
    query: z.object({ page }),
    response: z.object({ entries: z.array(sharedJournalEntrySchema), page: z.number(), pageSize: z.number(), total: z.number() }),
  }),
  /** A learner's journal as the console's learner page shows it: their figures and a page of entries. */
  learner: endpoint({
    method: "GET",
    path: "/api/admin/users/:id/journal",
    params: entryParams,
    query: z.object({ page }),
    response: z.extend(entryPageSchema, { stats: journalStatsSchema }),
  }),
  comment: endpoint({
    method: "POST",
    path: "/api/admin/journal/:id/comments",
    params: entryParams,
    body: journalCommentInputSchema,
    response: z.object({ entry: journalEntrySchema }),
    status: 201,
  }),
} as const;
