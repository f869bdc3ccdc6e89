// The paid waitlist (docs/subscriptions.md, "The paid waitlist"): pay for a track's next cohort,
// verify with type waitlist, then the page hides what was bought. A waitlist payment grants no plan
// until admitted.
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { nextCohort } from "../../../shared/billing.ts";
import { waitlist } from "../../db/schema.ts";
import { ipAllocator, mailsTo, type TestUser, type TestUserPlan } from "../../testing/accounts.ts";
import type {
  billingApi} from "../../testing/billing.ts";
import {
  auditEntries,
  checkoutReference,
  paymentRow,
  receiptJobs,
  simulatePayment,
  userRow,
  startBillingApp,
} from "../../testing/billing.ts";
import type { TestApp } from "../../testing/test-app.ts";

const nextIp = ipAllocator(43);

const USERS = {
  joiner: {},
  stepUp: {},
  wrongKind: {},
  intermediate: { plan: "intermediate" },
  advanced: { plan: "advanced" },
  admin: { plan: "admin" },
  lapsed: { plan: "intermediate", status: "expired", subscriptionEnd: new Date(Date.now() - 86_400_000) },
} satisfies Record<string, TestUserPlan>;
type UserKey = keyof typeof USERS;

const NOTHING_HIDDEN = { intermediate: false, advanced: false };

