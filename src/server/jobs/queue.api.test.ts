import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { jobs } from "../db/schema.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { createJobRunner, enqueueJob, retryDelayMs, type JobHandlers } from "./queue.ts";

const MINUTE = 60_000;

describe("job queue", () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ seed: false });
  });
  afterAll(() => t.close());
  beforeEach(async () => {
    await t.database.db.delete(jobs).where(sql`true`);
  });

  /** A clock the test moves by hand, starting a little after the database's "now". */
  function manualClock() {
    let time = Date.now() + 1_000;
    return {
      now: () => new Date(time),
      advance(ms: number) {
        time += ms;
      },
    };
  }

  function runner(handlers: JobHandlers, clock: { now: () => Date }) {
    return createJobRunner({ db: t.database.db, handlers, log: t.app.log, now: clock.now });
  }

  async function onlyJob() {
    const rows = await t.database.db.select().from(jobs);
    expect(rows).toHaveLength(1);
    const [job] = rows;
    if (!job) throw new Error("no job");
    return job;
  }

  it("retries a failing job later and marks it done once it succeeds", async () => {
    const clock = manualClock();
    const seen: unknown[] = [];
    let failuresLeft = 2;
    const jobsRunner = runner(
      {
        "test.flaky": async (payload) => {
          seen.push(payload);
          if (failuresLeft-- > 0) throw new Error(`flaky failure ${2 - failuresLeft}`);
        },
      },
      clock,
    );
    await enqueueJob(t.database.db, "test.flaky", { to: "ama@example.com" });
    expect(await onlyJob()).toMatchObject({ status: "pending", attempts: 0, lastError: null });

    // First try fails: back to pending, retried after retryDelayMs(1).
    expect(await jobsRunner.runDue()).toBe(1);
    let job = await onlyJob();
    expect(job).toMatchObject({ status: "pending", attempts: 1, lockedAt: null });
    expect(job.lastError).toBe("flaky failure 1");
    expect(job.runAt.getTime()).toBe(clock.now().getTime() + retryDelayMs(1));

    // Not due yet: nothing runs, even just before the delay is up.
    expect(await jobsRunner.runDue()).toBe(0);
    clock.advance(retryDelayMs(1) - 1_000);
    expect(await jobsRunner.runDue()).toBe(0);
    expect(seen).toHaveLength(1);

    // Second try, once due, fails again: the delay doubles.
    clock.advance(1_000);
    expect(await jobsRunner.runDue()).toBe(1);
    job = await onlyJob();
    expect(job).toMatchObject({ status: "pending", attempts: 2, lastError: "flaky failure 2" });
    expect(job.runAt.getTime()).toBe(clock.now().getTime() + retryDelayMs(2));
    expect(retryDelayMs(2)).toBeGreaterThan(retryDelayMs(1));

    // Third try succeeds.
    clock.advance(retryDelayMs(2));
    expect(await jobsRunner.runDue()).toBe(1);
    job = await onlyJob();
    expect(job).toMatchObject({ status: "done", attempts: 3, lastError: null, lockedAt: null });
    expect(seen).toEqual([
      { to: "ama@example.com" },
      { to: "ama@example.com" },
      { to: "ama@example.com" },
    ]);

    // Done is done.
    clock.advance(24 * 60 * MINUTE);
    expect(await jobsRunner.runDue()).toBe(0);
    expect(seen).toHaveLength(3);
  });

  it("fails a job of an unknown kind for good after its maximum attempts", async () => {
    const clock = manualClock();
    const jobsRunner = runner({}, clock);
    await enqueueJob(t.database.db, "test.unknown", {});
    const { maxAttempts } = await onlyJob();
    expect(maxAttempts).toBeGreaterThan(1);

    for (let attempt = 1; attempt <= maxAttempts; attempt++) {
      expect(await jobsRunner.runDue()).toBe(1);
      const job = await onlyJob();
      expect(job.attempts).toBe(attempt);
      expect(job.lastError).toBe('No handler for job kind "test.unknown"');
      expect(job.status).toBe(attempt < maxAttempts ? "pending" : "failed");
      clock.advance(retryDelayMs(attempt));
    }

    clock.advance(24 * 60 * MINUTE);
    expect(await jobsRunner.runDue()).toBe(0);
    expect(await onlyJob()).toMatchObject({ status: "failed", attempts: maxAttempts });
  });

  it("runs due jobs oldest first, and one failure does not block the others", async () => {
    const clock = manualClock();
    const order: string[] = [];
    const jobsRunner = runner(
      {
        "test.record": async (payload) => {
          const { name } = payload as { name: string };
          order.push(name);
          if (name === "second") throw new Error("boom");
        },
      },
      clock,
    );
    const db = t.database.db;
    const base = clock.now().getTime() - 10 * MINUTE;
    await db.insert(jobs).values([
      { kind: "test.record", payload: { name: "third" }, runAt: new Date(base + 3_000) },
      { kind: "test.record", payload: { name: "first" }, runAt: new Date(base + 1_000) },
      { kind: "test.record", payload: { name: "second" }, runAt: new Date(base + 2_000) },
      { kind: "test.record", payload: { name: "later" }, runAt: new Date(base + 20 * MINUTE) },
    ]);

    expect(await jobsRunner.runDue()).toBe(3);
    expect(order).toEqual(["first", "second", "third"]);
    const rows = await db.select({ payload: jobs.payload, status: jobs.status }).from(jobs);
    const statusByName = Object.fromEntries(
      rows.map((row) => [(row.payload as { name: string }).name, row.status]),
    );
    expect(statusByName).toEqual({
      first: "done",
      second: "pending",
      third: "done",
      later: "pending",
    });
  });

  it("picks up a job whose worker died mid-run after the lock goes stale", async () => {
    const clock = manualClock();
    let runs = 0;
    const jobsRunner = runner(
      {
        "test.once": async () => {
          runs++;
        },
      },
      clock,
    );
    await enqueueJob(t.database.db, "test.once", {});
    const { id } = await onlyJob();
    await t.database.db
      .update(jobs)
      .set({ status: "running", attempts: 1, lockedAt: new Date(clock.now().getTime() - MINUTE) })
      .where(eq(jobs.id, id));

    // Locked a minute ago: another worker may still be on it.
    expect(await jobsRunner.runDue()).toBe(0);
    expect(runs).toBe(0);

    clock.advance(5 * MINUTE);
    expect(await jobsRunner.runDue()).toBe(1);
    expect(runs).toBe(1);
    expect(await onlyJob()).toMatchObject({ status: "done", attempts: 2, lockedAt: null });
  });

  it("never hands a job to a second worker while the first is still running it, however long", async () => {
    const clock = manualClock();
    let runs = 0;
    let finish = () => {};
    const finished = new Promise<void>((resolve) => {
      finish = resolve;
    });
    const handlers: JobHandlers = {
      "test.slow": async () => {
        runs++;
        await finished;
      },
    };
    const first = createJobRunner({ db: t.database.db, handlers, log: t.app.log, now: clock.now, lockRenewalMs: 20 });
    const second = runner(handlers, clock);
    await enqueueJob(t.database.db, "test.slow", {});

    const firstRun = first.runDue();
    await expect.poll(() => runs).toBe(1);
    // Ten minutes into the run, the first worker has renewed its lock: the job is not stale.
    clock.advance(10 * MINUTE);
    await expect.poll(async () => (await onlyJob()).lockedAt?.getTime()).toBe(clock.now().getTime());
    expect(await second.runDue()).toBe(0);

    finish();
    expect(await firstRun).toBe(1);
    expect(runs).toBe(1);
    expect(await onlyJob()).toMatchObject({ status: "done", attempts: 1, lockedAt: null });
  });

  it("shares one drain between concurrent callers, running each job once", async () => {
    const clock = manualClock();
    let runs = 0;
    const jobsRunner = runner(
      {
        "test.count": async () => {
          runs++;
        },
      },
      clock,
    );
    for (let i = 0; i < 3; i++) await enqueueJob(t.database.db, "test.count", { i });
    const [a, b] = await Promise.all([jobsRunner.runDue(), jobsRunner.runDue()]);
    expect(a).toBe(3);
    expect(b).toBe(3);
    expect(runs).toBe(3);
  });

  it("queues nothing when the transaction that queued it rolls back", async () => {
    await t.database.db
      .transaction(async (tx) => {
        await enqueueJob(tx, "test.rolled-back", {});
        throw new Error("rollback");
      })
      .catch(() => undefined);
    expect(await t.database.db.select().from(jobs)).toEqual([]);
  });

  it("runs only one kind's due jobs when asked for that kind, telling each handler which try it is", async () => {
    const clock = manualClock();
    const ran: string[] = [];
    const tries: unknown[] = [];
    const jobsRunner = runner(
      {
        "test.mail": async (_payload, job) => {
          ran.push("mail");
          tries.push(job);
        },
        "test.other": async () => {
          ran.push("other");
        },
      },
      clock,
    );
    await enqueueJob(t.database.db, "test.other", {});
    await enqueueJob(t.database.db, "test.mail", {}, { maxAttempts: 3 });
    expect(await jobsRunner.runDue("test.mail")).toBe(1);
    expect(ran).toEqual(["mail"]);
    expect(tries).toEqual([{ attempts: 1, maxAttempts: 3 }]);
    expect((await t.database.db.select().from(jobs).where(eq(jobs.kind, "test.other")))[0]?.status).toBe("pending");
    expect(await jobsRunner.runDue()).toBe(1);
    expect(ran).toEqual(["mail", "other"]);
  });

  it("a job queued while a drain is running another is run before the caller who asked for it is answered", async () => {
    const clock = manualClock();
    const ran: string[] = [];
    let releaseFirst: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const jobsRunner = runner(
      {
        "test.mail": async (payload) => {
          const { n } = payload as { n: number };
          if (n === 1) await firstHeld;
          ran.push(`mail ${n}`);
        },
      },
      clock,
    );
    await enqueueJob(t.database.db, "test.mail", { n: 1 });
    const first = jobsRunner.runDue("test.mail");
    await vi.waitFor(async () => expect((await onlyJob()).status).toBe("running"));
    // The drain holds the first message while the second is queued and asked for.
    await enqueueJob(t.database.db, "test.mail", { n: 2 });
    const second = jobsRunner.runDue("test.mail");
    releaseFirst();
    await second;
    expect(ran).toEqual(["mail 1", "mail 2"]);
    expect(await first).toBe(2);
  });

  it("asked for one kind while the drain of every kind is running a job of it, waits for that job", async () => {
    const clock = manualClock();
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    let sent = false;
    const jobsRunner = runner(
      {
        "test.mail": async () => {
          await held;
          sent = true;
        },
      },
      clock,
    );
    await enqueueJob(t.database.db, "test.mail", {});
    const everything = jobsRunner.runDue();
    await vi.waitFor(async () => expect((await onlyJob()).status).toBe("running"));
    const mailOnly = jobsRunner.runDue("test.mail");
    setTimeout(release, 50);
    // Nothing was left for this drain to claim; it still resolves only once the message is sent.
    expect(await mailOnly).toBe(0);
    expect(sent).toBe(true);
    expect(await everything).toBe(1);
  });
});
