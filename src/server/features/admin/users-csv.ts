// Export as CSV (users.csv): what a row says is decided by pure functions; the file is streamed
// from keyset batches through csv-stringify, so 100,000 users never sit in memory at once.
import { pipeline, Readable } from "node:stream";
import { stringify, type Options } from "csv-stringify";
import { stringify as stringifySync } from "csv-stringify/sync";
import { asc, gt } from "drizzle-orm";
import { USERS_CSV_COLUMNS } from "../../../shared/contracts/admin.ts";
import type { Plan, Provider, SubscriptionStatus } from "../../../shared/plans.ts";
import type { Db } from "../../db/client.ts";
import { users } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";

export const UNKNOWN_TIME_ZONE = "Unknown time zone.";
const CSV_BATCH_SIZE = 1000;

/**
 * RFC 4180 (CRLF, quotes doubled, fields with a comma, quote or line break quoted) and no formula
 * injection: a cell starting with = + - @ (or their full-width look-alikes), a tab or a carriage
 * return gets a leading ' so that a spreadsheet shows it as text instead of running it.
 */
const CSV_OPTIONS = {
  columns: [...USERS_CSV_COLUMNS],
  header: true,
  record_delimiter: "windows",
  quote_record_delimiter: true,
  escape_formulas: true,
} satisfies Options;

export type CsvUser = {
  id: string;
  email: string;
  plan: Plan | null;
  provider: Provider | null;
  status: SubscriptionStatus;
  subscriptionEnd: Date | null;
  lastActiveAt: Date | null;
};

export type CsvDate = (date: Date | null) => string;

/** A date as YYYY-MM-DD on the calendar of `timeZone` (an IANA zone), or N/A; 400 for an unknown zone. */
export function csvDateIn(timeZone: string): CsvDate {
  let format: Intl.DateTimeFormat;
  try {
    format = new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "2-digit", day: "2-digit" });
  } catch {
    throw new HttpError(400, "VALIDATION", UNKNOWN_TIME_ZONE);
  }
  // Formatting costs microseconds, and an export formats two dates per user. Every zone's offset
  // is a whole number of quarter hours (since the 1970s), so all instants of one quarter hour of
  // UTC fall on the same local date: each quarter hour is formatted once.
  const byQuarterHour = new Map<number, string>();
  return (date) => {
    if (!date) return "N/A";
    const quarterHour = Math.floor(date.getTime() / QUARTER_HOUR_MS);
    const known = byQuarterHour.get(quarterHour);
    if (known !== undefined) return known;
    const parts = format.formatToParts(date);
    const part = (type: Intl.DateTimeFormatPartTypes) => parts.find((p) => p.type === type)?.value ?? "";
    const formatted = `${part("year")}-${part("month")}-${part("day")}`;
    if (byQuarterHour.size >= DATE_CACHE_LIMIT) byQuarterHour.clear();
    byQuarterHour.set(quarterHour, formatted);
    return formatted;
  };
}

const QUARTER_HOUR_MS = 15 * 60 * 1000;
const DATE_CACHE_LIMIT = 50_000;

/** One user as a row of USERS_CSV_COLUMNS. */
export function userCsvRecord(user: CsvUser, date: CsvDate): string[] {
  return [
    user.email,
    user.id,
    user.plan ?? "MISSING",
    user.provider ?? "Unknown",
    user.status,
    date(user.subscriptionEnd),
    date(user.lastActiveAt),
  ];
}

/** A whole file (header and records) as text: the same writing the stream does, for small inputs. */
export function toUsersCsv(records: readonly string[][]): string {
  return stringifySync(records.map((record) => [...record]), CSV_OPTIONS);
}

const csvColumns = {
  id: users.id,
  email: users.email,
  plan: users.subscriptionPlan,
  provider: users.provider,
  status: users.subscriptionStatus,
  subscriptionEnd: users.subscriptionEnd,
  lastActiveAt: users.lastActiveAt,
};

/** Every user, read by primary key in batches (keyset, not offset: each batch costs the same). */
async function* userRecords(db: Db, date: CsvDate, batchSize: number): AsyncGenerator<string[]> {
  let after: string | null = null;
  for (;;) {
    const batch: CsvUser[] = await db
      .select(csvColumns)
      .from(users)
      .where(after === null ? undefined : gt(users.id, after))
      .orderBy(asc(users.id))
      .limit(batchSize);
    for (const user of batch) yield userCsvRecord(user, date);
    const last = batch.at(-1);
    if (!last || batch.length < batchSize) return;
    after = last.id;
  }
}

/**
 * users.csv as a stream. The next batch is read only when the client has taken the previous one
 * (backpressure through the pipeline), and a client that goes away stops the reading.
 */
export function usersCsvStream(db: Db, timeZone: string, batchSize = CSV_BATCH_SIZE): Readable {
  const date = csvDateIn(timeZone);
  const csv = stringify(CSV_OPTIONS);
  // A failure mid-way destroys `csv` with the error; the server then logs it and cuts the response.
  pipeline(Readable.from(userRecords(db, date, batchSize)), csv, () => {});
  return csv;
}
