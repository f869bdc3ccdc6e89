// SMS through Hubtel (docs/product.md, "SMS"; docs/integrations.md, "Hubtel SMS"), against a fake
// of Hubtel's API that speaks its documented request and answer.
import { eq, sql } from "drizzle-orm";
import type { LightMyRequestResponse } from "fastify";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { paymentReference } from "../../../shared/billing.ts";
import { receiptPath } from "../../../shared/contracts/billing.ts";
import { formatGhanaPhone, SMS_CODE_LIMITS, SMS_MESSAGES } from "../../../shared/contracts/sms.ts";
import { jobs, smsCodeRequests, smsMessages, smsNumbers, users } from "../../db/schema.ts";
import { deleteAccount } from "../accounts/account-deletion.ts";
import { expireSubscriptions } from "../billing/billing-expiry.ts";
import { createSignedInUser, ipAllocator, limitAnswer, type TestUser } from "../../testing/accounts.ts";
import { startHubtelFake, type HubtelFake } from "../../testing/hubtel-fake.ts";
import { scrapeMetrics, TEST_METRICS_TOKEN } from "../../testing/metrics.ts";
import { createTestApp, type TestApp } from "../../testing/test-app.ts";
import { queueEventSms } from "./sms-events.ts";
import { fitsOneSms, gsm7Length, SMS_TEXTS } from "./sms-texts.ts";
import { normaliseGhanaMobile } from "./sms.service.ts";

const nextIp = ipAllocator(180);
const DAY = 86_400_000;

describe("Ghanaian mobile numbers", () => {
  it("reads the common ways of writing one, into E.164", () => {
    for (const written of ["024 123 4567", "0241234567", "+233 24 123 4567", "233241234567", "+233241234567", "024-123-4567"]) {
      expect(normaliseGhanaMobile(written), written).toBe("+233241234567");
    }
    // The ranges in use, as libphonenumber's metadata has them (025 and 059: only some of their blocks).
    for (const prefix of ["020", "023", "024", "0256", "026", "027", "028", "050", "053", "054", "055", "056", "057", "0596"]) {
      const number = `${prefix}${"6123456".slice(prefix.length - 3)}`;
      expect(normaliseGhanaMobile(number), number).toBe(`+233${number.slice(1)}`);
    }
  });

  it("refuses landlines, foreign numbers and wrong lengths", () => {
    for (const written of ["030 123 4567", "024 123 456", "024 123 45678", "+44 7700 900123", "hello", "", "+233 30 290 1234"]) {
      expect(normaliseGhanaMobile(written), written).toBeNull();
    }
  });
});

describe("SMS texts", () => {
  const appUrl = "https://academy.tradingacademy.com";
  it("each fits one SMS of 160 GSM-7 characters, with long values", () => {
    const texts = [
      SMS_TEXTS.code("123456"),
      SMS_TEXTS.numberInUse(appUrl),
      SMS_TEXTS.endingSoon(appUrl, "Intermediate", new Date("2026-09-30T00:00:00Z")),
      SMS_TEXTS.expired(appUrl, "Intermediate"),
      SMS_TEXTS.receipt(appUrl, "GHS 12345.67", receiptPath(paymentReference("waitlist", "intermediate", Date.now()))),
      SMS_TEXTS.cohort(appUrl, "September 2026 evening — long name", "Intermediate", "Monday 7 September 2026", "/program/intermediate"),
      SMS_TEXTS.mentorship(appUrl, "Wednesday 30 September 2026, 18:30"),
      // An instrument an administrator named, as long as one may be.
      SMS_TEXTS.journalComment(appUrl, "XAUUSD.micro"),
    ];
    for (const text of texts) expect(fitsOneSms(text), `${gsm7Length(text)}: ${text}`).toBe(true);
  });

  it("counts GSM-7 as the network does", () => {
    expect(gsm7Length("abc")).toBe(3);
    expect(gsm7Length("[x]")).toBe(5);
    expect(gsm7Length("GH₵ 5")).toBeNull();
    expect(fitsOneSms("a".repeat(161))).toBe(false);
  });
});

