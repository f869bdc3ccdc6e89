// The database failing under the auth library itself, after our own routes' reads went through
// (docs/operations.md, "Database outage"): the library's error reaches the server's error handling,
// so a sign-in is answered 503 like any request, and nothing of the query is logged.
import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVerifiedAccount, ipAllocator, PASSWORD, signIn } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const nextIp = ipAllocator(113);
const EMAIL = "yaa.asantewaa@example.com";

describe("the database failing inside the auth library", () => {
  const lines: string[] = [];
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { LOG_LEVEL: "info" }, logDestination: { write: (line) => lines.push(line) } });
    await createVerifiedAccount(t, EMAIL, nextIp);
  });
  afterAll(() => t.close());

  it("answers a sign-in whose session the database cannot write 503, logging no query, and signs in once it can", async () => {
    // The connection lost just as the library writes the session: SQLSTATE 08006.
    await t.database.db.execute(sql`create function refuse_session() returns trigger language plpgsql as $$
      begin raise exception 'connection failure' using errcode = '08006'; end $$`);
    await t.database.db.execute(sql`create trigger refuse_session before insert on sessions for each row execute function refuse_session()`);
    const before = lines.length;

    const refused = await signIn(t, EMAIL, PASSWORD, nextIp());

    expect(refused.statusCode).toBe(503);
    expect(refused.headers["retry-after"]).toBe("5");
    expect(refused.json()).toEqual({
      error: { code: "UNAVAILABLE", message: "The academy is briefly unavailable. Please try again in a moment.", requestId: expect.any(String) },
    });
    const written = lines.slice(before).join("\n");
    expect(written).not.toMatch(/insert into|Failed query|\bat .+:\d+:\d+|yaa\.asantewaa/i);

    await t.database.db.execute(sql`drop trigger refuse_session on sessions`);
    expect((await signIn(t, EMAIL, PASSWORD, nextIp())).statusCode).toBe(200);
  });
});
