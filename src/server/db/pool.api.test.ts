// The PostgreSQL pool keeps the connections it opened (docs/performance.md, "Connections kept
// open"): a request never waits for a new connection's set-up because an idle one was closed.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestDatabase, testDatabaseKind } from "../testing/test-database.ts";
import type { Database } from "./client.ts";

/** pg-pool closes a connection idle for this long unless told otherwise. */
const LIBRARY_IDLE_TIMEOUT_MS = 10_000;

describe.skipIf(testDatabaseKind() !== "postgres")("the PostgreSQL pool", () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it("keeps its connections open while idle", { timeout: 30_000 }, async () => {
    const busy = () => database.db.execute(sql`select pg_sleep(0.1)`);
    await Promise.all([busy(), busy(), busy()]);
    const opened = database.poolUse()?.total ?? 0;
    expect(opened).toBeGreaterThanOrEqual(3);
    await new Promise((resolve) => setTimeout(resolve, LIBRARY_IDLE_TIMEOUT_MS + 1_500));
    expect(database.poolUse()).toMatchObject({ total: opened, idle: opened, waiting: 0 });
  });
});