describe("SMS settings and sending", () => {
  let hubtel: HubtelFake;
  let t: TestApp;
  let amaIndex = 0;
  beforeAll(async () => {
    hubtel = await startHubtelFake();
    t = await createTestApp({ env: { ...hubtel.env(), METRICS_TOKEN: TEST_METRICS_TOKEN } });
  });
  afterAll(async () => {
    await t.close();
    await hubtel.close();
  });
  beforeEach(async () => {
    hubtel.mode = "accept";
    hubtel.sent.length = 0;
    await t.database.db.delete(smsCodeRequests).where(sql`true`);
    await t.database.db.delete(jobs).where(sql`true`);
  });

  const learner = () => createSignedInUser(t, { email: `sms-${amaIndex++}@example.com`, nextIp });
  const call = (user: TestUser, method: "GET" | "POST" | "PUT" | "DELETE", url: string, payload?: unknown, ip = "10.180.200.1") =>
    t.app.inject({ method, url, headers: { cookie: user.cookie }, payload: payload as object, remoteAddress: ip });
  const addNumber = (user: TestUser, phone: string, ip?: string) => call(user, "POST", "/api/accounts/sms/number", { phone }, ip);
  const confirm = (user: TestUser, code: string) => call(user, "POST", "/api/accounts/sms/confirm", { code });
  const lastCode = () => /\b(\d{6})\b/.exec(hubtel.sent.at(-1)?.content ?? "")?.[1] ?? "";
  const error = (message: string, code = "VALIDATION_ERROR") => ({ error: { code, message, requestId: expect.any(String) } });

  async function confirmedLearner(phone: string) {
    const user = await learner();
    expect((await addNumber(user, phone)).statusCode).toBe(200);
    await t.services.jobs.runDue();
    const response = await confirm(user, lastCode());
    expect(response.statusCode, response.body).toBe(200);
    return user;
  }

  it("adds a number, sends the code through Hubtel and confirms it", async () => {
    const user = await learner();
    const added = await addNumber(user, "+233 24 555 0101");
    expect(added.statusCode, added.body).toBe(200);
    expect(added.json()).toMatchObject({
      settings: { phone: "+233245550101", confirmed: false, codeStatus: "sending" },
      message: SMS_MESSAGES.codeSent("024 555 0101"),
    });
    await t.services.jobs.runDue();
    expect(hubtel.sent).toEqual([
      expect.objectContaining({ from: "TradingAcad", to: "233245550101", content: expect.stringMatching(/code is \d{6}\./) }),
    ]);
    // Only the code's hash is kept; the message's text is kept without it.
    const [number] = await t.database.db.select().from(smsNumbers).where(eq(smsNumbers.userId, user.id));
    expect(number?.codeHash).not.toContain(lastCode());
    const [message] = await t.database.db.select().from(smsMessages).where(eq(smsMessages.userId, user.id));
    expect(message).toMatchObject({ status: "sent", content: expect.not.stringContaining(lastCode()), providerMessageId: expect.any(String), rate: "0.03" });
    expect((await call(user, "GET", "/api/accounts/sms")).json()).toMatchObject({ settings: { codeStatus: "sent" } });

    const wrong = lastCode() === "000000" ? "111111" : "000000";
    const refused = await confirm(user, wrong);
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toEqual(error(SMS_MESSAGES.codeWrong(4)));
    const confirmed = await confirm(user, lastCode());
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({ settings: { confirmed: true, codeStatus: null }, message: SMS_MESSAGES.confirmed });

    const saved = await call(user, "PUT", "/api/accounts/sms/preferences", { reminders: true, receipts: false, cohorts: true, mentorship: false });
    expect(saved.json()).toMatchObject({ settings: { preferences: { receipts: false, mentorship: false } }, message: SMS_MESSAGES.preferencesSaved });
  });

  it("refuses a number that is not a Ghanaian mobile, in words, and sends nothing", async () => {
    const user = await learner();
    for (const phone of ["030 123 4567", "+44 7700 900123", "12"]) {
      const response = await addNumber(user, phone);
      expect(response.statusCode).toBe(400);
      expect(response.json()).toEqual(error(SMS_MESSAGES.notGhanaMobile));
    }
    await t.services.jobs.runDue();
    expect(hubtel.requests).toBeGreaterThanOrEqual(0);
    expect(await t.database.db.select().from(smsMessages).where(eq(smsMessages.userId, user.id))).toEqual([]);
  });

  it("lets a code expire after 10 minutes and allows 5 tries", async () => {
    const user = await learner();
    await addNumber(user, "024 555 0102");
    await t.services.jobs.runDue();
    const right = lastCode();
    const wrong = right === "000000" ? "111111" : "000000";
    for (const left of [4, 3, 2, 1]) expect((await confirm(user, wrong)).json()).toEqual(error(SMS_MESSAGES.codeWrong(left)));
    expect((await confirm(user, wrong)).json()).toEqual(error(SMS_MESSAGES.codeWrong(0)));
    // No tries left: even the right code is refused until a new one is asked for.
    expect((await confirm(user, right)).json()).toEqual(error(SMS_MESSAGES.codeWrong(0)));

    await addNumber(user, "024 555 0102");
    await t.services.jobs.runDue();
    await t.database.db
      .update(smsNumbers)
      .set({ codeExpiresAt: new Date(Date.now() - 1) })
      .where(eq(smsNumbers.userId, user.id));
    expect((await confirm(user, lastCode())).json()).toEqual(error(SMS_MESSAGES.codeExpired));
    expect((await confirm(user, "12ab")).json()).toEqual(error(SMS_MESSAGES.codeFormat));
  });

  it("limits codes per number, per account and per address", async () => {
    const [first, second] = [await learner(), await learner()];
    for (let i = 0; i < SMS_CODE_LIMITS.perNumber; i++) expect((await addNumber(first, "024 555 0103")).statusCode).toBe(200);
    const perNumber = await addNumber(second, "024 555 0103");
    expect(perNumber.statusCode).toBe(429);
    expect(perNumber.json()).toEqual(limitAnswer(SMS_MESSAGES.tooManyForNumber));

    for (let i = 0; i < SMS_CODE_LIMITS.perAccount - SMS_CODE_LIMITS.perNumber; i++) {
      expect((await addNumber(first, `024 555 020${i}`)).statusCode).toBe(200);
    }
    const perAccount = await addNumber(first, "024 555 0299");
    expect(perAccount.statusCode).toBe(429);
    expect(perAccount.json()).toEqual(limitAnswer(SMS_MESSAGES.tooManyForAccount));

    const address = "10.180.201.1";
    await t.database.db
      .insert(smsCodeRequests)
      .values(Array.from({ length: SMS_CODE_LIMITS.perAddress }, (_, i) => ({ phone: `+23324666${String(i).padStart(4, "0")}`, ip: address })));
    const perAddress = await addNumber(second, "024 555 0104", address);
    expect(perAddress.statusCode).toBe(429);
    expect(perAddress.json()).toEqual(limitAnswer(SMS_MESSAGES.tooManyFromNetwork));
    // A refused request sends nothing.
    await t.services.jobs.runDue();
    expect(hubtel.sent.map((sms) => sms.to)).not.toContain("233245550104");
  });

  describe("a number confirmed on another account", () => {
    /** What a request wrote, with the number and the learner written as placeholders. */
    async function written(user: TestUser, phone: string) {
      const db = t.database.db;
      const rows = {
        requests: await db.select({ phone: smsCodeRequests.phone, ip: smsCodeRequests.ip }).from(smsCodeRequests).where(eq(smsCodeRequests.userId, user.id)),
        numbers: await db.select().from(smsNumbers).where(eq(smsNumbers.userId, user.id)),
        messages: await db
          .select({ kind: smsMessages.kind, to: smsMessages.to, content: smsMessages.content, status: smsMessages.status })
          .from(smsMessages)
          .where(eq(smsMessages.userId, user.id)),
      };
      const ids = new Set((await db.select({ id: smsMessages.id }).from(smsMessages).where(eq(smsMessages.userId, user.id))).map((row) => row.id));
      const queued = (await db.select().from(jobs)).filter((job) => ids.has((job.payload as { messageId: number }).messageId));
      Object.assign(rows, { jobs: queued.map((job) => ({ kind: job.kind, status: job.status })) });
      return anonymised(rows, user, phone);
    }
    const anonymised = (value: unknown, user: TestUser, phone: string, requestId = "<none>") =>
      JSON.parse(
        JSON.stringify(value, function (this: Record<string, unknown>, key: string, field: unknown) {
          return this[key] instanceof Date ? "<time>" : field;
        })
          .replaceAll(phone, "<number>")
          .replaceAll(formatGhanaPhone(phone), "<number>")
          .replaceAll(user.id, "<learner>")
          .replaceAll(requestId, "<request>"),
      );
    /** An answer as the asker sees it: its status, its headers but its date, its body. */
    const seen = (response: LightMyRequestResponse, user: TestUser, phone: string) => {
      const headers = Object.entries(response.headers).filter(([name]) => name !== "date");
      const body: unknown = response.json();
      return anonymised({ status: response.statusCode, headers, body }, user, phone, String(response.headers["x-request-id"]));
    };

    it("is answered exactly as a free one, and its owner is told instead of being sent a code", async () => {
      const owner = await confirmedLearner("024 555 0105");
      const taken = "+233245550105";
      const free = "+233245550116";
      const [asker, other] = [await learner(), await learner()];

      const askedTaken = await addNumber(asker, "0245550105", "10.180.203.1");
      const askedFree = await addNumber(other, "0245550116", "10.180.203.1");
      expect(askedTaken.statusCode, askedTaken.body).toBe(200);
      expect(seen(askedTaken, asker, taken)).toEqual(seen(askedFree, other, free));
      // The same statements ran: the same rows written, each request counted.
      expect(await written(asker, taken)).toEqual(await written(other, free));
      expect(await written(asker, taken)).toMatchObject({ requests: [{ phone: "<number>" }], messages: [{ kind: "code", status: "pending" }] });

      hubtel.sent.length = 0;
      await t.services.jobs.runDue();
      // The owner is told; no code goes to anyone for the taken number.
      const toOwner = hubtel.sent.filter((sms) => sms.to === "233245550105");
      expect(toOwner).toEqual([expect.objectContaining({ content: SMS_TEXTS.numberInUse(t.services.env.appUrl) })]);
      expect(toOwner[0]?.content).not.toMatch(/\d{6}/);
      expect(fitsOneSms(toOwner[0]?.content ?? "")).toBe(true);
      expect(hubtel.sent.filter((sms) => sms.to === "233245550116")).toEqual([expect.objectContaining({ content: expect.stringMatching(/code is \d{6}\./) })]);

      // What the asker sees next is what anyone sees: the code sent, and a code that is not right.
      expect(seen(await call(asker, "GET", "/api/accounts/sms"), asker, taken)).toEqual(seen(await call(other, "GET", "/api/accounts/sms"), other, free));
      const freeCode = /code is (\d{6})/.exec(hubtel.sent.find((sms) => sms.to === "233245550116")?.content ?? "")?.[1];
      const wrong = freeCode === "000000" ? "111111" : "000000";
      expect(seen(await confirm(asker, wrong), asker, taken)).toEqual(seen(await confirm(other, wrong), other, free));
      // The owner keeps the number.
      expect((await call(owner, "GET", "/api/accounts/sms")).json()).toMatchObject({ settings: { phone: taken, confirmed: true, pendingPhone: null } });
    });

    it("counts against the limits before anything about the number is decided, as a free one does", async () => {
      // The owner's own request for their code is the number's first.
      await confirmedLearner("024 555 0117");
      hubtel.sent.length = 0;
      for (let i = 1; i < SMS_CODE_LIMITS.perNumber; i++) {
        const asked = await addNumber(await learner(), "024 555 0117", `10.180.204.${i + 1}`);
        expect(asked.statusCode, asked.body).toBe(200);
      }
      const limited = await addNumber(await learner(), "024 555 0117", "10.180.204.9");
      expect(limited.statusCode).toBe(429);
      expect(limited.json()).toEqual(limitAnswer(SMS_MESSAGES.tooManyForNumber));
      // The owner is told at most as often as the number's limit allows.
      await t.services.jobs.runDue();
      expect(hubtel.sent.filter((sms) => sms.to === "233245550117")).toHaveLength(SMS_CODE_LIMITS.perNumber - 1);

      // An account asking for taken numbers and free ones spends its allowance on each.
      const asker = await learner();
      await confirmedLearner("024 555 0118");
      for (const [i, phone] of ["024 555 0118", "024 555 0301", "024 555 0118", "024 555 0302", "024 555 0303"].entries()) {
        expect((await addNumber(asker, phone, `10.180.205.${i + 1}`)).statusCode).toBe(200);
      }
      const perAccount = await addNumber(asker, "024 555 0304", "10.180.205.9");
      expect(perAccount.statusCode).toBe(429);
      expect(perAccount.json()).toEqual(limitAnswer(SMS_MESSAGES.tooManyForAccount));
    });
  });

  it("keeps the confirmed number, and its SMS, until the new number's code is given", async () => {
    const user = await confirmedLearner("024 555 0110");
    const receipt = async (eventKey: string) => {
      await queueEventSms(t.database.db, { userId: user.id, preference: "receipts", kind: "receipt", eventKey, content: `Trading Academy: ${eventKey}` });
      await t.services.jobs.runDue();
      return hubtel.sent.find((sms) => sms.content === `Trading Academy: ${eventKey}`)?.to;
    };
    const asked = await addNumber(user, "055 555 0111");
    expect(asked.statusCode, asked.body).toBe(200);
    expect(asked.json()).toMatchObject({
      settings: { phone: "+233245550110", confirmed: true, pendingPhone: "+233555550111", codeStatus: "sending" },
      message: SMS_MESSAGES.codeSent("055 555 0111"),
    });
    await t.services.jobs.runDue();
    expect(hubtel.sent.at(-1)).toMatchObject({ to: "233555550111", content: expect.stringMatching(/code is \d{6}\./) });
    const code = lastCode();
    // The code not given (yet, or ever): SMS still go to the confirmed number.
    expect(await receipt("before-the-code")).toBe("233245550110");
    expect((await confirm(user, code === "000000" ? "111111" : "000000")).statusCode).toBe(400);
    expect(await receipt("after-a-wrong-code")).toBe("233245550110");
    expect((await call(user, "GET", "/api/accounts/sms")).json()).toMatchObject({
      settings: { phone: "+233245550110", confirmed: true, pendingPhone: "+233555550111", codeStatus: "sent", preferences: { receipts: true } },
    });

    const confirmed = await confirm(user, code);
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect(confirmed.json()).toMatchObject({
      settings: { phone: "+233555550111", confirmed: true, pendingPhone: null, codeStatus: null },
      message: SMS_MESSAGES.confirmed,
    });
    expect(await receipt("after-the-code")).toBe("233555550111");
    // The number left behind is free for another account.
    expect((await addNumber(await learner(), "024 555 0110")).statusCode).toBe(200);
  });

  it("asking for the confirmed number again keeps it, and the other number's code no longer changes it", async () => {
    const user = await confirmedLearner("024 555 0112");
    await addNumber(user, "024 555 0113");
    await t.services.jobs.runDue();
    const code = lastCode();
    const requests = (await t.database.db.select().from(smsCodeRequests)).length;
    const kept = await addNumber(user, "0245550112");
    expect(kept.statusCode, kept.body).toBe(200);
    expect(kept.json()).toMatchObject({
      settings: { phone: "+233245550112", confirmed: true, pendingPhone: null, codeStatus: null },
      message: SMS_MESSAGES.numberKept("024 555 0112"),
    });
    // No SMS, and nothing counted against the limits.
    await t.services.jobs.runDue();
    expect(hubtel.sent.at(-1)?.to).toBe("233245550113");
    expect(await t.database.db.select().from(smsCodeRequests)).toHaveLength(requests);
    await confirm(user, code);
    expect((await call(user, "GET", "/api/accounts/sms")).json()).toMatchObject({ settings: { phone: "+233245550112", confirmed: true, pendingPhone: null } });
  });

  it("a new number confirmed meanwhile on another account is refused, and the confirmed one stays", async () => {
    const user = await confirmedLearner("024 555 0114");
    await addNumber(user, "024 555 0115");
    await t.services.jobs.runDue();
    const code = lastCode();
    await confirmedLearner("024 555 0115");
    const refused = await confirm(user, code);
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toEqual(error(SMS_MESSAGES.numberTaken, "CONFLICT"));
    expect((await call(user, "GET", "/api/accounts/sms")).json()).toMatchObject({ settings: { phone: "+233245550114", confirmed: true } });
  });

  it("retries when Hubtel refuses or is down, never says it was sent, shows it to an admin and counts it", async () => {
    const user = await learner();
    hubtel.mode = "refuse";
    await addNumber(user, "024 555 0106");
    await t.services.jobs.runDue();
    expect((await call(user, "GET", "/api/accounts/sms")).json()).toMatchObject({ settings: { codeStatus: "failing" } });
    const [job] = await t.database.db.select().from(jobs).where(eq(jobs.kind, "sms.send"));
    expect(job).toMatchObject({ status: "pending", attempts: 1, lastError: expect.stringContaining("status 4") });
    expect(job?.lastError).not.toContain(hubtel.clientSecret);

    const admin = await createSignedInUser(t, { email: `sms-admin-${amaIndex++}@example.com`, nextIp, plan: "admin" });
    const failing = await call(admin, "GET", "/api/admin/sms/failing");
    expect(failing.statusCode, failing.body).toBe(200);
    expect(failing.json().messages).toContainEqual(expect.objectContaining({ kind: "code", to: "+233245550106", attempts: 1 }));
    expect((await call(user, "GET", "/api/admin/sms/failing")).statusCode).toBe(403);

    hubtel.mode = "down";
    await t.database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.kind, "sms.send"));
    await t.services.jobs.runDue();
    const [again] = await t.database.db.select().from(jobs).where(eq(jobs.kind, "sms.send"));
    expect(again).toMatchObject({ status: "pending", attempts: 2, lastError: expect.stringContaining("HTTP 503") });

    hubtel.mode = "accept";
    await t.database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.kind, "sms.send"));
    await t.services.jobs.runDue();
    expect(hubtel.sent).toHaveLength(1);
    expect((await confirm(user, lastCode())).statusCode).toBe(200);
    const metrics = await scrapeMetrics(t);
    expect(metrics).toMatch(/sms_sent_total\{kind="code",outcome="failed"\} [2-9]/);
    expect(metrics).toMatch(/sms_sent_total\{kind="code",outcome="accepted"\} [1-9]/);
  });

  it("sends one SMS per event, even with two instances running the queue", async () => {
    const user = await confirmedLearner("024 555 0107");
    hubtel.sent.length = 0;
    const second = await createTestApp({ database: t.database, env: hubtel.env() });
    try {
      const event = { userId: user.id, preference: "receipts", kind: "receipt", eventKey: "receipt:once", content: "Trading Academy: test" } as const;
      await Promise.all([queueEventSms(t.database.db, event), queueEventSms(t.database.db, event)]);
      await queueEventSms(t.database.db, event);
      await Promise.all([t.services.jobs.runDue(), second.services.jobs.runDue()]);
      await Promise.all([t.services.jobs.runDue(), second.services.jobs.runDue()]);
    } finally {
      await second.close();
    }
    expect(hubtel.sent.filter((sms) => sms.content === "Trading Academy: test")).toHaveLength(1);
  });

  it("sends the renewal reminder by SMS when chosen, and nothing once SMS is turned off", async () => {
    const user = await confirmedLearner("024 555 0108");
    await t.database.db
      .update(users)
      .set({ subscriptionPlan: "intermediate", subscriptionStatus: "active", subscriptionEnd: new Date(Date.now() + 2 * DAY) })
      .where(eq(users.id, user.id));
    hubtel.sent.length = 0;
    await expireSubscriptions(t.database.db, new Date());
    await t.services.jobs.runDue();
    await t.services.jobs.runDue();
    const reminder = hubtel.sent.find((sms) => sms.to === "233245550108");
    expect(reminder?.content).toMatch(/^Trading Academy: your Intermediate plan ends on .*\/subscription$/);
    expect(fitsOneSms(reminder?.content ?? "")).toBe(true);

    const removed = await call(user, "DELETE", "/api/accounts/sms/number");
    expect(removed.json()).toMatchObject({ settings: { phone: null, confirmed: false }, message: SMS_MESSAGES.removed });
    await queueEventSms(t.database.db, { userId: user.id, preference: "receipts", kind: "receipt", eventKey: "receipt:off", content: "off" });
    await t.services.jobs.runDue();
    expect(hubtel.sent.map((sms) => sms.content)).not.toContain("off");
  });

  it("removes the number with the account", async () => {
    const user = await confirmedLearner("024 555 0109");
    await deleteAccount(t.database.db, t.services.attachments, user.id, new Date());
    expect(await t.database.db.select().from(smsNumbers).where(eq(smsNumbers.phone, "+233245550109"))).toEqual([]);
    expect(await t.database.db.select().from(smsMessages).where(eq(smsMessages.to, "+233245550109"))).toEqual([]);
  });
});