describe("the paid waitlist", () => {
  let t: TestApp;
  let api: ReturnType<typeof billingApi>;
  let user: (key: UserKey) => TestUser;

  beforeAll(async () => {
    ({ t, api, user } = await startBillingApp(nextIp, USERS));
  });
  afterAll(() => t.close());

  async function waitlistEntry(userId: string) {
    const [row] = await t.database.db.select().from(waitlist).where(eq(waitlist.userId, userId));
    return row;
  }

  it("a free user pays for the Advanced track and is on the waitlist for the next cohort", async () => {
    const joiner = user("joiner");
    const cohort = nextCohort(new Date());
    const status = await api.waitlistStatus(joiner);
    expect(status.statusCode, status.body).toBe(200);
    expect(status.json()).toEqual({ cohort, paid: false, paidPlan: null, admitted: false, hidden: NOTHING_HIDDEN });

    const checkout = await api.joinWaitlist(joiner, "advanced");
    const reference = checkoutReference(checkout);
    expect(reference).toMatch(/^LTF-WAITLIST-ADVANCED-\d+$/);
    expect(await paymentRow(t, reference)).toMatchObject({
      kind: "waitlist",
      plan: "advanced",
      status: "pending",
      amountMinor: 77_300,
      currency: "GHS",
      priceUsdCents: 5000,
    });

    await simulatePayment(t, reference, { outcome: "success", deliverWebhook: false });
    const verified = await api.verifyWaitlist(joiner, reference, "advanced");
    expect(verified.statusCode, verified.body).toBe(200);
    expect(verified.json()).toEqual({
      status: "success",
      success: true,
      message: "Payment verified successfully! You have been added to the waitlist.",
      data: { reference, amount: 77_300, currency: "GHS", plan: "advanced", kind: "waitlist", currentPeriodEnd: null },
    });

    // A place on the list, not the plan: admission grants the track later.
    expect(await userRow(t, joiner.id)).toMatchObject({
      waitlistPaid: true,
      advancedPaid: true,
      intermediatePaid: false,
      waitlistAdmitted: false,
      subscriptionPlan: "legacyFree",
      subscriptionEnd: null,
    });
    expect(await waitlistEntry(joiner.id)).toMatchObject({
      plan: "advanced",
      paymentReference: reference,
      cohort: cohort.name,
      admitted: false,
    });
    expect(await paymentRow(t, reference)).toMatchObject({ status: "success" });
    expect((await auditEntries(t, joiner.id)).map((entry) => [entry.action, entry.reason])).toEqual([
      ["waitlist.paid", `payment ${reference}`],
    ]);
    expect(await receiptJobs(t, reference)).toHaveLength(1);
    await t.services.jobs.runDue();
    const [receipt] = (await mailsTo(t, joiner.email)).filter((mail) => mail.subject.includes(reference));
    expect(receipt?.text).toContain("GH₵ 773.00");
    expect(receipt?.text).toContain("waitlist (Advanced track)");

    expect((await api.waitlistStatus(joiner)).json()).toEqual({
      cohort,
      paid: true,
      paidPlan: "advanced",
      admitted: false,
      hidden: { intermediate: true, advanced: true },
    });

    // Verifying again is harmless: the same answer, still one credit.
    expect((await api.verifyWaitlist(joiner, reference)).statusCode).toBe(200);
    expect(await auditEntries(t, joiner.id)).toHaveLength(1);

    // The page hides both tracks, and the server refuses them too.
    for (const plan of ["advanced", "intermediate"] as const) {
      const again = await api.joinWaitlist(joiner, plan);
      expect(again.statusCode, again.body).toBe(409);
      expect(again.json()).toEqual({ error: { code: "ALREADY_PURCHASED", message: "You have already paid for this track.", requestId: expect.any(String) } });
    }
  });

  it("paid for Intermediate, a user may still step up to Advanced: the entry moves to the higher track", async () => {
    const stepUp = user("stepUp");
    const first = checkoutReference(await api.joinWaitlist(stepUp, "intermediate"));
    expect(first).toMatch(/^LTF-WAITLIST-INTERMEDIATE-\d+$/);
    expect(await paymentRow(t, first)).toMatchObject({ amountMinor: 54_100 });
    await simulatePayment(t, first, { outcome: "success", deliverWebhook: false });
    expect((await api.verifyWaitlist(stepUp, first, "intermediate")).statusCode).toBe(200);
    expect((await api.waitlistStatus(stepUp)).json()).toMatchObject({
      paidPlan: "intermediate",
      hidden: { intermediate: true, advanced: false },
    });
    expect((await api.joinWaitlist(stepUp, "intermediate")).statusCode).toBe(409);

    const second = checkoutReference(await api.joinWaitlist(stepUp, "advanced"));
    // The webhook alone may credit a waitlist payment as well.
    const { webhook } = await simulatePayment(t, second, { outcome: "success" });
    expect(webhook).toEqual({ delivered: true, statusCode: 200 });
    expect(await userRow(t, stepUp.id)).toMatchObject({ intermediatePaid: true, advancedPaid: true, waitlistPaid: true });
    // One entry per user; it keeps the first reference and moves to Advanced.
    expect(await waitlistEntry(stepUp.id)).toMatchObject({ plan: "advanced", paymentReference: first });
    expect((await api.waitlistStatus(stepUp)).json()).toMatchObject({
      paidPlan: "advanced",
      hidden: { intermediate: true, advanced: true },
    });
  });

  it("a waitlist reference cannot be verified as a subscription, nor the reverse (400), and credits nothing", async () => {
    const who = user("wrongKind");
    const waitlistReference = checkoutReference(await api.joinWaitlist(who, "advanced"));
    await simulatePayment(t, waitlistReference, { outcome: "success", deliverWebhook: false });
    const asSubscription = await api.verify(who, waitlistReference);
    expect(asSubscription.statusCode, asSubscription.body).toBe(400);
    expect(asSubscription.json()).toEqual({ error: { code: "WRONG_KIND", message: "Payment verification failed", requestId: expect.any(String) } });
    expect(await paymentRow(t, waitlistReference)).toMatchObject({ status: "pending" });

    const subscriptionReference = checkoutReference(await api.buy(who, "intermediate"));
    await simulatePayment(t, subscriptionReference, { outcome: "success", deliverWebhook: false });
    const asWaitlist = await api.verifyWaitlist(who, subscriptionReference, "intermediate");
    expect(asWaitlist.statusCode, asWaitlist.body).toBe(400);
    expect(await paymentRow(t, subscriptionReference)).toMatchObject({ status: "pending" });

    expect(await userRow(t, who.id)).toMatchObject({
      waitlistPaid: false,
      advancedPaid: false,
      intermediatePaid: false,
      subscriptionPlan: "legacyFree",
    });
    expect(await waitlistEntry(who.id)).toBeUndefined();
    expect(await auditEntries(t, who.id)).toEqual([]);
  });

  it("rejects a verify request that is not of type waitlist", async () => {
    const who = user("wrongKind");
    const response = await api.call(who, {
      method: "POST",
      url: "/api/verify-paystack",
      payload: { reference: "LTF-WAITLIST-ADVANCED-1", type: "subscription" },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ error: { code: "VALIDATION" } });
  });

  it.each([
    { key: "intermediate" as const, hidden: { intermediate: true, advanced: false }, refused: ["intermediate"] },
    { key: "advanced" as const, hidden: { intermediate: true, advanced: true }, refused: ["intermediate", "advanced"] },
    { key: "admin" as const, hidden: { intermediate: true, advanced: true }, refused: ["intermediate", "advanced"] },
  ])("a user on $key sees hidden $hidden and cannot buy those tracks", async ({ key, hidden, refused }) => {
    const who = user(key);
    expect((await api.waitlistStatus(who)).json()).toMatchObject({ paid: false, hidden });
    for (const plan of refused as ("intermediate" | "advanced")[]) {
      const response = await api.joinWaitlist(who, plan);
      expect(response.statusCode, `${key} ${plan}`).toBe(409);
    }
  });

  it("a former subscriber whose month ended may join either track", async () => {
    const who = user("lapsed");
    expect((await api.waitlistStatus(who)).json()).toMatchObject({ paid: false, hidden: NOTHING_HIDDEN });
    expect((await api.joinWaitlist(who, "intermediate")).statusCode).toBe(200);
  });
});
