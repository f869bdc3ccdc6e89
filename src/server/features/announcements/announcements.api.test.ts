// Announcements (docs/admin.md, "Announcements"): who an audience reaches, what is refused, and the
// send job as learners notice it: one email each, even when started twice, throttled, resumed after
// a kill, and never to someone who unsubscribed.
import { randomUUID } from "node:crypto";
import { and, count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ANNOUNCEMENT_MESSAGES, type Audience } from "../../../shared/contracts/announcements.ts";
import {
  announcementDeliveries,
  announcements,
  announcementUnsubscribes,
  auditLog,
  certificates,
  devMail,
  jobs,
  userProgress,
  users,
} from "../../db/schema.ts";
import { createMailTransport, type MailMessage, type MailTransport } from "../../integrations/mail.ts";
import { createJobRunner } from "../../jobs/queue.ts";
import { createTestUsers, forgotPassword, ipAllocator, linkIn, mailsTo, type TestUser } from "../../testing/accounts.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { placeOnWaitlist } from "../../testing/waitlist.ts";
import { INTERRUPTED_AFTER_MS, UNREACHABLE_RETRY_MS, createAnnouncementSender } from "./announcements-sender.ts";
import { ANNOUNCEMENT_JOB, startAnnouncement } from "./announcements.service.ts";
import { startSmtpSink, type SmtpSink } from "../../testing/smtp-sink.ts";

const nextIp = ipAllocator(71);
const MINUTE = 60_000;

type Learner = { id: string; email: string };

