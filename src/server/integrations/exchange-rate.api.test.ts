import { createServer } from "node:http";
import { inArray } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { config } from "../db/schema.ts";
import { createMetrics } from "../metrics/metrics.ts";
import { metricValue } from "../testing/metrics.ts";
import { createTestDatabase } from "../testing/test-database.ts";
import { currentRate, RATE_CACHE_MS, RETRY_AFTER_FAILURE_MS, type ExchangeRateDeps } from "./exchange-rate.ts";

type Warning = { fields: unknown; message: string };

/** A logger that keeps its warnings, for the tests to read. */
function warningLog(warnings: Warning[]) {
  return { warn: (fields: unknown, message: string) => warnings.push({ fields, message }) } as unknown as ExchangeRateDeps["log"];
}

const silent = warningLog([]);
const noMetrics = { exchangeRateFetchFailed: () => {}, exchangeRateRefused: () => {} };

describe("currentRate", () => {
  let database: Database;
  let hits = 0;
  /** What the stand-in service answers as the GHS rate. */
  let answered = 15.45;
  /** How long it takes to answer. */
  let delayMs = 200;
  const server = createServer((_request, response) => {
    hits++;
    setTimeout(() => response.end(JSON.stringify({ result: "success", rates: { GHS: answered } })), delayMs);
  });
  let url = "";

  beforeAll(async () => {
    database = await createTestDatabase();
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const address = server.address();
    if (typeof address !== "object" || !address) throw new Error("no address");
    url = `http://127.0.0.1:${address.port}/v6/latest/USD`;
  });
  afterAll(async () => {
    server.close();
    await database.close();
  });

  it("asks the service once for a burst of requests, and every request gets its answer", async () => {
    // A slow service: every request of a burst arrives while the first fetch is under way.
    const now = new Date();
    const rates = await Promise.all(
      Array.from({ length: 20 }, () => currentRate({ db: database.db, url, log: silent, metrics: noMetrics }, now)),
    );
    expect(hits).toBe(1);
    expect(rates.map((rate) => rate?.ghsPerUsd)).toEqual(Array.from({ length: 20 }, () => 15.45));
  });

  describe("a rate that cannot be right is refused, logged and counted, and the last good rate kept", () => {
    const metrics = createMetrics({ poolUse: () => null, pendingJobs: async () => ({}), jobKinds: () => [], unsentMail: async () => ({}) });
    const refused = async (reason: string) =>
      metricValue(await metrics.registry.metrics(), "exchange_rate_refused_total", { reason });
    let warnings: Warning[] = [];
    const deps = () => ({ db: database.db, url, log: warningLog(warnings), metrics });

    async function cached(key: string) {
      const [row] = await database.db.select().from(config).where(inArray(config.key, [key]));
      return row?.value ?? null;
    }

    /** The last good rate, fetched long enough ago that the next read asks the service. */
    async function lastGoodRate(ghsPerUsd: number, now: Date) {
      const value = { ghsPerUsd, fetchedAt: new Date(now.getTime() - RATE_CACHE_MS - 1000).toISOString() };
      await database.db.insert(config).values({ key: "exchange_rate", value }).onConflictDoUpdate({ target: config.key, set: { value } });
      return value;
    }

    beforeEach(async () => {
      warnings = [];
      delayMs = 0;
      await database.db.delete(config).where(inArray(config.key, ["exchange_rate", "exchange_rate_failure"]));
    });

    it.each([
      ["a few pesewas to the dollar", 0.05],
      ["just under the band", 4.99],
      ["just over the band", 100.01],
      ["cedis and pesewas mixed up", 1545],
    ])("outside 5 to 100 cedis per dollar (%s), with no rate before: no rate at all", async (_name, rate) => {
      answered = rate;
      const now = new Date();
      const before = await refused("out_of_band");
      expect(await currentRate(deps(), now)).toBeNull();
      expect(await refused("out_of_band")).toBe(before + 1);
      expect(await cached("exchange_rate")).toBeNull();
      expect(warnings).toEqual([
        { fields: { reason: "out_of_band", ghsPerUsd: rate, lastGoodRate: null }, message: "exchange rate refused; keeping the last good rate" },
      ]);
    });

    it.each([
      ["a fifth lower and a bit", 11.99],
      ["a fifth higher and a bit", 18.01],
      ["a tenth of it", 1.5],
      ["out of the band as well", 150],
    ])("more than a fifth (20 percent) away from the last good rate 15 (%s): the last good rate is kept", async (_name, rate) => {
      answered = rate;
      const now = new Date();
      const last = await lastGoodRate(15, now);
      const reason = rate >= 5 && rate <= 100 ? "too_far_from_last" : "out_of_band";
      const before = await refused(reason);
      expect(await currentRate(deps(), now)).toEqual(last);
      expect(await refused(reason)).toBe(before + 1);
      expect(await cached("exchange_rate")).toEqual(last);
      expect(warnings).toEqual([
        { fields: { reason, ghsPerUsd: rate, lastGoodRate: 15 }, message: "exchange rate refused; keeping the last good rate" },
      ]);

      // Refused counts as a failure: the service is left alone for a while, the last rate served.
      const hitsBefore = hits;
      expect(await currentRate(deps(), new Date(now.getTime() + RETRY_AFTER_FAILURE_MS - 1000))).toEqual(last);
      expect(hits).toBe(hitsBefore);
    });

    it.each([
      ["within a fifth below", 12.01],
      ["within a fifth above", 17.99],
    ])("a rate within a fifth of the last good one and in the band is taken (%s)", async (_name, rate) => {
      answered = rate;
      const now = new Date();
      await lastGoodRate(15, now);
      const before = (await refused("too_far_from_last")) + (await refused("out_of_band"));
      expect(await currentRate(deps(), now)).toEqual({ ghsPerUsd: rate, fetchedAt: now.toISOString() });
      expect(await cached("exchange_rate")).toEqual({ ghsPerUsd: rate, fetchedAt: now.toISOString() });
      expect((await refused("too_far_from_last")) + (await refused("out_of_band"))).toBe(before);
      expect(warnings).toEqual([]);
    });

    it("a cached rate outside the band (from before the band) is neither served nor the reference", async () => {
      answered = 15.45;
      const now = new Date();
      const value = { ghsPerUsd: 0.5, fetchedAt: now.toISOString() };
      await database.db.insert(config).values({ key: "exchange_rate", value });
      expect(await currentRate(deps(), now)).toEqual({ ghsPerUsd: 15.45, fetchedAt: now.toISOString() });
    });
  });
});
