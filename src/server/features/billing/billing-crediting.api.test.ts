// A payment is credited exactly once, and only when real
// (docs/subscriptions.md, "Payments are real"): the verify call and the charge.success webhook may
// arrive in any order, any number of times; forged, tampered, foreign, failed and abandoned
// payments credit nothing.
import { addMonths } from "date-fns/addMonths";
import { describe, expect, it } from "vitest";
import { paystackSignature } from "../../../../dev/fakes/paystack-simulator.ts";
import { eq } from "drizzle-orm";
import { cardAuthorizations, payments } from "../../db/schema.ts";
import { ipAllocator, mailsTo, me, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import { createTestApp } from "../../testing/test-app.ts";
import {
  auditEntries,
  NOTHING_PAID,
  paymentRow,
  paystackTransaction,
  postWebhook,
  receiptJobs,
  simulatePayment,
  simulatorSecretKey,
  useBillingApp,
  userRow,
} from "../../testing/billing.ts";

const nextIp = ipAllocator(41);

const USERS = {
  racer: {},
  forged: {},
  unknownRef: {},
  otherEvents: {},
  amountTampered: {},
  currencyTampered: {},
  webhookTampered: {},
  owner: {},
  intruder: {},
  declined: {},
  retried: {},
  abandoned: {},
  windowClosed: {},
  refundedReplay: {},
  signedUnpaid: {},
  verifyDown: {},
} satisfies Record<string, TestUserPlan>;

describe("crediting a payment", () => {
  const { t, api, user, buy, paidAtPaystack } = useBillingApp(nextIp, USERS);

  /** Nothing changed for this user: plan, payment still pending (or as given), no audit entry, no receipt. */
  async function expectNotCredited(who: TestUser, reference: string, paymentStatus = "pending") {
    expect(await userRow(t, who.id)).toMatchObject(NOTHING_PAID);
    expect(await paymentRow(t, reference)).toMatchObject({ status: paymentStatus, creditedAt: null });
    expect(await auditEntries(t, who.id)).toEqual([]);
    expect(await receiptJobs(t, reference)).toEqual([]);
    expect(await me(t, who.cookie)).toMatchObject({ plan: "legacyFree" });
  }

  it("20 verify calls and webhooks at once for one payment credit it exactly once", async () => {
    const racer = user("racer");
    const reference = await buy(racer);
    const data = await paidAtPaystack(reference);
    const event = { event: "charge.success", data };

    const before = new Date();
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 === 0 ? api.verify(racer, reference) : postWebhook(t, event))),
    );
    const after = new Date();
    for (const answer of answers) expect(answer.statusCode, answer.body).toBe(200);

    const row = await userRow(t, racer.id);
    const start = row.subscriptionStart;
    if (!start || !row.subscriptionEnd) throw new Error("not credited");
    expect(start.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
    expect(start.getTime()).toBeLessThanOrEqual(after.getTime());
    // Credited twice, the second credit would have renewed: end = start + 2 months.
    expect(row.subscriptionEnd.toISOString()).toBe(addMonths(start, 1).toISOString());
    const verifyAnswers = answers.filter((_, i) => i % 2 === 0).map((answer) => answer.json());
    for (const answer of verifyAnswers) {
      expect(answer).toMatchObject({ success: true, data: { reference, currentPeriodEnd: row.subscriptionEnd.toISOString() } });
    }
    const audit = await auditEntries(t, racer.id);
    expect(audit.map((entry) => entry.action)).toEqual(["payment.credited"]);
    expect(await receiptJobs(t, reference)).toHaveLength(1);

    // Paystack's retries later change nothing either.
    expect((await postWebhook(t, event)).statusCode).toBe(200);
    expect((await api.verify(racer, reference)).statusCode).toBe(200);
    expect((await userRow(t, racer.id)).subscriptionEnd?.toISOString()).toBe(row.subscriptionEnd.toISOString());
    expect(await auditEntries(t, racer.id)).toHaveLength(1);
    await t.services.jobs.runDue();
    expect((await mailsTo(t, racer.email)).filter((mail) => mail.subject.includes(reference))).toHaveLength(1);
  });

  describe("webhooks", () => {
    it("refuses a forged or missing signature with 401 and credits nothing; the real one credits", async () => {
      const forged = user("forged");
      const reference = await buy(forged);
      const data = await paidAtPaystack(reference);
      const body = JSON.stringify({ event: "charge.success", data });
      const key = simulatorSecretKey(t);
      const attempts = [
        { name: "no signature", signature: null },
        { name: "empty signature", signature: "" },
        { name: "signed with another key", signature: paystackSignature(body, "sk_test_not_the_key") },
        { name: "signature of another body", signature: paystackSignature(`${body} `, key) },
        { name: "upper-case hex", signature: paystackSignature(body, key).toUpperCase() },
        { name: "truncated", signature: paystackSignature(body, key).slice(0, 64) },
      ];
      for (const { name, signature } of attempts) {
        const response = await postWebhook(t, body, { signature });
        expect(response.statusCode, name).toBe(401);
        expect(response.json(), name).toEqual({ error: { code: "INVALID_SIGNATURE", message: "Invalid webhook signature.", requestId: expect.any(String) } });
      }
      await expectNotCredited(forged, reference);

      const genuine = await postWebhook(t, body);
      expect(genuine.statusCode, genuine.body).toBe(200);
      expect(genuine.json()).toEqual({ received: true });
      expect(await userRow(t, forged.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    });

    it("answers 200 to a signed charge.success for an unknown reference and does nothing", async () => {
      const bystander = user("unknownRef");
      const paymentsBefore = await t.database.db.select().from(payments);
      const response = await postWebhook(t, {
        event: "charge.success",
        data: { status: "success", reference: "LTF-INTERMEDIATE-1", amount: 54_100, currency: "GHS", paid_at: new Date().toISOString() },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ received: true });
      expect(await t.database.db.select().from(payments)).toEqual(paymentsBefore);
      expect(await receiptJobs(t, "LTF-INTERMEDIATE-1")).toEqual([]);
      expect(await userRow(t, bystander.id)).toMatchObject(NOTHING_PAID);
    });

    it("answers 200 to other events and ignores them, even for a paid reference", async () => {
      const who = user("otherEvents");
      const reference = await buy(who);
      const data = await paidAtPaystack(reference);
      for (const event of ["transfer.success", "refund.processed", "charge.dispute.create", "subscription.create"]) {
        const response = await postWebhook(t, { event, data });
        expect(response.statusCode, event).toBe(200);
        expect(response.json()).toEqual({ received: true });
      }
      // A signed event this server cannot read is acknowledged too, so Paystack stops retrying.
      expect((await postWebhook(t, { event: "charge.success", data: { id: 302961 } })).statusCode).toBe(200);
      await expectNotCredited(who, reference);

      // charge.success only names the payment: the reference alone credits it, as Verify reports it.
      expect((await postWebhook(t, { event: "charge.success", data: { reference } })).statusCode).toBe(200);
      expect(await paymentRow(t, reference)).toMatchObject({ status: "success", amountMinor: data.amount, methodChannel: "card" });
      expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    });

    it("a signed charge.success for a reference Paystack reports abandoned credits nothing and keeps no card", async () => {
      const who = user("signedUnpaid");
      const reference = await buy(who);
      const stored = await paymentRow(t, reference);
      // Paystack knows the checkout, and nobody paid it: its Verify reports it abandoned.
      expect((await paystackTransaction(t, reference)).status).toBe("abandoned");
      // A body that says otherwise, signed with the key: a paid charge, by a reusable card.
      const response = await postWebhook(t, {
        event: "charge.success",
        data: {
          status: "success",
          reference,
          amount: stored?.amountMinor,
          currency: "GHS",
          paid_at: new Date().toISOString(),
          channel: "card",
          gateway_response: "Approved",
          customer: { email: who.email },
          authorization: { channel: "card", authorization_code: "AUTH_not_from_paystack", reusable: true, brand: "visa", card_type: "visa DEBIT", last4: "4081" },
        },
      });
      expect(response.statusCode, response.body).toBe(200);
      expect(response.json()).toEqual({ received: true });
      await expectNotCredited(who, reference);
      expect(await t.database.db.select().from(cardAuthorizations).where(eq(cardAuthorizations.userId, who.id))).toEqual([]);
      const renewal = await api.call(who, { method: "GET", url: "/api/subscription/auto-renewal" });
      expect(renewal.json()).toMatchObject({ available: false, card: null });
    });

    it("answers 503 with Retry-After while Verify does not answer, so that Paystack sends it again; nothing changes meanwhile", async () => {
      const who = user("verifyDown");
      const reference = await buy(who);
      const data = await paidAtPaystack(reference);
      const key = "sk_test_verify_unreachable";
      // Another instance on the same database, whose Paystack does not answer.
      const cut = await createTestApp({ database: t.database, env: { PAYSTACK_SECRET_KEY: key, PAYSTACK_API_URL: "http://127.0.0.1:9" } });
      try {
        const body = JSON.stringify({ event: "charge.success", data });
        const refused = await cut.app.inject({
          method: "POST",
          url: "/api/paystack/webhook",
          headers: { "content-type": "application/json", "x-paystack-signature": paystackSignature(body, key) },
          payload: body,
        });
        expect(refused.statusCode, refused.body).toBe(503);
        expect(refused.headers["retry-after"]).toBe("180");
        expect(refused.json()).toMatchObject({ error: { code: "PAYSTACK_UNAVAILABLE" } });
        await expectNotCredited(who, reference);
      } finally {
        await cut.close();
      }
      // Sent again once Verify answers: credited.
      expect((await postWebhook(t, { event: "charge.success", data })).statusCode).toBe(200);
      expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    });

    it("answers 400 to a signed body that is not JSON", async () => {
      const response = await postWebhook(t, "{not json");
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: "VALIDATION" } });
    });
  });

  describe("tampered payments", () => {
    it("an amount that differs from the order: verify 409 PAYMENT_MISMATCH, not credited", async () => {
      const who = user("amountTampered");
      const reference = await buy(who);
      await simulatePayment(t, reference, { outcome: "success", amount: 100, deliverWebhook: false });
      const response = await api.verify(who, reference);
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toEqual({ error: { code: "PAYMENT_MISMATCH", message: "The payment does not match the order.", requestId: expect.any(String) } });
      // Recorded for an administrator to look at, and never credited, however often it is asked.
      await expectNotCredited(who, reference, "mismatched");
      expect((await api.verify(who, reference)).statusCode).toBe(409);
      await expectNotCredited(who, reference, "mismatched");
    });

    it("another currency: verify 409 PAYMENT_MISMATCH, not credited", async () => {
      const who = user("currencyTampered");
      const reference = await buy(who);
      await simulatePayment(t, reference, { outcome: "success", currency: "USD", deliverWebhook: false });
      const response = await api.verify(who, reference);
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toMatchObject({ error: { code: "PAYMENT_MISMATCH" } });
      await expectNotCredited(who, reference, "mismatched");
    });

    it("a webhook with a mismatching amount is acknowledged with 200 but not credited, and needs attention", async () => {
      const who = user("webhookTampered");
      const reference = await buy(who);
      const { webhook, data } = await simulatePayment(t, reference, { outcome: "success", amount: 54_000, deliverWebhook: true });
      expect(webhook).toEqual({ delivered: true, statusCode: 200 });
      expect((await postWebhook(t, { event: "charge.success", data: { ...data, amount: 5_410_000 } })).statusCode).toBe(200);
      await expectNotCredited(who, reference, "mismatched");
    });
  });

  it("someone else's reference: 404, and the owner's payment is not credited to anyone", async () => {
    const owner = user("owner");
    const intruder = user("intruder");
    const reference = await buy(owner);
    await paidAtPaystack(reference);

    const response = await api.verify(intruder, reference);
    expect(response.statusCode, response.body).toBe(404);
    expect(response.json()).toEqual({ error: { code: "PAYMENT_NOT_FOUND", message: "This payment reference is not yours.", requestId: expect.any(String) } });
    await expectNotCredited(owner, reference);
    expect(await userRow(t, intruder.id)).toMatchObject(NOTHING_PAID);

    const unknown = await api.verify(intruder, "LTF-INTERMEDIATE-1");
    expect(unknown.statusCode).toBe(404);
    // The same answer as for a reference that exists (bar the request id): nothing tells them apart.
    expect(unknown.json()).toEqual({ error: { ...response.json().error, requestId: expect.any(String) } });
  });

  it("a declined payment: 402 PAYMENT_NOT_SUCCESSFUL and the payment is marked failed", async () => {
    const who = user("declined");
    const reference = await buy(who);
    const { webhook } = await simulatePayment(t, reference, { outcome: "failed" });
    expect(webhook).toBeNull(); // Paystack sends no webhook for a declined charge.
    const response = await api.verify(who, reference);
    expect(response.statusCode, response.body).toBe(402);
    expect(response.json()).toEqual({ error: { code: "PAYMENT_NOT_SUCCESSFUL", message: "The payment was not completed.", requestId: expect.any(String) } });
    await expectNotCredited(who, reference, "failed");
  });

  it("a declined attempt paid on retry is credited after all", async () => {
    const who = user("retried");
    const reference = await buy(who);
    await simulatePayment(t, reference, { outcome: "failed" });
    expect((await api.verify(who, reference)).statusCode).toBe(402);
    expect(await paymentRow(t, reference)).toMatchObject({ status: "failed" });

    // Paystack lets the customer try again on the same checkout; the webhook reports the success.
    const { webhook } = await simulatePayment(t, reference, { outcome: "success" });
    expect(webhook).toEqual({ delivered: true, statusCode: 200 });
    expect(await paymentRow(t, reference)).toMatchObject({ status: "success" });
    expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    expect((await api.verify(who, reference)).statusCode).toBe(200);
    expect(await auditEntries(t, who.id)).toHaveLength(1);
  });

  it("an abandoned payment (window closed, never paid): 402 and still pending", async () => {
    const who = user("abandoned");
    const reference = await buy(who);
    const response = await api.verify(who, reference);
    expect(response.statusCode, response.body).toBe(402);
    expect(response.json()).toMatchObject({ error: { code: "PAYMENT_NOT_SUCCESSFUL" } });
    await expectNotCredited(who, reference, "pending");
  });

  it("a payment that succeeded after the window closed is credited by the webhook alone", async () => {
    const who = user("windowClosed");
    const reference = await buy(who);
    // No verify call: the browser is gone; Paystack's webhook is the only news.
    const { webhook } = await simulatePayment(t, reference, { outcome: "success", deliverWebhook: true });
    expect(webhook).toEqual({ delivered: true, statusCode: 200 });

    expect(await userRow(t, who.id)).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    expect(await paymentRow(t, reference)).toMatchObject({ status: "success" });
    expect(await me(t, who.cookie)).toMatchObject({ plan: "intermediate" });
    expect((await auditEntries(t, who.id)).map((entry) => entry.action)).toEqual(["payment.credited"]);
    await t.services.jobs.runDue();
    const receipts = (await mailsTo(t, who.email)).filter((mail) => mail.subject.includes(reference));
    expect(receipts).toHaveLength(1);

    // The browser's verify, when it comes back later, reports the same credit.
    const verify = await api.verify(who, reference);
    expect(verify.statusCode, verify.body).toBe(200);
    expect(verify.json()).toMatchObject({ data: { reference, currentPeriodEnd: (await userRow(t, who.id)).subscriptionEnd?.toISOString() } });
    expect(await auditEntries(t, who.id)).toHaveLength(1);
  });

  it("a payment credited once is never credited again, whatever its status became since (refunded)", async () => {
    const who = user("refundedReplay");
    const reference = await buy(who);
    const { data } = await simulatePayment(t, reference, { outcome: "success", deliverWebhook: true });
    const credited = await userRow(t, who.id);
    // As a refund leaves it; Paystack retries the old charge.success for up to 72 hours.
    await t.database.db.update(payments).set({ status: "refunded" }).where(eq(payments.reference, reference));
    expect((await postWebhook(t, { event: "charge.success", data })).statusCode).toBe(200);
    expect((await userRow(t, who.id)).subscriptionEnd).toEqual(credited.subscriptionEnd);
    expect(await paymentRow(t, reference)).toMatchObject({ status: "refunded" });
    expect(await auditEntries(t, who.id)).toHaveLength(1);
    expect(await receiptJobs(t, reference)).toHaveLength(1);
  });
});