describe("announcements", () => {
  let t: TestApp;
  let user: (key: "admin" | "learner") => TestUser;

  beforeAll(async () => {
    t = await createTestApp();
    user = await createTestUsers(t, nextIp, { admin: { plan: "admin" }, learner: { plan: "intermediate" } });
  });
  afterAll(() => t.close());

  const db = () => t.database.db;

  /** Verified learners written straight into users, `${prefix}-{n}@example.com`. */
  async function addLearners(prefix: string, n: number, fields: Partial<typeof users.$inferInsert> = {}): Promise<Learner[]> {
    const rows = Array.from({ length: n }, (_, i) => ({
      id: `${prefix}-${i + 1}`,
      email: `${prefix}-${i + 1}@example.com`,
      name: `Learner ${i + 1}`,
      emailVerified: true,
      ...fields,
    }));
    await db().insert(users).values(rows);
    return rows.map(({ id, email }) => ({ id, email }));
  }

  /** Learners in a cohort of their own, which is the audience of the job tests. */
  async function cohortOf(name: string, n: number): Promise<{ audience: Audience; learners: Learner[] }> {
    const learners = await addLearners(name.toLowerCase().replace(/\s+/g, "-"), n);
    await placeOnWaitlist(db(), learners.map((learner) => ({ userId: learner.id, plan: "intermediate" as const, cohort: name })));
    return { audience: { kind: "cohort", cohort: name }, learners };
  }

  function adminCall(method: "GET" | "POST", url: string, payload?: object) {
    return t.app.inject({ method, url, headers: { cookie: user("admin").cookie }, ...(payload === undefined ? {} : { payload }) });
  }

  const draft = (audience: Audience, overrides: Record<string, unknown> = {}) => ({
    subject: "New cohort dates",
    body: "The July cohort starts on the 1st.\n\nSee you there.",
    audience,
    ...overrides,
  });

  async function mailCounts(learners: Learner[]): Promise<number[]> {
    return Promise.all(learners.map(async (learner) => (await mailsTo(t, learner.email)).length));
  }

  const devMailbox = (): MailTransport => createMailTransport({ env: t.services.env, db: db(), log: t.app.log });

  /**
   * A job runner of its own, as another process would run it: its clock, its mail transport, its
   * limit. It runs the announcement jobs only, leaving the account emails' to the app.
   */
  function senderRunner(options: { transport?: MailTransport; now?: () => Date; mailsPerMinute?: number } = {}) {
    const now = options.now ?? (() => new Date());
    const sender = createAnnouncementSender({
      db: db(),
      transport: options.transport ?? devMailbox(),
      appUrl: t.services.env.appUrl,
      secret: t.services.env.authSecret,
      mailsPerMinute: options.mailsPerMinute ?? 120,
      now,
    });
    const runner = createJobRunner({ db: db(), handlers: { [ANNOUNCEMENT_JOB]: sender }, log: t.app.log, now, lockRenewalMs: 60 * MINUTE });
    return { runDue: () => runner.runDue(ANNOUNCEMENT_JOB) };
  }

  async function deliveryStatuses(announcementId: string) {
    return db()
      .select({ email: announcementDeliveries.email, status: announcementDeliveries.status, error: announcementDeliveries.error })
      .from(announcementDeliveries)
      .where(eq(announcementDeliveries.announcementId, announcementId))
      .orderBy(announcementDeliveries.email);
  }

  function pendingJobsOf(announcementId: string) {
    return db()
      .select()
      .from(jobs)
      .where(and(eq(jobs.kind, ANNOUNCEMENT_JOB), eq(jobs.status, "pending"), sql`${jobs.payload}->>'announcementId' = ${announcementId}`));
  }

  async function announcementRow(id: string) {
    const [row] = await db().select().from(announcements).where(eq(announcements.id, id));
    return row;
  }

  it("counts each audience in the database, only verified learners who did not unsubscribe", async () => {
    // Everyone the other audiences are made of, plus people no audience ever holds.
    await addLearners("aud-free", 2);
    await addLearners("aud-noplan", 1, { subscriptionPlan: null });
    await addLearners("aud-lapsed", 1, { subscriptionPlan: "intermediate", subscriptionStatus: "expired" });
    await addLearners("aud-inter", 3, { subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    await addLearners("aud-adv", 2, { subscriptionPlan: "advanced", subscriptionStatus: "active" });
    await addLearners("aud-unverified", 1, { emailVerified: false });
    await addLearners("aud-staff", 1, { subscriptionPlan: "admin", subscriptionStatus: "active" });
    const [gone] = await addLearners("aud-unsubscribed", 1);
    await db().insert(announcementUnsubscribes).values({ userId: gone?.id ?? "" });
    const waiting = await addLearners("aud-waiting", 2, { waitlistPaid: true });
    const admitted = await addLearners("aud-admitted", 1, { waitlistPaid: true, waitlistAdmitted: true });
    await placeOnWaitlist(db(), [
      ...waiting.map((w) => ({ userId: w.id, plan: "advanced" as const, cohort: "October 2031" })),
      ...admitted.map((w) => ({ userId: w.id, plan: "advanced" as const, cohort: "October 2031", admitted: true })),
    ]);
    const [started, finished, revoked] = await addLearners("aud-progress", 3);
    for (const learner of [started, finished, revoked]) {
      await db().insert(userProgress).values({ userId: learner?.id ?? "", programId: "intermediate", data: { m: true }, startedAt: new Date() });
    }
    await db().insert(certificates).values([
      { id: "TA-AUD0000001", userId: finished?.id ?? "", holderName: "F", programId: "intermediate", programTitle: "Intermediate" },
      { id: "TA-AUD0000002", userId: revoked?.id ?? "", holderName: "R", programId: "intermediate", programTitle: "Intermediate", revokedAt: new Date() },
    ]);

    const reach = async (audience: Audience) => {
      const response = await adminCall("POST", "/api/admin/announcements/preview", draft(audience));
      expect(response.statusCode, response.body).toBe(200);
      return response.json<{ recipients: number }>().recipients;
    };
    // The test learner from createTestUsers is on an active intermediate plan; the admin is never counted.
    const everyone = await reach({ kind: "everyone" });
    expect(await reach({ kind: "plan", plan: "intermediate" })).toBe(3 + 1);
    expect(await reach({ kind: "plan", plan: "advanced" })).toBe(2);
    expect(await reach({ kind: "cohort", cohort: "October 2031" })).toBe(3);
    expect(await reach({ kind: "waitlist" })).toBe(2);
    expect(await reach({ kind: "unfinished", program: "intermediate" })).toBe(2);
    expect(await reach({ kind: "plan", plan: "free" })).toBe(everyone - 4 - 2);
    const [all] = await db().select({ n: count() }).from(users);
    // Unverified, admins (the test admin and aud-staff) and the unsubscribed one are left out.
    expect(everyone).toBe((all?.n ?? 0) - 1 - 2 - 1);
  });

  it("previews the email as the administrator would receive it, escaped, with the unsubscribe link", async () => {
    const { audience } = await cohortOf("January 2032", 2);
    const response = await adminCall("POST", "/api/admin/announcements/preview", draft(audience, { body: "Line one\nline two <b>bold</b>\n\nSecond paragraph" }));
    expect(response.statusCode, response.body).toBe(200);
    const preview = response.json<{ recipients: number; email: { subject: string; text: string; html: string } }>();
    expect(preview.recipients).toBe(2);
    expect(preview.email.subject).toBe("New cohort dates");
    expect(preview.email.text).toContain("Line one\nline two <b>bold</b>\n\nSecond paragraph");
    expect(preview.email.text).toContain(ANNOUNCEMENT_MESSAGES.footer);
    expect(preview.email.html).toContain("line two &#60;b&#62;bold&#60;/b&#62;");
    expect(preview.email.html).not.toContain("<b>bold</b>");
    const link = linkIn(preview.email.text, "/unsubscribe");
    expect(link.searchParams.get("token")).toMatch(new RegExp(`^${user("admin").id}\\.`));
    // A preview sends nothing and starts nothing.
    expect(await db().select({ n: count() }).from(announcements)).toEqual([{ n: 0 }]);
  });

  it("refuses bad input with a clear message, and an audience of nobody with nothing created", async () => {
    const { audience } = await cohortOf("April 2032", 1);
    const refusals: [Record<string, unknown>, number, string][] = [
      [draft(audience, { subject: "   " }), 400, ANNOUNCEMENT_MESSAGES.subjectRequired],
      [draft(audience, { body: "\n \n" }), 400, ANNOUNCEMENT_MESSAGES.bodyRequired],
      [draft(audience, { subject: "x".repeat(151) }), 400, ANNOUNCEMENT_MESSAGES.subjectTooLong],
      [draft(audience, { body: "x".repeat(5001) }), 400, ANNOUNCEMENT_MESSAGES.bodyTooLong],
      [draft(audience, { subject: "Two\nlines" }), 400, ANNOUNCEMENT_MESSAGES.subjectOneLine],
      [draft({ kind: "plan" } as unknown as Audience), 400, ANNOUNCEMENT_MESSAGES.planRequired],
      [draft({ kind: "unfinished" } as unknown as Audience), 400, ANNOUNCEMENT_MESSAGES.programRequired],
      [draft({ kind: "unfinished", program: "" }), 400, ANNOUNCEMENT_MESSAGES.programRequired],
      [draft({ kind: "unfinished", program: "expert" }), 400, ANNOUNCEMENT_MESSAGES.noSuchProgram("expert")],
      [draft({ kind: "somebody" } as unknown as Audience), 400, ANNOUNCEMENT_MESSAGES.audienceRequired],
      [draft({ kind: "cohort", cohort: "May 1999" }), 400, ANNOUNCEMENT_MESSAGES.noSuchCohort("May 1999")],
      [draft({ kind: "unfinished", program: "advanced" }), 422, ANNOUNCEMENT_MESSAGES.nobody],
    ];
    for (const [payload, status, message] of refusals) {
      for (const url of ["/api/admin/announcements/preview", "/api/admin/announcements"]) {
        const response = await adminCall("POST", url, { id: randomUUID(), ...payload });
        // The preview counts an empty audience (0); only sending refuses it.
        if (url.endsWith("preview") && status === 422) {
          expect(response.json()).toMatchObject({ recipients: 0 });
          continue;
        }
        expect(response.statusCode, `${url} ${JSON.stringify(payload).slice(0, 80)}`).toBe(status);
        expect(response.json().error.message).toBe(message);
      }
    }
    const missingId = await adminCall("POST", "/api/admin/announcements", draft(audience));
    expect(missingId.statusCode).toBe(400);
    expect(await db().select({ n: count() }).from(announcements)).toEqual([{ n: 0 }]);
    expect(await db().select({ n: count() }).from(announcementDeliveries)).toEqual([{ n: 0 }]);
    expect(await db().select({ n: count() }).from(jobs).where(eq(jobs.kind, ANNOUNCEMENT_JOB))).toEqual([{ n: 0 }]);
    expect(await db().select({ n: count() }).from(auditLog).where(eq(auditLog.action, "announcement.sent"))).toEqual([{ n: 0 }]);
  });

  it("sends one email to each learner even when the same announcement is started twice, and shows the progress", async () => {
    const { audience, learners } = await cohortOf("July 2032", 4);
    const id = randomUUID();
    const [first, second] = await Promise.all([
      adminCall("POST", "/api/admin/announcements", { id, ...draft(audience) }),
      adminCall("POST", "/api/admin/announcements", { id, ...draft(audience) }),
    ]);
    expect([first?.statusCode, second?.statusCode].sort()).toEqual([200, 201]);
    const again = await adminCall("POST", "/api/admin/announcements", { id, ...draft(audience) });
    expect(again.statusCode).toBe(200);
    expect(again.json().announcement).toMatchObject({ id, recipients: 4, subject: "New cohort dates" });
    await t.services.jobs.runDue();

    expect(await mailCounts(learners)).toEqual([1, 1, 1, 1]);
    const [mail] = await mailsTo(t, learners[0]?.email ?? "");
    expect(mail?.subject).toBe("New cohort dates");
    expect(mail?.text).toContain("Hello Learner 1,");
    expect(mail?.text).toContain("The July cohort starts on the 1st.");
    expect(linkIn(mail?.text ?? "", "/unsubscribe").searchParams.get("token")).toMatch(new RegExp(`^${learners[0]?.id}\\.`));

    const shown = await adminCall("GET", `/api/admin/announcements/${id}`);
    expect(shown.json().announcement).toMatchObject({ status: "done", recipients: 4, sent: 4, failed: 0, pending: 0, sentBy: user("admin").email });
    expect(shown.json().announcement.finishedAt).not.toBeNull();
    const audits = await db().select().from(auditLog).where(eq(auditLog.action, "announcement.sent"));
    expect(audits).toEqual([expect.objectContaining({ actorId: user("admin").id, changes: expect.objectContaining({ announcement: id, recipients: 4 }) })]);

    // Running the queue again, or a second job for it, sends nothing more.
    await t.services.jobs.runDue();
    await db().insert(jobs).values({ kind: ANNOUNCEMENT_JOB, payload: { announcementId: id } });
    await t.services.jobs.runDue();
    expect(await mailCounts(learners)).toEqual([1, 1, 1, 1]);
  });

  it("two workers on the same announcement at once mail each learner once", async () => {
    const { audience, learners } = await cohortOf("October 2032", 12);
    const { announcement } = await startAnnouncement(db(), { id: randomUUID(), ...draft(audience) }, user("admin").id);
    await db().insert(jobs).values({ kind: ANNOUNCEMENT_JOB, payload: { announcementId: announcement.id } });
    await Promise.all([senderRunner().runDue(), senderRunner().runDue()]);
    expect(await mailCounts(learners)).toEqual(learners.map(() => 1));
    expect((await announcementRow(announcement.id))?.status).toBe("done");
  });

  it("an announcement resumed after a kill sends the remaining mails once each", async () => {
    const { audience, learners } = await cohortOf("January 2033", 6);
    const { announcement } = await startAnnouncement(db(), { id: randomUUID(), ...draft(audience) }, user("admin").id);

    // The first process sends two emails, then dies while sending the third: it never returns.
    const killedAt = new Date();
    const mailbox = devMailbox();
    let calls = 0;
    const dying: MailTransport = {
      async deliver(message: MailMessage) {
        calls++;
        if (calls === 3) return new Promise<void>(() => {});
        await mailbox.deliver(message);
      },
      close() {},
    };
    void senderRunner({ transport: dying, now: () => killedAt }).runDue();
    await expect.poll(() => calls).toBe(3);
    const statuses = async () => (await deliveryStatuses(announcement.id)).map((d) => d.status);
    expect((await statuses()).sort()).toEqual(["pending", "pending", "pending", "sending", "sent", "sent"]);

    // Six minutes on, another process takes the job over (its lock is stale) and sends the rest. The
    // row left "sending" is too recent to call interrupted, so the announcement is not done yet.
    const restartedAt = new Date(killedAt.getTime() + 6 * MINUTE);
    await senderRunner({ now: () => restartedAt }).runDue();
    expect((await statuses()).sort()).toEqual(["sending", "sent", "sent", "sent", "sent", "sent"]);
    expect((await announcementRow(announcement.id))?.status).toBe("running");

    // The job it queued comes back once that row is old enough: failed, never sent twice.
    const later = new Date(killedAt.getTime() + INTERRUPTED_AFTER_MS + 2_000);
    await senderRunner({ now: () => later }).runDue();
    const counts = await mailCounts(learners);
    expect(counts.filter((n) => n === 1)).toHaveLength(5);
    expect(counts.filter((n) => n === 0)).toHaveLength(1);
    const failures = await adminCall("GET", `/api/admin/announcements/${announcement.id}/failures`);
    const interrupted = learners[counts.indexOf(0)];
    expect(failures.json()).toMatchObject({ total: 1, failures: [{ email: interrupted?.email, error: ANNOUNCEMENT_MESSAGES.interrupted }] });
    expect(await announcementRow(announcement.id)).toMatchObject({ status: "done" });
    const shown = await adminCall("GET", `/api/admin/announcements/${announcement.id}`);
    expect(shown.json().announcement).toMatchObject({ sent: 5, failed: 1, pending: 0 });
  });

  it("keeps to the mails-per-minute limit and comes back for the rest a minute later", async () => {
    const { audience, learners } = await cohortOf("April 2033", 5);
    const { announcement } = await startAnnouncement(db(), { id: randomUUID(), ...draft(audience) }, user("admin").id);
    // Later than every clock the tests before moved to, so that their claims are not in this minute.
    let clock = new Date(Date.now() + 30 * MINUTE);
    const runner = senderRunner({ now: () => clock, mailsPerMinute: 3 });

    await runner.runDue();
    expect((await mailCounts(learners)).reduce((a, b) => a + b)).toBe(3);
    const [next] = await pendingJobsOf(announcement.id);
    expect(next?.runAt.getTime()).toBeGreaterThan(clock.getTime() + 55_000);

    // Nothing more within the minute.
    clock = new Date(clock.getTime() + 30_000);
    expect(await runner.runDue()).toBe(0);
    clock = new Date(clock.getTime() + 31_000);
    await runner.runDue();
    expect(await mailCounts(learners)).toEqual([1, 1, 1, 1, 1]);
    expect((await announcementRow(announcement.id))?.status).toBe("done");
  });

  it("keeps the rows for later when the mail server cannot be reached, and records a refused address as a failure", async () => {
    const { audience, learners } = await cohortOf("July 2033", 3);
    const { announcement } = await startAnnouncement(db(), { id: randomUUID(), ...draft(audience) }, user("admin").id);
    const clock = new Date(Date.now() + 60 * MINUTE);
    const down: MailTransport = {
      async deliver() {
        throw Object.assign(new Error("connect ECONNREFUSED 127.0.0.1:1"), { code: "ESOCKET", command: "CONN" });
      },
      close() {},
    };
    await senderRunner({ transport: down, now: () => clock }).runDue();
    expect((await deliveryStatuses(announcement.id)).map((d) => d.status)).toEqual(["pending", "pending", "pending"]);
    const [retry] = await pendingJobsOf(announcement.id);
    expect(retry?.runAt.getTime()).toBe(clock.getTime() + UNREACHABLE_RETRY_MS);

    // Back up, the server refuses one address for good: that one is a failure with the reason.
    const mailbox = devMailbox();
    const refused = learners[1]?.email;
    const picky: MailTransport = {
      async deliver(message) {
        if (message.to === refused) throw Object.assign(new Error("550 5.1.1 Mailbox does not exist"), { code: "EENVELOPE", command: "RCPT TO", responseCode: 550 });
        await mailbox.deliver(message);
      },
      close() {},
    };
    await senderRunner({ transport: picky, now: () => new Date(clock.getTime() + UNREACHABLE_RETRY_MS) }).runDue();
    expect(await mailCounts(learners)).toEqual([1, 0, 1]);
    const failures = await adminCall("GET", `/api/admin/announcements/${announcement.id}/failures`);
    expect(failures.json()).toMatchObject({ total: 1, failures: [{ email: refused, error: "550 5.1.1 Mailbox does not exist" }] });
    expect((await announcementRow(announcement.id))?.status).toBe("done");
  });

  it("unsubscribes with the emailed link or a mail program's one-click post, and still sends account emails", async () => {
    const { audience, learners } = await cohortOf("October 2033", 3);
    const id = randomUUID();
    expect((await adminCall("POST", "/api/admin/announcements", { id, ...draft(audience) })).statusCode).toBe(201);
    await t.services.jobs.runDue();
    const tokenOf = async (learner: Learner | undefined) => {
      const [mail] = await mailsTo(t, learner?.email ?? "");
      return linkIn(mail?.text ?? "", "/unsubscribe").searchParams.get("token") ?? "";
    };
    const [first, second, third] = learners;

    const viaPage = await t.app.inject({ method: "POST", url: "/api/announcements/unsubscribe", payload: { token: await tokenOf(first) } });
    expect(viaPage.statusCode, viaPage.body).toBe(200);
    expect(viaPage.json()).toEqual({ ok: true, message: ANNOUNCEMENT_MESSAGES.unsubscribed });
    // Twice is the same as once.
    expect((await t.app.inject({ method: "POST", url: "/api/announcements/unsubscribe", payload: { token: await tokenOf(first) } })).statusCode).toBe(200);

    // RFC 8058: the mail program posts a form from its own servers, without an Origin.
    const oneClick = await t.app.inject({
      method: "POST",
      url: `/api/announcements/one-click-unsubscribe?${new URLSearchParams({ token: await tokenOf(second) })}`,
      headers: { origin: undefined, "content-type": "application/x-www-form-urlencoded" },
      payload: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.statusCode, oneClick.body).toBe(200);

    for (const token of ["", "nonsense", `${third?.id}.forged`, `${first?.id ?? ""}x.${(await tokenOf(third)).split(".")[1]}`]) {
      const refused = await t.app.inject({ method: "POST", url: "/api/announcements/unsubscribe", payload: { token } });
      expect(refused.statusCode, token).toBe(400);
      expect(refused.json().error.message).toBe(ANNOUNCEMENT_MESSAGES.badToken);
    }

    const preview = await adminCall("POST", "/api/admin/announcements/preview", draft(audience));
    expect(preview.json().recipients).toBe(1);
    const next = await adminCall("POST", "/api/admin/announcements", { id: randomUUID(), ...draft(audience, { subject: "Second" }) });
    expect(next.json().announcement.recipients).toBe(1);
    await t.services.jobs.runDue();
    expect(await mailCounts(learners)).toEqual([1, 1, 2]);

    // Receipts and account emails are not announcements: an unsubscribed learner still gets them.
    await db().insert(announcementUnsubscribes).values({ userId: user("learner").id });
    const before = (await mailsTo(t, user("learner").email)).length;
    expect((await forgotPassword(t, { email: user("learner").email }, nextIp())).statusCode).toBe(200);
    await t.services.jobs.runDue();
    expect((await mailsTo(t, user("learner").email)).length).toBe(before + 1);
  });

  it("does not send to a learner who unsubscribed after the announcement started", async () => {
    const { audience, learners } = await cohortOf("January 2034", 2);
    const { announcement } = await startAnnouncement(db(), { id: randomUUID(), ...draft(audience) }, user("admin").id);
    await db().insert(announcementUnsubscribes).values({ userId: learners[0]?.id ?? "" });
    await senderRunner().runDue();
    expect(await mailCounts(learners)).toEqual([0, 1]);
    const failures = await adminCall("GET", `/api/admin/announcements/${announcement.id}/failures`);
    expect(failures.json().failures).toEqual([expect.objectContaining({ email: learners[0]?.email, error: ANNOUNCEMENT_MESSAGES.unsubscribedMeanwhile })]);
  });

  it("lists announcements newest first, a page at a time, and answers 404 for one that does not exist", async () => {
    const list = await adminCall("GET", "/api/admin/announcements");
    expect(list.statusCode).toBe(200);
    const body = list.json<{ total: number; pageSize: number; announcements: { createdAt: string; audience: Audience }[] }>();
    const [total] = await db().select({ n: count() }).from(announcements);
    expect(body.total).toBe(total?.n);
    expect(body.announcements.length).toBe(Math.min(body.pageSize, body.total));
    const times = body.announcements.map((a) => a.createdAt);
    expect(times).toEqual([...times].sort().reverse());
    expect(body.announcements[0]?.audience).toEqual({ kind: "cohort", cohort: "January 2034" });

    const missing = await adminCall("GET", `/api/admin/announcements/${randomUUID()}`);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe(ANNOUNCEMENT_MESSAGES.notFound);
    expect((await adminCall("GET", `/api/admin/announcements/${randomUUID()}/failures`)).statusCode).toBe(404);
    expect((await adminCall("GET", "/api/admin/announcements/not-a-uuid")).statusCode).toBe(400);

    const options = await adminCall("GET", "/api/admin/announcements/audiences");
    expect(options.json().programs.map((p: { id: string }) => p.id)).toEqual(["beginner", "intermediate", "advanced"]);
    expect(options.json().cohorts.map((c: { name: string }) => c.name)).toEqual(expect.arrayContaining(["January 2034", "October 2031"]));
    expect(options.json().cohorts[0].name).toBe("January 2034");
  });

  it("is for administrators only", async () => {
    const asLearner = await t.app.inject({ method: "POST", url: "/api/admin/announcements/preview", headers: { cookie: user("learner").cookie }, payload: {} });
    expect(asLearner.statusCode).toBe(403);
  });
});


/** The header lines of a raw message, unfolded, by lower-cased name. */
function headersOf(raw: string): Map<string, string> {
  const head = raw.slice(0, raw.indexOf("\r\n\r\n"));
  const headers = new Map<string, string>();
  for (const line of head.replace(/\r\n[ \t]+/g, " ").split("\r\n")) {
    const colon = line.indexOf(":");
    if (colon > 0) headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  return headers;
}

describe("announcements over SMTP", () => {
  let sink: SmtpSink;
  let t: TestApp;
  beforeAll(async () => {
    sink = await startSmtpSink();
    t = await createTestApp({ env: { SMTP_URL: sink.url } });
  });
  afterAll(async () => {
    await t.close();
    await sink.close();
  });

  it("carries the one-click unsubscribe headers mail programs show as their own Unsubscribe button", async () => {
    await t.database.db.insert(users).values({ id: "smtp-learner", email: "smtp-learner@example.com", name: "Esi", emailVerified: true });
    await placeOnWaitlist(t.database.db, [{ userId: "smtp-learner", plan: "advanced", cohort: "July 2031" }]);
    await t.database.db.insert(users).values({ id: "smtp-admin", email: "smtp-admin@example.com", emailVerified: true, subscriptionPlan: "admin" });
    const audience: Audience = { kind: "cohort", cohort: "July 2031" };
    await startAnnouncement(t.database.db, { id: randomUUID(), subject: "Over SMTP", body: "Hello by SMTP.", audience }, "smtp-admin");
    await t.services.jobs.runDue();

    const sent = sink.messages.filter((m) => m.to.includes("smtp-learner@example.com"));
    expect(sent).toHaveLength(1);
    const headers = headersOf(sent[0]?.raw ?? "");
    expect(headers.get("subject")).toBe("Over SMTP");
    expect(headers.get("list-unsubscribe-post")).toBe("List-Unsubscribe=One-Click");
    const target = /^<(.+)>$/.exec(headers.get("list-unsubscribe") ?? "")?.[1] ?? "";
    const url = new URL(target);
    expect(url.pathname).toBe("/api/announcements/one-click-unsubscribe");

    // The address in the header works as a mail program posts to it.
    const posted = await t.app.inject({
      method: "POST",
      url: `${url.pathname}${url.search}`,
      headers: { origin: undefined, "content-type": "multipart/form-data; boundary=x" },
      payload: '--x\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--x--\r\n',
    });
    expect(posted.statusCode, posted.body).toBe(200);
    expect(await t.database.db.select().from(announcementUnsubscribes)).toEqual([expect.objectContaining({ userId: "smtp-learner" })]);
    // Nothing goes to the development mailbox when SMTP is configured.
    expect(await t.database.db.select({ n: count() }).from(devMail)).toEqual([{ n: 0 }]);
  });
});