// docs/operations.md, "What the logs never hold": a code is as good as the number it confirms.
describe("the logs of confirming a number", () => {
  let hubtel: HubtelFake;
  let t: TestApp;
  const lines: string[] = [];
  beforeAll(async () => {
    hubtel = await startHubtelFake();
    t = await createTestApp({ env: { ...hubtel.env(), LOG_LEVEL: "trace" }, logDestination: { write: (line) => lines.push(line) } });
  });
  afterAll(async () => {
    await t.close();
    await hubtel.close();
  });

  it("hold no confirmation code and not Hubtel's secret, through a failed send, a wrong code and a change of number", async () => {
    const user = await createSignedInUser(t, { email: "sms-logged@example.com", nextIp });
    const call = (method: "POST", url: string, payload: object) =>
      t.app.inject({ method, url, headers: { cookie: user.cookie }, payload, remoteAddress: "10.180.202.1" });
    const codeOf = (content: string | undefined) => /\b(\d{6})\b/.exec(content ?? "")?.[1] ?? "";
    const wrongFor = (code: string) => (code === "000000" ? "111111" : "000000");

    // Hubtel down for the first try: the job fails, is logged, and is retried with a fresh code.
    hubtel.mode = "down";
    expect((await call("POST", "/api/accounts/sms/number", { phone: "024 555 0120" })).statusCode).toBe(200);
    await t.services.jobs.runDue();
    hubtel.mode = "accept";
    await t.database.db.update(jobs).set({ runAt: new Date(Date.now() - 1000) }).where(eq(jobs.kind, "sms.send"));
    await t.services.jobs.runDue();
    const first = codeOf(hubtel.sent.at(-1)?.content);
    expect((await call("POST", "/api/accounts/sms/confirm", { code: wrongFor(first) })).statusCode).toBe(400);
    expect((await call("POST", "/api/accounts/sms/confirm", { code: first })).statusCode).toBe(200);

    // Another number: its code mistyped, then given.
    expect((await call("POST", "/api/accounts/sms/number", { phone: "024 555 0121" })).statusCode).toBe(200);
    await t.services.jobs.runDue();
    const second = codeOf(hubtel.sent.at(-1)?.content);
    expect((await call("POST", "/api/accounts/sms/confirm", { code: wrongFor(second) })).statusCode).toBe(400);
    const confirmed = await call("POST", "/api/accounts/sms/confirm", { code: second });
    expect(confirmed.json()).toMatchObject({ settings: { phone: "+233245550121", confirmed: true } });

    expect(first).toMatch(/^\d{6}$/);
    expect(second).toMatch(/^\d{6}$/);
    // The journey was logged: the requests, and the failed send.
    expect(lines.filter((line) => line.includes("/api/accounts/sms/confirm")).length).toBeGreaterThanOrEqual(4);
    expect(lines.some((line) => line.includes("job failed") && line.includes("HTTP 503"))).toBe(true);
    // A code is six digits on their own: the digits of a time or a duration are not a code.
    for (const code of [first, wrongFor(first), second, wrongFor(second)]) {
      expect(lines.filter((line) => new RegExp(`(?<!\\d)${code}(?!\\d)`).test(line)), code).toEqual([]);
    }
    for (const secret of [hubtel.clientSecret, Buffer.from(`${hubtel.clientId}:${hubtel.clientSecret}`).toString("base64")]) {
      expect(lines.filter((line) => line.includes(secret)), secret).toEqual([]);
    }
  });
});
