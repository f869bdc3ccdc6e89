// Price data sets: uploaded whole or refused whole, listed, read a stretch at a time, removed
// (docs/trading.md, "Price data").
import { and, asc, count, desc, eq, gte, lt } from "drizzle-orm";
import { EXERCISE_MESSAGES } from "../../../shared/contracts/exercises.ts";
import { PRICE_DATA_MESSAGES, type PriceBar, type PriceDataSet, type Timeframe } from "../../../shared/contracts/price-data.ts";
import type { Db, Tx } from "../../db/client.ts";
import { pagination, paging } from "../../db/paging.ts";
import { auditLog, modules, priceBars, priceDataSets } from "../../db/schema.ts";
import { HttpError } from "../../plugins/errors.ts";
import { parseBars, type Bar } from "./bars-csv.ts";

/** What the file does not say about itself: the administrator writes it beside the upload. */
export type DataSetDetails = { name: string; instrument: string; pipSize: string; timeframe: Timeframe };

/** Bars per INSERT: 2,000 rows of seven parameters stay far under PostgreSQL's 65,535. */
const INSERT_BATCH = 2_000;

type DataSetRow = typeof priceDataSets.$inferSelect;

function toDataSet(row: DataSetRow): PriceDataSet {
  return {
    id: row.id,
    name: row.name,
    instrument: row.instrument,
    pipSize: row.pipSize,
    timeframe: row.timeframe,
    source: row.source,
    illustrative: row.illustrative,
    barCount: row.barCount,
    firstBarAt: row.firstBarAt.toISOString(),
    lastBarAt: row.lastBarAt.toISOString(),
    createdAt: row.createdAt.toISOString(),
  };
}

/** The file's text, or a refusal when its bytes are not UTF-8 (a spreadsheet, an image). */
function textOf(bytes: Buffer): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new HttpError(400, "PRICE_DATA_REFUSED", PRICE_DATA_MESSAGES.notText);
  }
}

/** POST /api/admin/price-data: reads the file and keeps the set and every bar in one transaction. */
export async function uploadPriceData(db: Db, actorId: string, details: DataSetDetails, bytes: Buffer): Promise<PriceDataSet> {
  const parsed = parseBars(textOf(bytes));
  if (!parsed.ok) throw new HttpError(400, "PRICE_DATA_REFUSED", parsed.message);
  const row = await db.transaction(async (tx) => {
    const set = await insertDataSet(tx, { ...details, source: parsed.format, illustrative: false, uploadedBy: actorId }, parsed.bars);
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: null,
      action: "price-data.uploaded",
      reason: "admin",
      changes: { dataSetId: set.id, name: set.name, instrument: set.instrument, bars: set.barCount },
    });
    return set;
  });
  return toDataSet(row);
}

/** Writes a set and its bars, which must be in time order and not empty (parseBars's answer). */
export async function insertDataSet(
  tx: Tx,
  set: DataSetDetails & Pick<DataSetRow, "source" | "illustrative" | "uploadedBy">,
  bars: readonly Bar[],
): Promise<DataSetRow> {
  const first = bars[0];
  const last = bars.at(-1);
  if (!first || !last) throw new Error("a data set has at least one bar");
  const [row] = await tx
    .insert(priceDataSets)
    .values({ ...set, barCount: bars.length, firstBarAt: first.time, lastBarAt: last.time })
    .returning();
  if (!row) throw new Error("the data set was not written");
  for (let start = 0; start < bars.length; start += INSERT_BATCH) {
    const batch = bars.slice(start, start + INSERT_BATCH);
    await tx.insert(priceBars).values(batch.map((bar, index) => ({ dataSetId: row.id, position: start + index, ...bar })));
  }
  return row;
}

/** GET /api/admin/price-data: a page of the sets, newest first, without their bars. */
export async function listPriceData(db: Db, page: number) {
  const [rows, [total]] = await Promise.all([
    db.select().from(priceDataSets).orderBy(desc(priceDataSets.createdAt), asc(priceDataSets.id)).limit(paging(page).limit).offset(paging(page).offset),
    db.select({ n: count() }).from(priceDataSets),
  ]);
  return { ...pagination(page, total), dataSets: rows.map(toDataSet) };
}

async function dataSetOr404(db: Db, id: string): Promise<DataSetRow> {
  // Not a uuid cannot be a set's id: answered as one that does not exist, without asking the database.
  if (!/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id)) throw new HttpError(404, "NOT_FOUND", PRICE_DATA_MESSAGES.notFound);
  const [row] = await db.select().from(priceDataSets).where(eq(priceDataSets.id, id));
  if (!row) throw new HttpError(404, "NOT_FOUND", PRICE_DATA_MESSAGES.notFound);
  return row;
}

/** GET /api/admin/price-data/:id/bars: `count` bars from position `from`, in time order. */
export async function readPriceBars(db: Db, id: string, from: number, count: number): Promise<{ dataSet: PriceDataSet; bars: PriceBar[] }> {
  const set = await dataSetOr404(db, id);
  const rows = await db
    .select({ time: priceBars.time, open: priceBars.open, high: priceBars.high, low: priceBars.low, close: priceBars.close })
    .from(priceBars)
    .where(and(eq(priceBars.dataSetId, set.id), gte(priceBars.position, from), lt(priceBars.position, from + count)))
    .orderBy(asc(priceBars.position));
  return { dataSet: toDataSet(set), bars: rows.map((bar) => ({ ...bar, time: bar.time.toISOString() })) };
}

/**
 * DELETE /api/admin/price-data/:id: the set and its bars; refused in words while an exercise
 * replays it. The set's row is locked first: a lesson being saved with this set holds it (key
 * share, exercise-settings.ts), so the check sees that lesson once it is saved.
 */
export async function removePriceData(db: Db, actorId: string, id: string): Promise<void> {
  const set = await dataSetOr404(db, id);
  await db.transaction(async (tx) => {
    await tx.select({ id: priceDataSets.id }).from(priceDataSets).where(eq(priceDataSets.id, set.id)).for("update");
    const [used] = await tx.select({ id: modules.id }).from(modules).where(eq(modules.exerciseDataSetId, set.id)).limit(1);
    if (used) throw new HttpError(409, "DATA_SET_IN_USE", EXERCISE_MESSAGES.inUse);
    await tx.delete(priceDataSets).where(eq(priceDataSets.id, set.id));
    await tx.insert(auditLog).values({
      actorId,
      subjectUserId: null,
      action: "price-data.removed",
      reason: "admin",
      changes: { dataSetId: set.id, name: set.name, instrument: set.instrument },
    });
  });
}
