// The per-account lockout under concurrency (docs/product.md, "Limits"): wrong passwords sent all at once,
// from as many addresses, get no more than 5 passwords checked, on one instance or on two sharing
// the database.
import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { rateLimits } from "../db/schema.ts";
import { LOCKOUT_FAILURES } from "./login-lockout.ts";
import { createVerifiedAccount, ipAllocator, PASSWORD, signIn } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";

const nextIp = ipAllocator(28);

/** How many of the answers were each status. */
function statusCounts(statuses: number[]): Record<number, number> {
  const counts: Record<number, number> = {};
  for (const status of statuses) counts[status] = (counts[status] ?? 0) + 1;
  return counts;
}

describe("the sign-in lockout under parallel attempts", () => {
  let t: TestApp;
  let other: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
    // A second instance on the same database, as in production behind a load balancer.
    other = await createTestApp({ database: t.database });
  });
  afterAll(async () => {
    await other.close();
    await t.close();
  });

  it("20 wrong passwords at once from 20 addresses: at most 5 are checked, the rest refused, then the right one too", async () => {
    const email = "parallel-target@example.com";
    await createVerifiedAccount(t, email, nextIp);

    const answers = await Promise.all(Array.from({ length: 20 }, (_, n) => signIn(t, email, `wrong password ${n}`, nextIp())));
    const counts = statusCounts(answers.map((answer) => answer.statusCode));
    expect(counts[401] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(LOCKOUT_FAILURES);
    expect((counts[401] ?? 0) + (counts[429] ?? 0), JSON.stringify(counts)).toBe(20);
    expect(counts[429] ?? 0).toBeGreaterThanOrEqual(20 - LOCKOUT_FAILURES);

    const right = await signIn(t, email, PASSWORD, nextIp());
    expect(right.statusCode, right.body).toBe(429);
    expect(right.headers["set-cookie"]).toBeUndefined();
  });

  it("split across two instances on one database, the same: at most 5 checked", async () => {
    const email = "two-instances-target@example.com";
    await createVerifiedAccount(t, email, nextIp);

    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, n) => signIn(n % 2 === 0 ? t : other, email, `wrong password ${n}`, nextIp())),
    );
    const counts = statusCounts(answers.map((answer) => answer.statusCode));
    expect(counts[401] ?? 0, JSON.stringify(counts)).toBeLessThanOrEqual(LOCKOUT_FAILURES);
    expect(counts[429] ?? 0, JSON.stringify(counts)).toBeGreaterThanOrEqual(20 - LOCKOUT_FAILURES);
    expect((await signIn(other, email, PASSWORD, nextIp())).statusCode).toBe(429);
    expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(429);
  });

  it("the right password sent alongside 4 wrong ones at once signs in, and clears the count", async () => {
    const email = "parallel-owner@example.com";
    await createVerifiedAccount(t, email, nextIp);
    const answers = await Promise.all([
      ...Array.from({ length: LOCKOUT_FAILURES - 1 }, (_, n) => signIn(t, email, `typo ${n}`, nextIp())),
      signIn(t, email, PASSWORD, nextIp()),
    ]);
    expect(answers.at(-1)?.statusCode).toBe(200);
    // Whichever order they were checked in, the owner can sign in again right away.
    expect((await signIn(t, email, PASSWORD, nextIp())).statusCode).toBe(200);
  });

  it("an address's sign-in window ending does not wipe the lockout's count", async () => {
    const email = "still-locked@example.com";
    await createVerifiedAccount(t, email, nextIp);
    for (let attempt = 1; attempt <= LOCKOUT_FAILURES; attempt++) await signIn(t, email, `wrong ${attempt}`, nextIp());
    const now = Date.now();
    // The lockout's window began 14 minutes ago; an address's 5-minute sign-in window ended long ago.
    await t.database.db
      .update(rateLimits)
      .set({ lastRequest: now - 14 * 60_000 })
      .where(eq(rateLimits.key, `sign-in-lockout:${email}`));
    const ip = nextIp();
    await t.database.db.insert(rateLimits).values({ id: randomUUID(), key: `auth:/sign-in/email:${ip}`, count: 3, lastRequest: now - 30 * 60_000 });
    // That address signs in again: its window starts anew, and the lockout's count stays.
    expect((await signIn(t, "someone-else@example.com", "guess", ip)).statusCode).toBe(401);
    const locked = await signIn(t, email, PASSWORD, nextIp());
    expect(locked.statusCode, locked.body).toBe(429);
  });
});
