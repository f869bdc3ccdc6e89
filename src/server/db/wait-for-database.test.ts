import { describe, expect, it } from "vitest";
import { freePort } from "../testing/child-process-env.ts";
import { DatabaseUnreachableError, openDatabase, waitForDatabase, type Database } from "./client.ts";

function collectingLog() {
  const lines: string[] = [];
  return { lines, log: { warn: (line: string) => lines.push(line) } };
}

describe("waitForDatabase", () => {
  it("gives up on a PostgreSQL that never answers, one line per try naming the host and the driver's error", async () => {
    const port = await freePort(); // nothing listens there
    const database = await openDatabase({ kind: "postgres", url: `postgres://academy:s3cret@127.0.0.1:${port}/academy` });
    const { lines, log } = collectingLog();
    const started = Date.now();
    try {
      const failure = await waitForDatabase(database, log, { timeoutMs: 1_600 }).catch((error: unknown) => error);
      expect(failure).toBeInstanceOf(DatabaseUnreachableError);
      expect((failure as Error).message).toBe(
        `PostgreSQL at 127.0.0.1:${port}/academy is not reachable (connect ECONNREFUSED 127.0.0.1:${port}); gave up after 2 s.`,
      );
    } finally {
      await database.close();
    }
    expect(Date.now() - started).toBeLessThan(4_000);
    expect(lines.length).toBeGreaterThanOrEqual(2);
    for (const line of lines) {
      expect(line).toMatch(new RegExp(`^PostgreSQL at 127\\.0\\.0\\.1:${port}/academy is not reachable \\(connect ECONNREFUSED [^)]+\\); retrying in \\d\\.\\d s$`));
      expect(line).not.toContain("s3cret");
    }
  });

  it("returns as soon as the database answers, after backing off", async () => {
    let calls = 0;
    const database = {
      location: { kind: "postgres", url: "postgres://db.internal:5432/academy" },
      db: {
        execute: () => (++calls < 3 ? Promise.reject(new Error("the database system is starting up")) : Promise.resolve()),
      },
    } as unknown as Database;
    const { lines, log } = collectingLog();
    await waitForDatabase(database, log, { timeoutMs: 10_000 });
    expect(calls).toBe(3);
    expect(lines).toEqual([
      "PostgreSQL at db.internal:5432/academy is not reachable (the database system is starting up); retrying in 0.5 s",
      "PostgreSQL at db.internal:5432/academy is not reachable (the database system is starting up); retrying in 1.0 s",
    ]);
  });
});
