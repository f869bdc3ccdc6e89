// Refunds (docs/subscriptions.md, "Refunds"): an administrator refunds a successful payment
// through Paystack (the simulator); the money, the time it bought, the audit log and the
// learner's email change together, and a refusal changes nothing. Paystack's refund webhooks
// settle refunds started here or elsewhere (its dashboard).
import { addDays } from "date-fns/addDays";
import { addMonths } from "date-fns/addMonths";
import { subMonths } from "date-fns/subMonths";
import { asc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { z } from "zod";
import { BILLING_MESSAGES } from "../../../shared/contracts/billing.ts";
import type { PaidPlan } from "../../../shared/plans.ts";
import { jobs, refunds, users, waitlist, type payments } from "../../db/schema.ts";
import { ipAllocator, mailsTo, me, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import {
  auditEntries,
  paymentRow,
  postWebhook,
  simulatePayment,
  simulatorSecretKey,
  useBillingApp,
  userRow,
} from "../../testing/billing.ts";
import type { TestApp } from "../../testing/test-app.ts";
import { createPaystackClient, paystackClientFor, type PaystackClient } from "../../integrations/paystack.ts";
import { sweepRefunds } from "./billing-refund-sweep.ts";
import { IN_FLIGHT_MS, REFUND_JOB } from "./billing-refunds.ts";

const nextIp = ipAllocator(91);
const MINUTE = 60_000;

const USERS = {
  admin: { plan: "admin" },
  whole: {},
  renewed: {},
  upgraded: {},
  queuedGone: {},
  queuedShorter: {},
  waiter: {},
  bothTracks: {},
  admitted: {},
  twice: {},
  declined: {},
  greedy: {},
  partial: {},
  refused: {},
  dashboard: {},
  paystackStyle: {},
  failedLater: {},
  crashed: {},
  automatic: {},
  learner: {},
  sweptWebhookLost: {},
  sweptNeverReached: {},
  sweptAnswerLost: {},
  sweptGatewayDown: {},
} satisfies Record<string, TestUserPlan>;

// ---- The simulator's refund side, as a test reaches it ------------------------------------------

async function simulator(t: TestApp, path: string, body?: unknown) {
  if (!t.baseUrl) throw new Error("the simulator is reached over HTTP");
  const response = await fetch(`${t.baseUrl}/dev/fakes/paystack${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: { authorization: `Bearer ${simulatorSecretKey(t)}`, "content-type": "application/json" },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { status: boolean; message: string; data: Record<string, unknown>; webhook?: unknown } };
}

const refundSettings = (t: TestApp, settings: { refuse?: string | null; autoProcess?: boolean }) => simulator(t, "/simulate/refunds", settings);

async function settleAtPaystack(t: TestApp, gatewayId: string, outcome: "processed" | "failed") {
  const answer = await simulator(t, `/simulate/refund/${gatewayId}`, { outcome });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  expect(answer.body.webhook).toEqual({ delivered: true, statusCode: 200 });
  return answer.body.data;
}

// ---- What the database says ----------------------------------------------------------------------

async function refundRows(t: TestApp, paymentId: string) {
  return t.database.db.select().from(refunds).where(eq(refunds.paymentId, paymentId)).orderBy(asc(refunds.createdAt));
}

async function refundJobs(t: TestApp, refundId: string) {
  return t.database.db
    .select()
    .from(jobs)
    .where(sql`${jobs.kind} = ${REFUND_JOB} and ${jobs.payload}->>'refundId' = ${refundId}`);
}

const refundAnswerSchema = z.object({
  payment: z.object({ id: z.string(), amountMinor: z.number(), refundedMinor: z.number(), status: z.string() }),
  refund: z.object({ id: z.string(), amountMinor: z.number(), status: z.string() }),
});

describe("refunds", () => {
  const { t, api, user, buy, joinWaitlist } = useBillingApp(nextIp, USERS);

  beforeAll(async () => {
    // Each test settles its refunds itself, unless it says otherwise.
    expect((await refundSettings(t, { autoProcess: false, refuse: null })).status).toBe(200);
  });
  afterAll(async () => {
    await refundSettings(t, { autoProcess: true, refuse: null });
  });

  /** A credited payment of `who`'s: checkout, paid at Paystack, verified. */
  async function paid(who: TestUser, plan: PaidPlan = "intermediate", kind: "subscription" | "waitlist" = "subscription") {
    const reference = kind === "subscription" ? await buy(who, plan) : await joinWaitlist(who, plan);
    await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false });
    const verified = kind === "subscription" ? await api.verify(who, reference) : await api.verifyWaitlist(who, reference, plan);
    expect(verified.statusCode, verified.body).toBe(200);
    const row = await paymentRow(t, reference);
    if (!row) throw new Error(`no payment ${reference}`);
    return row;
  }

  function refund(paymentId: string, body: Record<string, unknown> = {}, by: TestUser = user("admin")) {
    return t.app.inject({
      method: "POST",
      url: `/api/admin/payments/${paymentId}/refund`,
      headers: { cookie: by.cookie, origin: t.services.env.appUrl },
      payload: body,
      remoteAddress: nextIp(),
    });
  }

  async function refunded(paymentId: string, body: Record<string, unknown> = {}) {
    const response = await refund(paymentId, body);
    expect(response.statusCode, response.body).toBe(200);
    return refundAnswerSchema.parse(response.json());
  }

  /** Changes a learner's subscription directly, as the crediting of other payments would have. */
  async function setSubscription(who: TestUser, values: Partial<typeof users.$inferInsert>) {
    await t.database.db.update(users).set(values).where(eq(users.id, who.id));
  }

  /** Nothing about the payment, the learner, the audit log or the mail queue changed. */
  async function expectUnchanged(who: TestUser, payment: typeof payments.$inferSelect, before: { user: unknown; audit: number }) {
    expect(await paymentRow(t, payment.reference)).toEqual(payment);
    expect(await userRow(t, who.id)).toEqual(before.user);
    expect(await auditEntries(t, who.id)).toHaveLength(before.audit);
    for (const row of await refundRows(t, payment.id)) expect(await refundJobs(t, row.id)).toEqual([]);
  }

  async function snapshot(who: TestUser) {
    return { user: await userRow(t, who.id), audit: (await auditEntries(t, who.id)).length };
  }

  it("refunds a whole subscription payment: Paystack's refund, the payment refunded, the month taken back, audit and email", async () => {
    const who = user("whole");
    const payment = await paid(who);
    expect(await me(t, who.cookie)).toMatchObject({ plan: "intermediate" });

    const before = new Date();
    const answer = await refunded(payment.id, { reason: "Asked within 7 days" });
    expect(answer).toEqual({
      payment: { id: payment.id, amountMinor: payment.amountMinor, refundedMinor: payment.amountMinor, status: "refunded" },
      refund: { id: expect.any(String), amountMinor: payment.amountMinor, status: "pending" },
    });

    // Paystack has it, for the whole amount.
    const [row] = await refundRows(t, payment.id);
    if (!row?.gatewayId) throw new Error("no refund row with Paystack's id");
    expect(row).toMatchObject({ status: "pending", actorId: user("admin").id, reason: "Asked within 7 days", amountMinor: payment.amountMinor });
    const atPaystack = await simulator(t, `/refund/${row.gatewayId}`);
    expect(atPaystack.body.data).toMatchObject({ status: "pending", amount: payment.amountMinor, transaction_reference: payment.reference });

    // The month bought from free was all of the period: it ends now, as the expiry would end it.
    const learner = await userRow(t, who.id);
    expect(learner).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "expired" });
    expect(learner.subscriptionEnd?.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
    expect(learner.subscriptionEnd?.getTime()).toBeLessThanOrEqual(Date.now());
    expect(await me(t, who.cookie)).toMatchObject({ plan: "legacyFree" });

    const audit = await auditEntries(t, who.id);
    expect(audit.map((entry) => entry.action)).toEqual(["payment.credited", "payment.refunded"]);
    expect(audit[1]).toMatchObject({ actorId: user("admin").id, reason: `refund of payment ${payment.reference}: Asked within 7 days` });
    expect(await refundJobs(t, row.id)).toHaveLength(1);
    await t.services.jobs.runDue();
    const [mail] = (await mailsTo(t, who.email)).filter((m) => m.subject === `Your Trading Academy refund for ${payment.reference}`);
    expect(mail?.text).toContain("We have refunded GH₵ 541.00 of your payment");
    expect(mail?.text).toContain("your access is back to the free Beginner program");

    // Paystack's refund.processed closes it; nothing else moves.
    await settleAtPaystack(t, row.gatewayId, "processed");
    const [processed] = await refundRows(t, payment.id);
    expect(processed).toMatchObject({ status: "processed", gatewayId: row.gatewayId, processedAt: expect.any(Date) });
    expect(await paymentRow(t, payment.reference)).toMatchObject({ status: "refunded", refundedMinor: payment.amountMinor });
    expect(await auditEntries(t, who.id)).toHaveLength(2);
  });

  it("takes back only the refunded month of a renewed plan", async () => {
    const who = user("renewed");
    const payment = await paid(who);
    const end = (await userRow(t, who.id)).subscriptionEnd;
    if (!end) throw new Error("not credited");
    // A second month was bought since: the period runs a month longer.
    await setSubscription(who, { subscriptionEnd: addMonths(end, 1) });
    await refunded(payment.id);
    expect(await userRow(t, who.id)).toMatchObject({
      subscriptionPlan: "intermediate",
      subscriptionStatus: "active",
      subscriptionEnd: subMonths(addMonths(end, 1), 1),
    });
  });

  it("ends the current plan and starts the queued time now, moved back as much", async () => {
    const who = user("upgraded");
    const payment = await paid(who, "advanced");
    const end = (await userRow(t, who.id)).subscriptionEnd;
    if (!end) throw new Error("not credited");
    // 15 days of Intermediate queued after the Advanced month (an upgrade keeps them).
    await setSubscription(who, { queuedPlan: "intermediate", queuedEnd: addDays(end, 15) });

    const before = Date.now();
    await refunded(payment.id);
    const row = await userRow(t, who.id);
    expect(row).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active", queuedPlan: null, queuedEnd: null });
    const fifteenDays = addDays(before, 15).getTime();
    expect(row.subscriptionEnd?.getTime()).toBeGreaterThanOrEqual(fifteenDays - MINUTE);
    expect(row.subscriptionEnd?.getTime()).toBeLessThanOrEqual(addDays(Date.now(), 15).getTime());
    expect(await me(t, who.cookie)).toMatchObject({ plan: "intermediate" });
  });

  it("takes a refunded queued month off the queue, and the queue is gone once it reaches the current end", async () => {
    const who = user("queuedGone");
    const payment = await paid(who);
    const current = addDays(new Date(), 10);
    // Advanced runs now; the Intermediate month this payment bought waits after it.
    await setSubscription(who, { subscriptionPlan: "advanced", subscriptionEnd: current, queuedPlan: "intermediate", queuedEnd: addMonths(current, 1) });
    await refunded(payment.id);
    expect(await userRow(t, who.id)).toMatchObject({
      subscriptionPlan: "advanced",
      subscriptionStatus: "active",
      subscriptionEnd: current,
      queuedPlan: null,
      queuedEnd: null,
    });
  });

  it("moves a longer queue back by a month", async () => {
    const who = user("queuedShorter");
    const payment = await paid(who);
    const current = addDays(new Date(), 10);
    const queuedEnd = addMonths(current, 2);
    await setSubscription(who, { subscriptionPlan: "advanced", subscriptionEnd: current, queuedPlan: "intermediate", queuedEnd });
    await refunded(payment.id);
    expect(await userRow(t, who.id)).toMatchObject({
      subscriptionPlan: "advanced",
      subscriptionEnd: current,
      queuedPlan: "intermediate",
      queuedEnd: subMonths(queuedEnd, 1),
    });
  });

  describe("waitlist payments", () => {
    it("gives up the place and its paid flag when not admitted yet", async () => {
      const who = user("waiter");
      const payment = await paid(who, "intermediate", "waitlist");
      expect(await userRow(t, who.id)).toMatchObject({ waitlistPaid: true, intermediatePaid: true });
      await refunded(payment.id);
      expect(await userRow(t, who.id)).toMatchObject({ waitlistPaid: false, intermediatePaid: false, advancedPaid: false });
      expect(await t.database.db.select().from(waitlist).where(eq(waitlist.userId, who.id))).toEqual([]);
      const status = await api.waitlistStatus(who);
      expect(status.json()).toMatchObject({ paid: false, paidPlan: null });
    });

    it("keeps the place of the other track paid for", async () => {
      const who = user("bothTracks");
      const intermediate = await paid(who, "intermediate", "waitlist");
      await paid(who, "advanced", "waitlist");
      expect(await t.database.db.select().from(waitlist).where(eq(waitlist.userId, who.id))).toMatchObject([{ plan: "advanced" }]);
      await refunded(intermediate.id);
      expect(await userRow(t, who.id)).toMatchObject({ waitlistPaid: true, intermediatePaid: false, advancedPaid: true });
      expect(await t.database.db.select().from(waitlist).where(eq(waitlist.userId, who.id))).toMatchObject([{ plan: "advanced" }]);
    });

    it("keeps the place of a learner already admitted", async () => {
      const who = user("admitted");
      const payment = await paid(who, "intermediate", "waitlist");
      await setSubscription(who, { waitlistAdmitted: true });
      await t.database.db.update(waitlist).set({ admitted: true, admittedAt: new Date() }).where(eq(waitlist.userId, who.id));
      await refunded(payment.id);
      expect(await paymentRow(t, payment.reference)).toMatchObject({ status: "refunded" });
      expect(await userRow(t, who.id)).toMatchObject({ waitlistPaid: true, intermediatePaid: true, waitlistAdmitted: true });
    });
  });

  describe("what is refused, changing nothing", () => {
    it("refunding twice: This payment has already been refunded.", async () => {
      const who = user("twice");
      const payment = await paid(who);
      await refunded(payment.id);
      const after = await paymentRow(t, payment.reference);
      if (!after) throw new Error("gone");
      const before = await snapshot(who);
      const again = await refund(payment.id);
      expect(again.statusCode).toBe(409);
      expect(again.json()).toEqual({ error: { code: "ALREADY_REFUNDED", message: BILLING_MESSAGES.refundAlreadyRefunded, requestId: expect.any(String) } });
      expect(await refundRows(t, payment.id)).toHaveLength(1);
      expect(await paymentRow(t, payment.reference)).toEqual(after);
      expect(await snapshot(who)).toEqual(before);
    });

    it("a failed or pending payment: Only a successful payment can be refunded.", async () => {
      const who = user("declined");
      const declined = await buy(who);
      await simulatePayment(t, declined, { outcome: "failed", deliverWebhook: false });
      expect((await api.verify(who, declined)).statusCode).toBe(402);
      const pending = await buy(who, "advanced");
      for (const reference of [declined, pending]) {
        const payment = await paymentRow(t, reference);
        if (!payment) throw new Error("no payment");
        const before = await snapshot(who);
        const response = await refund(payment.id);
        expect(response.statusCode, reference).toBe(409);
        expect(response.json().error).toMatchObject({ code: "NOT_REFUNDABLE", message: BILLING_MESSAGES.refundNotSuccessful });
        expect(await refundRows(t, payment.id)).toEqual([]);
        await expectUnchanged(who, payment, before);
      }
    });

    it("more than was paid: the message names what is left", async () => {
      const who = user("greedy");
      const payment = await paid(who);
      const before = await snapshot(who);
      const response = await refund(payment.id, { amountMinor: payment.amountMinor + 1 });
      expect(response.statusCode).toBe(422);
      expect(response.json().error).toMatchObject({ code: "REFUND_TOO_LARGE", message: "A refund cannot be more than what is left of the payment (₵541.00)." });
      expect(await refundRows(t, payment.id)).toEqual([]);
      await expectUnchanged(who, payment, before);
      // An unknown payment, and a malformed id.
      expect((await refund("00000000-0000-4000-8000-000000000000")).json().error).toMatchObject({ code: "PAYMENT_NOT_FOUND", message: "Payment not found." });
      expect((await refund("not-a-payment")).statusCode).toBe(400);
      expect((await refund(payment.id, { amountMinor: 0 })).statusCode).toBe(400);
    });

    it("a refusal by Paystack: its reason, nothing changed, the attempt kept as failed", async () => {
      const who = user("refused");
      const payment = await paid(who);
      const before = await snapshot(who);
      await refundSettings(t, { refuse: "Refunds are paused on this account." });
      try {
        const response = await refund(payment.id);
        expect(response.statusCode).toBe(409);
        expect(response.json().error).toEqual({
          code: "REFUND_REFUSED",
          message: "Paystack refused the refund: Refunds are paused on this account. Nothing was changed.",
          requestId: expect.any(String),
        });
      } finally {
        await refundSettings(t, { refuse: null });
      }
      await expectUnchanged(who, payment, before);
      expect(await refundRows(t, payment.id)).toMatchObject([{ status: "failed", gatewayId: null, actorId: user("admin").id }]);
      // Once Paystack accepts again, the refund goes through.
      expect((await refunded(payment.id)).payment.status).toBe("refunded");
    });

    it("a learner may not refund, not even their own payment", async () => {
      const who = user("learner");
      const payment = await paid(who);
      const response = await refund(payment.id, {}, who);
      expect(response.statusCode).toBe(403);
      expect(await refundRows(t, payment.id)).toEqual([]);
    });
  });

  it("refunds part, then the rest: time is taken back only with the last of the money", async () => {
    const who = user("partial");
    const payment = await paid(who);
    const credited = await userRow(t, who.id);
    const first = await refunded(payment.id, { amountMinor: 10_000 });
    expect(first.payment).toMatchObject({ status: "success", refundedMinor: 10_000 });
    expect(await userRow(t, who.id)).toEqual(credited);
    const tooMuch = await refund(payment.id, { amountMinor: payment.amountMinor });
    expect(tooMuch.json().error.message).toBe("A refund cannot be more than what is left of the payment (₵441.00).");
    const rest = await refunded(payment.id);
    expect(rest.refund.amountMinor).toBe(payment.amountMinor - 10_000);
    expect(rest.payment).toMatchObject({ status: "refunded", refundedMinor: payment.amountMinor });
    expect(await userRow(t, who.id)).toMatchObject({ subscriptionStatus: "expired" });
  });

  describe("Paystack's refund webhooks", () => {
    it("count a refund started on Paystack's dashboard, once however often it comes", async () => {
      const who = user("dashboard");
      const payment = await paid(who);
      // Straight to Paystack, as its dashboard would.
      const started = await simulator(t, "/refund", { transaction: payment.reference });
      expect(started.status, JSON.stringify(started.body)).toBe(200);
      const gatewayId = String(started.body.data.id);
      expect(await refundRows(t, payment.id)).toEqual([]);

      const data = await settleAtPaystack(t, gatewayId, "processed");
      expect(await refundRows(t, payment.id)).toMatchObject([
        { status: "processed", gatewayId, actorId: null, amountMinor: payment.amountMinor, processedAt: expect.any(Date) },
      ]);
      expect(await paymentRow(t, payment.reference)).toMatchObject({ status: "refunded", refundedMinor: payment.amountMinor });
      expect(await userRow(t, who.id)).toMatchObject({ subscriptionStatus: "expired" });
      const audit = await auditEntries(t, who.id);
      expect(audit.map((entry) => [entry.action, entry.actorId])).toEqual([["payment.credited", null], ["payment.refunded", null]]);

      // Paystack repeats the event; nothing moves again.
      for (let i = 0; i < 3; i++) expect((await postWebhook(t, { event: "refund.processed", data })).statusCode).toBe(200);
      expect(await refundRows(t, payment.id)).toHaveLength(1);
      expect(await auditEntries(t, who.id)).toHaveLength(2);
      const [row] = await refundRows(t, payment.id);
      expect(await refundJobs(t, row?.id ?? "")).toHaveLength(1);
    });

    it("read Paystack's own shape: no id, the amount as a string, pending then processed", async () => {
      const who = user("paystackStyle");
      const payment = await paid(who);
      const data = { transaction_reference: payment.reference, amount: String(payment.amountMinor), currency: "GHS", processor: "mpgs_zen", domain: "live" };
      // A pending refund from elsewhere waits to be processed before it counts.
      expect((await postWebhook(t, { event: "refund.pending", data: { ...data, status: "pending", refund_reference: null } })).statusCode).toBe(200);
      expect(await refundRows(t, payment.id)).toEqual([]);
      const processed = { event: "refund.processed", data: { ...data, status: "processed", refund_reference: "132013318360" } };
      expect((await postWebhook(t, processed)).statusCode).toBe(200);
      expect((await postWebhook(t, processed)).statusCode).toBe(200);
      expect(await refundRows(t, payment.id)).toMatchObject([{ status: "processed", gatewayId: "132013318360", actorId: null }]);
      expect(await paymentRow(t, payment.reference)).toMatchObject({ status: "refunded" });
      // Events about payments this server never made are acknowledged and ignored.
      const stranger = { event: "refund.processed", data: { ...data, transaction_reference: "T2154954_412829", status: "processed" } };
      expect((await postWebhook(t, stranger)).statusCode).toBe(200);
    });

    it("refund.failed after Paystack accepted it: the money counts as ours again", async () => {
      const who = user("failedLater");
      const payment = await paid(who);
      await refunded(payment.id);
      const [row] = await refundRows(t, payment.id);
      if (!row?.gatewayId) throw new Error("no gateway id");
      await settleAtPaystack(t, row.gatewayId, "failed");
      expect(await refundRows(t, payment.id)).toMatchObject([{ status: "failed", processedAt: expect.any(Date) }]);
      expect(await paymentRow(t, payment.reference)).toMatchObject({ status: "success", refundedMinor: 0 });
      expect((await auditEntries(t, who.id)).map((entry) => entry.action)).toEqual([
        "payment.credited",
        "payment.refunded",
        "payment.refund-failed",
      ]);
    });

    it("count a refund whose own answer never arrived (a crash), keeping who asked for it", async () => {
      const who = user("crashed");
      const payment = await paid(who);
      // Paystack took it, then the server stopped before writing anything but the attempt.
      const started = await simulator(t, "/refund", { transaction: payment.reference });
      await t.database.db.insert(refunds).values({ paymentId: payment.id, amountMinor: payment.amountMinor, actorId: user("admin").id });
      const gatewayId = String(started.body.data.id);
      await settleAtPaystack(t, gatewayId, "processed");
      expect(await refundRows(t, payment.id)).toMatchObject([{ status: "processed", gatewayId, actorId: user("admin").id }]);
      expect(await paymentRow(t, payment.reference)).toMatchObject({ status: "refunded" });
      const audit = await auditEntries(t, who.id);
      expect(audit.at(-1)).toMatchObject({ action: "payment.refunded", actorId: user("admin").id });
    });
  });


  describe("refunds left pending, asked about at Paystack by reconciliation", () => {
    const sweep = (paystack: PaystackClient | null = paystackClientFor(t.services.env.paystack)) =>
      sweepRefunds({ db: t.database.db, paystack, log: t.app.log, metrics: { refundReconciled() {} } }, new Date());
    /** As if the refund had been asked for a little over IN_FLIGHT_MS ago. */
    const backdate = (refundId: string) =>
      t.database.db.update(refunds).set({ createdAt: new Date(Date.now() - IN_FLIGHT_MS - 30_000) }).where(eq(refunds.id, refundId));

    it("settle a refund whose webhook was lost, once", async () => {
      const who = user("sweptWebhookLost");
      const payment = await paid(who);
      await refunded(payment.id);
      const [row] = await refundRows(t, payment.id);
      if (!row?.gatewayId) throw new Error("no refund row with Paystack's id");
      const settled = await simulator(t, `/simulate/refund/${row.gatewayId}`, { outcome: "processed", deliverWebhook: false });
      expect(settled.status).toBe(200);

      // Younger than a request can take: left alone.
      expect(await sweep()).toMatchObject({ counted: 0, updated: 0, pending: 0 });
      await backdate(row.id);
      expect(await sweep()).toMatchObject({ updated: 1 });
      expect(await refundRows(t, payment.id)).toMatchObject([{ status: "processed", processedAt: expect.any(Date) }]);
      expect(await paymentRow(t, payment.reference)).toMatchObject({ status: "refunded", refundedMinor: payment.amountMinor });
      // Nothing left to ask about.
      expect(await sweep()).toMatchObject({ counted: 0, updated: 0, pending: 0 });
      expect(await refundJobs(t, row.id)).toHaveLength(1);
    });

    it("close a refund that never reached Paystack as failed, so that the payment can be refunded again", async () => {
      const who = user("sweptNeverReached");
      const payment = await paid(who);
      const before = await snapshot(who);
      const [lost] = await t.database.db
        .insert(refunds)
        .values({ paymentId: payment.id, amountMinor: payment.amountMinor, actorId: user("admin").id })
        .returning();
      if (!lost) throw new Error("no refund row");
      await backdate(lost.id);

      expect(await sweep()).toMatchObject({ "never-reached": 1 });
      expect(await refundRows(t, payment.id)).toMatchObject([{ id: lost.id, status: "failed", gatewayId: null }]);
      await expectUnchanged(who, payment, before);
      expect((await refund(payment.id)).statusCode).toBe(200);
    });

    it("count a refund Paystack accepted whose answer was lost, once, as its answer would have", async () => {
      const who = user("sweptAnswerLost");
      const payment = await paid(who);
      const [asked] = await t.database.db
        .insert(refunds)
        .values({ paymentId: payment.id, amountMinor: payment.amountMinor, actorId: user("admin").id })
        .returning();
      if (!asked) throw new Error("no refund row");
      await backdate(asked.id);
      // Paystack took the request (our note names the refund); its answer never came back.
      const atPaystack = await simulator(t, "/refund", { transaction: payment.reference, merchant_note: `Trading Academy refund ${asked.id}` });
      expect(atPaystack.status).toBe(200);

      expect(await sweep()).toMatchObject({ counted: 1 });
      expect(await refundRows(t, payment.id)).toMatchObject([{ id: asked.id, status: "pending", gatewayId: String(atPaystack.body.data.id) }]);
      expect(await paymentRow(t, payment.reference)).toMatchObject({ status: "refunded", refundedMinor: payment.amountMinor });
      expect(await me(t, who.cookie)).toMatchObject({ plan: "legacyFree" });
      expect((await auditEntries(t, who.id)).filter((entry) => entry.action === "payment.refunded")).toHaveLength(1);
      expect(await sweep()).toMatchObject({ counted: 0, updated: 0 });
    });

    it("change nothing while Paystack does not answer", async () => {
      const who = user("sweptGatewayDown");
      const payment = await paid(who);
      const before = await snapshot(who);
      const [waiting] = await t.database.db
        .insert(refunds)
        .values({ paymentId: payment.id, amountMinor: payment.amountMinor, actorId: user("admin").id })
        .returning();
      if (!waiting) throw new Error("no refund row");
      await backdate(waiting.id);
      const unreachable = createPaystackClient({ apiUrl: "http://127.0.0.1:9", secretKey: "sk_test_unreachable" });

      expect(await sweep(unreachable)).toMatchObject({ unavailable: 1 });
      expect(await refundRows(t, payment.id)).toMatchObject([{ id: waiting.id, status: "pending", gatewayId: null }]);
      await expectUnchanged(who, payment, before);
    });
  });

  it("the simulator processes a refund by itself and tells by webhook", async () => {
    const who = user("automatic");
    const payment = await paid(who);
    await refundSettings(t, { autoProcess: true });
    try {
      await refunded(payment.id);
      await expect.poll(async () => (await refundRows(t, payment.id))[0]?.status, { timeout: 5_000 }).toBe("processed");
    } finally {
      await refundSettings(t, { autoProcess: false });
    }
  });
});
