// The Price Data tab's API: a file taken whole, as its prices were written, or refused whole by its
// first bad line with nothing kept (docs/trading.md, "Price data"). (401/403 for every admin route
// are checked in admin-guard.api.test.ts.)
import { count, desc, eq } from "drizzle-orm";
import type { InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PRICE_DATA_MESSAGES, type PriceBar, type PriceDataSet } from "../../../shared/contracts/price-data.ts";
import { auditLog, priceBars, priceDataSets } from "../../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(61);

const MT5_HEADER = "<DATE>\t<TIME>\t<OPEN>\t<HIGH>\t<LOW>\t<CLOSE>\t<TICKVOL>\t<VOL>\t<SPREAD>";
/** Three hours of EURUSD as MetaTrader 5 exports them, trailing zeros and all. */
const MT5_FILE = [
  MT5_HEADER,
  "2024.03.01\t13:00:00\t1.08420\t1.08510\t1.08390\t1.08470\t1520\t0\t2",
  "2024.03.01\t14:00:00\t1.08470\t1.08600\t1.08450\t1.08580\t1710\t0\t1",
  "2024.03.01\t15:00:00\t1.08580\t1.08590\t1.08300\t1.08350\t1980\t0\t2",
  "",
].join("\r\n");

const TRADINGVIEW_FILE = ["time,open,high,low,close,Volume", "1709298000,2045.10,2051.80,2043.00,2050.20,812", "1709301600,2050.20,2053.40,2047.90,2048.60,790"].join("\n");

const refused = (status: number, message: string) => ({ status, body: { error: { code: expect.any(String), message, requestId: expect.any(String) } } });

