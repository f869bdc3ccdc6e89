// Buying a plan end to end: the server prices it, initializes the Paystack transaction (the
// simulator, over HTTP), and credits it once Paystack confirms; then the renewal rules
// (docs/subscriptions.md, "Eligibility and the renewal window") and who may buy at all.
import { addMonths } from "date-fns/addMonths";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { PaidPlan } from "../../../shared/plans.ts";
import { payments } from "../../db/schema.ts";
import { ipAllocator, mailsTo, me, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import type {
  billingApi} from "../../testing/billing.ts";
import {
  auditEntries,
  checkoutReference,
  paymentRow,
  paystackTransaction,
  receiptJobs,
  simulatePayment,
  userRow,
  startBillingApp,
} from "../../testing/billing.ts";
import type { TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(40);

const DAY_MS = 24 * 60 * 60 * 1000;
const daysFromNow = (days: number) => new Date(Date.now() + days * DAY_MS);

const USERS = {
  buyer: {},
  upgrader: { plan: "intermediate", status: "active", subscriptionEnd: daysFromNow(25) },
  twentyDaysLeft: { plan: "intermediate", status: "active", subscriptionEnd: daysFromNow(20) },
  fiveDaysLeft: { plan: "intermediate", status: "active", subscriptionEnd: daysFromNow(5) },
  admin: { plan: "admin" },
  noAmount: {},
} satisfies Record<string, TestUserPlan>;
type UserKey = keyof typeof USERS;

describe("buying a plan", () => {
  let t: TestApp;
  let api: ReturnType<typeof billingApi>;
  let user: (key: UserKey) => TestUser;

  beforeAll(async () => {
    ({ t, api, user } = await startBillingApp(nextIp, USERS));
  });
  afterAll(() => t.close());

  /** Checkout, a successful payment without the webhook, and the browser's verify call. */
  async function payFor(who: TestUser, plan: PaidPlan) {
    const reference = checkoutReference(await api.buy(who, plan));
    await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false });
    const before = new Date();
    const response = await api.verify(who, reference);
    const after = new Date();
    expect(response.statusCode, response.body).toBe(200);
    return { reference, response, before, after };
  }

  it("a free user buys Intermediate: priced here, verified with Paystack, credited, receipted", async () => {
    const buyer = user("buyer");
    const checkout = await api.buy(buyer, "intermediate");
    expect(checkout.statusCode, checkout.body).toBe(200);
    const body = checkout.json<{ reference: string; accessCode: string }>();
    expect(Object.keys(body).sort()).toEqual(["accessCode", "reference"]);
    expect(body.reference).toMatch(/^LTF-INTERMEDIATE-\d+$/);
    expect(body.accessCode).toMatch(/^\w+$/);
    const { reference } = body;

    // 35 USD (the program's price) x 15.45 = 540.75 -> 541 cedis, in pesewas.
    expect(await paymentRow(t, reference)).toMatchObject({
      userId: buyer.id,
      userEmail: buyer.email,
      kind: "subscription",
      plan: "intermediate",
      status: "pending",
      amountMinor: 54_100,
      currency: "GHS",
      priceUsdCents: 3500,
      paidAt: null,
      creditedAt: null,
    });
    expect(Number((await paymentRow(t, reference))?.exchangeRate)).toBe(15.45);
    expect(await paystackTransaction(t, reference)).toMatchObject({ amount: 54_100, currency: "GHS", status: "abandoned" });

    await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false });
    const before = new Date();
    const verified = await api.verify(buyer, reference);
    const after = new Date();
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.headers["cache-control"]).toBe("no-store");

    const row = await userRow(t, buyer.id);
    expect(row).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active", intermediatePaid: false });
    const start = row.subscriptionStart;
    if (!start || !row.subscriptionEnd) throw new Error("the credited plan has no period");
    expect(start.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
    expect(start.getTime()).toBeLessThanOrEqual(after.getTime());
    // One calendar month, not 30 days.
    expect(row.subscriptionEnd.toISOString()).toBe(addMonths(start, 1).toISOString());
    expect(verified.json()).toEqual({
      status: "success",
      success: true,
      message: "Payment verified! Your plan has been upgraded.",
      data: {
        reference,
        amount: 54_100,
        currency: "GHS",
        plan: "intermediate",
        kind: "subscription",
        currentPeriodEnd: row.subscriptionEnd.toISOString(),
      },
    });
    expect(await paymentRow(t, reference)).toMatchObject({ status: "success", creditedAt: expect.any(Date) });

    const audit = await auditEntries(t, buyer.id);
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({ action: "payment.credited", actorId: null, reason: `payment ${reference}` });
    expect(audit[0]?.changes).toMatchObject({ from: { plan: "legacyFree", end: null }, to: { plan: "intermediate" } });

    expect(await receiptJobs(t, reference)).toHaveLength(1);
    expect(await mailsTo(t, buyer.email)).not.toContainEqual(expect.objectContaining({ subject: expect.stringContaining("receipt") }));
    await t.services.jobs.runDue();
    const receipts = (await mailsTo(t, buyer.email)).filter((mail) => mail.subject.includes(reference));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]?.subject).toBe(`Your Trading Academy receipt ${reference}`);
    expect(receipts[0]?.text).toContain("GH₵ 541.00");
    expect(receipts[0]?.text).toContain(`Paystack reference: ${reference}`);
    expect(receipts[0]?.text).toContain("one month of the Intermediate plan");

    expect(await me(t, buyer.cookie)).toMatchObject({
      plan: "intermediate",
      tracks: ["beginner", "intermediate"],
      subscriptionEnd: row.subscriptionEnd.toISOString(),
    });
    const track = await api.call(buyer, { method: "GET", url: "/api/programs/intermediate" });
    expect(track.statusCode, track.body).toBe(200);

    const subscription = await api.getSubscription(buyer);
    expect(subscription.json()).toMatchObject({
      status: "active",
      plan: { name: "intermediate", label: "Intermediate" },
      currentPeriodEnd: row.subscriptionEnd.toISOString(),
      remainingDays: expect.any(Number),
    });
    const read = await api.readSubscription(buyer);
    expect(read.statusCode).toBe(200);
    expect(read.json()).toEqual(subscription.json());
  });

  it("an active Intermediate user upgrades to Advanced at once: a new month starts now", async () => {
    const upgrader = user("upgrader");
    const oldEnd = (await userRow(t, upgrader.id)).subscriptionEnd;
    const eligibility = await api.checkEligibility(upgrader, "advanced");
    expect(eligibility.json()).toEqual({ canChange: true, reason: null, daysToWait: 0 });

    const { reference, response, before, after } = await payFor(upgrader, "advanced");
    expect(await paymentRow(t, reference)).toMatchObject({ amountMinor: 77_300, priceUsdCents: 5000, status: "success" });
    const row = await userRow(t, upgrader.id);
    expect(row).toMatchObject({ subscriptionPlan: "advanced", subscriptionStatus: "active", advancedPaid: false });
    const start = row.subscriptionStart;
    if (!start || !row.subscriptionEnd || !oldEnd) throw new Error("no period");
    expect(start.getTime()).toBeGreaterThanOrEqual(before.getTime() - 1);
    expect(start.getTime()).toBeLessThanOrEqual(after.getTime());
    expect(row.subscriptionEnd.toISOString()).toBe(addMonths(start, 1).toISOString());
    expect(row.subscriptionEnd.toISOString()).not.toBe(addMonths(oldEnd, 1).toISOString());
    expect(response.json()).toMatchObject({ data: { plan: "advanced", currentPeriodEnd: row.subscriptionEnd.toISOString() } });
    expect(await me(t, upgrader.cookie)).toMatchObject({ plan: "advanced", tracks: ["beginner", "intermediate", "advanced"] });
  });

  it("with 20 days left, Intermediate cannot be bought again: 409 with the reason, nothing created", async () => {
    const early = user("twentyDaysLeft");
    const reason = "You can renew or change your plan in the last 7 days of your current month (in 13 days).";
    const eligibility = await api.checkEligibility(early, "intermediate");
    expect(eligibility.statusCode).toBe(200);
    expect(eligibility.json()).toEqual({ canChange: false, reason, daysToWait: 13 });

    const response = await api.buy(early, "intermediate");
    expect(response.statusCode, response.body).toBe(409);
    expect(response.json()).toEqual({ error: { code: "NOT_ELIGIBLE", message: reason, requestId: expect.any(String) } });
    expect(await t.database.db.select().from(payments).where(eq(payments.userId, early.id))).toEqual([]);
  });

  it("with 5 days left, renewing is allowed and the new month starts at the current end", async () => {
    const renewer = user("fiveDaysLeft");
    const before = await userRow(t, renewer.id);
    if (!before.subscriptionEnd) throw new Error("no end");
    expect((await api.checkEligibility(renewer, "intermediate")).json()).toEqual({ canChange: true, reason: null, daysToWait: 0 });

    const { response } = await payFor(renewer, "intermediate");
    const after = await userRow(t, renewer.id);
    const expectedEnd = addMonths(before.subscriptionEnd, 1).toISOString();
    expect(after.subscriptionEnd?.toISOString()).toBe(expectedEnd);
    // Renewing keeps the period's start: the user has been on the plan without a break.
    expect(after.subscriptionStart?.toISOString()).toBe(before.subscriptionStart?.toISOString());
    expect(after).toMatchObject({ subscriptionPlan: "intermediate", subscriptionStatus: "active" });
    expect(response.json()).toMatchObject({ data: { currentPeriodEnd: expectedEnd } });
  });

  it("administrators are not eligible: they already have every program", async () => {
    const admin = user("admin");
    const reason = "Administrators already have every program.";
    for (const plan of ["intermediate", "advanced"] as const) {
      expect((await api.checkEligibility(admin, plan)).json()).toEqual({ canChange: false, reason, daysToWait: 0 });
      const response = await api.buy(admin, plan);
      expect(response.statusCode, response.body).toBe(409);
      expect(response.json()).toEqual({ error: { code: "NOT_ELIGIBLE", message: reason, requestId: expect.any(String) } });
    }
    expect(await t.database.db.select().from(payments).where(eq(payments.userId, admin.id))).toEqual([]);
  });

  it("the browser never sends the amount: extra fields are ignored and the server's price is charged", async () => {
    const buyer = user("noAmount");
    const response = await api.buy(buyer, "intermediate", {
      amount: 1,
      amountMinor: 1,
      currency: "USD",
      priceUsdCents: 1,
      email: "someone-else@example.com",
    });
    const reference = checkoutReference(response);
    expect(await paymentRow(t, reference)).toMatchObject({
      userEmail: buyer.email,
      amountMinor: 54_100,
      currency: "GHS",
      priceUsdCents: 3500,
    });
    expect(await paystackTransaction(t, reference)).toMatchObject({ amount: 54_100, currency: "GHS" });

    const waitlist = checkoutReference(await api.joinWaitlist(buyer, "advanced", { amount: 1, currency: "USD" }));
    expect(await paymentRow(t, waitlist)).toMatchObject({ amountMinor: 77_300, currency: "GHS" });
  });

  it("rejects a plan that is not for sale", async () => {
    const buyer = user("noAmount");
    for (const planId of ["admin", "legacyFree", "beginner", ""]) {
      const response = await api.call(buyer, {
        method: "POST",
        url: "/api/subscription-management",
        payload: { action: "create_subscription", planId },
      });
      expect(response.statusCode, planId).toBe(400);
      expect(response.json()).toMatchObject({ error: { code: "VALIDATION" } });
    }
  });

  describe("every billing endpoint needs a session", () => {
    const calls = [
      { name: "check_eligibility", send: () => api.checkEligibility(null, "intermediate") },
      { name: "get_subscription", send: () => api.getSubscription(null) },
      { name: "GET /api/subscription", send: () => api.readSubscription(null) },
      { name: "create_subscription", send: () => api.buy(null, "intermediate") },
      { name: "GET /api/verify-paystack", send: () => api.verify(null, "LTF-INTERMEDIATE-1") },
      { name: "POST /api/verify-paystack", send: () => api.verifyWaitlist(null, "LTF-WAITLIST-ADVANCED-1", "advanced") },
      { name: "GET /api/waitlist", send: () => api.waitlistStatus(null) },
      { name: "POST /api/waitlist/checkout", send: () => api.joinWaitlist(null, "advanced") },
    ];
    it.each(calls)("$name answers 401 without one", async ({ send }) => {
      const response = await send();
      expect(response.statusCode, response.body).toBe(401);
      expect(response.json()).toEqual({ error: { code: "UNAUTHENTICATED", message: "Please log in to continue.", requestId: expect.any(String) } });
    });

    it("a forged session cookie is no session", async () => {
      const response = await api.call(null, {
        method: "POST",
        url: "/api/subscription-management",
        headers: { cookie: "ta.session_token=forged.token" },
        payload: { action: "create_subscription", planId: "intermediate" },
      });
      expect(response.statusCode).toBe(401);
    });

    it("the prices are public", async () => {
      expect((await api.prices()).statusCode).toBe(200);
    });
  });
});
