// The mail outbox's delivery: each message at most once, however many runners race for it, tried
// again with back-off while the mail server fails, then given up, visible and without its content.
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { jobs, mailOutbox } from "../db/schema.ts";
import { createMailTransport, type MailMessage, type MailTransport } from "../integrations/mail.ts";
import { createJobRunner, retryDelayMs } from "../jobs/queue.ts";
import { createTestUsers, ipAllocator, mailsTo } from "../testing/accounts.ts";
import { metricValue, scrapeMetrics, TEST_METRICS_TOKEN } from "../testing/metrics.ts";
import { createTestApp, type TestApp } from "../testing/test-app.ts";
import { createMailDeliveryJob, INTERRUPTED_AFTER_MS, MAIL_ATTEMPTS, MAIL_INTERRUPTED, MAIL_JOB } from "./outbox.ts";

const MINUTE = 60_000;

describe("mail outbox", () => {
  let t: TestApp;
  let adminCookie = "";
  beforeAll(async () => {
    t = await createTestApp({ seed: false, env: { METRICS_TOKEN: TEST_METRICS_TOKEN } });
    adminCookie = (await createTestUsers(t, ipAllocator(91), { admin: { plan: "admin" } }))("admin").cookie;
  });
  afterAll(() => t.close());

  const db = () => t.database.db;
  const message = (to: string, link = "https://academy.example/reset-password?token=secret-token"): MailMessage => ({
    to,
    subject: `A message for ${to}`,
    text: `Open ${link}`,
    html: `<a href="${link}">Open</a>`,
  });

  /** Queues in a transaction of the test's, so that nothing asks for it to go before the test does. */
  async function queue(...messages: MailMessage[]) {
    await db().transaction(async (tx) => {
      for (const mail of messages) await t.services.mailer.send(mail, tx);
    });
  }

  async function outboxRow(to: string) {
    const [row] = await db().select().from(mailOutbox).where(eq(mailOutbox.to, to));
    if (!row) throw new Error(`no outbox row to ${to}`);
    return row;
  }

  async function jobOf(to: string) {
    const { id } = await outboxRow(to);
    const [job] = await db().select().from(jobs).where(sql`${jobs.kind} = ${MAIL_JOB} and ${jobs.payload} = ${JSON.stringify({ mailId: id })}::jsonb`);
    if (!job) throw new Error(`no job for the mail to ${to}`);
    return job;
  }

  /** The development mailbox, counting what it is handed. */
  function countingMailbox() {
    const mailbox = createMailTransport({ env: t.services.env, db: db(), log: t.app.log });
    const delivered: string[] = [];
    const transport: MailTransport = {
      async deliver(mail) {
        delivered.push(mail.to);
        await mailbox.deliver(mail);
      },
      close() {},
    };
    return { transport, delivered };
  }

  /** A runner of its own, as another instance runs it, delivering through `transport`. */
  function runner(transport: MailTransport, now?: () => Date) {
    const handlers = { [MAIL_JOB]: createMailDeliveryJob({ db: db(), transport }) };
    const jobsRunner = createJobRunner({ db: db(), handlers, log: t.app.log, now });
    return { runDue: () => jobsRunner.runDue(MAIL_JOB) };
  }

  it("sends a message queued in a transaction once it commits, and never one whose transaction rolled back", async () => {
    await queue(message("committed@example.com"));
    await db()
      .transaction(async (tx) => {
        await t.services.mailer.send(message("rolled-back@example.com"), tx);
        tx.rollback();
      })
      .catch(() => {});
    expect(await mailsTo(t, "committed@example.com")).toHaveLength(1);
    expect(await mailsTo(t, "rolled-back@example.com")).toHaveLength(0);
    expect(await db().select().from(mailOutbox).where(eq(mailOutbox.to, "rolled-back@example.com"))).toEqual([]);
  });

  it("sends each message once when two instances' runners race for them", async () => {
    const recipients = Array.from({ length: 6 }, (_, index) => `raced-${index}@example.com`);
    await queue(...recipients.map((to) => message(to)));
    const first = countingMailbox();
    const second = countingMailbox();
    await Promise.all([runner(first.transport).runDue(), runner(second.transport).runDue()]);

    expect([...first.delivered, ...second.delivered].sort()).toEqual([...recipients].sort());
    for (const to of recipients) expect(await mailsTo(t, to), to).toHaveLength(1);
    // Sent, its content (and the link in it) gone from the database.
    expect(await outboxRow("raced-0@example.com")).toMatchObject({ status: "sent", text: "", html: "", attempts: 1, sentAt: expect.any(Date) });
  });

  it("sends a message once when its delivery is run twice at the same time", async () => {
    await queue(message("twice@example.com"));
    const { transport, delivered } = countingMailbox();
    const deliver = createMailDeliveryJob({ db: db(), transport });
    const { id } = await outboxRow("twice@example.com");
    const tries = { attempts: 1, maxAttempts: MAIL_ATTEMPTS };
    await Promise.allSettled([deliver({ mailId: id }, tries), deliver({ mailId: id }, tries)]);
    // Once sent, another run (a retry whose "done" was lost) sends nothing either.
    await deliver({ mailId: id }, { attempts: 2, maxAttempts: MAIL_ATTEMPTS });
    expect(delivered).toEqual(["twice@example.com"]);
    expect(await outboxRow("twice@example.com")).toMatchObject({ status: "sent", attempts: 1 });
  });

  it("tries a failing message again with back-off, then gives it up, shown to the admin without its content", async () => {
    const to = "never-reached@example.com";
    // The earlier tests' jobs are run first (the message run twice above left its job queued).
    await t.services.jobs.runDue(MAIL_JOB);
    await queue(message(to));
    let time = Date.now() + 1_000;
    const down: MailTransport = {
      async deliver() {
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:25"), { code: "ESOCKET", command: "CONN" });
      },
      close() {},
    };
    const failing = runner(down, () => new Date(time));

    for (let attempt = 1; attempt < MAIL_ATTEMPTS; attempt++) {
      expect(await failing.runDue()).toBe(1);
      const job = await jobOf(to);
      expect(job).toMatchObject({ status: "pending", attempts: attempt, maxAttempts: MAIL_ATTEMPTS });
      expect(job.runAt.getTime()).toBe(time + retryDelayMs(attempt));
      expect(await outboxRow(to)).toMatchObject({ status: "failing", attempts: attempt, lastError: "connect ECONNREFUSED 127.0.0.1:25" });
      // Not tried again before its time.
      time += retryDelayMs(attempt) - 1_000;
      expect(await failing.runDue()).toBe(0);
      time += 1_000;
    }
    const health = await t.app.inject({ method: "GET", url: "/api/health" });
    expect(health.json()).toMatchObject({ status: "degraded", mail: { failing: 1 } });

    // The last try fails too: given up, the message blanked, no longer "failing".
    expect(await failing.runDue()).toBe(1);
    expect((await jobOf(to)).status).toBe("failed");
    expect(await outboxRow(to)).toMatchObject({ status: "failed", attempts: MAIL_ATTEMPTS, text: "", html: "", headers: null });
    expect((await t.app.inject({ method: "GET", url: "/api/health" })).json()).toMatchObject({ status: "ok", mail: { failing: 0 } });
    const metrics = await scrapeMetrics(t);
    expect(metricValue(metrics, "mail_unsent", { status: "failed" })).toBe(1);
    expect(metricValue(metrics, "mail_unsent", { status: "failing" })).toBe(0);

    const listed = await t.app.inject({ method: "GET", url: "/api/admin/mail/unsent", headers: { cookie: adminCookie } });
    expect(listed.statusCode, listed.body).toBe(200);
    expect(listed.json()).toEqual({
      total: 1,
      messages: [
        {
          id: expect.any(Number),
          to,
          subject: `A message for ${to}`,
          status: "failed",
          attempts: MAIL_ATTEMPTS,
          lastError: "connect ECONNREFUSED 127.0.0.1:25",
          createdAt: expect.any(String),
        },
      ],
    });
    expect(await mailsTo(t, to)).toHaveLength(0);
    // Back-off: the ten tries spread over hours, not seconds.
    const spread = Array.from({ length: MAIL_ATTEMPTS - 1 }, (_, index) => retryDelayMs(index + 1)).reduce((a, b) => a + b);
    expect(spread).toBeGreaterThan(2 * 60 * MINUTE);
  });

  it("gives up a message left being sent by a process that died, and never sends it again", async () => {
    const [interrupted, underWay] = ["interrupted@example.com", "under-way@example.com"];
    await queue(message(interrupted), message(underWay));
    // One was claimed 20 minutes ago and never settled; the other a minute ago, maybe still going.
    const claimed = (minutes: number) => ({ status: "sending" as const, attempts: 1, claimedAt: new Date(Date.now() - minutes * MINUTE) });
    await db().update(mailOutbox).set(claimed(INTERRUPTED_AFTER_MS / MINUTE + 5)).where(eq(mailOutbox.to, interrupted));
    await db().update(mailOutbox).set(claimed(1)).where(eq(mailOutbox.to, underWay));

    const { transport, delivered } = countingMailbox();
    await runner(transport).runDue();
    expect(delivered).toEqual([]);
    expect(await outboxRow(interrupted)).toMatchObject({ status: "failed", lastError: MAIL_INTERRUPTED, text: "", html: "" });
    expect((await jobOf(interrupted)).status).toBe("done");
    // The recent one is left to its sender; the job comes back later to see what became of it.
    expect(await outboxRow(underWay)).toMatchObject({ status: "sending", attempts: 1 });
    expect(await jobOf(underWay)).toMatchObject({ status: "pending", attempts: 1 });
  });
});
