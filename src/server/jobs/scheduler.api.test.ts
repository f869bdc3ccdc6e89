// Scheduled work runs once per period, however many instances check it (on PostgreSQL, two
// schedulers here stand for two instances: each transaction is on its own pooled connection).
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { auditLog, config, jobs, subscriptionReminders, users } from "../db/schema.ts";
import { expireSubscriptions, EXPIRY_REMINDER_JOB } from "../features/billing/billing-expiry.ts";
import { testDatabaseKind } from "../testing/test-database.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { BILLING_SCHEDULES } from "../features/billing/billing.feature.ts";
import { createScheduler, type Schedule } from "./scheduler.ts";

const MINUTE = 60_000;
const onPostgres = testDatabaseKind() === "postgres";

describe("scheduler", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.delete(config).where(sql`${config.key} like 'schedule:%'`);
  });

  function clockAt(start: number) {
    let time = start;
    return {
      now: () => new Date(time),
      advance(ms: number) {
        time += ms;
      },
    };
  }

  function counting(name: string, everyMs = 15 * MINUTE) {
    const schedule = {
      runs: 0,
      name,
      everyMs,
      async run() {
        schedule.runs++;
      },
    };
    return schedule;
  }

  it("runs a schedule once per period, counted from its last run", async () => {
    const clock = clockAt(Date.now());
    const schedule = counting("test-period");
    const scheduler = createScheduler({ db: t.database.db, log: t.app.log, schedules: [schedule], now: clock.now });

    expect(await scheduler.runDue()).toEqual({ "test-period": "ran" });
    clock.advance(15 * MINUTE - 1);
    expect(await scheduler.runDue()).toEqual({ "test-period": "not-due" });
    clock.advance(1);
    expect(await scheduler.runDue()).toEqual({ "test-period": "ran" });
    expect(schedule.runs).toBe(2);
  });

  it("runs it once when two instances check at the same moment", async () => {
    const clock = clockAt(Date.now());
    const schedule = counting("test-together");
    const schedulers = [1, 2].map(() =>
      createScheduler({ db: t.database.db, log: t.app.log, schedules: [schedule], now: clock.now }),
    );
    const outcomes = await Promise.all(schedulers.map((scheduler) => scheduler.runDue()));
    expect(schedule.runs).toBe(1);
    expect(outcomes.filter((outcome) => outcome["test-together"] === "ran")).toHaveLength(1);
  });

  it("keeps no trace of a failed run: the next check tries again", async () => {
    const clock = clockAt(Date.now());
    let failuresLeft = 1;
    const schedule: Schedule = {
      name: "test-failing",
      everyMs: 15 * MINUTE,
      async run(tx) {
        await tx.insert(config).values({ key: "schedule-test-written", value: {} });
        if (failuresLeft-- > 0) throw new Error("boom");
      },
    };
    const scheduler = createScheduler({ db: t.database.db, log: t.app.log, schedules: [schedule], now: clock.now });
    expect(await scheduler.runDue()).toEqual({ "test-failing": "failed" });
    expect(await t.database.db.select().from(config).where(eq(config.key, "schedule-test-written"))).toEqual([]);
    expect(await scheduler.runDue()).toEqual({ "test-failing": "ran" });
    await t.database.db.delete(config).where(eq(config.key, "schedule-test-written"));
  });

  it.runIf(onPostgres)("skips a schedule another instance is running, without waiting for it", async () => {
    const clock = clockAt(Date.now());
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    let entered = () => {};
    const running = new Promise<void>((resolve) => {
      entered = resolve;
    });
    const slow: Schedule = {
      name: "test-busy",
      everyMs: 15 * MINUTE,
      async run() {
        entered();
        await held;
      },
    };
    const first = createScheduler({ db: t.database.db, log: t.app.log, schedules: [slow], now: clock.now });
    const second = createScheduler({ db: t.database.db, log: t.app.log, schedules: [slow], now: clock.now });
    const firstRun = first.runDue();
    await running;
    expect(await second.runDue()).toEqual({ "test-busy": "busy" });
    release();
    expect(await firstRun).toEqual({ "test-busy": "ran" });
  });

  it("ends a lapsed paid month once, with one audit entry and one reminder, however many run it", async () => {
    const db = t.database.db;
    const now = new Date();
    const end = new Date(now.getTime() - MINUTE);
    await db.insert(users).values({
      id: "lapsed",
      email: "lapsed@example.com",
      subscriptionPlan: "intermediate",
      subscriptionStatus: "active",
      subscriptionStart: new Date(end.getTime() - 30 * 24 * 60 * MINUTE),
      subscriptionEnd: end,
    });
    const expiry = BILLING_SCHEDULES.find((schedule) => schedule.name === "expiry");
    if (!expiry) throw new Error("no expiry schedule");
    const instances = [1, 2].map(() =>
      createScheduler({ db, log: t.app.log, schedules: [expiry], now: () => now }),
    );
    // Two instances' schedules and two operator commands, all at once.
    const ended = await Promise.all([
      ...instances.map((scheduler) => scheduler.runDue()),
      expireSubscriptions(db, now),
      expireSubscriptions(db, now),
    ]);
    expect(ended.filter((outcome) => typeof outcome === "object" && outcome.expiry === "ran")).toHaveLength(1);

    const [user] = await db.select().from(users).where(eq(users.id, "lapsed"));
    expect(user?.subscriptionStatus).toBe("expired");
    const audits = await db.select().from(auditLog).where(eq(auditLog.subjectUserId, "lapsed"));
    expect(audits.map((entry) => entry.action)).toEqual(["subscription.expired"]);
    const reminders = await db.select().from(subscriptionReminders).where(eq(subscriptionReminders.userId, "lapsed"));
    expect(reminders.map((reminder) => reminder.kind)).toEqual(["expired"]);
    const queued = await db.select().from(jobs).where(eq(jobs.kind, EXPIRY_REMINDER_JOB));
    expect(queued.filter((job) => (job.payload as { userId: string }).userId === "lapsed")).toHaveLength(1);
  });
});
