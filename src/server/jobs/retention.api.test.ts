import { randomUUID } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { runOperatorCommand } from "../cli/commands.ts";
import { devMail, jobs, loginFailures, mailOutbox, rateLimits, sessions, verifications } from "../db/schema.ts";
import { createTestUsers, ipAllocator, type TestUser } from "../testing/accounts.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { deleteExpiredRecords, RETENTION_SCHEDULE } from "./retention.ts";
import { createScheduler } from "./scheduler.ts";

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe("retention", () => {
  let t: TestApp;
  let learner: TestUser;
  const now = new Date();
  const ago = (ms: number) => new Date(now.getTime() - ms);

  beforeAll(async () => {
    t = await createTestApp({ seed: false });
    const user = await createTestUsers(t, ipAllocator(61), { learner: {} });
    learner = user("learner");
  });
  afterAll(() => t.close());

  /** Rows on both sides of every retention limit, each named by what it stands for. */
  async function seedRows() {
    const { db } = t.database;
    await db.delete(jobs).where(sql`true`);
    await db.delete(rateLimits).where(sql`true`);
    await db.delete(loginFailures).where(sql`true`);
    await db.delete(verifications).where(sql`true`);
    await db.delete(devMail).where(sql`true`);
    await db.delete(mailOutbox).where(sql`true`);
    await db.delete(sessions).where(sql`${sessions.expiresAt} < now()`);
    const job = (kind: string, status: "pending" | "running" | "done" | "failed", runAt: Date) => ({
      kind,
      payload: {},
      status,
      runAt,
      lockedAt: status === "running" ? runAt : null,
    });
    await db.insert(jobs).values([
      job("done-8-days-ago", "done", ago(8 * DAY)),
      job("done-yesterday", "done", ago(DAY)),
      job("failed-91-days-ago", "failed", ago(91 * DAY)),
      job("failed-30-days-ago", "failed", ago(30 * DAY)),
      // Waiting or under way, however old: never deleted.
      job("pending-for-100-days", "pending", ago(100 * DAY)),
      job("running-since-100-days", "running", ago(100 * DAY)),
    ]);
    await db.insert(rateLimits).values([
      { id: randomUUID(), key: "window-over-2-hours-ago", count: 9, lastRequest: now.getTime() - 2 * HOUR },
      { id: randomUUID(), key: "window-started-5-minutes-ago", count: 3, lastRequest: now.getTime() - 5 * MINUTE },
      { id: randomUUID(), key: "mail-window-started-14-minutes-ago", count: 3, lastRequest: now.getTime() - 14 * MINUTE },
    ]);
    await db.insert(loginFailures).values([
      { email: "two-days-ago@example.com", createdAt: ago(2 * DAY) },
      { email: "ten-minutes-ago@example.com", createdAt: ago(10 * MINUTE) },
    ]);
    await db.insert(verifications).values([
      { id: "expired", identifier: "reset-password:expired", value: learner.id, expiresAt: ago(MINUTE) },
      { id: "valid", identifier: "reset-password:valid", value: learner.id, expiresAt: new Date(now.getTime() + HOUR) },
    ]);
    await db.insert(sessions).values({
      id: "expired-session",
      userId: learner.id,
      token: randomUUID(),
      expiresAt: ago(MINUTE),
    });
    await db.insert(devMail).values([
      { to: "eight-days-ago@example.com", subject: "old", text: "", html: "", createdAt: ago(8 * DAY) },
      { to: "yesterday@example.com", subject: "recent", text: "", html: "", createdAt: ago(DAY) },
    ]);
    const mail = (to: string, status: "pending" | "failing" | "sent" | "failed", createdAt: Date, sentAt: Date | null = null) => ({
      to,
      subject: to,
      text: "",
      html: "",
      status,
      createdAt,
      sentAt,
    });
    await db.insert(mailOutbox).values([
      mail("sent-8-days-ago", "sent", ago(9 * DAY), ago(8 * DAY)),
      // Queued long ago, sent only yesterday: a week from its sending.
      mail("sent-yesterday", "sent", ago(10 * DAY), ago(DAY)),
      mail("failed-91-days-ago", "failed", ago(91 * DAY)),
      mail("failed-30-days-ago", "failed", ago(30 * DAY)),
      // Not settled, however old: never deleted.
      mail("pending-for-100-days", "pending", ago(100 * DAY)),
      mail("failing-for-100-days", "failing", ago(100 * DAY)),
    ]);
  }

  async function remaining() {
    const { db } = t.database;
    return {
      jobs: (await db.select({ kind: jobs.kind }).from(jobs)).map((row) => row.kind).sort(),
      rateLimits: (await db.select({ key: rateLimits.key }).from(rateLimits)).map((row) => row.key).sort(),
      loginFailures: (await db.select({ email: loginFailures.email }).from(loginFailures)).map((row) => row.email),
      verifications: (await db.select({ id: verifications.id }).from(verifications)).map((row) => row.id),
      expiredSessions: await db.select({ id: sessions.id }).from(sessions).where(eq(sessions.id, "expired-session")),
      devMail: (await db.select({ to: devMail.to }).from(devMail)).map((row) => row.to),
      mailOutbox: (await db.select({ to: mailOutbox.to }).from(mailOutbox)).map((row) => row.to).sort(),
    };
  }

  beforeEach(seedRows);

  it("deletes what is past its retention and keeps the rest, live sessions and unfinished jobs included", async () => {
    expect(await deleteExpiredRecords(t.database.db, now)).toEqual({
      doneJobs: 1,
      failedJobs: 1,
      rateLimits: 1,
      loginFailures: 1,
      verifications: 1,
      sessions: 1,
      devMail: 1,
      sentMail: 1,
      failedMail: 1,
    });
    expect(await remaining()).toEqual({
      jobs: ["done-yesterday", "failed-30-days-ago", "pending-for-100-days", "running-since-100-days"],
      rateLimits: ["mail-window-started-14-minutes-ago", "window-started-5-minutes-ago"],
      loginFailures: ["ten-minutes-ago@example.com"],
      verifications: ["valid"],
      expiredSessions: [],
      devMail: ["yesterday@example.com"],
      mailOutbox: ["failed-30-days-ago", "failing-for-100-days", "pending-for-100-days", "sent-yesterday"],
    });
    // The learner's own session is live and still signs them in.
    const progress = await t.app.inject({ method: "GET", url: "/api/progress", headers: { cookie: learner.cookie } });
    expect(progress.statusCode).toBe(200);
  });

  it("deletes a bounded number of rows a run, and the rest at the next runs", async () => {
    const old = now.getTime() - 2 * HOUR;
    await t.database.db
      .insert(rateLimits)
      .values(Array.from({ length: 4 }, (_, index) => ({ id: randomUUID(), key: `old-${index}`, count: 1, lastRequest: old })));
    const batch = { size: 2, perRun: 2 };
    expect((await deleteExpiredRecords(t.database.db, now, batch)).rateLimits).toBe(4);
    expect((await deleteExpiredRecords(t.database.db, now, batch)).rateLimits).toBe(1);
    expect((await deleteExpiredRecords(t.database.db, now, batch)).rateLimits).toBe(0);
    expect((await remaining()).rateLimits).toHaveLength(2);
  });

  it("runs hourly through the scheduler, and on demand as the prune command", async () => {
    const retention = RETENTION_SCHEDULE;
    expect(retention.everyMs).toBe(HOUR);
    const scheduler = createScheduler({ db: t.database.db, log: t.app.log, schedules: [retention], now: () => now });
    expect(await scheduler.runDue()).toEqual({ retention: "ran" });
    expect((await remaining()).loginFailures).toEqual(["ten-minutes-ago@example.com"]);

    await seedRows();
    expect(await runOperatorCommand(t.database.db, { name: "prune" })).toBe(
      "Deleted 1 finished jobs, 1 failed jobs, 1 rate-limit counters, 1 sign-in failures, 1 expired tokens, 1 expired sessions, 1 development mails, 1 sent emails, 1 emails given up.",
    );
  });
});
