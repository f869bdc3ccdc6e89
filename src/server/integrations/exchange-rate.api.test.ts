import { createServer } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../db/client.ts";
import { createTestDatabase } from "../testing/test-database.ts";
import { currentRate } from "./exchange-rate.ts";

const silent = { warn: () => {} } as unknown as Parameters<typeof currentRate>[0]["log"];

describe("currentRate", () => {
  let database: Database;
  let hits = 0;
  const server = createServer((_request, response) => {
    hits++;
    // A slow service: every request of a burst arrives while the first fetch is under way.
    setTimeout(() => response.end(JSON.stringify({ result: "success", rates: { GHS: 15.45 } })), 200);
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
    const now = new Date();
    const rates = await Promise.all(
      Array.from({ length: 20 }, () => currentRate({ db: database.db, url, log: silent, metrics: { exchangeRateFetchFailed: () => {} } }, now)),
    );
    expect(hits).toBe(1);
    expect(rates.map((rate) => rate?.ghsPerUsd)).toEqual(Array.from({ length: 20 }, () => 15.45));
  });
});