describe("price data sets", () => {
  let t: TestApp;
  let user: (key: "admin") => TestUser;

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    user = await createTestUsers(t, nextIp, { admin: { plan: "admin" } });
  });
  afterAll(() => t.close());

  const admin = (options: InjectOptions) => t.app.inject({ ...options, headers: { ...options.headers, cookie: user("admin").cookie } });

  function upload(body: string | Buffer, details: Record<string, string> = {}) {
    const query = new URLSearchParams({ name: "EURUSD H1, March 2024", instrument: "eurusd", pipSize: "0.0001", timeframe: "H1", ...details });
    return admin({ method: "POST", url: `/api/admin/price-data?${query}`, headers: { "content-type": "application/octet-stream" }, payload: body });
  }

  async function stored() {
    const [sets] = await t.database.db.select({ n: count() }).from(priceDataSets);
    const [bars] = await t.database.db.select({ n: count() }).from(priceBars);
    return { sets: sets?.n, bars: bars?.n };
  }

  it("keeps a MetaTrader 5 export whole: the set, every bar in time order and each price as the file wrote it", async () => {
    const response = await upload(MT5_FILE);
    expect(response.statusCode, response.body).toBe(201);
    const { dataSet } = response.json<{ dataSet: PriceDataSet }>();
    expect(dataSet).toMatchObject({
      name: "EURUSD H1, March 2024",
      instrument: "EURUSD",
      pipSize: "0.0001",
      timeframe: "H1",
      source: "metatrader5",
      illustrative: false,
      barCount: 3,
      firstBarAt: "2024-03-01T13:00:00.000Z",
      lastBarAt: "2024-03-01T15:00:00.000Z",
    });

    const read = await admin({ method: "GET", url: `/api/admin/price-data/${dataSet.id}/bars?from=1&count=5` });
    expect(read.statusCode).toBe(200);
    expect(read.json<{ bars: PriceBar[] }>().bars).toEqual([
      { time: "2024-03-01T14:00:00.000Z", open: "1.08470", high: "1.08600", low: "1.08450", close: "1.08580" },
      { time: "2024-03-01T15:00:00.000Z", open: "1.08580", high: "1.08590", low: "1.08300", close: "1.08350" },
    ]);

    // Newest first, a page at a time.
    const list = await admin({ method: "GET", url: "/api/admin/price-data?page=1" });
    expect(list.json()).toMatchObject({ page: 1, pageSize: 20, total: 1 });
    expect(list.json<{ dataSets: PriceDataSet[] }>().dataSets.map((set) => set.id)).toEqual([dataSet.id]);
    const [entry] = await t.database.db.select().from(auditLog).where(eq(auditLog.action, "price-data.uploaded")).orderBy(desc(auditLog.id)).limit(1);
    expect(entry).toMatchObject({ actorId: user("admin").id, changes: { dataSetId: dataSet.id, bars: 3 } });
  });

  it("keeps a TradingView export of gold, its times in Unix seconds", async () => {
    const response = await upload(TRADINGVIEW_FILE, { name: "Gold H1", instrument: "XAUUSD", pipSize: "0.1" });
    expect(response.statusCode, response.body).toBe(201);
    expect(response.json<{ dataSet: PriceDataSet }>().dataSet).toMatchObject({ source: "tradingview", instrument: "XAUUSD", pipSize: "0.1", barCount: 2, firstBarAt: "2024-03-01T13:00:00.000Z" });
  });

  it("refuses a file by its first bad line, in words, and keeps nothing of it", async () => {
    const before = await stored();
    const highBelowClose = MT5_FILE.replace("1.08580\t1.08590\t1.08300\t1.08350", "1.08580\t1.08590\t1.08300\t1.08650");
    const cases: [string, string][] = [
      [highBelowClose, "Line 4: the high 1.08590 is below the open or the close."],
      [MT5_FILE.replace("1.08600", "1.08x00"), 'Line 3: the high "1.08x00" is not a price.'],
      [MT5_FILE.replaceAll("\t", ","), expect.stringMatching(/^Line 1: a MetaTrader 5 file is separated by tabs/) as unknown as string],
      [MT5_FILE.replace("2024.03.01\t15:00:00", "2024.03.01\t14:00:00"), "Line 4: the time repeats the line before's."],
      [MT5_HEADER, "The file has a header but no bars."],
    ];
    for (const [file, message] of cases) {
      const response = await upload(file);
      expect({ status: response.statusCode, body: response.json() }, message).toEqual(refused(400, message));
    }
    expect(await stored()).toEqual(before);
  });

  it("refuses 20,001 bars by the line past the limit, and keeps 20,000", async () => {
    const before = await stored();
    const start = Date.UTC(2020, 0, 1);
    const lines = (n: number) =>
      ["time,open,high,low,close", ...Array.from({ length: n }, (_, i) => `${(start + i * 60_000) / 1000},1.1000,1.1010,1.0990,1.1005`)].join("\n");
    const tooMany = await upload(lines(20_001), { timeframe: "M1" });
    expect({ status: tooMany.statusCode, body: tooMany.json() }).toEqual(refused(400, "Line 20002: the file has more than 20,000 bars; upload at most 20,000."));
    expect(await stored()).toEqual(before);

    const full = await upload(lines(20_000), { timeframe: "M1" });
    expect(full.statusCode, full.body).toBe(201);
    expect(await stored()).toEqual({ sets: (before.sets ?? 0) + 1, bars: (before.bars ?? 0) + 20_000 });
    const { dataSet } = full.json<{ dataSet: PriceDataSet }>();
    const last = await admin({ method: "GET", url: `/api/admin/price-data/${dataSet.id}/bars?from=19999&count=500` });
    expect(last.json<{ bars: PriceBar[] }>().bars).toEqual([{ time: new Date(start + 19_999 * 60_000).toISOString(), open: "1.1000", high: "1.1010", low: "1.0990", close: "1.1005" }]);
  });

  it("refuses what the administrator wrote beside the file, field by field, and a file that is not text or too large", async () => {
    const before = await stored();
    const answers = [
      [await upload(MT5_FILE, { name: "  " }), refused(400, PRICE_DATA_MESSAGES.nameRequired)],
      [await upload(MT5_FILE, { instrument: "EUR/USD" }), refused(400, PRICE_DATA_MESSAGES.instrumentInvalid)],
      [await upload(MT5_FILE, { pipSize: "0" }), refused(400, PRICE_DATA_MESSAGES.pipSizeInvalid)],
      [await upload(MT5_FILE, { pipSize: "-0.01" }), refused(400, PRICE_DATA_MESSAGES.pipSizeInvalid)],
      [await upload(MT5_FILE, { timeframe: "H2" }), refused(400, PRICE_DATA_MESSAGES.timeframeInvalid)],
      [await upload(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0xff, 0xfe])), refused(400, PRICE_DATA_MESSAGES.notText)],
      [await upload(""), refused(400, "The file is empty.")],
      [await upload(Buffer.alloc(4 * 1024 * 1024 + 1, "a")), refused(413, PRICE_DATA_MESSAGES.tooLarge)],
    ] as const;
    for (const [response, expected] of answers) expect({ status: response.statusCode, body: response.json() }).toEqual(expected);
    expect(await stored()).toEqual(before);
  });

  it("removes a set with its bars; a set that does not exist is a 404", async () => {
    const { dataSet } = (await upload(MT5_FILE, { name: "To remove" })).json<{ dataSet: PriceDataSet }>();
    const removed = await admin({ method: "DELETE", url: `/api/admin/price-data/${dataSet.id}` });
    expect(removed.json()).toEqual({ removed: true });
    const [bars] = await t.database.db.select({ n: count() }).from(priceBars).where(eq(priceBars.dataSetId, dataSet.id));
    expect(bars?.n).toBe(0);
    for (const id of [dataSet.id, "not-a-set"]) {
      const again = await admin({ method: "DELETE", url: `/api/admin/price-data/${id}` });
      expect({ status: again.statusCode, body: again.json() }).toEqual(refused(404, PRICE_DATA_MESSAGES.notFound));
      const read = await admin({ method: "GET", url: `/api/admin/price-data/${id}/bars` });
      expect(read.statusCode).toBe(404);
    }
  });
});
